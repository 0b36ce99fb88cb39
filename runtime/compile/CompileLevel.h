// A harvested -Oz compile as it would have been at another -O level. The corpus keeps each
// translation unit once, at the size level smartcc optimizes; speed builds (ML register
// allocation at -O2) and the level baselines of smartcc-eval (-Os, -O0) need the same code as
// clang would have compiled it at their level: the cc1 arguments clang's driver gives that
// level, and the function attributes its frontend marks.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

// Args (cc1 arguments at any -O level) with the level replaced by Level (O0..O3, Os, Oz) and
// the vectorizers clang's driver enables there: loop and SLP at -O2, -O3 and -Os, SLP alone at
// -Oz, neither at -O0 and -O1.
std::vector<std::string> cc1ArgsAtLevel(std::vector<std::string> Args, llvm::StringRef Level);

// Gives M's function definitions the size attributes the frontend marks at Level: minsize
// only at -Oz, optsize at -Os and -Oz. (optnone and noinline of -O0 are not added: the
// CompilerGym-style -O0 input is compiled without them.)
void setSizeAttributesForLevel(llvm::Module &M, llvm::StringRef Level);

} // namespace smartcc
