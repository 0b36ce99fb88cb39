#!/usr/bin/env bash
# linux-initramfs.sh LINUX_SRC OUT: the initramfs of the kernel boot check: linux-init/init.c
# built static for aarch64 (the cross gcc's glibc: the same /init whichever compiler built the
# kernel), /dev/console, packed by the kernel's own usr/gen_init_cpio into OUT/initramfs.cpio.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(realpath "$1") out=$2
mkdir -p "$out" && out=$(realpath "$out")
aarch64-linux-gnu-gcc -static -Os "$here/linux-init/init.c" -o "$out/init"
cc -O2 "$src/usr/gen_init_cpio.c" -o "$out/gen_init_cpio"
printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\nfile /init %s 0755 0 0\n' \
  "$out/init" > "$out/initramfs.list"
"$out/gen_init_cpio" "$out/initramfs.list" > "$out/initramfs.cpio"
ls -l "$out/initramfs.cpio"
