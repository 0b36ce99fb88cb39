// Applying an option action or a candidate's options (ActionSpace's "options" space,
// CandidateSpec::FunctionAttrs/LLVMArgs): the same two steps wherever they happen, in a
// candidate's process (CandidateRunner, PolicyRollout), in the learning environment
// (CompilerEnv) and in smartcc-eval, so that all of them compile the same code.
#pragma once
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

using FunctionAttrList = std::vector<std::pair<std::string, std::string>>;

// Adds the string attributes to every function definition of M (what clang would have emitted
// for the matching flag, e.g. -fno-jump-tables: "no-jump-tables"="true").
void addFunctionAttributes(llvm::Module &M, const FunctionAttrList &Attrs);

// Parses UserArgs (the compile's own -mllvm options) and then Extra on top of them, as
// -mllvm would, after forgetting earlier occurrences. cl::opt state is process-global: only
// for a process of its own (a candidate's). Errors say which option did not parse, after Who.
llvm::Error applyLLVMOptions(const std::vector<std::string> &UserArgs,
                             const std::vector<std::string> &Extra, const std::string &Who);

} // namespace smartcc
