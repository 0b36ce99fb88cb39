#!/usr/bin/env bash
# newlib.sh SRC OUT CC [OPT]: builds newlib and libgloss (Debian bookworm's `newlib` source,
# 3.3.0) for bare-metal AArch64 (aarch64-none-elf) with the compiler CC (clang-22 or smartcc;
# the target is added) in OUT and installs them in OUT/install/aarch64-none-elf. The recipe is
# the size-bound one of Arm's embedded toolchains ("newlib-nano"): small reentrancy structure,
# nano malloc, one section per function and object, OPT (default -Os); the full formatted I/O
# with C99's size modifiers, which the programs print with.
# LLVM's binutils replace GNU's, so no aarch64-none-elf binutils are needed. Newlib 3.3 predates
# C99's removal of implicit declarations being an error in clang (libm/complex calls coshl & co.,
# which aarch64's headers leave undeclared): that error is made a warning, as in GCC 12. Prints the
# build's CPU and wall seconds.
set -euo pipefail
src=$(realpath "$1") out=$2 cc=$3 opt=${4:--Os}
llvm=/usr/lib/llvm-22/bin
rm -rf "$out" && mkdir -p "$out" && out=$(realpath "$out")
cd "$out"
tc="$cc --target=aarch64-none-elf"
# The top-level configure builds for the build machine with CC: the machine's own compiler,
# whatever the caller's environment names (link-bench sets CC to the cross compiler, and
# DESTDIR, which would move the install).
unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS MAKEFLAGS DESTDIR
export CC=cc CXX=c++
"$src/configure" --target=aarch64-none-elf --prefix="$out/install" \
  --disable-nls --disable-newlib-supplied-syscalls \
  --enable-newlib-reent-small --disable-newlib-fvwrite-in-streamio \
  --disable-newlib-fseek-optimization --disable-newlib-wide-orient \
  --enable-newlib-nano-malloc --disable-newlib-unbuf-stream-opt --enable-lite-exit \
  --enable-newlib-io-c99-formats \
  --enable-newlib-global-atexit \
  CC_FOR_TARGET="$tc" CXX_FOR_TARGET="$tc" GCC_FOR_TARGET="$tc" AS_FOR_TARGET="$tc" \
  AR_FOR_TARGET=$llvm/llvm-ar RANLIB_FOR_TARGET=$llvm/llvm-ranlib NM_FOR_TARGET=$llvm/llvm-nm \
  LD_FOR_TARGET=$llvm/ld.lld OBJCOPY_FOR_TARGET=$llvm/llvm-objcopy \
  OBJDUMP_FOR_TARGET=$llvm/llvm-objdump READELF_FOR_TARGET=$llvm/llvm-readelf \
  STRIP_FOR_TARGET=$llvm/llvm-strip \
  CFLAGS_FOR_TARGET="$opt -ffunction-sections -fdata-sections -Wno-error=implicit-function-declaration" > configure.log 2>&1
/usr/bin/time -f "build: %U user %S sys %e wall" -o build-time.txt \
  make -j"${JOBS:-2}" all-target-newlib all-target-libgloss > build.log 2>&1
make install-target-newlib install-target-libgloss > install.log 2>&1
cat build-time.txt
ls -l install/aarch64-none-elf/lib/libc.a install/aarch64-none-elf/lib/librdimon.a
