// gcc -Os beside the harvest (harvest_gcc): the alternative users compare clang -Oz against.
// After a size-optimized compile of one source succeeds, the same command is run with gcc at
// -Os into a temporary object, whose allocated bytes are appended to HARVEST/gcc-os.jsonl as
// {"directory", "source", "arch", "ok", "alloc_bytes"}; with harvest_targets naming aarch64,
// aarch64-linux-gnu-gcc runs too (arch "aarch64"). smartcc-eval's `gcc-os` method joins them with
// the harvested modules. Build trees are deleted after harvesting, so this is the only moment
// the exact command exists.
#pragma once
#include "runtime/config/Config.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang::driver {
class Compilation;
}

namespace smartcc {
// Args: the expanded command line, argv[0] first; Done: the compilation that just succeeded.
void recordGccSize(llvm::ArrayRef<const char *> Args, const clang::driver::Compilation &Done,
                   const Config &Cfg);
} // namespace smartcc
