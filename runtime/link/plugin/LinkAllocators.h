// Register allocators chosen per function at the link (smartcc-allocators<...> in a link
// candidate's pipeline, runtime/link/plugin/LTOPassPlugin.cpp): what the per-TU candidates
// oz-late-allocators and oz-late-allocators-predicted do (runtime/compile/AllocatorsByBytes.h,
// policies/regalloc/AllocatorPlan.h), done to the whole program inside lld, whose code
// generation otherwise runs greedy on every function.
//
//   smartcc-allocators<greedy;basic;pbqp;...>  tried: the module is code-generated once per
//       allocator on copies (a target machine of the plugin's own, from the module's triple and
//       functions' attributes; its sections per function, as lld's), each function gets the
//       allocator under which its code and unwind entry were smallest
//   smartcc-allocators<predicted>  the allocator-choice model built in for the module's target
//       proposes each function's allocator as it is allocated: no extra code generation
//   smartcc-allocators<proposed>   checked proposals: the allocator-proposal model built in for
//       the target names one allocator to try per function, each keeps it where it measured
//       smaller (allocateByProposals: two planning code generations)
//
// The pass plans; lld's own code generation, which follows on the same thread (full LTO, one
// partition; a ThinLTO backend runs its pipeline and code generation on one thread too),
// allocates by the plan. The link candidate is measured whole like any other, so a plan that
// does not pay (the plugin's code generation differing from lld's) just loses.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace smartcc {

// Parses the element's parameters (above) into MPM; false if they are not allocators.
bool addLinkAllocatorsPass(llvm::StringRef Params, llvm::ModulePassManager &MPM);

} // namespace smartcc
