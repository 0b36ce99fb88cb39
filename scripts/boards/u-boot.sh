#!/usr/bin/env bash
# u-boot.sh SRC OUT CC: builds U-Boot 2023.01 (Debian bookworm's `u-boot` source,
# qemu_arm64_defconfig) for AArch64 with the compiler CC (clang-22 or smartcc; the target is
# added) in OUT, as U-Boot's own make builds it (-Os: CONFIG_CC_OPTIMIZE_FOR_SIZE), with the
# recipe that lets clang build it at all (../shared notes; U-Boot calls arm64 with clang
# unsupported): -ffixed-r9 removed from arch/arm/config.mk (clang rejects it for AArch64),
# ARM64_CRC32 (gcc's __builtin_aarch64_crc32b) and EXAMPLES (a private libgcc) disabled.
# LTO=1 in the environment: with U-Boot's CONFIG_LTO (below). Prints the build's CPU and wall
# seconds; leaves OUT/u-boot.bin and OUT/u-boot.
set -euo pipefail
src=$1 out=$2 cc=$3
# OUT may be SRC (link-bench builds in the tree it extracted); otherwise a copy of SRC.
if [ "$(realpath "$src")" != "$(realpath -m "$out")" ]; then
  rm -rf "$out" && mkdir -p "$out" && cp -a "$src/." "$out/"
fi
cd "$out"
sed -i 's/ -ffixed-r9//g' arch/arm/config.mk
export CROSS_COMPILE=aarch64-linux-gnu-
make -s qemu_arm64_defconfig CC="$cc --target=aarch64-linux-gnu" HOSTCC=cc
scripts/config --disable ARM64_CRC32 --disable EXAMPLES
# LTO=1: U-Boot's own link-time optimization (CONFIG_LTO), whose final link goes through $(CC)
# (so smartcc owns it like any -flto link). Two things its recipe needs with clang on arm64:
# the link is LLVM's (-fuse-ld=lld, and --ld-path to LLVM 22's: Debian's /usr/bin/ld.lld is
# lld 14, which cannot read LLVM 22's bitcode), and no PLATFORM_LIBS: the LTO rule puts them
# inside --whole-archive, which pulls every member of libgcc.a, lse-init.o's need of glibc's
# __getauxval included (arm64 U-Boot links without libgcc).
extra=()
if [ "${LTO:-0}" = 1 ]; then
  scripts/config --enable LTO
  extra=(PLATFORM_LIBS= "LTO_FINAL_LDFLAGS=-flto -fuse-ld=lld --ld-path=/usr/lib/llvm-22/bin/ld.lld")
fi
make -s olddefconfig CC="$cc --target=aarch64-linux-gnu" HOSTCC=cc
/usr/bin/time -f "build: %U user %S sys %e wall" -o build-time.txt \
  make -j"${JOBS:-2}" CC="$cc --target=aarch64-linux-gnu" HOSTCC=cc "${extra[@]}" > build.log 2>&1
cat build-time.txt
ls -l u-boot.bin u-boot
