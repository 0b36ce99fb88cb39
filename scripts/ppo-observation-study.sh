#!/bin/sh
# PPO with Autophase vs Autophase+IR2Vec observations (issue 21 item 1), same split and seeds.
set -e
# Run from a directory with agent/ (train.txt, validation.txt, eval.txt as observation-study.py uses)
# and a corpus at CORPUS (default: the training scripts' ~/.cache/smartcc/corpus). Slow parts: 4 x 20000 PPO steps, 4 evaluations.
# TARGET=aarch64 AGENT=agent-a64 for AArch64 (the lists' modules must be of that target).
B=${SMARTCC_BIN:-build/bin}
C=${CORPUS:-$HOME/.cache/smartcc/corpus}
T=${TARGET:-x86_64}
A=${AGENT:-agent}
P=${PPO_DIR:-ppo}
mkdir -p $P
for seed in 1 2; do
  for obs in autophase-log1p autophase-log1p+ir2vec; do
    R=$P/$obs-seed$seed
    nice -n 5 $B/smartcc-train --trainer ppo --target $T --corpus $C/train-pool --hashes $A/train.txt --validation-hashes $A/validation.txt --run $R --steps 20000 --seed $seed --observation $obs --validate-every 5000 > $R.log 2>&1
    tail -1 $R.log
  done
done
head -300 $A/eval.txt > $P-eval.txt
for seed in 1 2; do
  for obs in autophase-log1p autophase-log1p+ir2vec; do
    R=$P/$obs-seed$seed
    nice -n 5 $B/smartcc-eval --corpus $C/eval --hashes $P-eval.txt --target $T --out $P/eval-$obs-seed$seed --method oz --method policy:$R/model.smm --jobs 1 > $P/eval-$obs-seed$seed.log 2>&1
    tail -5 $P/eval-$obs-seed$seed.log
  done
done
