#!/usr/bin/env bash
# firmware.sh NEWLIB OUT CC [OPT]: bare-metal AArch64 firmware linked against a newlib built
# from source (NEWLIB: newlib.sh's OUT/install/aarch64-none-elf, built by the same CC), on
# the "qemu-user board" of newlib-board/ (libgloss's rdimon-crt0.o: semihosting for the
# console, the heap and exit, served by qemu-aarch64). Two programs, each compiled with CC at
# OPT (default -Os) with one section per function and object, linked by CC with lld and
# --gc-sections and no -flto (a size build's link: smartcc makes it whole-program by itself),
# writing a map file beside each image as firmware builds do:
#   OUT/sensord.elf  the project's firmware example (examples/aarch64-firmware-lto);
#   OUT/selftest.elf Mbed TLS 2.28 (Debian bookworm's `mbedtls` source, MBEDTLS_SRC) in its
#                    own "baremetal" configuration (less one option, below), its libraries built by its own Makefile,
#                    and its self-test program;
#   OUT/newlib-tests/*.elf  with NEWLIB_SRC (the newlib source the library was built from):
#                    newlib's own self-checking tests (testsuite/newlib.string and
#                    newlib.stdlib: each aborts on a wrong answer), linked the same way.
# Prints each build's CPU and wall seconds; run-firmware.sh OUT runs and checks the programs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nl=$(realpath "$1") out=$2 cc=$3 opt=${4:--Os}
mbedtls_src=${MBEDTLS_SRC:?set MBEDTLS_SRC to an unpacked mbedtls 2.28 source}
llvm=/usr/lib/llvm-22/bin
libgcc=$(aarch64-linux-gnu-gcc -print-libgcc-file-name)  # soft 128-bit float for printf
rm -rf "$out" && mkdir -p "$out" && out=$(realpath "$out")
tc="$cc --target=aarch64-none-elf"
cflags="$opt -ffunction-sections -fdata-sections -nostdlibinc -isystem $nl/include"
board=$here/newlib-board
link() {  # link OUTPUT OBJECTS-AND-LIBRARIES...
  local o=$1; shift
  $tc $opt -fuse-ld=lld -nostdlib -static -T "$board/rdimon-qemu.ld" -Wl,--gc-sections \
    "$nl/lib/rdimon-crt0.o" "$out/init-fini.o" "$@" \
    -L"$nl/lib" -Wl,--start-group -lc -lrdimon -Wl,--end-group "$libgcc" -o "$o" \
    -Wl,-Map="${o%.elf}.map"
}
timed() {  # timed NAME COMMAND...: CPU and wall of COMMAND into OUT/NAME-time.txt
  local n=$1; shift
  local TIMEFORMAT="$n: %U user %S sys %R wall"
  { time "$@" 2>&3; } 3>&2 2> "$out/$n-time.txt"
  cat "$out/$n-time.txt"
}

$tc $cflags -c "$board/init-fini.c" -o "$out/init-fini.o"

# sensord
app=$here/../../examples/aarch64-firmware-lto
build_sensord() {
  mkdir -p "$out/sensord"
  for f in main ring crc filter commands; do
    $tc $cflags -std=c11 -c "$app/$f.c" -o "$out/sensord/$f.o"
  done
  link "$out/sensord.elf" "$out"/sensord/*.o
}
timed sensord build_sensord

# Mbed TLS: its library Makefile, its baremetal configuration, its self-test.
cp -a "$mbedtls_src" "$out/mbedtls"
# The board's entropy source is RNDR (newlib-board/rndr-entropy.c).
# MBEDTLS_PSA_CRYPTO_BUILTIN_KEYS asks the platform for a function only its test framework
# defines: a baremetal build that links a program turns it off.
(cd "$out/mbedtls" && python3 scripts/config.py baremetal &&
  python3 scripts/config.py unset MBEDTLS_PSA_CRYPTO_BUILTIN_KEYS &&
  python3 scripts/config.py set MBEDTLS_ENTROPY_HARDWARE_ALT)
build_mbedtls() {
  make -C "$out/mbedtls/library" -j"${JOBS:-2}" static CC="$tc" AR=$llvm/llvm-ar \
    CFLAGS="$cflags" > "$out/mbedtls-build.log" 2>&1
  $tc $cflags -I"$out/mbedtls/include" -c "$out/mbedtls/programs/test/selftest.c" \
    -o "$out/selftest.o"
  $tc $cflags -c "$board/rndr-entropy.c" -o "$out/rndr-entropy.o"
  local lib=$out/mbedtls/library
  link "$out/selftest.elf" "$out/selftest.o" "$out/rndr-entropy.o" "$lib/libmbedtls.a" "$lib/libmbedx509.a" \
    "$lib/libmbedcrypto.a"
}
timed mbedtls build_mbedtls

# newlib's own tests, built by the same compiler against the same library.
build_newlib_tests() {
  mkdir -p "$out/newlib-tests"
  local t n
  for t in "$NEWLIB_SRC"/newlib/testsuite/newlib.string/*.c \
           "$NEWLIB_SRC"/newlib/testsuite/newlib.stdlib/*.c; do
    n=$(basename "$t" .c)
    $tc $cflags -I"$NEWLIB_SRC/newlib/testsuite/include" -c "$t" -o "$out/newlib-tests/$n.o"
    link "$out/newlib-tests/$n.elf" "$out/newlib-tests/$n.o"
  done
}
if [ -n "${NEWLIB_SRC:-}" ]; then
  timed newlib-tests build_newlib_tests
fi

ls -l "$out"/*.elf
