// Where ML register allocation meets the optimizer. With `regalloc` = ml (the policy shipped
// for the target) or a model path:
//  - at -Oz/-Os, one more candidate ("ml-regalloc") code-generates clang's own optimized module
//    with the policy; like every candidate it ships only if its object is strictly smaller.
//  - at -O1..-O3 (otherwise clang's alone), the middle-end stays clang's, and ml-regalloc
//    code-generates its optimized module with LLVM's greedy priorities (clang's own allocation,
//    whose cost clang's object cannot report), then allocates per function among those and
//    the policy's heads. Its object ships only when its cost is strictly lower than greedy's.
#pragma once
#include "runtime/config/CandidateSpec.h"
#include "runtime/config/Config.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace smartcc {

struct RegAllocChoice {
  std::shared_ptr<const RegAllocPolicy> Policy; // null: LLVM's greedy priorities
  std::string Note; // why ml was asked for and not used (no model for this target)
};

RegAllocChoice regAllocFor(const Config &Cfg, llvm::StringRef Triple);

// True for the levels at which smartcc takes a compile over only for register allocation.
bool isSpeedLevel(llvm::StringRef Level);

// Appends the candidate above to Specs; its allocation may add MaxGrowth (a fraction) of the
// module's code bytes (`regalloc_growth` at a speed level, 0 at a size level).
void applyRegAlloc(std::vector<CandidateSpec> &Specs, const RegAllocChoice &Choice,
                   double MaxGrowth = 0);

constexpr const char *MLRegAllocCandidate = "ml-regalloc";

} // namespace smartcc
