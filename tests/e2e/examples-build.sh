#!/usr/bin/env bash
# Builds every example under examples/ with smartcc (BIN_DIR) and again with plain clang-22,
# runs each one's own check, and fails unless both builds print the committed expected output.
# Usage: examples-build.sh BIN_DIR      (env: CLANG_BIN_DIR, default /usr/lib/llvm-22/bin)
set -euo pipefail

die() { echo "examples-build: FAIL: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: $0 BIN_DIR"
BIN_DIR=$(cd "$1" 2>/dev/null && pwd) || die "no such directory: $1"
CLANG_BIN_DIR=${CLANG_BIN_DIR:-/usr/lib/llvm-22/bin}
for tool in smartcc smartc++ aarch64-linux-gnu-smartcc aarch64-linux-gnu-smartc++; do
  [ -x "$BIN_DIR/$tool" ] || die "$BIN_DIR/$tool is missing or not executable"
done
[ -x "$CLANG_BIN_DIR/clang" ] || die "$CLANG_BIN_DIR/clang not found"
for tool in cmake ninja make qemu-aarch64; do
  command -v "$tool" >/dev/null || die "$tool not found (scripts/install-deps.sh installs it)"
done

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EX=$ROOT/examples TC=$ROOT/toolchain
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/smartcc-examples.XXXXXX")
# Keep the scratch dir when something failed: its logs are the diagnosis.
cleanup() {
  local rc=$?
  if [ $rc = 0 ]; then rm -rf "$SCRATCH"; else echo "examples-build: logs kept in $SCRATCH" >&2; fi
}
trap cleanup EXIT
START=$SECONDS

# The reference compilers carry smartcc's names so both builds go through exactly the
# same Makefiles and toolchain files; only the directory differs.
REF=$SCRATCH/clang-bin
mkdir -p "$REF"
wrap() { printf '#!/bin/sh\nexec "%s" %s"$@"\n' "$2" "$3" > "$REF/$1"; chmod +x "$REF/$1"; }
wrap smartcc "$CLANG_BIN_DIR/clang" ""
wrap smartc++ "$CLANG_BIN_DIR/clang++" ""
wrap aarch64-linux-gnu-smartcc "$CLANG_BIN_DIR/clang" "--target=aarch64-linux-gnu "
wrap aarch64-linux-gnu-smartc++ "$CLANG_BIN_DIR/clang++" "--target=aarch64-linux-gnu "

# run LOG CMD...: quiet on success, shows the end of the log on failure.
run() {
  local log=$1; shift
  if ! "$@" >>"$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "'$*' failed (log: $log)"
  fi
}

cmake_example() {  # cmake_example SRC BUILD TOOLCHAIN BIN LOG
  run "$5" cmake -G Ninja -S "$1" -B "$2" -DCMAKE_TOOLCHAIN_FILE="$3" -DSMARTCC_BIN_DIR="$4"
  run "$5" cmake --build "$2"
  run "$5" ctest --test-dir "$2" --output-on-failure
}

# build_all BIN OUT: builds every example with the compilers in BIN; outputs land in OUT.
build_all() {
  local bin=$1 out=$2
  mkdir -p "$out/make" "$out/cross-make" "$out/json" "$out/cross-json"
  run "$out/make.log" make -C "$out/make" -f "$EX/make-project/Makefile" CC="$bin/smartcc" check
  run "$out/json.log" make -C "$out/json" -f "$EX/json-tool/Makefile" CC="$bin/smartcc" check
  # The Makefile sees an aarch64 compiler and runs the checks under qemu-aarch64.
  run "$out/cross-json.log" make -C "$out/cross-json" -f "$EX/json-tool/Makefile" \
    CC="$bin/aarch64-linux-gnu-smartcc" check
  cmake_example "$EX/cmake-project" "$out/cmake" "$TC/smartcc-host.cmake" "$bin" "$out/cmake.log"
  cmake_example "$EX/aarch64-cross" "$out/cross" "$TC/smartcc-aarch64-linux-gnu.cmake" "$bin" \
    "$out/cross.log"
  run "$out/cross-make.log" make -C "$out/cross-make" -f "$EX/aarch64-cross/Makefile" \
    CC="$bin/aarch64-linux-gnu-smartcc" check
  cmake_example "$EX/aarch64-firmware-lto" "$out/firmware" "$TC/smartcc-aarch64-linux-gnu.cmake" \
    "$bin" "$out/firmware.log"
  cmake_example "$EX/aarch64-baremetal-lto" "$out/baremetal" "$TC/smartcc-aarch64-none-elf.cmake" \
    "$bin" "$out/baremetal.log"
}

build_all "$BIN_DIR" "$SCRATCH/smartcc"
build_all "$REF" "$SCRATCH/clang"

# compare NAME SUBDIR PROGRAM EXPECTED
compare() {
  local s=$SCRATCH/smartcc/$2 c=$SCRATCH/clang/$2
  cmp -s "$s/output.txt" "$c/output.txt" || {
    diff -u "$c/output.txt" "$s/output.txt" >&2 || true
    die "$1: smartcc and clang-22 builds print different output"
  }
  cmp -s "$s/output.txt" "$4" || die "$1: output differs from $4"
  printf '%-22s OK  smartcc == clang-22 == expected; %s %s bytes vs %s  [%s]\n' "$1" "$3" \
    "$(stat -c %s "$s/$3")" "$(stat -c %s "$c/$3")" \
    "$(grep -m1 -E 'checksum|^canonical|^lines|^matmul|^frame' "$s/output.txt")"
}
compare make-project make calc "$EX/make-project/expected.txt"
compare json-tool json libjt.so "$EX/json-tool/expected.txt"
compare json-tool/aarch64 cross-json libjt.so "$EX/json-tool/expected.txt"
compare cmake-project cmake wordstats "$EX/cmake-project/expected.txt"
compare aarch64-cross/cmake cross crunch "$EX/aarch64-cross/expected.txt"
compare aarch64-cross/make cross-make crunch "$EX/aarch64-cross/expected.txt"
compare aarch64-firmware-lto firmware sensord "$EX/aarch64-firmware-lto/expected.txt"
compare aarch64-baremetal-lto baremetal sensord "$EX/aarch64-firmware-lto/expected.txt"
echo "examples-build: all examples OK in $((SECONDS - START))s"
