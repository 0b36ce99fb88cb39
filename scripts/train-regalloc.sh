#!/usr/bin/env bash
# train-regalloc.sh TARGET [STAGE...]
#
# The register-allocation policy shipped for TARGET (x86_64 or aarch64), every stage resumable
# (rerun the same command to continue):
#   train  smartcc-train --trainer regalloc-es: 8 linear heads chosen among CANDIDATES (64) seeded random
#          ones and, with OPTION_HEADS (8), candidates carrying greedy allocator options (each
#          option set on LLVM's priorities and on the first 8 heads chosen), by their
#          measured worth on the training modules and, with EVICTION_HEADS (24), candidates
#          that decide the allocator's evictions (seeded eviction scorers served to LLVM's ML
#          eviction advisor, on LLVM's priorities and on the best drawn heads), all by their
#          measured worth on the training modules (the greedy allocator's own
#          spill cost at -O2, each function at the cheapest of LLVM's priorities and the heads,
#          the module's code growing by at most TRAIN_GROWTH percent (default 0, as the shipped
#          models were chosen; the compiler's regalloc_growth defaults to 1): what the compiler
#          serves), then ITERATIONS (default 0) evolution-strategies
#          iterations; seed 1; the kept model is the best on the validation list. Modules: the
#          shipped model's own lists (policies/models/regalloc/TARGET-{train,validation}.txt,
#          the modules its run used) unless REFRESH_LISTS=1, which takes
#          policies/models/splits/TARGET-*.txt as far as the corpus holds them
#   ship   copy the model to policies/models/regalloc/TARGET.smm (compiled into smartcc) and
#          write its card (TARGET.md) from the run
#   eval   smartcc-eval --method regalloc:MODEL,growth=1 (the compiler's default
#          regalloc_growth) and regalloc:MODEL (growth 0) at -O2 on the reserved packages (eval
#          split, never trained on), EVAL_MODULES modules sampled with seed 1
# Work goes to ${SMARTCC_REGALLOC_DIR:-~/.cache/smartcc/regalloc}/TARGET; tools come from
# ${SMARTCC_BIN:-build/bin}. Long (an hour or more on 2 cores): run it in the background.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:?usage: train-regalloc.sh x86_64|aarch64 [train ship eval]}
shift
STAGES=${*:-train ship eval}
BIN=${SMARTCC_BIN:-build/bin}
D=${SMARTCC_REGALLOC_DIR:-$HOME/.cache/smartcc/regalloc}/$T
C=${SMARTCC_CORPUS_DIR:-$HOME/.cache/smartcc/corpus}
ITERATIONS=${ITERATIONS:-0}
EVAL_MODULES=${EVAL_MODULES:-200}
mkdir -p "$D"
has() { [[ " $STAGES " == *" $1 "* ]]; }

LISTS=policies/models/regalloc
if [ -n "${REFRESH_LISTS:-}" ] || [ ! -f "$LISTS/$T-train.txt" ]; then LISTS=policies/models/splits; fi

if has train; then
  "$BIN/smartcc-train" --trainer regalloc-es --corpus "$C/train-pool" \
    --hashes "$LISTS/$T-train.txt" --validation-hashes "$LISTS/$T-validation.txt" \
    --run "$D/run" --target "$T" --compile-level O2 --heads "${HEADS:-8}" \
    --candidate-heads "${CANDIDATES:-64}" --option-heads "${OPTION_HEADS:-8}" \
    --eviction-heads "${EVICTION_HEADS:-24}" --regalloc-growth "${TRAIN_GROWTH:-0}" --init-spread 2 \
    --iterations "$ITERATIONS" --pairs 8 --modules-per-iteration 16 --sigma 0.1 \
    --step-size 0.02 --validate-every 5 --validation-modules 60 --jobs 2 --seed 1
  "$BIN/smartcc-train" --report "$D/run"
fi

if has ship; then
  mkdir -p policies/models/regalloc
  cp "$D/run/model.smm" "policies/models/regalloc/$T.smm"
  for s in train validation; do
    python3 scripts/run-modules.py "$D/run/checkpoint/$s-modules.jsonl" > "policies/models/regalloc/$T-$s.txt"
  done
  python3 scripts/regalloc-card.py "$T" "$D" > "policies/models/regalloc/$T.md"
  echo "shipped policies/models/regalloc/$T.smm (rebuild smartcc to embed it)"
fi

if has eval; then
  "$BIN/smartcc-eval" --corpus "$C/eval" --hashes "policies/models/splits/$T-eval.txt" \
    --target "$T" --max-modules "$EVAL_MODULES" --seed 1 --jobs 2 --regalloc-level O2 \
    --method "regalloc:$D/run/model.smm,growth=1" --method "regalloc:$D/run/model.smm" \
    --out "$D/eval" --title "ML register allocation, $T, -O2, eval split"
  [ -f "policies/models/regalloc/$T.smm" ] &&
    python3 scripts/regalloc-card.py "$T" "$D" > "policies/models/regalloc/$T.md"
fi
