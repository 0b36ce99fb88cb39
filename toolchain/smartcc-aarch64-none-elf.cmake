# CMake toolchain file: bare-metal AArch64 (no operating system) with Debian's picolibc.
#   cmake -G Ninja -DCMAKE_TOOLCHAIN_FILE=<this file> [-DSMARTCC_BIN_DIR=<dir>] <src>
# Needs picolibc-aarch64-linux-gnu (the C library, headers in its own directory),
# gcc-aarch64-linux-gnu (only for libgcc.a: 128-bit shifts that picolibc's printf calls;
# Debian's LLVM has no AArch64 compiler-rt), lld-22 and, for tests, qemu-user.
#
# A bare-metal program brings its board: a startup file and a linker script (see
# examples/aarch64-baremetal-lto/board). This file sets only what every such program shares:
# the target, picolibc's headers and libraries, and lld. Programs print through semihosting
# (picolibc's libsemihost), which qemu-aarch64 serves on its standard error.
#
# smartcc search order: as smartcc-aarch64-linux-gnu.cmake (smartcc-find.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/smartcc-find.cmake")

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER   "${SMARTCC_BIN_DIR}/smartcc")
set(CMAKE_CXX_COMPILER "${SMARTCC_BIN_DIR}/smartc++")
set(CMAKE_C_COMPILER_TARGET   aarch64-none-elf)
set(CMAKE_CXX_COMPILER_TARGET aarch64-none-elf)
set(CMAKE_ASM_COMPILER_TARGET aarch64-none-elf)

set(SMARTCC_PICOLIBC_DIR /usr/lib/picolibc/aarch64-linux-gnu CACHE PATH "picolibc for aarch64")
if(NOT EXISTS "${SMARTCC_PICOLIBC_DIR}/include/stdio.h")
  message(FATAL_ERROR "picolibc not found in ${SMARTCC_PICOLIBC_DIR} "
    "(apt-get install picolibc-aarch64-linux-gnu, or -DSMARTCC_PICOLIBC_DIR=<dir>)")
endif()
# libgcc.a of the cross GCC: a path with GCC's version in it, so ask GCC.
find_program(SMARTCC_AARCH64_GCC aarch64-linux-gnu-gcc NO_CMAKE_FIND_ROOT_PATH)
if(SMARTCC_AARCH64_GCC AND NOT SMARTCC_AARCH64_LIBGCC)
  execute_process(COMMAND "${SMARTCC_AARCH64_GCC}" -print-libgcc-file-name
    OUTPUT_VARIABLE _libgcc OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(SMARTCC_AARCH64_LIBGCC "${_libgcc}" CACHE FILEPATH "libgcc.a for aarch64")
endif()

# picolibc's headers instead of the (absent) bare-metal sysroot's; no startup files or
# default libraries: the board's startup file and linker script come from the project.
set(_smartcc_inc "-nostdlibinc -isystem ${SMARTCC_PICOLIBC_DIR}/include")
set(CMAKE_C_FLAGS_INIT "${_smartcc_inc}")
set(CMAKE_CXX_FLAGS_INIT "${_smartcc_inc}")
set(CMAKE_ASM_FLAGS_INIT "${_smartcc_inc}")
foreach(_kind EXE SHARED MODULE)
  set(CMAKE_${_kind}_LINKER_FLAGS_INIT "-fuse-ld=lld -nostdlib -static -L${SMARTCC_PICOLIBC_DIR}/lib")
endforeach()
# After the program's own libraries: libc, its semihosting I/O (which needs libc again),
# then libgcc.
set(_smartcc_libs "-lc -lsemihost -lc ${SMARTCC_AARCH64_LIBGCC}")
set(CMAKE_C_STANDARD_LIBRARIES "${_smartcc_libs}" CACHE STRING "")
set(CMAKE_CXX_STANDARD_LIBRARIES "${_smartcc_libs}" CACHE STRING "")

# Without a board, CMake's compiler checks cannot link a program: check by compiling.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_FIND_ROOT_PATH "${SMARTCC_PICOLIBC_DIR}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs programs in user-mode qemu, which serves semihosting calls (output, exit).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
