#!/usr/bin/env bash
# identity.sh SMARTCC CLANG OUT FILES...: for each file, target and -g setting, compiles with
# smartcc (replica candidate only, candidates saved) and with clang, and compares both.
set -euo pipefail
smartcc=$1 clang=$2 out=$3; shift 3
n=0
for f in "$@"; do
  for target in x86_64-linux-gnu aarch64-linux-gnu; do
    for g in -g0 -g; do
      b="$out/$(basename "$f").$target$g"
      "$smartcc" --target=$target -Oz $g -c "$f" -o "$b.o" \
        --smartcc-candidates=baseline-replica --smartcc-save-candidates="$b.saved"
      "$clang" --target=$target -Oz $g -c "$f" -o "$b.ref.o"
      if cmp -s "$b.o" "$b.ref.o" && cmp -s "$b.saved/$(basename "$b").o.baseline-replica.o" "$b.ref.o"; then
        n=$((n + 1))
      else
        echo "DIFFER: $f $target $g"
      fi
    done
  done
done
echo "identical: $n"
