#!/usr/bin/env bash
# train-inliner.sh TARGET [STAGE...]
#
# The ML inliner model shipped for TARGET (x86_64 or aarch64), every stage resumable (rerun the
# same command to continue):
#   train  smartcc-train --trainer inliner-flips: FLIP_MODULES (200) training modules compiled
#          with LLVM's heuristic through the advisor and once per decision with that decision
#          reversed (real bytes after the whole -Oz pipeline and codegen), the headroom, then
#          the two classifier forms fitted on the flips; the one better on 40 validation
#          modules before fallback is RUN/model.smm. Seed 1; lists policies/models/splits/.
#   ship   copy it to policies/models/inliner/TARGET.smm (compiled into smartcc), the modules
#          the run used to policies/models/inliner/TARGET-{train,validation}.txt, and write its
#          card (TARGET.md)
#   eval   smartcc-eval on the reserved packages (eval split, never trained on), EVAL_MODULES
#          (200) modules sampled with seed 1: clang -Oz, clang's pipeline with the model's
#          inlining, and the default (agent@1, budget 3000) without and with the ML inliner
# Work goes to ${SMARTCC_INLINER_DIR:-~/.cache/smartcc/inliner}/TARGET; tools come from
# ${SMARTCC_BIN:-build/bin}. About an hour per target on 2 cores: run it in the background.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:?usage: train-inliner.sh x86_64|aarch64 [train ship eval]}
shift
STAGES=${*:-train ship eval}
BIN=${SMARTCC_BIN:-build/bin}
D=${SMARTCC_INLINER_DIR:-$HOME/.cache/smartcc/inliner}/$T
C=${SMARTCC_CORPUS_DIR:-$HOME/.cache/smartcc/corpus}
EVAL_MODULES=${EVAL_MODULES:-200}
mkdir -p "$D"
has() { [[ " $STAGES " == *" $1 "* ]]; }

if has train; then
  "$BIN/smartcc-train" --trainer inliner-flips --corpus "$C/train-pool" \
    --hashes "policies/models/splits/$T-train.txt" \
    --validation-hashes "policies/models/splits/$T-validation.txt" \
    --run "$D/run" --max-modules 300 --flip-modules "${FLIP_MODULES:-200}" \
    --validation-modules 40 --epochs 30 --seed 1 --target "$T" --jobs 2
fi

if has ship; then
  mkdir -p policies/models/inliner
  cp "$D/run/model.smm" "policies/models/inliner/$T.smm"
  for s in train validation; do
    python3 scripts/run-modules.py "$D/run/checkpoint/$s-modules.jsonl" > "policies/models/inliner/$T-$s.txt"
  done
  python3 scripts/inliner-card.py "$T" "$D" > "policies/models/inliner/$T.md"
  echo "shipped policies/models/inliner/$T.smm (rebuild smartcc to embed it)"
fi

if has eval; then
  M="$D/run/model.smm"
  "$BIN/smartcc-eval" --corpus "$C/eval" --hashes "policies/models/splits/$T-eval.txt" \
    --target "$T" --max-modules "$EVAL_MODULES" --seed 1 --jobs 2 \
    --method oz --method "inliner:$M" --method "agent@1,budget=3000" \
    --method "agent@1,budget=3000,inliner=$M" \
    --out "$D/eval" --title "ML inliner, $T, -Oz, eval split"
  [ -f "policies/models/inliner/$T.smm" ] &&
    python3 scripts/inliner-card.py "$T" "$D" > "policies/models/inliner/$T.md"
fi
