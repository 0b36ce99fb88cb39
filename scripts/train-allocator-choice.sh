#!/bin/bash
# Trains the allocator-choice models (policies/models/allocators/TARGET.smm; docs/ml-regalloc.md,
# "Allocators chosen by bytes") from Debian training packages harvested into $CORPUS (default
# ~/.cache/smartcc/corpus): whole packages are held out for validation. Stages:
#   harvest  harvests the packages below (scripts/harvest-corpus.py, resumable)
#   lists    writes the module lists of both splits per target (policies/models/allocators/)
#   train    smartcc-train --trainer allocator-choice per target (resumable: measured modules
#            are cached in the run directory), seed 1; then --trainer allocator-proposal on the
#            same measurements (the cache is copied into its own run directory)
#   ship     copies each run's model.smm into policies/models/allocators/ and
#            policies/models/allocator-proposals/
# Usage: scripts/train-allocator-choice.sh [stage...]   (default: all four, in order)
# None of these packages is in ../shared/reserved-for-evaluation.txt (harvest-corpus.py refuses
# those); the models are evaluated on reserved projects by link-bench.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-$HOME/.cache/smartcc/corpus}
BIN=${BIN:-$REPO/build/bin}
RUNS=${RUNS:-$HOME/.cache/smartcc/allocator-choice}
TRAIN_PACKAGES="lua5.3 giflib cmark libdeflate pciutils brotli lhasa libtheora gdbm dash wavpack
  libmodplug lua5.1 libsoxr potrace twolame fribidi bc libbsd libseccomp libpcap readline
  libmspack acl a52dec"
VALIDATION_PACKAGES="less speex cflow libedit"
TARGETS="x86_64 aarch64"
STAGES=${*:-harvest lists train ship}
OUT=$REPO/policies/models/allocators

for STAGE in $STAGES; do
  case $STAGE in
  harvest)
    # Each compile also harvested for AArch64 (the same compile retargeted).
    SMARTCC_HARVEST_TARGETS=aarch64-linux-gnu \
      python3 "$REPO/scripts/harvest-corpus.py" --corpus "$CORPUS" --bin "$BIN" \
      --manifest-dir "$RUNS/manifests" --only $TRAIN_PACKAGES $VALIDATION_PACKAGES ;;
  lists)
    for T in $TARGETS; do
      python3 - "$CORPUS/train-pool/index.jsonl" "$T" "$OUT/$T-train.txt" "$OUT/$T-validation.txt" \
        "$TRAIN_PACKAGES" "$VALIDATION_PACKAGES" <<'PY'
import json, sys
index, target, train_out, val_out, train, val = sys.argv[1:]
train, val = set(train.split()), set(val.split())
seen, lists = set(), {train_out: [], val_out: []}
for line in open(index):
    r = json.loads(line)
    if r.get("level") != "Oz" or not r["target"].startswith(target) or r["hash"] in seen:
        continue
    seen.add(r["hash"])
    if r["package"] in train:
        lists[train_out].append(r["hash"])
    elif r["package"] in val:
        lists[val_out].append(r["hash"])
for path, hashes in lists.items():
    open(path, "w").write("".join(h + "\n" for h in sorted(hashes)))
    print(f"{path}: {len(hashes)} modules")
PY
    done ;;
  train)
    for T in $TARGETS; do
      "$BIN/smartcc-train" --trainer allocator-choice --corpus "$CORPUS/train-pool" \
        --hashes "$OUT/$T-train.txt" --validation-hashes "$OUT/$T-validation.txt" \
        --run "$RUNS/$T" --target "$T" --jobs 2 --seed 1 --hidden 0
      mkdir -p "$RUNS/proposals-$T/checkpoint"
      cp "$RUNS/$T/checkpoint/allocator-data.jsonl" "$RUNS/proposals-$T/checkpoint/"
      "$BIN/smartcc-train" --trainer allocator-proposal --corpus "$CORPUS/train-pool" \
        --hashes "$OUT/$T-train.txt" --validation-hashes "$OUT/$T-validation.txt" \
        --run "$RUNS/proposals-$T" --target "$T" --jobs 2 --seed 1 --hidden 0
    done ;;
  ship)
    for T in $TARGETS; do
      cp "$RUNS/$T/model.smm" "$OUT/$T.smm"
      cp "$RUNS/proposals-$T/model.smm" "$REPO/policies/models/allocator-proposals/$T.smm"
    done ;;
  *) echo "unknown stage $STAGE" >&2; exit 2 ;;
  esac
done
