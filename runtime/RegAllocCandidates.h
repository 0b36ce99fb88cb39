// Where ML register allocation meets the optimizer. With `regalloc` = ml (the policy shipped
// for the target) or a model path:
//  - at -Oz/-Os, one more candidate ("ml-regalloc") code-generates clang's own optimized module
//    with the policy; like every candidate it ships only if its object is strictly smaller.
//  - at -O1..-O3 (otherwise clang's alone), the middle-end stays clang's and two codegens of
//    its optimized module are compared by the allocator's frequency-weighted spill cost: a
//    replica with LLVM's greedy priorities (clang's own object, which cannot report its cost)
//    and ml-regalloc. The ML object ships only when its cost is strictly lower.
#pragma once
#include "runtime/CandidateSpec.h"
#include "runtime/Config.h"
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

// Appends the candidates above to Specs (the greedy replica only at a speed level).
void applyRegAlloc(std::vector<CandidateSpec> &Specs, const RegAllocChoice &Choice,
                   bool SpeedLevel, llvm::StringRef Level);

constexpr const char *MLRegAllocCandidate = "ml-regalloc";

} // namespace smartcc
