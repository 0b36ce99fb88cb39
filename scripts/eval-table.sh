#!/usr/bin/env bash
# eval-table.sh [MODULES] [TARGET]: the evaluation-split table of issue 3 (and of the agent's
# baselines): on MODULES sampled modules of the reserved packages (seed 1), object bytes and IR
# instructions of clang-22 -Oz, -Os, gcc -Os (recorded at harvest time, harvest_gcc), the
# Coreset baseline (the core set mined on TRAIN modules, best of all its sequences: the one
# train-agent.sh mined, or else the one the shipped agent policies/models/TARGET.smm was
# trained on, from its metadata), random
# search at two budgets and greedy search in the combined space. Resumable (smartcc-eval keeps
# finished modules); reports in ${SMARTCC_TABLE_DIR:-~/.cache/smartcc/eval-table}/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-50}
TARGET=${2:-x86_64}
ROOT=${SMARTCC_CORPUS_DIR:-$HOME/.cache/smartcc/corpus}
OUT=${SMARTCC_TABLE_DIR:-$HOME/.cache/smartcc/eval-table}/$TARGET
EVAL=${SMARTCC_EVAL:-build/bin/smartcc-eval} # an installed copy keeps long runs safe from rebuilds
CORESET=${SMARTCC_CORESET:-$HOME/.cache/smartcc/agent/$TARGET/coreset-final.json}
[ -f "$CORESET" ] || CORESET=policies/models/$TARGET.smm
mkdir -p "$OUT"
"$EVAL" --corpus "$ROOT/eval" --hashes "policies/models/splits/$TARGET-eval.txt" \
  --max-modules "$N" --seed 1 --jobs "${JOBS:-1}" --target "$TARGET" --objective bytes \
  --space autophase+macro+options --out "$OUT" \
  --title "eval split (reserved packages), $TARGET, $N modules: baselines" \
  --method oz --method os --method gcc-os --method "coreset:$CORESET" \
  --method random:10x45 --method random:40x45 --method greedy:2
