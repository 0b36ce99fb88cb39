# CMake toolchain file: build for the host with smartcc / smartc++.
#   cmake -G Ninja -DCMAKE_TOOLCHAIN_FILE=<this file> [-DSMARTCC_BIN_DIR=<dir>] <src>
#
# Where smartcc is looked for, first match wins (shared with the cross file):
#   1. -DSMARTCC_BIN_DIR=<dir>          (cache variable)
#   2. $ENV{SMARTCC_BIN_DIR}            (environment)
#   3. <this dir>/../../../bin          (installed: <prefix>/share/smartcc/toolchain -> <prefix>/bin)
#   4. <this dir>/../build/bin          (source tree with the default build dir)
#   5. smartcc on PATH
include("${CMAKE_CURRENT_LIST_DIR}/smartcc-find.cmake")

set(CMAKE_C_COMPILER   "${SMARTCC_BIN_DIR}/smartcc")
set(CMAKE_CXX_COMPILER "${SMARTCC_BIN_DIR}/smartc++")
