#!/usr/bin/env bash
# train-rl-agents.sh SETTING TARGET [STAGE...]
#
# The three environment trainers of issue 4 (DQN, PPO, the world model) side by side on one
# setting, each from the same module lists, seed and budget, then evaluated on the eval split
# (the reserved packages, never trained on). Every stage resumes (rerun the same command).
#
# SETTING
#   compilergym  the papers' setting: CompilerGym-style input (harvested at -O0 without optnone:
#                noinline, no size attributes), the Autophase pass space, horizon 45, reward =
#                IR instructions normalized by -Oz's reduction; judged in IR count against -Oz's
#                pipeline on the same code. x86_64 only (the O0 flavour is harvested for x86-64).
#   bytes        smartcc's setting: harvested -Oz modules (every function minsize), the
#                macro+options space, horizon 6, reward = object bytes after codegen; judged in
#                bytes and IR against real clang-22 -Oz.
# STAGES  lists dqn ppo dreamer eval (default: all)
#
# Work goes to ${SMARTCC_RL_DIR:-~/.cache/smartcc/rl}/SETTING-TARGET; tools come from
# ${SMARTCC_BIN:-build/bin}. Hours on 2 cores: run it in the background.
set -euo pipefail
cd "$(dirname "$0")/.."
SETTING=${1:?usage: train-rl-agents.sh compilergym|bytes x86_64|aarch64 [stages]}
T=${2:?usage: train-rl-agents.sh compilergym|bytes x86_64|aarch64 [stages]}
shift 2
STAGES=${*:-lists dqn ppo dreamer eval}
BIN=${SMARTCC_BIN:-build/bin}
C=${SMARTCC_CORPUS_DIR:-$HOME/.cache/smartcc/corpus}
D=${SMARTCC_RL_DIR:-$HOME/.cache/smartcc/rl}/$SETTING-$T
EVAL_MODULES=${EVAL_MODULES:-100}
mkdir -p "$D"
has() { [[ " $STAGES " == *" $1 "* ]]; }

case $SETTING in
  compilergym)
    LEVEL=O0 SPACE=autophase REWARD=ir HORIZON=45 OBJECTIVE=ir MAXIR=10000
    # Steps per trainer: 10-15 minutes each on one core of a loaded 2-core machine (PPO ~250
    # steps/s, DQN ~50, the world model ~10 with its default updates per iteration).
    STEPS_PPO=${STEPS_PPO:-450000} STEPS_DQN=${STEPS_DQN:-40000} STEPS_DREAMER=${STEPS_DREAMER:-8000}
    DQN_EXTRA="--epsilon-decay 20000" ;;
  bytes)
    LEVEL=Oz SPACE=macro+options REWARD=bytes HORIZON=6 OBJECTIVE=bytes MAXIR=3000
    # A codegen per step: 10-25 steps/s for DQN and PPO, about 5 for the world model.
    STEPS_PPO=${STEPS_PPO:-10000} STEPS_DQN=${STEPS_DQN:-10000} STEPS_DREAMER=${STEPS_DREAMER:-3000}
    DQN_EXTRA="--epsilon-decay 3000 --learn-start 500" ;;
  *) echo "train-rl-agents.sh: unknown setting '$SETTING'" >&2; exit 1 ;;
esac

if has lists; then
  # Fresh lists of this flavour from the committed manifests (harvest-corpus.py hashes); the
  # bytes setting uses the shipped agent's lists, so all agents share one split.
  for s in train validation eval; do
    if [ "$SETTING" = bytes ] && [ -f "policies/models/splits/$T-$s.txt" ]; then
      cp "policies/models/splits/$T-$s.txt" "$D/$s.txt"
    else
      python3 scripts/harvest-corpus.py hashes --split $s --target "$T" --level $LEVEL \
        --min-ir 50 --max-ir $MAXIR > "$D/$s.txt"
    fi
  done
  wc -l "$D"/{train,validation,eval}.txt
fi

train() { # trainer steps extra-flags...
  local trainer=$1 steps=$2
  shift 2
  "$BIN/smartcc-train" --trainer "$trainer" --corpus "$C/train-pool" --hashes "$D/train.txt" \
    --validation-hashes "$D/validation.txt" --level $LEVEL --target "$T" --space $SPACE \
    --reward $REWARD --horizon $HORIZON --max-ir $MAXIR --steps "$steps" --seed 1 \
    --validate-every $((steps / 10)) --checkpoint-every $((steps / 20)) --run "$D/$trainer" "$@"
  "$BIN/smartcc-train" --report "$D/$trainer"
}
# shellcheck disable=SC2086
has dqn && train dqn "$STEPS_DQN" $DQN_EXTRA
has ppo && train ppo "$STEPS_PPO"
has dreamer && train dreamer "$STEPS_DREAMER"

if has eval; then
  METHODS=(--method oz)
  for t in dqn ppo dreamer; do
    [ -f "$D/$t/model.smm" ] && METHODS+=(--method "policy:$D/$t/model.smm")
  done
  if [ "$SETTING" = compilergym ]; then
    # What search finds in the same space and objective (the agents' headroom), and -Os.
    METHODS+=(--method greedy:8 --method os)
  else
    METHODS+=(--method "agent:policies/models/$T.smm@0")
  fi
  "$BIN/smartcc-eval" --corpus "$C/eval" --level $LEVEL --hashes "$D/eval.txt" \
    --max-modules "$EVAL_MODULES" --seed 1 --jobs 2 --target "$T" --out "$D/eval" \
    --space $SPACE --objective $OBJECTIVE "${METHODS[@]}" \
    --title "Eval split (reserved packages), $T, setting $SETTING, $EVAL_MODULES sampled modules"
  if [ "$SETTING" = compilergym ]; then
    # The papers report cBench, MiBench and CHStone; the eval split's packages that overlap
    # cBench/MiBench (shared/reserved-for-evaluation.txt) are summarized apart.
    python3 - "$D/eval/rows.jsonl" <<'PY' | tee "$D/eval/compilergym-summary.md"
import json, math, sys
bench = {"bzip2", "lame", "libjpeg-turbo", "tiff", "libmad", "libgsm", "ghostscript", "ispell",
         "lout"}
logs = {}
for r in map(json.loads, open(sys.argv[1])):
    if r.get("failed") or not r["ir"]:
        continue
    name = r["method"].split("/")[-2] if r["method"].startswith("policy:") else r["method"]
    for part in ("all", "cBench/MiBench packages" if r["package"] in bench else "other"):
        logs.setdefault((name, part), []).append(math.log(r["clang_ir"] / r["ir"]))
print("| method | modules | IR, clang -Oz / method | part |\n|---|---|---|---|")
for (name, part), v in sorted(logs.items()):
    print("| %s | %d | %.4f | %s |" % (name, len(v), math.exp(sum(v) / len(v)), part))
PY
  fi
fi
