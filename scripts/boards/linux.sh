#!/usr/bin/env bash
# linux.sh SRC OUT CC: builds Linux 6.1 (Debian bookworm's `linux` source) for arm64 with the
# compiler CC (clang-22 or smartcc) as kbuild builds it with LLVM=1 (ld.lld, llvm-ar, ... as
# $(LD), $(AR)), out of tree in OUT: tinyconfig plus what a console on qemu's virt board
# (PL011) and an initramfs need, at the kernel's own size level (CONFIG_CC_OPTIMIZE_FOR_SIZE:
# -Os). Leaves OUT/arch/arm64/boot/Image and OUT/vmlinux; prints the build's CPU and wall
# seconds. boot-linux.py boots the Image.
# LTO=1 in the environment: with the kernel's own full link-time optimization
# (CONFIG_LTO_CLANG_FULL): the objects are bitcode, and $(LD) (ld.lld) optimizes the whole
# kernel when it links vmlinux.o (a relocatable link). With smartcc as CC, its linker front
# smartcc-ld (beside it) is $(LD): it owns that link (driver/LinkerFront.h).
set -euo pipefail
src=$(realpath "$1") out=$2 cc=$3
mkdir -p "$out" && out=$(realpath "$out")
unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS MAKEFLAGS DESTDIR CC CXX
export PATH=/usr/lib/llvm-22/bin:$PATH   # LLVM=1 names ld.lld, llvm-ar, llvm-nm, ...
ld=ld.lld
if [ "${LTO:-0}" = 1 ] && [ -x "$(dirname "$cc")/smartcc-ld" ] && \
   [ "$(basename "$cc")" != clang-22 ]; then
  ld=$(dirname "$cc")/smartcc-ld
fi
mk() { make -C "$src" O="$out" ARCH=arm64 LLVM=1 CC="$cc" LD="$ld" HOSTCC=cc "$@"; }
mk -s tinyconfig
"$src/scripts/config" --file "$out/.config" \
  -e CC_OPTIMIZE_FOR_SIZE -e PRINTK -e TTY -e SERIAL_AMBA_PL011 \
  -e SERIAL_AMBA_PL011_CONSOLE -e BLK_DEV_INITRD -e BINFMT_ELF -e RD_GZIP
if [ "${LTO:-0}" = 1 ]; then
  "$src/scripts/config" --file "$out/.config" -d LTO_NONE -e LTO_CLANG_FULL
fi
mk -s olddefconfig
if [ "${LTO:-0}" = 1 ]; then
  grep -q "^CONFIG_LTO_CLANG_FULL=y" "$out/.config" || { echo "linux.sh: CONFIG_LTO_CLANG_FULL not set" >&2; exit 1; }
fi
for o in CC_OPTIMIZE_FOR_SIZE SERIAL_AMBA_PL011_CONSOLE BLK_DEV_INITRD BINFMT_ELF; do
  grep -q "^CONFIG_$o=y" "$out/.config" || { echo "linux.sh: CONFIG_$o not set" >&2; exit 1; }
done
/usr/bin/time -f "build: %U user %S sys %e wall" -o "$out/build-time.txt" \
  make -C "$src" O="$out" ARCH=arm64 LLVM=1 CC="$cc" LD="$ld" HOSTCC=cc -j"${JOBS:-2}" Image \
  > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cat "$out/build-time.txt"
ls -l "$out/arch/arm64/boot/Image" "$out/vmlinux"
