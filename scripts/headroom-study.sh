#!/usr/bin/env bash
# headroom-study.sh [MODULES] [TARGET]
#
# Where is the headroom over real clang-22 -Oz? On a fixed sample of TRAIN-split modules
# (never the reserved evaluation packages), measures in object bytes what each action family
# finds with a fixed search budget, alone and combined:
#   (a) Autophase pass order      (b) the full pass space      (c) clang's sub-pipelines
#   (d) options and per-function decisions      (all) everything together
# Each family is one smartcc-eval run (resumable: finished modules are kept); the reports
# (report.md with never-worse geomeans and the distribution over modules) go to
# ${SMARTCC_STUDY_DIR:-~/.cache/smartcc/headroom}/TARGET/FAMILY/, and a combined summary to
# TARGET/summary.md. Long: run it in the background; it prints progress with an ETA.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100}
TARGET=${2:-x86_64}
ROOT=${SMARTCC_CORPUS_DIR:-$HOME/.cache/smartcc/corpus}
CORPUS=$ROOT/train-pool
OUT=${SMARTCC_STUDY_DIR:-$HOME/.cache/smartcc/headroom}/$TARGET
mkdir -p "$OUT"

# The sample is drawn once and kept in $OUT/sample.txt: the corpus keeps growing, and a study
# resumed later must go on with the same modules (every family on the same ones).
# The committed sample (docs/results/) makes the study the same on another machine.
if [ ! -s "$OUT/sample.txt" ] && [ -s "docs/results/headroom-$TARGET-sample.txt" ]; then
  cp "docs/results/headroom-$TARGET-sample.txt" "$OUT/sample.txt"
fi
if [ ! -s "$OUT/sample.txt" ]; then
  python3 scripts/harvest-corpus.py summarize > /dev/null
  # The training modules of this target at -Oz, without gnulib or eval duplicates; N of them
  # drawn with seed 1.
  python3 - "$TARGET" "$N" > "$OUT/sample.txt" <<'PY'
import json, random, sys
target, n = sys.argv[1], int(sys.argv[2])
hashes = sorted(m["hash"] for m in map(json.loads, open("policies/corpus/modules-train.jsonl"))
                if m.get("split") == "train" and m.get("level", "Oz") == "Oz"
                and m.get("target", "").startswith(target) and m.get("ir_instructions", 0) >= 50)
print("\n".join(sorted(random.Random(1).sample(hashes, min(n, len(hashes))))))
print("%d training modules of %s available, sampled %d" % (len(hashes), target, min(n, len(hashes))),
      file=sys.stderr)
PY
fi
N=$(wc -l < "$OUT/sample.txt")
echo "headroom study: $N training modules of $TARGET (the sample in $OUT/sample.txt)"

EVAL=${SMARTCC_EVAL:-build/bin/smartcc-eval}  # an installed copy keeps long runs safe from rebuilds
run() { # run FAMILY TITLE ARGS...
  local family=$1 title=$2; shift 2
  echo "== ($family) $title"
  "$EVAL" --corpus "$CORPUS" --hashes "$OUT/sample.txt" --seed 1 \
    --jobs 2 --target "$TARGET" --objective bytes --out "$OUT/$family" --title "$title" "$@" |
    { grep -E '^\[' || true; } | tail -1  # nothing new when every module was done before
}
run a "(a) Autophase pass order" --space autophase --method oz --method random:20x45 \
  --method greedy:4
run b "(b) full pass space" --space full --method random:20x45
run c "(c) clang's pipeline and sub-pipelines" --space macro --method greedy:4
run d "(d) options and per-function decisions" --space macro+options \
  --method candidate:oz-no-jump-tables --method candidate:oz-machine-outliner \
  --method candidate:oz-merge-functions --method candidate:oz-then-cleanup \
  --method perfunc:no-jump-tables --method greedy:4
run all "(a)-(d) combined" --space autophase+macro+options --method random:20x45 \
  --method greedy:4

{
  echo "# Headroom over clang-22 -Oz, $TARGET, $N training modules, object bytes"
  for f in a b c d all; do
    echo
    echo "## $(head -1 "$OUT/$f/report.md" | sed 's/^# //')"
    echo
    sed -n '/^| method | modules/,/^$/p' "$OUT/$f/report.md" | grep -v '^| oz '
    sed -n '/^| method | improved/,/^$/p' "$OUT/$f/report.md" | grep -v '^| oz '
    grep -h 'rejected' "$OUT/$f/report.md" | cut -c1-160 || true
  done
} > "$OUT/summary.md"
echo "summary: $OUT/summary.md"
