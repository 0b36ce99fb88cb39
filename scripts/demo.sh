#!/usr/bin/env bash
# The main job on the bundled example: installs what is needed, builds smartcc, then builds
# examples/make-project with clang-22 -Oz and with smartcc -Oz, for x86-64 and for AArch64,
# printing per-file object bytes, what smartcc chose, the linked programs' image bytes by
# section class (what users ship), and the programs' output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh > build-demo.log 2>&1 || { tail -30 build-demo.log; exit 1; }
rm -f build-demo.log
for target in x86_64-linux-gnu aarch64-linux-gnu; do
  out=build/demo/$target
  bash scripts/compare-build.sh calc examples/make-project "$out" "$target" -- \
    sh -c 'make CC="$CC" CFLAGS=-Oz'
  echo "-- linked program (image = code + rodata + data + unwind; bss is RAM only):"
  build/bin/smartcc-size "$out/clang/calc" "$out/smartcc/calc"
  run=()
  [ "$target" = aarch64-linux-gnu ] && run=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
  echo "-- program output (smartcc build, $target):"
  "${run[@]}" "$out/smartcc/calc" examples/make-project/input.txt | head -5
  if "${run[@]}" "$out/smartcc/calc" examples/make-project/input.txt |
      diff -q - examples/make-project/expected.txt > /dev/null; then
    echo "-- output matches examples/make-project/expected.txt"
  else
    echo "-- OUTPUT DIFFERS from expected.txt"; exit 1
  fi
  echo
done
echo "Per-candidate detail for one file: build/bin/smartcc -Oz -c examples/make-project/vm.c -o /tmp/vm.o --smartcc-explain"
build/bin/smartcc -Oz -c examples/make-project/vm.c -o /tmp/vm.o --smartcc-explain
