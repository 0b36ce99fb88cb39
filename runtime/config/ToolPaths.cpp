#include "runtime/config/ToolPaths.h"
#include "runtime/config/BuildInfo.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstdlib>

using namespace llvm;

namespace smartcc {

std::string realClangPath() {
  const char *Override = std::getenv("SMARTCC_CLANG");
  return Override && *Override ? Override : SMARTCC_REAL_CLANG;
}

std::string realLinkerPath() {
  SmallString<256> Clang;
  if (sys::fs::real_path(realClangPath(), Clang))
    Clang = realClangPath();
  SmallString<256> Path(sys::path::parent_path(Clang));
  sys::path::append(Path, "ld.lld");
  return std::string(Path);
}

} // namespace smartcc
