#include "policies/BuiltinCandidates.h"
#include "BuiltinCandidates.inc"

llvm::StringRef smartcc::builtinCandidatesToml() { return ::builtinCandidatesToml; }
