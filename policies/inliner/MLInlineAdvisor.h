// smartcc's ML inline advisor, on stock LLVM 22: LLVM's MLInlineAdvisor (its features, its
// bookkeeping, its growth guard) with smartcc's own model runner, which evaluates an
// InlinePolicy. It is plugged in through PluginInlineAdvisorAnalysis, which every
// `inliner-wrapper` (the inliner of clang's -Oz pipeline) consults before its default advisor.
//
// The growth guard is MLGO's, inside MLInlineAdvisor: once the module's IR grows past twice its
// size at the start of inlining (-mllvm -ml-advisor-size-increase-threshold), no further call
// site is inlined except mandatory ones, whatever the policy says.
#pragma once
#include "policies/inliner/InlinePolicy.h"

namespace llvm {
template <typename IRUnitT, typename... ExtraArgTs> class AnalysisManager;
class Module;
using ModuleAnalysisManager = AnalysisManager<Module>;
} // namespace llvm

namespace smartcc {

// While alive, inliner passes run with MAM on this thread are advised by Policy; decisions are
// appended to Log if given. Registers the plugin analysis in MAM, so construct it before the
// pass manager runs.
class ScopedMLInliner {
public:
  ScopedMLInliner(llvm::ModuleAnalysisManager &MAM, const InlinePolicy &Policy,
                  InlineLog *Log = nullptr);
  ~ScopedMLInliner();
  ScopedMLInliner(const ScopedMLInliner &) = delete;
  ScopedMLInliner &operator=(const ScopedMLInliner &) = delete;

private:
  void *Previous;
};

} // namespace smartcc
