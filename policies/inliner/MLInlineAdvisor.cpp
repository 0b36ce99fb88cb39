#include "policies/inliner/MLInlineAdvisor.h"
#include "policies/inliner/InlineFeatures.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/InlineAdvisor.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/MLInlineAdvisor.h"
#include "llvm/Analysis/MLModelRunner.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

using namespace llvm;

namespace smartcc {

namespace {

// What the advisor factory needs: PluginInlineAdvisorAnalysis takes a plain function pointer,
// so the policy reaches it through this thread's active scope.
struct ActiveInliner {
  ModuleAnalysisManager *MAM;
  const InlinePolicy *Policy;
  InlineLog *Log;
};
thread_local ActiveInliner *Active = nullptr;

// Evaluates the policy on the feature buffers MLInlineAdvisor fills. The default decision is
// set by the advisor just before each evaluation (the runner cannot see the call site).
class PolicyModelRunner : public MLModelRunner {
public:
  PolicyModelRunner(LLVMContext &Ctx, const std::vector<TensorSpec> &Specs,
                    const InlinePolicy &Policy, InlineLog *Log)
      : MLModelRunner(Ctx, Kind::Release, Specs.size()), Policy(Policy), Log(Log),
        Raw(Specs.size()) {
    for (size_t I = 0; I < Specs.size(); ++I)
      setUpBufferForTensor(I, Specs[I], nullptr);
  }
  bool NextDefault = false;

private:
  void *evaluateUntyped() override {
    for (size_t I = 0; I < Raw.size(); ++I)
      Raw[I] = *getTensor<int64_t>(I);
    bool Chosen = Policy.decide(Raw, NextDefault);
    if (Log && Log->flipsNext())
      Chosen = !Chosen;
    if (Log)
      Log->add(Raw, NextDefault, Chosen);
    Decision = Chosen;
    return &Decision;
  }
  const InlinePolicy &Policy;
  InlineLog *Log;
  std::vector<int64_t> Raw;
  int64_t Decision = 0;
};

class SmartInlineAdvisor : public MLInlineAdvisor {
public:
  SmartInlineAdvisor(Module &M, ModuleAnalysisManager &MAM, const InlinePolicy &Policy,
                     InlineLog *Log, std::function<bool(CallBase &)> GetDefault)
      : MLInlineAdvisor(
            M, MAM,
            [&](const std::vector<TensorSpec> &Specs) -> std::unique_ptr<MLModelRunner> {
              return std::make_unique<PolicyModelRunner>(M.getContext(), Specs, Policy, Log);
            },
            GetDefault),
        NeedDefault(Policy.needsHeuristic() || Log) {}

protected:
  std::unique_ptr<MLInlineAdvice> getAdviceFromModel(CallBase &CB,
                                                     OptimizationRemarkEmitter &ORE) override {
    // The heuristic's answer costs a second InlineCost analysis: only when it is needed.
    auto &Runner = static_cast<PolicyModelRunner &>(*ModelRunner);
    Runner.NextDefault = NeedDefault && GetDefaultAdvice(CB);
    return std::make_unique<MLInlineAdvice>(this, CB, ORE,
                                            static_cast<bool>(ModelRunner->evaluate<int64_t>()));
  }

private:
  bool NeedDefault;
};

// LLVM's own decision for CB under Params: what its default advisor would say.
bool heuristicAdvice(CallBase &CB, FunctionAnalysisManager &FAM, const InlineParams &Params) {
  Function &Caller = *CB.getCaller();
  Function &Callee = *CB.getCalledFunction();
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(Caller);
  auto GetAC = [&](Function &F) -> AssumptionCache & {
    return FAM.getResult<AssumptionAnalysis>(F);
  };
  auto GetTLI = [&](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };
  auto GetBFI = [&](Function &F) -> BlockFrequencyInfo & {
    return FAM.getResult<BlockFrequencyAnalysis>(F);
  };
  ProfileSummaryInfo *PSI = FAM.getResult<ModuleAnalysisManagerFunctionProxy>(Caller)
                                .getCachedResult<ProfileSummaryAnalysis>(*CB.getModule());
  TargetTransformInfo &CalleeTTI = FAM.getResult<TargetIRAnalysis>(Callee);
  auto GetCost = [&](CallBase &Call) {
    return getInlineCost(Call, Params, CalleeTTI, GetAC, GetTLI, GetBFI, PSI, nullptr);
  };
  return shouldInline(CB, CalleeTTI, GetCost, ORE, Params.EnableDeferral.value_or(false))
      .has_value();
}

InlineAdvisor *createAdvisor(Module &M, FunctionAnalysisManager &FAM, InlineParams Params,
                             InlineContext IC) {
  if (!Active) // an analysis manager outlived its scope: behave like clang
    return new DefaultInlineAdvisor(M, FAM, Params, IC);
  return new SmartInlineAdvisor(M, *Active->MAM, *Active->Policy, Active->Log,
                                [&FAM, Params](CallBase &CB) {
                                  return heuristicAdvice(CB, FAM, Params);
                                });
}

} // namespace

ScopedMLInliner::ScopedMLInliner(ModuleAnalysisManager &MAM, const InlinePolicy &Policy,
                                 InlineLog *Log)
    : Previous(Active) {
  MAM.registerPass([] { return PluginInlineAdvisorAnalysis(createAdvisor); });
  Active = new ActiveInliner{&MAM, &Policy, Log};
}

ScopedMLInliner::~ScopedMLInliner() {
  delete Active;
  Active = static_cast<ActiveInliner *>(Previous);
}

} // namespace smartcc
