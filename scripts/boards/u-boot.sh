#!/usr/bin/env bash
# u-boot.sh SRC OUT CC: builds U-Boot 2023.01 (Debian bookworm's `u-boot` source,
# qemu_arm64_defconfig) for AArch64 with the compiler CC (clang-22 or smartcc; the target is
# added) in OUT, as U-Boot's own make builds it (-Os: CONFIG_CC_OPTIMIZE_FOR_SIZE), with the
# recipe that lets clang build it at all (../shared notes; U-Boot calls arm64 with clang
# unsupported): -ffixed-r9 removed from arch/arm/config.mk (clang rejects it for AArch64),
# ARM64_CRC32 (gcc's __builtin_aarch64_crc32b) and EXAMPLES (a private libgcc) disabled.
# Prints the build's CPU and wall seconds; leaves OUT/u-boot.bin and OUT/u-boot.
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
make -s olddefconfig CC="$cc --target=aarch64-linux-gnu" HOSTCC=cc
start=$(date +%s.%N)
/usr/bin/time -f "build: %U user %S sys %e wall" -o build-time.txt \
  make -j"${JOBS:-2}" CC="$cc --target=aarch64-linux-gnu" HOSTCC=cc > build.log 2>&1
cat build-time.txt
ls -l u-boot.bin u-boot
