#include "runtime/decide/TUOptimizer.h"
#include "runtime/measure/StackSizeWarnings.h"
#include "runtime/compile/UnwindAwareConstants.h"
#include "runtime/compile/EpiloguePops.h"
#include "runtime/compile/SizeCodegen.h"
#include "runtime/config/ToolPaths.h"
#include "runtime/link/SharedUnwindObject.h"
#include "runtime/compile/FatObject.h"
#include "runtime/candidates/AgentCandidates.h"
#include "runtime/candidates/CandidateBudget.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/decide/FunctionMixCandidate.h"
#include "runtime/candidates/InlinerCandidates.h"
#include "policies/inliner/InlinePolicy.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/RegAllocPolicy.h"
#include "runtime/decide/Decision.h"
#include "runtime/observe/Harvester.h"
#include "runtime/observe/SideOutputs.h"
#include "runtime/observe/Stats.h"
#include "runtime/measure/UndefinedSymbols.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <limits>
#include <optional>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

namespace {

// Hands the pre-optimization module to the optimizer. It changes nothing, so clang's pipeline
// continues exactly as without smartcc.
struct PipelineStartHook : PassInfoMixin<PipelineStartHook> {
  std::function<void(Module &)> OnStart;
  explicit PipelineStartHook(std::function<void(Module &)> F) : OnStart(std::move(F)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    OnStart(M);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

TUOptimizer::TUOptimizer(clang::CompilerInstance &CI, const Config &Cfg, std::string Level,
                         std::vector<std::string> CC1Args, bool HarvestOnly)
    : CI(CI), Cfg(Cfg), Level(std::move(Level)), CC1Args(std::move(CC1Args)),
      HarvestOnly(HarvestOnly) {}

const char *TUOptimizer::harvestCounter() const {
  return HarvestError.empty() ? "harvest.written" : "error.harvest";
}

void TUOptimizer::harvest(Module &M) {
  HarvestContext Ctx;
  Ctx.Dir = Cfg.HarvestDir;
  const clang::FrontendOptions &FO = CI.getFrontendOpts();
  Ctx.Source = FO.Inputs.empty() ? "" : FO.Inputs[0].getFile().str();
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd))
    Ctx.Directory = Cwd.str().str();
  Ctx.Target = CI.getTargetOpts().Triple;
  Ctx.Level = Level;
  if (const char *Package = std::getenv("SMARTCC_HARVEST_PACKAGE"))
    Ctx.Package = Package;
  Ctx.CC1Args = CC1Args; // build probes never get here (driver/Eligibility.h)
  if (Expected<std::string> Hash = harvestModule(M, Ctx); !Hash) {
    HarvestError = toString(Hash.takeError());
    warnSideOutput("harvested bitcode to", Cfg.HarvestDir,
                   createStringError(inconvertibleErrorCode(), HarvestError));
  }
}

bool TUOptimizer::guidedSearchApplies() const {
  return Cfg.Effort == 2 && Cfg.GuidedCandidates && !EmitAssembly &&
         Cfg.SizeMetric != Metric::IRInstructions;
}

bool TUOptimizer::functionMixApplies() const {
  // Unset, FunctionMix is true at effort 2 only (loadConfig): on the linked images of 12
  // x86-64 projects the mix saved 0.03 % for about 4 % more build CPU at effort 1, a poorer
  // trade than effort 1's own candidates (docs/results/function-mix.md).
  // A TU over the candidate budget gets no extra code generation (nor bitcode written for it).
  return Cfg.FunctionMix && !SpeedLevel && !EmitAssembly && !LargeTU &&
         Cfg.SizeMetric != Metric::IRInstructions;
}

std::vector<CandidatePool *> TUOptimizer::pools() const {
  std::vector<CandidatePool *> All{Pool.get(), LatePool.get()};
  for (const std::unique_ptr<CandidatePool> &P : GuidedPools)
    All.push_back(P.get());
  All.push_back(MixPool.get());
  return All;
}

bool TUOptimizer::verbose() const { return CI.getHeaderSearchOpts().Verbose; }

void TUOptimizer::attach() {
  Start = std::chrono::steady_clock::now();
  EmitAssembly = CI.getFrontendOpts().ProgramAction == clang::frontend::EmitAssembly;
  CI.getCodeGenOpts().PassBuilderCallbacks.push_back([this](PassBuilder &PB) {
    PB.registerPipelineStartEPCallback([this](ModulePassManager &MPM, OptimizationLevel) {
      MPM.addPass(PipelineStartHook([this](Module &M) { onPipelineStart(M); }));
    });
    PB.registerOptimizerLastEPCallback(
        [this](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
          MPM.addPass(PipelineStartHook([this](Module &M) { onOptimizerLast(M); }));
        });
  });
}

void TUOptimizer::onOptimizerLast(Module &M) {
  // -Wframe-larger-than: what clang's code generation, which starts now, warns about.
  if (CI.getCodeGenOpts().WarnStackSize != UINT_MAX && !StackRecorded) {
    ClangStackSize = std::make_shared<StackSizeWarnings>();
    recordStackSizeWarnings(M.getContext(), ClangStackSize);
    StackRecorded = true;
  }
  if (Guided)
    Guided->snapshotAfterClang(M);
  // clang's own version of the module for the function mix (only when candidates run, so
  // that there is something to mix it with).
  if (functionMixApplies() && (Pool || !LateSpecs.empty()) && ClangBitcode.empty()) {
    raw_string_ostream OS(ClangBitcode);
    WriteBitcodeToFile(M, OS);
  }
  if (LateSpecs.empty() || LatePool || LaunchError.size())
    return;
  LatePool = launch(M, std::move(LateSpecs));
  LateSpecs.clear();
}

std::unique_ptr<CandidatePool> TUOptimizer::launch(Module &M, std::vector<CandidateSpec> Specs) {
  CandidateContext Ctx;
  Ctx.CI = &CI;
  Ctx.EmitAssembly = EmitAssembly;
  Ctx.MaxGrowth = Cfg.MaxGrowth;
  Ctx.EmitBitcode = functionMixApplies();
  Expected<std::unique_ptr<CandidatePool>> P =
      CandidatePool::launch(M, std::move(Specs), Ctx, Cfg.effectiveJobs(), Cfg.TimeoutMs);
  if (P)
    return std::move(*P);
  LaunchError = toString(P.takeError());
  return nullptr;
}

std::vector<CandidateSpec> TUOptimizer::sizeCandidates(Module &M, StringRef Triple) {
  // The candidate budget (runtime/candidates/CandidateBudget.h): what this TU may spend on candidates,
  // in compiles of it, estimated per candidate kind. Candidates the user listed
  // (`candidates`) are a request, not a default: they all run.
  const bool Budgeted = Cfg.CandidateBudget && Cfg.candidatesAreDefault();
  const uint64_t IR = Budgeted ? countIRInstructions(M) : 0;
  const double Allowance = Budgeted
                               ? budgetAllowance(Cfg.CandidateBudget, Cfg.CandidateTime, IR)
                               : std::numeric_limits<double>::infinity();
  LargeTU = Budgeted && IR > Cfg.CandidateBudget;
  std::vector<CandidateSpec> Specs;
  if (Allowance < LateCost) {
    // Nothing would run: the agent is not asked either (its features walk the whole module).
    BudgetNote = formatv("no candidate runs: {0} IR instructions, budget {1} IR instructions "
                         "or {2} % of a compile; the agent was not asked",
                         IR, Cfg.CandidateBudget, Cfg.CandidateTime)
                     .str();
  } else {
    // The agent's proposals and the library's candidates (all of them without an agent, at
    // effort 2, or when the user configured the list; with the agent at effort 0 or 1 they
    // only take the places of proposals the budget does not afford), in candidateOrder's
    // order.
    Agent = agentCandidates(M, Cfg, Triple, guidedSearchApplies());
    const bool AgentDecides = Agent.Active && Cfg.Effort < 2 && Cfg.candidatesAreDefault();
    std::vector<CandidateSpec> Library;
    if (!AgentDecides || Budgeted)
      Library = Cfg.enabledCandidates();
    // Candidates known to be identical to clang's output on this target cost a compile for
    // nothing (measured with smartcc-eval; see policies/candidates.toml).
    // Per-TU candidates that the whole-program link makes moot are not run when this object
    // carries bitcode for one: the program's image will come from the link.
    const bool ForWholeProgram = Cfg.FatObjects && Cfg.WholeProgram && !EmitAssembly;
    llvm::erase_if(Library, [&](const CandidateSpec &S) {
      return skipsTargetAt(S.SkipTargets, S.SkipLevels, Triple, Level) ||
             (S.SkipWholeProgram && ForWholeProgram);
    });
    std::vector<bool> ProposalLate, LibraryLate;
    for (const CandidateSpec &S : Agent.Specs)
      ProposalLate.push_back(S.AfterClangPipeline);
    std::vector<unsigned> LibraryCodegens;
    for (const CandidateSpec &S : Library) {
      LibraryLate.push_back(S.AfterClangPipeline);
      // Tried allocators: one per allocator and the mix; checked proposals: the reference,
      // the proposals and at most the mix (runtime/compile/AllocatorsByBytes.h).
      LibraryCodegens.push_back(!S.Allocators.empty() ? unsigned(S.Allocators.size() + 1)
                                : S.AllocatorModel == BuiltinProposalModel ? 3u
                                                                           : 1u);
    }
    // The agent's effort says how many candidates run at most; the library's candidates only
    // take the places of proposals that the budget does not afford.
    const size_t All = Agent.Specs.size() + Library.size();
    const size_t Cap = AgentDecides ? std::max<size_t>(1, Agent.Specs.size()) : All;
    const size_t WouldRun = std::min(All, Cap);
    for (CandidateSlot Slot : candidatesWithinBudget(ProposalLate, LibraryLate, Allowance,
                                                     IR > Cfg.CandidateBudget, Cap,
                                                     LibraryCodegens))
      Specs.push_back(Slot.FromLibrary ? Library[Slot.Index] : Agent.Specs[Slot.Index]);
    const size_t FromLibrary = AgentDecides ? llvm::count_if(Specs, [](const CandidateSpec &S) {
                                                return !S.PredictedPercent;
                                              })
                                            : 0;
    const size_t Kept = Specs.size() - FromLibrary;
    if (Kept < WouldRun)
      BudgetNote = formatv("{0} of {1} candidates run{2}: {3} IR instructions, budget {4} IR "
                           "instructions or {5} % of a compile",
                           Kept, WouldRun,
                           FromLibrary ? formatv(", and {0} from the library in place of the "
                                                 "others",
                                                 FromLibrary)
                                             .str()
                                       : std::string(),
                           IR, Cfg.CandidateBudget, Cfg.CandidateTime)
                       .str();
  }
  // The ML inliner, when asked for, decides inlining in every candidate (not in clang's own
  // output, nor in the replica below that stands for it). Its own candidate is the user's
  // request, like configured candidates: the budget does not remove it.
  Inliner = inlinerFor(Cfg, Triple);
  applyInliner(Specs, Inliner);
  // Unwind-aware constants (x86-64; runtime/compile/UnwindAwareConstants.h): every default
  // candidate's code generation moves small constants where a push/pop pair would need
  // unwind entries, and clang's own optimized module gets a candidate so code-generated,
  // outside the budget (a code generation: what a late candidate costs), since it is smaller
  // on most files. A candidate list the user configured runs as configured.
  if (Cfg.UnwindConstants && Triple.starts_with("x86_64") && Cfg.candidatesAreDefault() &&
      !Specs.empty()) {
    const bool Listed = llvm::any_of(
        Specs, [](const CandidateSpec &S) { return S.Name == UnwindConstantsCandidate; });
    for (CandidateSpec &S : Specs)
      if (!S.Mix && !llvm::is_contained(S.FunctionAttrs,
                                        std::pair<std::string, std::string>(UnwindConstantsAttr,
                                                                            "true")))
        S.FunctionAttrs.emplace_back(UnwindConstantsAttr, "true");
    auto It = Cfg.CandidateLibrary.find(UnwindConstantsCandidate);
    if (!Listed && It != Cfg.CandidateLibrary.end())
      Specs.push_back(It->second);
  }
  // Code generation options for size (x86-64, AArch64; runtime/compile/SizeCodegen.h): every default
  // candidate's code generation, the unwind-aware one above included, adds them (the function
  // mix is built with its base version's options). A list the user configured runs as
  // configured.
  if (Cfg.SizeCodegen && (Triple.starts_with("x86_64") || Triple.starts_with("aarch64")) &&
      Cfg.candidatesAreDefault()) {
    const std::vector<std::string> Args = sizeCodegenLLVMArgs(hasLandingPads(M));
    const std::pair<std::string, std::string> Pops(EpiloguePopsAttr, "true");
    for (CandidateSpec &S : Specs) {
      if (S.Mix)
        continue;
      for (const std::string &A : Args)
        if (!llvm::is_contained(S.LLVMArgs, A))
          S.LLVMArgs.push_back(A);
      // x86-64's epilogues free the alignment slot by a pop (runtime/compile/EpiloguePops.h).
      if (Triple.starts_with("x86_64") && !llvm::is_contained(S.FunctionAttrs, Pops))
        S.FunctionAttrs.push_back(Pops);
    }
  }
  // One unwind entry for the TU's frameless functions (runtime/compile/SharedUnwind.h): every
  // default candidate, where the object will be linked by a Linux linker as one section
  // among the TU's others (not with -ffunction-sections or basic-block sections, whose
  // per-function sections --gc-sections and ICF may drop or fold one by one; not -S, whose
  // output the check cannot read). The decision checks the object before it ships.
  const clang::CodeGenOptions &CG = CI.getCodeGenOpts();
  if (Cfg.TUSharedUnwind && Cfg.candidatesAreDefault() && !EmitAssembly &&
      (Triple.starts_with("x86_64") || Triple.starts_with("aarch64")) &&
      Triple.contains("-linux") && !CG.FunctionSections &&
      (CG.BBSections.empty() || CG.BBSections == "none")) {
    SharedUnwind = true;
    for (CandidateSpec &S : Specs)
      S.SharedUnwind = true;
  }
  // With -S or the IR metric, clang's own output says nothing about its object size or IR,
  // so a replica of clang's pipeline measures the baseline (proven byte-identical by tests).
  if (EmitAssembly || Cfg.SizeMetric == Metric::IRInstructions) {
    CandidateSpec Replica;
    Replica.Name = "(clang -" + Level + " replica)";
    Replica.Replica = true;
    Specs.push_back(Replica);
  }
  return Specs;
}

void TUOptimizer::onPipelineStart(Module &M) {
  if (Started)
    return;
  Started = true;
  if (!Cfg.HarvestDir.empty())
    harvest(M);
  if (HarvestOnly)
    return;
  StringRef Triple = CI.getTargetOpts().Triple;
  SpeedLevel = isSpeedLevel(Level);
  // The module a whole-program link starts from, whatever ships: LTO's pre-link pipeline at
  // the compile's level, as clang's -flto compile writes it, run beside clang's middle-end
  // (linked whole from the unoptimized module, jsoncpp's and zlib's images were 10 % larger
  // than from clang's -flto objects); the module before any pass if that fails.
  if (Cfg.FatObjects && !SpeedLevel && !EmitAssembly)
    FatBitcode = moduleBitcode(M);
  RegAlloc = regAllocFor(Cfg, Triple);
  std::vector<CandidateSpec> Specs;
  if (!SpeedLevel)
    Specs = sizeCandidates(M, Triple);
  if (!FatBitcode.empty()) {
    CandidateSpec PreLink;
    PreLink.Name = "(pre-link bitcode)";
    PreLink.Pipeline = {"lto-pre-link<" + Level + ">"};
    PreLink.BitcodeOnly = true;
    Specs.insert(Specs.begin(), std::move(PreLink));
  }
  // Effort 2 searches on after its first proposals when the decision is on clang's object
  // itself (not -S or the IR metric, which measure a replica).
  if (!SpeedLevel && guidedSearchApplies() && Agent.Active && Agent.Agent) {
    Guided = std::make_unique<GuidedSearch>(Agent.Agent, Cfg.GuidedCandidates);
    Guided->snapshotStart(M);
    for (CandidateSpec &S : Specs)
      if (S.PredictedPercent)
        S.ProposeAfter = Agent.Agent;
  }
  // Bytes may grow for a cheaper allocation only where speed is the objective, and only as
  // far as the user allows (`regalloc_growth`).
  applyRegAlloc(Specs, RegAlloc, SpeedLevel ? Cfg.RegAllocGrowth / 100.0 : 0.0);
  // Candidates that continue from clang's own optimized module start when it exists.
  for (size_t I = 0; I < Specs.size();)
    if (Specs[I].AfterClangPipeline) {
      LateSpecs.push_back(std::move(Specs[I]));
      Specs.erase(Specs.begin() + I);
    } else {
      ++I;
    }
  if (!Specs.empty())
    Pool = launch(M, std::move(Specs));
}

void TUOptimizer::finish(bool CompileSucceeded) {
  if (!CompileSucceeded) {
    if (Pool)
      Pool->cancel();
    if (LatePool)
      LatePool->cancel();
    return;
  }
  if (HarvestOnly) {
    if (Started)
      addCounters(Cfg, {{harvestCounter(), 1}});
    return;
  }
  TUDecision D;
  const clang::FrontendOptions &FO = CI.getFrontendOpts();
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd))
    D.Directory = Cwd.str().str();
  D.Input = FO.Inputs.empty() ? "" : FO.Inputs[0].getFile().str();
  D.Output = FO.OutputFile;
  D.Target = CI.getTargetOpts().Triple;
  D.Level = Level;
  // At -O1..-O3 the only question is the allocation: its cost decides. Without a model for
  // the target nothing measures a cost, so clang's object is reported in bytes.
  const Metric M = !SpeedLevel        ? Cfg.SizeMetric
                   : RegAlloc.Policy ? Metric::RegAllocCost
                                     : Metric::ImageBytes;
  auto ValueOf = [&](const CandidateResult &R) -> uint64_t {
    if (M == Metric::RegAllocCost)
      return uint64_t(std::llround(R.RegAllocCost * 1000.0));
    return metricValue(R.Object, R.IRAfter, M);
  };
  D.SizeMetric = M;
  // -O1..-O3 decide by the allocation's cost within regalloc_growth's byte allowance.
  D.Rules.Active = !SpeedLevel;
  D.Rules.AllowRamGrowth = Cfg.AllowRamGrowth;
  D.Rules.CodeForUnwind = Cfg.CodeForUnwind;
  D.AgentModel = Agent.Model;
  D.AgentNote = Agent.Note;
  D.InlinerModel = Inliner.Policy ? Inliner.Policy->source() : "";
  D.InlinerNote = Inliner.Note;
  D.RegAllocModel = RegAlloc.Policy ? RegAlloc.Policy->source() : "";
  D.RegAllocNote = RegAlloc.Note;
  D.AgentMillis = Agent.Millis;
  D.AgentCpuMillis = Agent.CpuMillis;
  D.BudgetNote = BudgetNote;
  D.Effort = Cfg.Effort;
  D.BaselineMillis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  if (Pool)
    Pool->wait();
  if (LatePool)
    LatePool->wait();
  if (Guided)
    runGuidedSearch(M, D);
  runFunctionMix(M, D);
  if (!Pool && !LatePool && !LaunchError.empty())
    D.Note = "candidates not started: " + LaunchError;
  else if (!Started)
    D.Note = "clang's middle-end never ran";
  else if (!LateSpecs.empty())
    D.Note = "clang's middle-end never reached its end: continuing candidates not run";

  // Baseline: clang's object as written, or the replica's measurement.
  const CandidateResult *Replica = nullptr;
  std::pair<CandidatePool *, size_t> ReplicaOrigin{nullptr, 0};
  std::string BaselineObject; // the baseline's bytes, read once: measured, then its symbols
  std::vector<std::pair<CandidatePool *, size_t>> Origins; // of each entry of D.Candidates
  auto Report = [&](CandidatePool &P, size_t I) {
    const CandidateResult &R = P.result(I);
    const CandidateSpec &Spec = P.spec(I);
    if (Spec.BitcodeOnly) {
      if (R.Result == Outcome::Ok) {
        if (Expected<std::string> Bitcode = P.bitcodeBytes(I))
          FatBitcode = std::move(*Bitcode);
        else
          consumeError(Bitcode.takeError());
      }
      return;
    }
    if (Spec.Replica) {
      Replica = &R;
      ReplicaOrigin = {&P, I};
      return;
    }
    if (R.Result == Outcome::Unchanged) { // not a candidate after all: nothing was compiled
      D.MixNote = R.Message;
      return;
    }
    CandidateReport C{Spec.Name, R, ValueOf(R)};
    C.UnwindRun = Spec.SharedUnwind;
    if (Spec.PredictedPercent) {
      C.Sequence = Spec.Description;
      C.ActionSpace = Spec.ActionSpace;
      C.Predicted = Spec.PredictedPercent;
    }
    D.Candidates.push_back(std::move(C));
    Origins.push_back({&P, I});
  };
  for (CandidatePool *P : pools())
    for (size_t I = 0; P && I < P->size(); ++I)
      Report(*P, I);
  if (Replica) {
    const CandidateResult &R = *Replica;
    if (R.Result == Outcome::Ok) {
      D.Baseline = R.Object;
      D.BaselineValue = ValueOf(R);
      D.BaselineMeasured = true;
    } else {
      D.Note = std::string("baseline replica failed: ") + outcomeName(R.Result);
    }
  } else if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(D.Output)) {
    BaselineObject = (*Buf)->getBuffer().str();
    if (Expected<ObjectSize> Size = measureObject((*Buf)->getMemBufferRef())) {
      D.Baseline = *Size;
      D.BaselineValue = metricValue(*Size, 0, M);
      D.BaselineMeasured = true;
    } else {
      D.Note = "cannot measure clang's object: " + toString(Size.takeError());
    }
    // The allocation's cost is not in clang's object: the ML candidate measured LLVM's own
    // allocation of the same module on its way (no cost, no baseline: clang's object stays).
    if (M == Metric::RegAllocCost && D.BaselineMeasured && !D.Candidates.empty()) {
      D.BaselineMeasured = false;
      for (const CandidateReport &C : D.Candidates)
        if (C.Result.Result == Outcome::Ok && C.Result.GreedyRegAllocCost >= 0) {
          D.BaselineValue = uint64_t(std::llround(C.Result.GreedyRegAllocCost * 1000.0));
          D.BaselineMeasured = true;
        }
      if (!D.BaselineMeasured)
        D.Note = "LLVM's own allocation was not measured: clang's object kept";
    }
  }
  // What clang's object needs from elsewhere, against which each candidate is judged.
  std::string BaselineForChecks; // clang's object (or the replica's), for the unwind check
  if (D.BaselineMeasured && D.Rules.Active) {
    Expected<std::string> BaseBytes =
        ReplicaOrigin.first ? ReplicaOrigin.first->objectBytes(ReplicaOrigin.second)
                            : Expected<std::string>(std::move(BaselineObject));
    // Code for a shared library: its exported symbols are preemptible, reached through the
    // library's PLT and GOT (in an executable, -fPIE or not PIC, the linker binds them).
    const bool SharedLibraryCode =
        CI.getCodeGenOpts().RelocationModel == Reloc::PIC_ && !CI.getLangOpts().PIE;
    Expected<LinkReferences> Base =
        BaseBytes ? linkReferences(MemoryBufferRef(*BaseBytes, D.Output), SharedLibraryCode)
                  : Expected<LinkReferences>(BaseBytes.takeError());
    if (BaseBytes)
      BaselineForChecks = *BaseBytes;
    if (!Base) {
      D.Note = "cannot read clang's object's symbols: " + toString(Base.takeError());
      D.BaselineMeasured = false; // nothing can be shown safe to ship
    } else {
      for (size_t K = 0; K < D.Candidates.size(); ++K) {
        CandidateReport &C = D.Candidates[K];
        if (C.Result.Result != Outcome::Ok)
          continue;
        auto [P, I] = Origins[K];
        Expected<std::string> Bytes = P->objectBytes(I);
        Expected<LinkReferences> Asks =
            Bytes ? linkReferences(MemoryBufferRef(*Bytes, C.Name), SharedLibraryCode)
                  : Expected<LinkReferences>(Bytes.takeError());
        if (!Asks) {
          C.Result.Result = Outcome::CodegenFailed;
          C.Result.setMessage(("unreadable object: " + toString(Asks.takeError())).c_str());
          continue;
        }
        C.NewUndefined = firstNewSymbol(Asks->Undefined, Base->Undefined);
        C.NewPLT = firstNewSymbol(Asks->Interposable, Base->Interposable);
        C.NewPLTCount = unsigned(llvm::count_if(Asks->Interposable, [&](const std::string &S) {
          return !Base->Interposable.count(S);
        }));
      }
    }
  }
  D.CheckStackSize = StackRecorded;
  if (ClangStackSize)
    D.ClangStackSize = *ClangStackSize;
  chooseWinner(D);
  // A winner that shares an unwind entry ships only if its object's entries check out; one
  // that fails is a failed candidate, and the next best wins (runtime/link/SharedUnwindObject.h).
  while (D.Winner >= 0 && D.Candidates[size_t(D.Winner)].UnwindRun) {
    CandidateReport &C = D.Candidates[size_t(D.Winner)];
    C.UnwindRun = false; // checked once
    auto [P, I] = Origins[size_t(D.Winner)];
    Expected<std::string> Bytes = P->objectBytes(I);
    if (Bytes && !hasSharedUnwindRun(*Bytes))
      break; // code generation made no run: nothing is shared
    // (An object that cannot be read, or no clang's object to compare with: nothing proven.)
    Expected<SharedUnwindCheck> Check =
        !Bytes ? Expected<SharedUnwindCheck>(Bytes.takeError())
        : BaselineForChecks.empty()
            ? Expected<SharedUnwindCheck>(
                  createStringError(inconvertibleErrorCode(), "clang's object was not read"))
            : checkSharedUnwindObject(*Bytes, BaselineForChecks, realLinkerPath(),
                                      int(Cfg.TimeoutMs));
    if (Check) {
      addCounters(Cfg, {{"shared_unwind.checked", 1},
                        {"shared_unwind.functions", Check->Functions}});
      break;
    }
    addCounters(Cfg, {{"shared_unwind.refused", 1}});
    C.Result.Result = Outcome::VerifierFailed;
    C.Result.setMessage(("unwind check: " + toString(Check.takeError())).c_str());
    chooseWinner(D);
  }
  if (!Cfg.SaveCandidatesDir.empty())
    saveCandidates();

  if (D.Winner >= 0) {
    auto [WinPool, PoolIndex] = Origins[size_t(D.Winner)];
    Expected<std::string> Bytes =
        EmitAssembly ? WinPool->assemblyBytes(PoolIndex) : WinPool->objectBytes(PoolIndex);
    // -fstack-usage: the winner's own lines replace clang's, or clang's output stays whole.
    const std::string &StackUsagePath = CI.getCodeGenOpts().StackUsageOutput;
    std::optional<std::string> ClangStackUsage;
    Error E = Bytes ? Error::success() : Bytes.takeError();
    if (!E && !StackUsagePath.empty()) {
      Expected<std::string> Lines = WinPool->stackUsageBytes(PoolIndex);
      ErrorOr<std::unique_ptr<MemoryBuffer>> Clang = MemoryBuffer::getFile(StackUsagePath);
      if (Clang)
        ClangStackUsage = (*Clang)->getBuffer().str();
      E = !Lines ? Lines.takeError()
          : !Clang ? createStringError(Clang.getError(), "cannot read " + StackUsagePath)
                   : replaceFile(StackUsagePath, *Lines);
    }
    if (!E)
      E = replaceFile(D.Output, *Bytes);
    if (E) {
      if (ClangStackUsage) // clang's object stays: so do its lines
        consumeError(replaceFile(StackUsagePath, *ClangStackUsage));
      D.Note = "could not write the winner, kept clang's output: " + toString(std::move(E));
      D.Winner = -1;
      D.KeptReason = "write_failed";
    }
  }
  // The shipped object, whichever it is, carries the bitcode; an object that cannot take it
  // stays as it is (the build goes on, the log says why).
  if (!FatBitcode.empty()) {
    if (Error E = addBitcodeSection(D.Output, FatBitcode)) {
      D.Note += (D.Note.empty() ? "" : "; ") + ("no bitcode section: " + toString(std::move(E)));
      addCounters(Cfg, {{"fat_objects.failed", 1}});
    } else {
      addCounters(Cfg, {{"fat_objects.written", 1}});
    }
  }
  report(D);
}

namespace {

// clang's object as written, and its sizes: what the rounds after the candidates (the guided
// search, the function mix) compare with (the decision re-measures it). Nothing when it
// cannot be read.
struct ClangObject {
  std::unique_ptr<MemoryBuffer> Bytes;
  ObjectSize Size;
};

std::optional<ClangObject> readClangObject(const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  Expected<ObjectSize> Size = measureObject((*Buf)->getMemBufferRef());
  if (!Size) {
    consumeError(Size.takeError());
    return std::nullopt;
  }
  return ClangObject{std::move(*Buf), *Size};
}

} // namespace

void TUOptimizer::runGuidedSearch(Metric M, TUDecision &D) {
  std::optional<ClangObject> Clang = readClangObject(D.Output);
  if (!Clang)
    return;
  const ObjectSize *Size = &Clang->Size;
  auto Value = [&](const CandidateResult &R) -> std::optional<uint64_t> {
    if (brokenShipRule(R.Object, *Size, D.Rules))
      return std::nullopt;
    return metricValue(R.Object, R.IRAfter, M);
  };
  auto Launch = [&](Module &From, std::vector<CandidateSpec> Specs) {
    for (CandidateSpec &S : Specs)
      if (!S.AfterClangPipeline && Inliner.Policy)
        S.Inliner = Inliner.Policy;
    return launch(From, std::move(Specs));
  };
  GuidedPools = Guided->run({Pool.get(), LatePool.get()}, metricValue(*Size, 0, M), Value, Launch);
  if (!Guided->note().empty())
    D.AgentNote += (D.AgentNote.empty() ? "" : "; ") + Guided->note();
}

void TUOptimizer::runFunctionMix(Metric M, TUDecision &D) {
  if (!functionMixApplies() || ClangBitcode.empty())
    return;
  std::optional<ClangObject> Clang = readClangObject(D.Output);
  if (!Clang)
    return;
  const ObjectSize *ClangSize = &Clang->Size;
  auto Totals = [&](const ObjectSize &S, uint64_t Value) {
    return MixTotals{double(Value), double(S.CodeBytes), double(S.UnwindBytes)};
  };
  auto In = std::make_shared<FunctionMixInput>();
  In->Versions.push_back(MixSource{"clang -" + Level, std::move(ClangBitcode),
                                   Clang->Bytes->getBuffer().str(), {}, true,
                                   Totals(*ClangSize, metricValue(*ClangSize, 0, M))});
  ClangBitcode.clear();
  In->Rule = MixRule{D.Rules.Active, Totals(*ClangSize, 0), D.Rules.CodeForUnwind};
  for (CandidatePool *P : pools()) // every measured candidate (the mix's own pool is not yet)
    for (size_t I = 0; P && I < P->size(); ++I) {
      const CandidateResult &R = P->result(I);
      const CandidateSpec &S = P->spec(I);
      // (The fat object's pre-link bitcode job has no object: nothing to mix.)
      if (R.Result != Outcome::Ok || !R.BitcodeBytes || !R.ObjectBytes || S.Replica ||
          S.RegAlloc || S.BitcodeOnly)
        continue;
      Expected<std::string> Bitcode = P->bitcodeBytes(I);
      Expected<std::string> Object = P->objectBytes(I);
      if (!Bitcode || !Object) {
        consumeError(Bitcode.takeError());
        consumeError(Object.takeError());
        continue;
      }
      In->Versions.push_back(MixSource{S.Name, std::move(*Bitcode), std::move(*Object),
                                       codegenArgs(S), false,
                                       Totals(R.Object, metricValue(R.Object, R.IRAfter, M))});
    }
  if (In->Versions.size() < 2)
    return;
  CandidateSpec Mix;
  Mix.Name = "function-mix";
  Mix.Description = "each function from the version where it is smallest";
  Mix.Pipeline.clear();
  Mix.Mix = std::move(In); // its process chooses the base and applies the base's options
  Mix.SharedUnwind = SharedUnwind;
  // The candidates' processes forked from the frontend's module; this one builds its module
  // from the versions' bitcode, so an empty module is all it inherits.
  LLVMContext Ctx;
  Module Empty("function-mix", Ctx);
  MixPool = launch(Empty, {std::move(Mix)});
  if (MixPool)
    MixPool->wait();
}

void TUOptimizer::saveCandidates() {
  if (std::error_code EC = sys::fs::create_directories(Cfg.SaveCandidatesDir)) {
    warnSideOutput("saved candidates to", Cfg.SaveCandidatesDir, errorCodeToError(EC));
    return;
  }
  std::string Base = sys::path::filename(CI.getFrontendOpts().OutputFile).str();
  for (CandidatePool *P : pools())
    for (size_t I = 0; P && I < P->size(); ++I) {
      if (P->result(I).Result != Outcome::Ok)
        continue;
      std::string Name = P->spec(I).Name;
      for (char &C : Name) // the replica's name has spaces and parentheses
        if (!isAlnum(C) && C != '-' && C != '_' && C != '.')
          C = '_';
      SmallString<256> Path(Cfg.SaveCandidatesDir);
      sys::path::append(Path, Base + "." + Name + ".o");
      Expected<std::string> Bytes = P->objectBytes(I);
      if (Error E = Bytes ? replaceFile(Path, *Bytes) : Bytes.takeError()) {
        warnSideOutput("a saved candidate to", Path, std::move(E));
        return; // the next ones would fail alike (a full disk, a read-only folder)
      }
    }
}

void TUOptimizer::report(TUDecision &D) {
  if (Cfg.Explain)
    printExplain(D, errs());
  else if (verbose())
    printVerbose(D, errs());
  Counters Harvested;
  if (!Cfg.HarvestDir.empty())
    Harvested[harvestCounter()] = 1;
  recordDecision(Cfg, D, Harvested);
}

} // namespace smartcc
