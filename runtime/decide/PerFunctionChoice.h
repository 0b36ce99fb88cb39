// Per-function decisions: clang's pipeline is run once as is and once per option (a set of
// function attributes, e.g. no-jump-tables, applied to every function); each function then
// gets the variant in which its own code was smallest, and the module is compiled once more
// with that mix and measured. Interactions (inlining moves code between functions) make the
// mix an estimate; the final compile is the truth, and the caller keeps clang's output when
// the mix is not smaller.
#pragma once
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class Module;
}

namespace smartcc {

using FunctionAttrSet = std::vector<std::pair<std::string, std::string>>;

struct PerFunctionResult {
  uint64_t BaselineBytes = 0;              // clang's pipeline, no option
  uint64_t MixedBytes = 0;                 // the per-function mix, measured
  uint64_t MixedIR = 0;
  std::map<std::string, int> Choice;       // function -> option index, -1 = none
};

// Pre is the pre-optimization module (left untouched).
llvm::Expected<PerFunctionResult> choosePerFunction(clang::CompilerInstance &CI,
                                                    const llvm::Module &Pre,
                                                    const std::vector<FunctionAttrSet> &Options);

} // namespace smartcc
