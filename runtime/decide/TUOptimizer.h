// One translation unit's size optimization, wrapped around clang's own compile of it.
//
//   attach()   before the compile: hooks the start of clang's middle-end.
//   (hook)     at that point the module is the frontend's pre-optimization IR at the user's
//              -O level; the candidate processes are forked from it, and clang goes on to
//              produce its own -Oz output (the baseline) in this process, untouched.
//   finish()   after the compile: measures clang's output and the candidates', ships the
//              strictly smallest (clang's on ties and failures), and records the decision.
#pragma once
#include "runtime/measure/StackSizeWarnings.h"
#include "runtime/candidates/AgentCandidates.h"
#include "runtime/candidates/GuidedSearch.h"
#include "runtime/candidates/InlinerCandidates.h"
#include "runtime/candidates/RegAllocCandidates.h"
#include "runtime/candidates/CandidatePool.h"
#include "runtime/config/Config.h"
#include <chrono>
#include <memory>

namespace clang {
class CompilerInstance;
}

namespace smartcc {

class TUOptimizer {
public:
  // HarvestOnly: the compile is not optimized, only harvested (it runs no candidates and
  // makes no decision).
  TUOptimizer(clang::CompilerInstance &CI, const Config &Cfg, std::string Level,
              std::vector<std::string> CC1Args = {}, bool HarvestOnly = false);
  void attach();
  void finish(bool CompileSucceeded);

private:
  // -Oz/-Os: the agent, the configured candidates, the ML inliner, the -S replica.
  std::vector<CandidateSpec> sizeCandidates(llvm::Module &M, llvm::StringRef Triple);
  void onPipelineStart(llvm::Module &M);
  void onOptimizerLast(llvm::Module &M);
  // Forks a pool of Specs from M's state now; null (and LaunchError set) if that fails.
  std::unique_ptr<CandidatePool> launch(llvm::Module &M, std::vector<CandidateSpec> Specs);
  void report(struct TUDecision &D);
  void saveCandidates();
  void runGuidedSearch(Metric M, struct TUDecision &D);
  // The function mix (runtime/decide/FunctionMixCandidate.h), after every other candidate.
  void runFunctionMix(Metric M, struct TUDecision &D);
  void harvest(llvm::Module &M);
  const char *harvestCounter() const; // the stats counter this TU's harvest adds to
  bool verbose() const;
  // Effort 2 with guided_candidates, deciding on clang's object (not -S, not the IR metric).
  bool guidedSearchApplies() const;
  // `function_mix` at a size level, deciding on clang's object (not -S, not the IR metric),
  // for a TU within the candidate budget.
  bool functionMixApplies() const;
  // Every pool so far, in the order their candidates are reported (absent ones null).
  std::vector<CandidatePool *> pools() const;

  clang::CompilerInstance &CI;
  const Config &Cfg;
  std::string Level;
  std::vector<std::string> CC1Args; // for the harvest record
  bool HarvestOnly = false;
  std::string HarvestError;
  bool EmitAssembly = false;
  bool Started = false;
  // `fat_objects`: the module's bitcode when the middle-end started, added to the object that
  // ships (runtime/compile/FatObject.h); empty when not asked for.
  std::string FatBitcode;
  std::string LaunchError;
  std::unique_ptr<CandidatePool> Pool;     // forked at the start of clang's middle-end
  std::unique_ptr<CandidatePool> LatePool; // forked at its end (CandidateSpec::AfterClangPipeline)
  std::vector<CandidateSpec> LateSpecs;    // waiting for that point
  AgentChoice Agent;
  std::unique_ptr<GuidedSearch> Guided; // effort 2: rounds after the core set (GuidedSearch.h)
  std::vector<std::unique_ptr<CandidatePool>> GuidedPools;
  std::string ClangBitcode;                // clang's module at its optimizer's end, for the mix
  // -Wframe-larger-than: the stack-size warnings of clang's code generation, recorded by a
  // handler the compile's LLVM context owns (shared: the context may outlive this).
  std::shared_ptr<StackSizeWarnings> ClangStackSize;
  bool StackRecorded = false;
  std::unique_ptr<CandidatePool> MixPool;  // the function-mix candidate
  std::string BudgetNote; // what the candidate budget left out
  bool LargeTU = false;   // more IR instructions than the candidate budget
  InlinerChoice Inliner;
  bool SpeedLevel = false; // -O1..-O3: taken over for register allocation only
  // The default candidates share one unwind entry among frameless functions (sizeCandidates);
  // so does the function mix.
  bool SharedUnwind = false;
  RegAllocChoice RegAlloc;
  std::chrono::steady_clock::time_point Start;
};

} // namespace smartcc
