// Register allocation chosen per function by bytes, among several allocators
// (policies/regalloc/AllocatorPlan.h): the module is code-generated once per allocator, each
// function's image bytes (its code and its unwind entry) are read from each object, and a last
// code generation gives every function the allocator under which it was smallest (the first
// allocator listed on ties). Allocation of one function does not depend on another's, so each
// function costs in the mix what it cost alone; the mix is measured again all the same, and
// the first allocator's object is returned instead if the mix is not smaller as a whole.
//
// An allocator whose code generation fails (PBQP cannot allocate some functions) is left out of
// the choice; the first allocator must succeed.
#pragma once
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/AllocatorPlan.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/ADT/StringMap.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

struct BytesAllocation {
  llvm::SmallString<0> Object; // the object returned
  AllocatorPlan Plan;          // which allocator each function got in it
  unsigned Codegens = 0;       // code generations run
  unsigned Functions = 0;      // functions measured under the first allocator
  unsigned FunctionsMoved = 0; // ... given another allocator in Object
  uint64_t FirstBytes = 0;     // image bytes of the first allocator's object
  uint64_t MixBytes = 0;       // ... of the mix (equal to FirstBytes when no function moved)
  std::vector<std::string> Failed; // allocators whose code generation failed, and why
  // Checked proposals stopped by one of the model's gates (ProposalGates): a module too small
  // to propose for (one code generation), or a mix not worth making (two).
  enum class StoppedAt { None, SmallModule, SmallMixGain } Stopped = StoppedAt::None;
  // Each function's image bytes under each allocator (as Allocators; none: its code generation
  // failed), and with RecordFeatures its features before allocation (AllocatorFeatures.h):
  // what the allocator-choice model learns from.
  std::vector<std::optional<std::map<std::string, uint64_t>>> Bytes;
  llvm::StringMap<std::vector<float>> Features;
};

using EmitObjectWithFn =
    llvm::function_ref<llvm::Error(llvm::Module &M, llvm::SmallVectorImpl<char> &Object)>;

// Allocates M's functions as above (M is rewritten by the last code generation; the others run
// on copies). Allocators[0] is the reference, usually greedy. PlanOnly: only the plan is made
// (every code generation on a copy, M untouched, no mix, Object empty), for a code generation
// that follows elsewhere (lld's, runtime/link/plugin/LinkAllocators.h).
llvm::Expected<BytesAllocation> allocateByBytes(llvm::Module &M,
                                                llvm::ArrayRef<AllocatorChoice> Allocators,
                                                EmitObjectWithFn Emit,
                                                bool RecordFeatures = false,
                                                bool PlanOnly = false);

// Checked proposals (AllocatorModel::isProposalModel): the module is code-generated under the
// model's reference allocator, recording each function's features; then once with each
// function at the allocator the model proposes for it; each function keeps its proposal only
// where it measured smaller, and a last code generation makes the mix (not needed when every
// proposal or none was kept). Two or three code generations instead of one per allocator and
// one more; on validation packages the proposals reach 83 % (x86-64) and 91 % (AArch64) of
// what trying every allocator saves (docs/results/allocators-by-bytes.md). The model's gates
// (ProposalGates) stop early where checking does not pay: a small module keeps the reference
// after one code generation, and where the mix would save little over the better whole object
// (functions' bytes add up, so that is known before the mix is made) that object ships after
// two. PlanOnly as above (no mix either way: the mix gate does not apply).
llvm::Expected<BytesAllocation> allocateByProposals(llvm::Module &M, const AllocatorModel &Model,
                                                    EmitObjectWithFn Emit,
                                                    bool PlanOnly = false);

} // namespace smartcc
