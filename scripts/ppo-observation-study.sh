#!/bin/sh
# PPO with Autophase vs Autophase+IR2Vec observations (issue 21 item 1), same split and seeds.
set -e
mkdir -p ppo
# Run from a directory with agent/ (train.txt, validation.txt, eval.txt as observation-study.py uses)
# and a corpus at CORPUS (default /work/corpus). Slow parts: 4 x 20000 PPO steps, 4 evaluations.
B=${SMARTCC_BIN:-build/bin}
C=${CORPUS:-/work/corpus}
for seed in 1 2; do
  for obs in autophase-log1p autophase-log1p+ir2vec; do
    R=ppo/$obs-seed$seed
    nice -n 5 $B/smartcc-train --trainer ppo --corpus $C/train-pool --hashes agent/train.txt --validation-hashes agent/validation.txt --run $R --steps 20000 --seed $seed --observation $obs --validate-every 5000 > $R.log 2>&1
    tail -1 $R.log
  done
done
head -300 agent/eval.txt > ppo-eval.txt
for seed in 1 2; do
  for obs in autophase-log1p autophase-log1p+ir2vec; do
    R=ppo/$obs-seed$seed
    nice -n 5 $B/smartcc-eval --corpus $C/eval --hashes ppo-eval.txt --out ppo/eval-$obs-seed$seed --method oz --method policy:$R/model.smm --jobs 1 > ppo/eval-$obs-seed$seed.log 2>&1
    tail -5 ppo/eval-$obs-seed$seed.log
  done
done
