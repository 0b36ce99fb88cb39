// The candidate library shipped inside smartcc (policies/candidates.toml, embedded at build time).
#pragma once
#include "llvm/ADT/StringRef.h"

namespace smartcc {
llvm::StringRef builtinCandidatesToml();
} // namespace smartcc
