// Harvesting for more targets than the build's own: with `harvest_targets`, after a compile
// succeeds, smartcc compiles the same command again for each listed target, only to harvest
// the frontend's module (quietly, to a temporary object, without touching dependency files).
// A package configured once for the host thus yields aarch64 modules too; compiles that fail
// for the other target (host-specific headers) are simply skipped.
#pragma once
#include "runtime/config/Config.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang::driver {
class Compilation;
}

namespace smartcc {
// Args: the expanded command line, argv[0] first; Done: the compilation that just succeeded.
void harvestForOtherTargets(llvm::ArrayRef<const char *> Args,
                            const clang::driver::Compilation &Done, const Config &Cfg);
}
