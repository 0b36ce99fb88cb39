#!/usr/bin/env bash
# train-agent.sh TARGET [STAGE...]
#
# The shipped sequence-value agent for TARGET (x86_64 or aarch64), from the harvested corpus to
# policies/models/TARGET.smm, every stage resumable (rerun the same command to continue):
#   lists  module hashes of the train / validation / eval splits: the shipped model's
#          (policies/models/splits), or fresh ones (harvest-corpus.py hashes) with REFRESH_LISTS=1
#   mine   smartcc-coreset: greedy search (3 steps, macro+options space, image bytes in
#          MINE_OBJECTIVE: `bytes`, as the shipped sets were mined, or `shipped`) on 150
#          training modules, every found sequence measured on all 150, a core set of 16 picked
#          greedily by never-worse geomean; clang-default-os variants appended (-Os headroom)
#   tables the value tables: the core set measured on TABLE_MODULES training modules and on
#          every validation module, and on 500 eval modules (reserved packages, for scoring only),
#          in TABLE_OBJECTIVE (default shipped: what the compiler's ship rules let ship)
#          (CORESET_FROM_MODEL=1: the shipped model's core set, no mining)
#   train  smartcc-train --trainer value, seed 1, 300 epochs, losses weighted
#          NEGATIVE_GAIN_WEIGHT (0.3), the core set's order re-mined on the training table if
#          validation prefers it, best-on-validation model shrunk toward its prior
#   ship   copy the model to policies/models/TARGET.smm, score it and its prior on the eval
#          table (reserved packages) and write its card (TARGET.md)
#   eval   smartcc-eval on the reserved packages (eval split, never trained on): -Oz, -Os and the
#          agent at efforts 0, 1, 2 (effort 2 = best of the whole core set: the Coreset baseline),
#          and at efforts 0 and 1 under the compiler's default candidate budget (3000), which is
#          what smartcc does by default; the report is kept as docs/results/agent-eval-TARGET.md
# Work goes to ${SMARTCC_AGENT_DIR:-~/.cache/smartcc/agent}/TARGET; tools come from
# ${SMARTCC_BIN:-build/bin}. Long (hours on 2 cores): run it in the background.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:?usage: train-agent.sh x86_64|aarch64 [lists mine tables train ship eval]}
shift
STAGES=${*:-lists mine tables train ship eval}
BIN=${SMARTCC_BIN:-build/bin}
D=${SMARTCC_AGENT_DIR:-$HOME/.cache/smartcc/agent}/$T
C=${SMARTCC_CORPUS_DIR:-$HOME/.cache/smartcc/corpus}
TABLE_MODULES=${TABLE_MODULES:-600}
# What the tables measure: `shipped` (image bytes as the compiler ships them: a sequence smaller
# than clang's that breaks the default ship rules counts as clang's) or `bytes` (ship rules aside).
TABLE_OBJECTIVE=${TABLE_OBJECTIVE:-shipped}
MINE_OBJECTIVE=${MINE_OBJECTIVE:-bytes}
EVAL_MODULES=${EVAL_MODULES:-400}
mkdir -p "$D"
has() { [[ " $STAGES " == *" $1 "* ]]; }

if has lists; then
  # The shipped model's own lists (policies/models/splits) unless REFRESH_LISTS=1: the corpus
  # keeps growing, and the same lists reproduce the same model.
  for s in train validation eval; do
    if [ -f "policies/models/splits/$T-$s.txt" ] && [ -z "${REFRESH_LISTS:-}" ]; then
      cp "policies/models/splits/$T-$s.txt" "$D/$s.txt"
    else
      python3 scripts/harvest-corpus.py hashes --split $s --target "$T" --min-ir 50 \
        --max-ir 20000 > "$D/$s.txt"
    fi
  done
  wc -l "$D"/{train,validation,eval}.txt
fi

if has mine; then
  "$BIN/smartcc-coreset" --corpus "$C/train-pool" --hashes "$D/train.txt" --out "$D/coreset" \
    --modules 150 --search greedy:3 --k 16 --space macro+options --objective "$MINE_OBJECTIVE" --jobs 2 \
    --seed 1
  # The mined set plus clang -Os variants: -Os is smaller than -Oz on a large share of TUs, an
  # action the first mining did not have.
  python3 - "$D/coreset/coreset.json" "$D/coreset-final.json" "$T" <<'PY'
import json, sys
cs = json.load(open(sys.argv[1]))
extra = ["clang-default-os", "clang-default-os no-jump-tables"]
extra += ["clang-default-os no-machine-outliner"] if sys.argv[3] == "aarch64" else \
    ["clang-default-os machine-outliner"]
cs["sequences"] = cs["sequences"] + [s for s in extra if s not in cs["sequences"]]
json.dump(cs, open(sys.argv[2], "w"))
print("core set: %d sequences" % len(cs["sequences"]))
PY
fi

if has tables; then
  # CORESET_FROM_MODEL=1: the shipped model's own core set (its metadata), to retrain the
  # chooser on more modules without mining again.
  if [ -n "${CORESET_FROM_MODEL:-}" ] && [ ! -f "$D/coreset-final.json" ]; then
    python3 - "policies/models/$T.smm" "$D/coreset-final.json" <<'PY'
import json, sys
with open(sys.argv[1], "rb") as f:
    f.readline()
    meta = json.loads(f.readline())
json.dump({"space": meta["space"], "sequences": meta["sequences"]}, open(sys.argv[2], "w"))
print("core set of %s: %d sequences" % (sys.argv[1], len(meta["sequences"])))
PY
  fi
  "$BIN/smartcc-coreset" --corpus "$C/train-pool" --hashes "$D/train.txt" --out "$D/table" \
    --coreset "$D/coreset-final.json" --table-modules "$TABLE_MODULES" --space macro+options \
    --objective "$TABLE_OBJECTIVE" --jobs 2 --seed 1
  "$BIN/smartcc-coreset" --corpus "$C/train-pool" --hashes "$D/validation.txt" \
    --out "$D/table-val" --coreset "$D/coreset-final.json" --table-modules 1000 \
    --space macro+options --objective "$TABLE_OBJECTIVE" --jobs 2 --seed 1
  # The reserved packages' table: never trained on, scored beside the prior at ship time.
  "$BIN/smartcc-coreset" --corpus "$C/eval" --hashes "$D/eval.txt" --out "$D/table-eval" \
    --coreset "$D/coreset-final.json" --table-modules 500 --space macro+options \
    --objective "$TABLE_OBJECTIVE" --jobs 2 --seed 1
fi

if has train; then
  # Losses weighted 0.3 (not clipped to 0): the model orders the losing sequences too; the
  # column order (effort 1's fixed proposals) and the shrinkage toward the prior are chosen on
  # validation (docs/training.md).
  "$BIN/smartcc-train" --trainer value --table "$D/table" --validation-table "$D/table-val" \
    --run "$D/run" --epochs 300 --seed 1 --target "$T" \
    --negative-gain-weight "${NEGATIVE_GAIN_WEIGHT:-0.3}" --remine-order
fi

if has ship; then
  mkdir -p policies/models
  cp "$D/run/model.smm" "policies/models/$T.smm"
  mkdir -p policies/models/splits
  for s in train validation eval; do cp "$D/$s.txt" "policies/models/splits/$T-$s.txt"; done
  if [ -d "$D/table-eval" ]; then
    "$BIN/smartcc-train" --trainer value --score "policies/models/$T.smm" \
      --table "$D/table-eval" --corpus "$C/eval" > "$D/eval-score.txt"
  fi
  python3 scripts/model-card.py "$T" "$D" > "policies/models/$T.md"
  echo "shipped policies/models/$T.smm (card: policies/models/$T.md)"
fi

if has eval; then
  "$BIN/smartcc-eval" --corpus "$C/eval" --hashes "$D/eval.txt" --max-modules "$EVAL_MODULES" \
    --seed 1 --jobs 2 --target "$T" --out "$D/eval" --space macro+options --objective "$TABLE_OBJECTIVE" \
    --title "Eval split (reserved packages), $T, $EVAL_MODULES sampled modules" \
    --method oz --method os --method "agent:policies/models/$T.smm@0" \
    --method "agent:policies/models/$T.smm@1" --method "agent:policies/models/$T.smm@2" \
    --method "agent:policies/models/$T.smm@0,budget=3000" \
    --method "agent:policies/models/$T.smm@1,budget=3000"
  cp "$D/eval/report.md" "docs/results/agent-eval-$T.md"
fi
