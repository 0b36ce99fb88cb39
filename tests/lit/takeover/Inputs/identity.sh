#!/usr/bin/env bash
# identity.sh SMARTCC CLANG OUT FILES...: for each file, target and -g setting, compiles with
# smartcc (replica candidates only, saved) and with clang, and compares all three: clang's
# pipeline re-run from the frontend's module, and clang's optimized module continued
# (after_clang_pipeline) must both give clang's object. Objects without their bitcode
# (fat_objects off): the section it adds is checked by lit lto/fat-objects.test.
set -euo pipefail
smartcc=$1 clang=$2 out=$3; shift 3
n=0
for f in "$@"; do
  for target in x86_64-linux-gnu aarch64-linux-gnu; do
    for g in -g0 -g; do
      b="$out/$(basename "$f").$target$g"
      "$smartcc" --target=$target -Oz $g -c "$f" -o "$b.o" \
        --smartcc-candidates=baseline-replica,baseline-continued --smartcc-save-candidates="$b.saved" \
        --smartcc-fat-objects=false
      "$clang" --target=$target -Oz $g -c "$f" -o "$b.ref.o"
      s="$b.saved/$(basename "$b").o"
      if cmp -s "$b.o" "$b.ref.o" && cmp -s "$s.baseline-replica.o" "$b.ref.o" &&
          cmp -s "$s.baseline-continued.o" "$b.ref.o"; then
        n=$((n + 1))
      else
        echo "DIFFER: $f $target $g"
      fi
    done
  done
done
echo "identical: $n"
