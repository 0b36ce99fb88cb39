# CMake toolchain file: cross-build for aarch64 Debian multiarch with smartcc / smartc++.
#   cmake -G Ninja -DCMAKE_TOOLCHAIN_FILE=<this file> [-DSMARTCC_BIN_DIR=<dir>] <src>
# Needs libc6-dev-arm64-cross, gcc/g++-aarch64-linux-gnu (crt files, libgcc, libstdc++
# and the aarch64-linux-gnu-ld linker clang uses by default) and qemu-user for tests.
# No sysroot: with --target=aarch64-linux-gnu clang finds Debian's cross GCC install
# under /usr/lib/gcc-cross and the libraries in /usr/aarch64-linux-gnu by itself.
#
# smartcc search order (see smartcc-find.cmake):
#   1. -DSMARTCC_BIN_DIR=<dir>  2. $ENV{SMARTCC_BIN_DIR}
#   3. <this dir>/../../../bin (installed)  4. <this dir>/../build/bin  5. PATH
include("${CMAKE_CURRENT_LIST_DIR}/smartcc-find.cmake")

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER   "${SMARTCC_BIN_DIR}/smartcc")
set(CMAKE_CXX_COMPILER "${SMARTCC_BIN_DIR}/smartc++")
# CMake passes --target=<triple> to compile, link and assemble commands.
set(CMAKE_C_COMPILER_TARGET   aarch64-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_ASM_COMPILER_TARGET aarch64-linux-gnu)

# Libraries and headers come from the cross tree; build tools from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest and try_run execute target binaries through user-mode qemu; -L points the
# dynamic loader at the cross libc.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)

# clang links with binutils' aarch64-linux-gnu-ld (pulled in by gcc-aarch64-linux-gnu);
# lld-22 works just as well, so use it only when the binutils linker is missing.
find_program(SMARTCC_AARCH64_LD aarch64-linux-gnu-ld NO_CMAKE_FIND_ROOT_PATH)
if(NOT SMARTCC_AARCH64_LD)
  foreach(_kind EXE SHARED MODULE)
    set(CMAKE_${_kind}_LINKER_FLAGS_INIT -fuse-ld=lld)
  endforeach()
endif()
