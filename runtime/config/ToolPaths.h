// Where the LLVM 22 tools smartcc runs beside itself are: the clang it stands in for and the
// ld.lld beside that clang. Fixed at build time (runtime/config/BuildInfo.h); SMARTCC_CLANG
// overrides clang's path (and with it lld's), for tests and relocated installs.
#pragma once
#include <string>

namespace smartcc {

// The clang binary smartcc stands in for.
std::string realClangPath();

// LLVM 22's ld.lld: beside that clang (its real path: /usr/bin/clang-22 is a link into LLVM's
// bin folder).
std::string realLinkerPath();

} // namespace smartcc
