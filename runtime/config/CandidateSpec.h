// A candidate: one way to optimize and code-generate a translation unit. Plain data, read
// from configuration (policies/candidates.toml or a user's config) or produced by a policy.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace smartcc {

class InlinePolicy;
struct FunctionMixInput;
class RegAllocPolicy;
class SequenceAgent;

struct CandidateSpec {
  std::string Name;
  std::string Description;
  // Middle-end stages run in order on the frontend's pre-optimization module. "default" is
  // clang's own pipeline at the user's -O level (exactly as clang builds it); anything else is
  // a new-pass-manager pipeline string, e.g. "function(simplifycfg)".
  std::vector<std::string> Pipeline{"default"}; // empty with a policy: it starts from the frontend
  // cl::opt settings (as for -mllvm) applied only inside this candidate's process, e.g.
  // "-enable-machine-outliner=always". They may steer both the middle-end and codegen.
  std::vector<std::string> LLVMArgs;
  // String attributes added to every function definition before the pipeline, e.g.
  // {"no-jump-tables", "true"}: what clang's -fno-jump-tables would have emitted.
  std::vector<std::pair<std::string, std::string>> FunctionAttrs;
  // A trained policy (an exported model, smartcc-train's model.smm): after the pipeline stages,
  // the policy's greedy action sequence is played on the module (development mode: loaded from
  // this path in the candidate's process).
  std::string Policy;
  // A fixed action sequence of ActionSpace played like a policy's (from the frontend's module
  // after mandatory inlining, as the environment's episodes start): what the sequence-value
  // agent proposes. PredictedPercent is the agent's predicted gain, for --smartcc-explain.
  std::vector<std::string> Actions;
  std::string ActionSpace;
  std::optional<float> PredictedPercent;
  // Effort 2's guided search (runtime/candidates/GuidedSearch.h): after the sequence, the candidate asks
  // this agent to rank its core set on the module it reached, and reports the ranking
  // (CandidateResult::Next), so that the next round can continue this candidate's state.
  std::shared_ptr<const SequenceAgent> ProposeAfter;
  // Starts from clang's own optimized module instead of the frontend's: the candidate process
  // is forked at the end of clang's middle-end (the sequence began with clang's whole pipeline),
  // so only the rest of clang's pipeline (ClangPipelineTail), then Pipeline (empty by default),
  // the sequence and code generation run in it. For code-generation options this halves the
  // cost of a candidate.
  bool AfterClangPipeline = false;
  // Target triple prefixes on which this candidate cannot differ from clang's output (e.g. the
  // machine outliner on aarch64, which already outlines minsize code): it is not run there.
  std::vector<std::string> SkipTargets;
  // The -O levels ("Oz", "Os") at which SkipTargets applies; empty: every level. The machine
  // outliner's candidates: AArch64 outlines by default only under minsize (-Oz), so at -Os
  // (kernels, boot loaders, firmware) they can differ from clang's output and run.
  std::vector<std::string> SkipLevels;
  // Not run when the object carries bitcode for a whole-program link (fat_objects and
  // whole_program on, the default): its gains are per-TU machine code, which the link's
  // image does not keep; only archives and links that keep the objects' code would.
  bool SkipWholeProgram = false;
  // An ML inlining policy (policies/inliner/): every inliner pass of this candidate's
  // middle-end asks it instead of LLVM's heuristic. Null: LLVM's heuristic, as clang.
  std::shared_ptr<const InlinePolicy> Inliner;
  // A register-allocation policy (policies/regalloc/): the greedy allocator of this
  // candidate's codegen takes its priorities. Null: LLVM's own, as clang.
  std::shared_ptr<const RegAllocPolicy> RegAlloc;
  // With RegAlloc: the fraction of the module's code bytes its per-function choice may add
  // over greedy's allocation to be cheaper (runtime/compile/RegAllocPortfolio.h); 0 at size levels.
  double RegAllocMaxGrowth = 0;
  // Register allocators chosen per function by bytes (runtime/compile/AllocatorsByBytes.h),
  // as policies/regalloc/AllocatorPlan.h names them ("greedy", "basic", "pbqp",
  // "greedy:-split-spill-mode=default"); the first is the reference. Empty: clang's allocator.
  std::vector<std::string> Allocators;
  // An allocator-choice model (policies/regalloc/AllocatorModel.h): "builtin" (the one built
  // in for the target) or a path. One code generation, each function at the allocator the
  // model predicts for it. "builtin-proposals" or a path to a proposal model: checked
  // proposals (runtime/compile/AllocatorsByBytes.h, allocateByProposals). Empty: none.
  std::string AllocatorModel;
  // One unwind entry for the TU's frameless functions (runtime/compile/SharedUnwind.h): the IR
  // pass before code generation, its code-generation stages in it. The decision checks the
  // object before it may ship (runtime/link/SharedUnwindObject.h).
  bool SharedUnwind = false;
  // Stands for clang's own output where that output cannot be measured in the needed unit
  // (-S, the IR metric, the register-allocation cost): it is the baseline, not a contender.
  bool Replica = false;
  // Hands back the module after Pipeline as bitcode and generates no code: the bitcode a fat
  // object carries for whole-program links (LTO's pre-link pipeline, as clang's -flto compile
  // writes it). Not a contender either.
  bool BitcodeOnly = false;
  // The function-mix candidate (runtime/decide/FunctionMixCandidate.h): its module is built in its
  // process from these measured versions instead of being optimized; LLVMArgs are the base
  // version's code-generation options.
  std::shared_ptr<const FunctionMixInput> Mix;
  // Overrides of clang's pipeline tuning options for the "default" stage.
  std::optional<bool> MergeFunctions;
  std::optional<bool> LoopUnrolling;
  std::optional<bool> SLPVectorization;
  std::optional<bool> LoopVectorization;
};

// Whether a candidate's skip_targets (a compile candidate's or a link candidate's) names a prefix
// of Triple: the candidate is not run for that target.
inline bool skipsTarget(const std::vector<std::string> &SkipTargets, std::string_view Triple) {
  for (const std::string &Prefix : SkipTargets)
    if (Triple.substr(0, Prefix.size()) == Prefix)
      return true;
  return false;
}

// Whether a compile candidate is not run for Triple at Level (skip_targets, skip_levels).
inline bool skipsTargetAt(const std::vector<std::string> &SkipTargets,
                          const std::vector<std::string> &SkipLevels, std::string_view Triple,
                          std::string_view Level) {
  if (!skipsTarget(SkipTargets, Triple))
    return false;
  if (SkipLevels.empty())
    return true;
  for (const std::string &L : SkipLevels)
    if (L == Level)
      return true;
  return false;
}

} // namespace smartcc
