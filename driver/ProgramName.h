// Path helpers shared by the LLVM-free launcher and the core (header-only on purpose).
//
// smartcc needs no program-name table of its own: clang infers driver mode and target from
// the name it is run under (smartc++ -> C++ via the "++" suffix, aarch64-linux-gnu-smartcc ->
// --target=aarch64-linux-gnu) and prefixes its diagnostics with that name ("smartcc: error:").
// So smartcc runs clang with argv[0] = clang's directory + smartcc's own name.
#pragma once
#include <string>

namespace smartcc {

inline std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

inline std::string dirName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

// argv[0] for real clang: clang's directory (so -no-canonical-prefixes still finds the
// resource dir) with our program name (so mode, target and diagnostics follow our name).
inline std::string clangArgv0(const std::string &RealClang, const std::string &OurArgv0) {
  return dirName(RealClang) + "/" + baseName(OurArgv0);
}

} // namespace smartcc
