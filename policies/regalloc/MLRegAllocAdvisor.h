// smartcc's register-allocation advisor inside LLVM's greedy allocator (stock LLVM 22, no
// TensorFlow, no LibTorch). The greedy allocator asks the legacy pass manager for
// RegAllocPriorityAdvisorAnalysisLegacy; clang's backend builds that pass manager itself, so the
// advisor is reached through the pass registry: the analysis's constructor is replaced once by
// one that, on a thread inside a ScopedMLRegAlloc, builds smartcc's analysis (the policy's
// priorities) and otherwise an analysis giving LLVM's default priorities unchanged (or LLVM's
// own, if -regalloc-enable-priority-advisor asks for another mode). So parallel compiles on
// other threads, and every compile outside a scope, allocate exactly as LLVM does; they only
// wait while another thread allocates a function with a head's options (AllocatorOptions.h).
#pragma once
#include "policies/regalloc/RegAllocPolicy.h"

namespace smartcc {

class ScopedMLRegAlloc {
public:
  // Policy (and Log and Plan, if given) must outlive every codegen run inside the scope.
  // Without a plan every function takes head 0.
  ScopedMLRegAlloc(const RegAllocPolicy &Policy, RegAllocLog *Log = nullptr,
                   const RegAllocPlan *Plan = nullptr);
  ~ScopedMLRegAlloc();
  ScopedMLRegAlloc(const ScopedMLRegAlloc &) = delete;
  ScopedMLRegAlloc &operator=(const ScopedMLRegAlloc &) = delete;

private:
  const RegAllocPolicy *SavedPolicy;
  RegAllocLog *SavedLog;
  const RegAllocPlan *SavedPlan;
};

} // namespace smartcc
