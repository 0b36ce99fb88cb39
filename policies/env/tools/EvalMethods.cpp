// smartcc-eval's methods (EvalMethods.h).
// are written per module under OUT/rows/, so an interrupted sweep resumes where it stopped.
#include "EvalMethods.h"
#include "EvalReport.h"
#include "ModulePool.h"
#include "policies/SequenceAgent.h"
#include "policies/inliner/InlinePolicy.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/RegAllocPolicy.h"
#include "policies/env/Corpus.h"
#include "policies/model/ExportedModel.h"
#include "policies/env/ContainedEvaluation.h"
#include "policies/env/Search.h"
#include "runtime/candidates/AgentCandidates.h"
#include "runtime/config/BuildInfo.h"
#include "runtime/candidates/CandidateBudget.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/compile/CompileLevel.h"
#include "runtime/config/Config.h"
#include "runtime/decide/Decision.h"
#include "runtime/candidates/InlinerCandidates.h"
#include "runtime/observe/JSONLines.h"
#include "runtime/compile/OptionActions.h"
#include "runtime/decide/PerFunctionChoice.h"
#include "runtime/decide/FunctionMix.h"
#include "runtime/compile/AllocatorsByBytes.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/compile/ClangBackend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "runtime/candidates/PolicyRollout.h"
#include "runtime/measure/RegAllocCost.h"
#include "runtime/compile/RegAllocPortfolio.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <chrono>
#include <limits>
#include <optional>
#include <csignal>
#include <random>
#include <tuple>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc::eval {


// A module ready to compile as clang would: its codegen context and its pre-optimization IR.
struct Loaded {
  std::unique_ptr<CodegenContext> CG;
  std::unique_ptr<LLVMContext> Ctx = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M;
};

Expected<Loaded> load(const CorpusModule &C) {
  Loaded L;
  Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(C.Bench.CC1Args);
  if (!CG)
    return CG.takeError();
  L.CG = std::move(*CG);
  Expected<std::unique_ptr<Module>> M = loadBitcodeFile(C.Bench.BitcodePath, *L.Ctx);
  if (!M)
    return M.takeError();
  L.M = std::move(*M);
  return std::move(L);
}

std::optional<ObjectSize> ClangObject;

// The candidate's object as CandidateRunner makes it: registers allocated by its allocators
// (tried, predicted or checked proposals, runtime/compile/AllocatorsByBytes.h), else as clang's.
Expected<ObjectSize> emitAsCandidate(Loaded &L, const CandidateSpec &Spec,
                                     SmallVectorImpl<char> &Obj, unsigned &Codegens) {
  Codegens = 1;
  auto Emit = [&](Module &M, SmallVectorImpl<char> &Out) { return L.CG->emit(M, Out); };
  auto Measured = [&](const SmallString<0> &Bytes) -> Expected<ObjectSize> {
    Obj.assign(Bytes.begin(), Bytes.end());
    return measureObject(MemoryBufferRef(StringRef(Obj.data(), Obj.size()), "candidate"));
  };
  if (!Spec.Allocators.empty()) {
    Expected<std::vector<AllocatorChoice>> Choices = parseAllocatorChoices(Spec.Allocators);
    if (!Choices)
      return Choices.takeError();
    Expected<BytesAllocation> A = allocateByBytes(*L.M, *Choices, Emit);
    if (!A)
      return A.takeError();
    Codegens = A->Codegens;
    return Measured(A->Object);
  }
  if (Spec.AllocatorModel.empty())
    return L.CG->emitObject(*L.M, Obj);
  Expected<AllocatorModel> Model =
      AllocatorModel::forSpec(Spec.AllocatorModel, L.M->getTargetTriple().str());
  if (!Model)
    return Model.takeError();
  if (Model->isProposalModel()) {
    Expected<BytesAllocation> A = allocateByProposals(*L.M, *Model, Emit);
    if (!A)
      return A.takeError();
    Codegens = A->Codegens;
    return Measured(A->Object);
  }
  AllocatorPlan Plan =
      AllocatorPlan::predicted(std::make_shared<const AllocatorModel>(std::move(*Model)));
  ScopedAllocatorPlan Scope(Plan);
  return L.CG->emitObject(*L.M, Obj);
}

// Runs Spec as the compiler's candidate process does (CandidateRunner): its pipeline (with
// its inliner, whose decisions are counted in R), then its action sequence, then codegen; records
// its IR and object bytes in R: under --objective shipped, for a smartcc candidate (Candidate),
// the bytes the compiler would ship; clang's own levels (evalLevel) are reported as they are.
Error optimizeAndMeasure(Loaded &L, const CandidateSpec &Spec, EvalRow &R,
                         ObjectSize *Object = nullptr, bool Candidate = true) {
  InlineLog Log;
  if (Error E = L.CG->optimize(*L.M, Spec, &Log))
    return E;
  if (!Spec.Actions.empty())
    if (Error E = playSequence(*L.M, Spec.ActionSpace, Spec.Actions, L.CG->instance(),
                               Spec.Inliner))
      return E;
  R.IR = countIRInstructions(*L.M);
  SmallVector<char, 0> Obj;
  Expected<ObjectSize> Size = emitAsCandidate(L, Spec, Obj, R.Codegens);
  if (!Size)
    return Size.takeError();
  if (Object)
    *Object = *Size;
  R.Bytes = Candidate && TheObjective == Objective::ShippedBytes && ClangObject
                ? shippedImageBytes(*Size, *ClangObject)
                : Size->linkedImageBytes();
  R.InlineDecisions = Log.Decisions, R.InlineChanged = Log.Changed;
  return Error::success();
}

// Replays Seq and records its finished IR and object bytes (and the sequence) in R.
// With the shipped objective, the bytes are those the compiler would ship (clang's where the
// sequence's smaller object breaks the ship rules).
Expected<EvalRow> measureSequence(CompilerEnv &Env, const CorpusModule &C,
                                  const std::vector<size_t> &Seq, EvalRow R,
                                  Objective O = Objective::ObjectBytes) {
  if (Error E = Env.reset(C.Bench))
    return std::move(E);
  for (size_t A : Seq)
    Env.step(A);
  R.Sequence = Env.actions().namesOf(Seq);
  Expected<uint64_t> IR = Env.finishedIRInstructions();
  if (!IR)
    return IR.takeError();
  R.IR = *IR;
  Expected<uint64_t> Bytes =
      O == Objective::ShippedBytes ? Env.shippedBytes() : Env.objectBytes();
  if (!Bytes)
    return Bytes.takeError();
  R.Bytes = *Bytes;
  return R;
}

// A model's or core set's sequence as indices of Space (whose names it was checked against).
std::vector<size_t> sequenceIndices(const ActionSpace &Space,
                                    const std::vector<std::string> &Names) {
  std::vector<size_t> Seq;
  for (const std::string &N : Names)
    Seq.push_back(size_t(Space.indexOf(N)));
  return Seq;
}

// What a core set or model was mined or trained for: metadata "objective", bytes by default.
Objective objectiveOf(const json::Object &Meta) {
  Expected<Objective> O = parseObjective(Meta.getString("objective").value_or("bytes"));
  if (!O) {
    consumeError(O.takeError());
    return Objective::ObjectBytes;
  }
  return *O;
}

// A candidate (from smartcc's library, the agent's proposals, the ML inliner's) as the
// compiler's candidate process runs it, outside a compile.
// Object, if given, receives the object's section classes.
Expected<EvalRow> evalCandidate(const CorpusModule &C, const CandidateSpec &Spec,
                                const EvalRow &Base, ObjectSize *Object) {
  EvalRow R = Base;
  Expected<Loaded> L = load(C);
  if (!L)
    return L.takeError();
  std::unique_ptr<Module> &M = L->M;
  auto Start = std::chrono::steady_clock::now();
  // Several methods run in this process one after the other: options must not leak.
  ScopedLLVMOptions Options(Spec.LLVMArgs);
  addFunctionAttributes(*M, Spec.FunctionAttrs);
  if (Error E = optimizeAndMeasure(*L, Spec, R, Object))
    return std::move(E);
  R.Seconds = since(Start);
  return R;
}

// Per-function choice among function-attribute options of the options space, e.g.
// "perfunc:no-jump-tables"; never worse than clang (the mix is measured, clang kept if larger).
Expected<EvalRow> evalPerFunction(const CorpusModule &C, StringRef Names, const EvalRow &Base) {
  EvalRow R = Base;
  Expected<ActionSpace> Options = loadActionSpace("options");
  if (!Options)
    return Options.takeError();
  std::vector<FunctionAttrSet> Sets;
  SmallVector<StringRef, 4> Parts;
  Names.split(Parts, ',');
  for (StringRef N : Parts) {
    int I = Options->indexOf(N);
    if (I < 0 || Options->Actions[I].FunctionAttrs.empty())
      return createStringError(inconvertibleErrorCode(),
                               "'%s' is not a function-attribute option", N.str().c_str());
    Sets.push_back(Options->Actions[I].FunctionAttrs);
  }
  Expected<Loaded> L = load(C);
  if (!L)
    return L.takeError();
  auto Start = std::chrono::steady_clock::now();
  Expected<PerFunctionResult> P = choosePerFunction(L->CG->instance(), *L->M, Sets);
  if (!P)
    return P.takeError();
  R.Seconds = since(Start);
  bool Mixed = P->MixedBytes < Base.ClangBytes;
  R.Bytes = Mixed ? P->MixedBytes : Base.ClangBytes;
  R.IR = Mixed ? P->MixedIR : Base.ClangIR;
  unsigned Changed = 0;
  for (const auto &[F, Choice] : P->Choice)
    Changed += Choice >= 0;
  R.Sequence = std::to_string(Changed) + " of " + std::to_string(P->Choice.size()) +
               " functions changed" + (Mixed ? "" : " (mix not smaller: clang kept)");
  return R;
}

// Best-of-K over a mined core set, e.g. "coreset:cs.json:10": smartcc-coreset's coreset.json,
// or a sequence-value model (.smm), whose metadata carries the core set it was trained on.
Expected<EvalRow> evalCoreset(const CorpusModule &C, StringRef Arg, const EvalRow &Base) {
  EvalRow R = Base;
  auto [File, KText] = Arg.rsplit(':');
  unsigned K = 0;
  if (KText.getAsInteger(10, K)) { // no ":K": the whole set
    File = Arg;
    K = ~0u;
  }
  json::Object Set;
  if (File.ends_with(".smm")) {
    Expected<ExportedModel> M = ExportedModel::load(File.str());
    if (!M)
      return M.takeError();
    Set = M->metadata();
  } else {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
    if (!Buf)
      return createStringError(Buf.getError(), "%s: %s", File.str().c_str(),
                               Buf.getError().message().c_str());
    Expected<json::Value> J = json::parse((*Buf)->getBuffer());
    if (!J)
      return createStringError(inconvertibleErrorCode(), "%s: %s", File.str().c_str(),
                               toString(J.takeError()).c_str());
    if (json::Object *O = J->getAsObject())
      Set = std::move(*O);
  }
  const json::Object *O = &Set;
  if (!O->getArray("sequences"))
    return createStringError(inconvertibleErrorCode(), "%s: no \"sequences\" (a core set)",
                             File.str().c_str());
  Expected<ActionSpace> Space = loadActionSpaces(O->getString("space").value_or("").str());
  if (!Space)
    return Space.takeError();
  std::vector<std::vector<size_t>> Seqs;
  for (const json::Value &V : *O->getArray("sequences")) {
    if (Seqs.size() == K)
      break;
    std::vector<size_t> Seq;
    SmallVector<StringRef, 64> Names;
    V.getAsString().value_or("").split(Names, ' ', -1, false);
    for (StringRef N : Names) {
      int I = Space->indexOf(N);
      if (I < 0)
        return createStringError(inconvertibleErrorCode(), "unknown action '%s'",
                                 N.str().c_str());
      Seq.push_back(size_t(I));
    }
    Seqs.push_back(std::move(Seq));
  }
  Objective Obj = objectiveOf(*O);
  CompilerEnv Env(std::move(*Space), EnvOptions{RewardKind::IRInstructions, 1000});
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> S = bestOf(Env, C.Bench, Seqs, Obj);
  if (!S)
    return S.takeError();
  R.Seconds = since(Start);
  R.Rejected = S->Rejected, R.Rejection = S->FirstRejection;
  return measureSequence(Env, C, S->Best, R, Obj);
}

// clang at another size level on the same code: "os" (-Os: the functions lose `minsize`, the
// pipeline and codegen run at -Os, as clang -Os would have compiled them) and "o0" (-O0:
// neither `minsize` nor `optsize`, no optimization).
Expected<EvalRow> evalLevel(CorpusModule C, StringRef Level, const EvalRow &Base) {
  EvalRow R = Base;
  C.Bench.CC1Args = cc1ArgsAtLevel(std::move(C.Bench.CC1Args), Level);
  Expected<Loaded> L = load(C);
  if (!L)
    return L.takeError();
  auto Start = std::chrono::steady_clock::now();
  setSizeAttributesForLevel(*L->M, Level);
  if (Error E = optimizeAndMeasure(*L, CandidateSpec(), R, nullptr, /*Candidate=*/false))
    return std::move(E);
  R.Seconds = since(Start);
  return R;
}

// The model a method names: the one built into smartcc for Target when Path is empty, else the
// file (SequenceAgent, InlinePolicy and RegAllocPolicy resolve models alike).
template <class Model>
Expected<Model> modelFor(StringRef Path, const std::string &Target, const char *What) {
  if (!Path.empty())
    return Model::load(Path.str());
  std::optional<Expected<Model>> M = Model::builtinFor(Target);
  if (!M)
    return createStringError(inconvertibleErrorCode(), "no built-in %s for %s", What,
                             Target.c_str());
  return std::move(*M);
}

// The sequence-value agent at an effort level, as the compiler serves it: "agent@1" (the model
// built into smartcc for the module's target) or "agent:MODEL.smm@1". Its proposals are
// measured and the best kept; the row is before the -Oz fallback (the report adds it).
// A proposal that is clang's whole pipeline and nothing more is clang's own output: the
// compiler does not run it, and neither does this.
// "@1,budget=3000" applies the compiler's candidate budget (`candidate_budget`): a module of N
// IR instructions runs at most 3000 / N candidates, best first, and none leaves clang's -Oz.
// ",inliner" (or ",inliner=MODEL.smm") is the compiler with `inliner` set: every proposal that
// starts from the frontend's module inlines by the policy, and the candidate oz-ml-inliner
// (clang's pipeline, the policy's inlining) joins the proposals the budget leaves (it is the
// user's request, outside the budget, as in the compiler).
struct AgentMethod {
  StringRef ModelPath; // empty: the built-in model for the module's target
  unsigned Effort = 1;
  uint64_t Budget = 0; // 0: no candidate budget
  unsigned TimePercent = 0; // with Budget: the compiler's candidate_time
  bool Inliner = false;
  StringRef InlinerModel; // empty: the built-in inliner model for the module's target
};

// "MODEL@HEAD,ITEM,..." (MODEL may be empty), the spelling the agent and guided methods share.
struct ModelAt {
  StringRef ModelPath;
  SmallVector<StringRef, 4> Items; // HEAD first
};

ModelAt splitModelAt(StringRef Arg) {
  ModelAt M;
  auto [ModelPath, Settings] = Arg.rsplit('@');
  M.ModelPath = ModelPath;
  Settings.split(M.Items, ',');
  return M;
}

Expected<AgentMethod> parseAgentMethod(StringRef Arg) {
  AgentMethod A;
  auto [ModelPath, Items] = splitModelAt(Arg);
  A.ModelPath = ModelPath;
  auto Bad = [] {
    return createStringError(inconvertibleErrorCode(),
                             "agent: expected @EFFORT[,budget=N][,time=PERCENT][,inliner[=MODEL]] "
                             "with EFFORT "
                             "0, 1 or 2 and N > 0");
  };
  if (Items[0].getAsInteger(10, A.Effort) || A.Effort > 2)
    return Bad();
  for (StringRef Item : ArrayRef(Items).drop_front()) {
    if (Item.consume_front("budget=")) {
      if (Item.getAsInteger(10, A.Budget) || A.Budget == 0)
        return Bad();
    } else if (Item.consume_front("time=")) {
      if (Item.getAsInteger(10, A.TimePercent))
        return Bad();
    } else if (Item == "inliner") {
      A.Inliner = true;
    } else if (Item.consume_front("inliner=") && !Item.empty()) {
      A.Inliner = true, A.InlinerModel = Item;
    } else {
      return Bad();
    }
  }
  return A;
}

Expected<EvalRow> evalAgent(const CorpusModule &C, const Config &Cfg, StringRef Arg,
                            const EvalRow &Base) {
  EvalRow R = Base;
  Expected<AgentMethod> A = parseAgentMethod(Arg);
  if (!A)
    return A.takeError();
  StringRef ModelPath = A->ModelPath;
  const unsigned Effort = A->Effort;
  const uint64_t Budget = A->Budget;
  Expected<SequenceAgent> Agent = modelFor<SequenceAgent>(ModelPath, C.Target, "model");
  if (!Agent)
    return Agent.takeError();
  std::shared_ptr<const InlinePolicy> Inliner;
  if (A->Inliner) {
    Expected<InlinePolicy> P = modelFor<InlinePolicy>(A->InlinerModel, C.Target, "inliner model");
    if (!P)
      return P.takeError();
    Inliner = std::make_shared<const InlinePolicy>(std::move(*P));
  }
  Expected<Loaded> L = load(C);
  if (!L)
    return L.takeError();
  auto Start = std::chrono::steady_clock::now();
  std::vector<SequenceProposal> Chosen = proposalsForEffort(Agent->rank(*L->M), Effort);
  erase_if(Chosen, [](const SequenceProposal &P) {
    return P.Actions.size() == 1 && P.Actions[0] == WholeClangPipelineAction;
  });
  // The compiler's candidates (runtime/decide/TUOptimizer.cpp): with a budget, the proposals and the
  // library's default candidates in candidateOrder's order, within the budget, at most as many
  // as the effort proposes; then the ML inliner's, outside the budget.
  struct Pick {
    const SequenceProposal *Proposal = nullptr;
    const CandidateSpec *Library = nullptr;
  };
  std::vector<Pick> Picks;
  std::vector<CandidateSpec> Library;
  if (Budget)
    for (CandidateSpec &S : Cfg.enabledCandidates())
      if (none_of(S.SkipTargets,
                  [&](const std::string &P) { return StringRef(C.Target).starts_with(P); }))
        Library.push_back(std::move(S));
  std::vector<bool> ProposalLate, LibraryLate;
  for (const SequenceProposal &P : Chosen)
    ProposalLate.push_back(P.Actions.front() == WholeClangPipelineAction);
  for (const CandidateSpec &S : Library)
    LibraryLate.push_back(S.AfterClangPipeline);
  const uint64_t IR = Budget ? countIRInstructions(*L->M) : 0;
  const double Allowance = Budget ? budgetAllowance(Budget, A->TimePercent, IR)
                                  : std::numeric_limits<double>::infinity();
  const size_t Cap = std::max<size_t>(1, Chosen.size());
  for (CandidateSlot Slot :
       candidatesWithinBudget(ProposalLate, LibraryLate, Allowance, IR > Budget, Cap))
    Picks.push_back(Slot.FromLibrary ? Pick{nullptr, &Library[Slot.Index]}
                                     : Pick{&Chosen[Slot.Index], nullptr});
  const size_t Allowed = Picks.size() + (Inliner ? 1 : 0);
  if (Allowed == 0) { // clang's own output ships: nothing more was compiled
    R.IR = Base.ClangIR;
    R.Bytes = Base.ClangBytes;
    R.Seconds = since(Start);
    return R;
  }
  Expected<ActionSpace> Space = loadActionSpaces(Agent->spaceName());
  if (!Space)
    return Space.takeError();
  CompilerEnv Env(std::move(*Space), EnvOptions{RewardKind::IRInstructions, 1000});
  std::optional<EvalRow> Best;
  uint64_t Decisions = 0, Changed = 0;
  std::vector<std::pair<double, uint64_t>> Proposals;
  auto Keep = [&](Expected<EvalRow> M) -> Error {
    if (!M)
      return M.takeError();
    Decisions += M->InlineDecisions, Changed += M->InlineChanged;
    if (!Best || M->Bytes < Best->Bytes)
      Best = *M;
    return Error::success();
  };
  // A proposal's measurement is also kept with its prediction (the report's calibration).
  auto KeepProposal = [&](const SequenceProposal &P, Expected<EvalRow> M) -> Error {
    Proposals.push_back({P.PredictedPercent, M && !M->Failed ? M->Bytes : 0});
    return Keep(std::move(M));
  };
  for (size_t I = 0; I < Allowed; ++I) {
    if (I == Picks.size()) { // the ML inliner's candidate
      CandidateSpec Oz;
      Oz.Name = MLInlinerCandidate;
      Oz.Inliner = Inliner;
      if (Error E = Keep(evalCandidate(C, Oz, Base)))
        return std::move(E);
      continue;
    }
    if (Picks[I].Library) {
      CandidateSpec S = *Picks[I].Library;
      S.Inliner = Inliner;
      if (Error E = Keep(evalCandidate(C, S, Base)))
        return std::move(E);
      continue;
    }
    const SequenceProposal &P = *Picks[I].Proposal;
    if (Inliner && P.Actions.front() != WholeClangPipelineAction) {
      // Starts from the frontend's module: its inliner passes ask the policy.
      CandidateSpec S;
      S.Pipeline.clear();
      S.Actions = P.Actions;
      S.ActionSpace = Agent->spaceName();
      S.Inliner = Inliner;
      if (Error E = KeepProposal(P, evalCandidate(C, S, Base)))
        return std::move(E);
      continue;
    }
    // --objective shipped: a proposal that breaks the ship rules measures clang's bytes.
    std::vector<size_t> Seq = sequenceIndices(Env.actions(), P.Actions);
    if (Error E = KeepProposal(P, measureSequence(Env, C, Seq, Base, TheObjective)))
      return std::move(E);
  }
  R = *Best;
  R.InlineDecisions = Decisions, R.InlineChanged = Changed;
  R.Proposals = std::move(Proposals);
  R.Seconds = since(Start);
  return R;
}

// One measured version for the function mix: a sequence of the space's actions (by name), or
// clang's own pipeline when Actions is empty.
struct MixSequence {
  std::string Name;
  std::vector<std::string> Actions;
};

// What mixOfVersions measured: the smallest version, and the mix where one was built.
struct MixOutcome {
  std::string BestName;        // the smallest version ("clang" or its sequence)
  uint64_t BestBytes = 0, BestIR = 0;
  std::string Note;            // " | mix: ..." when a mix was built and measured
  std::optional<std::pair<uint64_t, uint64_t>> Shipped; // its bytes and IR, where it ships
                                                        // and is smaller than the best version
};

// The function mix over clang's own pipeline and Sequences (runtime/decide/FunctionMix.h): each
// version compiled and measured, each non-local function's body taken from the version where
// it came out smallest, the mix compiled once more and judged as the compiler would (within
// code_for_unwind as measured, smaller than the best version). Versions are measured twice
// (with function sections, to tell functions apart, and as clang compiles them).
Expected<MixOutcome> mixOfVersions(Loaded &L, const std::string &SpaceName,
                                   const std::vector<MixSequence> &Sequences) {
  Expected<ActionSpace> Space = loadActionSpaces(SpaceName);
  if (!Space)
    return Space.takeError();
  clang::CompilerInstance &CI = L.CG->instance();
  struct Version {
    std::string Name;
    std::unique_ptr<Module> M;        // optimized, before codegen
    std::vector<std::string> Args;    // its codegen options
    uint64_t Bytes = 0;
    ObjectSize Size;
    std::map<std::string, uint64_t> Functions, Unwind;
  };
  // Code generation of a copy of M under Args; with Sections, each function in its own
  // section (its jump tables beside it) and the per-function bytes returned.
  auto Measure = [&](const Module &M, const std::vector<std::string> &Args, bool Sections,
                     std::map<std::string, uint64_t> *Functions,
                     std::map<std::string, uint64_t> *Unwind) -> Expected<ObjectSize> {
    ScopedLLVMOptions Options(Args);
    std::unique_ptr<Module> Copy = CloneModule(M);
    SmallVector<char, 0> Obj;
    if (!emitObjectForMeasuring(CI, *Copy, Sections, Obj))
      return createStringError(inconvertibleErrorCode(), "backend error");
    MemoryBufferRef Ref(StringRef(Obj.data(), Obj.size()), "object");
    Expected<ObjectSize> Size = measureObject(Ref);
    if (!Size)
      return Size.takeError();
    if (Functions) {
      Expected<std::map<std::string, uint64_t>> F = functionSectionSizes(Ref, Unwind);
      if (!F)
        return F.takeError();
      *Functions = std::move(*F);
    }
    return *Size;
  };
  std::vector<Version> Versions;
  {
    Version V;
    V.Name = "clang";
    V.M = CloneModule(*L.M);
    if (Error E = L.CG->optimize(*V.M, CandidateSpec{}))
      return std::move(E);
    Versions.push_back(std::move(V));
  }
  for (const MixSequence &S : Sequences) {
    Version V;
    V.Name = S.Name;
    V.M = CloneModule(*L.M);
    for (const std::string &A : S.Actions)
      if (int I = Space->indexOf(A); I >= 0)
        append_range(V.Args, Space->Actions[size_t(I)].LLVMArgs);
    Error E = playSequence(*V.M, SpaceName, S.Actions, CI, nullptr);
    resetLLVMOptionsNamedIn(V.Args);
    if (E)
      return std::move(E);
    Versions.push_back(std::move(V));
  }
  unsigned Best = 0;
  std::vector<MixVersion> Mix;
  for (unsigned I = 0; I < Versions.size(); ++I) {
    Version &V = Versions[I];
    Expected<ObjectSize> Size = Measure(*V.M, V.Args, false, nullptr, nullptr);
    if (!Size)
      return Size.takeError();
    V.Size = *Size;
    V.Bytes = Size->linkedImageBytes();
    if (Expected<ObjectSize> S = Measure(*V.M, V.Args, true, &V.Functions, &V.Unwind); !S)
      return S.takeError();
    if (V.Bytes < Versions[Best].Bytes)
      Best = I;
    Mix.push_back(MixVersion{V.M.get(), V.Functions, V.Unwind, join(V.Args, " "), true,
                             MixTotals{double(V.Bytes), double(V.Size.CodeBytes),
                                       double(V.Size.UnwindBytes)}});
  }
  // The compiler's default ship rule (code_for_unwind 0), against clang's version.
  MixRule Rule{true, Mix[0].Measured, 0.0};
  FunctionMixPlan Plan = planBestFunctionMix(Mix, Rule);
  MixOutcome Out;
  Out.BestName = Versions[Best].Name;
  Out.BestBytes = Versions[Best].Bytes;
  Out.BestIR = countIRInstructions(*Versions[Best].M);
  if (!Plan.Take.empty()) {
    Expected<std::unique_ptr<Module>> Mixed = buildFunctionMix(Mix, Plan);
    if (!Mixed)
      return Mixed.takeError();
    Expected<ObjectSize> MixSize =
        Measure(**Mixed, Versions[Plan.Base].Args, false, nullptr, nullptr);
    if (!MixSize)
      return MixSize.takeError();
    const uint64_t Bytes = MixSize->linkedImageBytes();
    // Shipped as the compiler would: smaller, and within the rule as measured.
    const bool Ships = Rule.allows(double(MixSize->CodeBytes), double(MixSize->UnwindBytes));
    Out.Note = formatv(" | mix: {0} of {1} functions moved, estimated -{2}, measured {3} "
                       "against {4}{5}",
                       Plan.Take.size(), Plan.Considered, Plan.EstimatedSaving, Bytes,
                       Versions[Best].Bytes, Ships ? "" : " (breaks code_for_unwind)")
                   .str();
    if (Ships && Bytes < Out.BestBytes)
      Out.Shipped = {Bytes, countIRInstructions(**Mixed)};
  }
  return Out;
}

// "funcmix[:MODEL]@EFFORT": the agent's candidates at EFFORT and clang's own pipeline, then
// their function mix (mixOfVersions); the smaller of the best version and the mix, before the
// -Oz fallback like agent@E.
Expected<EvalRow> evalFunctionMix(const CorpusModule &C, StringRef Arg, const EvalRow &Base) {
  auto [ModelPath, Items] = splitModelAt(Arg);
  unsigned Effort = 1;
  if (Items.size() != 1 || Items[0].getAsInteger(10, Effort) || Effort > 2)
    return createStringError(inconvertibleErrorCode(), "funcmix: expected [MODEL]@EFFORT");
  Expected<SequenceAgent> Agent = modelFor<SequenceAgent>(ModelPath, C.Target, "model");
  if (!Agent)
    return Agent.takeError();
  Expected<Loaded> L = load(C);
  if (!L)
    return L.takeError();
  auto Start = std::chrono::steady_clock::now();
  std::vector<SequenceProposal> Chosen = proposalsForEffort(Agent->rank(*L->M), Effort);
  std::vector<MixSequence> Sequences;
  for (const SequenceProposal &P : Chosen)
    if (!(P.Actions.size() == 1 && P.Actions[0] == WholeClangPipelineAction))
      Sequences.push_back({P.Text, P.Actions});
  Expected<MixOutcome> Mix = mixOfVersions(*L, Agent->spaceName(), Sequences);
  if (!Mix)
    return Mix.takeError();
  EvalRow R = Base;
  R.Sequence = Mix->BestName + Mix->Note;
  std::tie(R.Bytes, R.IR) = Mix->Shipped.value_or(std::pair{Mix->BestBytes, Mix->BestIR});
  R.Seconds = since(Start);
  return R;
}

// Effort 2's guided search (Search.h): "guided@EVALS[,k=K][,first=N][,order=mined][,next=start]"
// or "guided:MODEL@...". The model proposes continuations of the best state so far, K a round,
// until EVALS sequences are compiled; round 0 is effort 1's proposals then the rest best
// predicted first (N of them with first=N, e.g. the whole core set), clang's own output is
// the free start. "order=mined" is the ablation: the same search with the core set in mined
// order at every state, the model unused; "next=start" ranks continuations on the start module
// (the model's training distribution) instead of the state they continue. Before the -Oz
// fallback, as agent@E.
struct GuidedMethod {
  StringRef ModelPath;
  unsigned Evaluations = 6, PerRound = 3, FirstRound = 0;
  bool Mined = false;
  bool StartRanking = false; // next=start: continuations ranked on the start module
  bool Mix = false;          // mix: then the function mix of clang's and every measured version
};

Expected<GuidedMethod> parseGuidedMethod(StringRef Arg) {
  GuidedMethod G;
  auto [ModelPath, Items] = splitModelAt(Arg);
  G.ModelPath = ModelPath;
  auto Bad = [] {
    return createStringError(
        inconvertibleErrorCode(),
        "guided: expected @EVALS[,k=K][,first=N][,order=mined][,next=start][,mix] with EVALS, K, N > "
        "0");
  };
  if (Items[0].getAsInteger(10, G.Evaluations) || G.Evaluations == 0)
    return Bad();
  for (StringRef Item : ArrayRef(Items).drop_front()) {
    if (Item.consume_front("k=")) {
      if (Item.getAsInteger(10, G.PerRound) || G.PerRound == 0)
        return Bad();
    } else if (Item.consume_front("first=")) {
      if (Item.getAsInteger(10, G.FirstRound) || G.FirstRound == 0)
        return Bad();
    } else if (Item == "order=mined") {
      G.Mined = true;
    } else if (Item == "mix") {
      G.Mix = true;
    } else if (Item == "next=start") {
      G.StartRanking = true;
    } else {
      return Bad();
    }
  }
  return G;
}

Expected<EvalRow> evalGuided(const CorpusModule &C, StringRef Arg, const EvalRow &Base) {
  EvalRow R = Base;
  Expected<GuidedMethod> G = parseGuidedMethod(Arg);
  if (!G)
    return G.takeError();
  Expected<SequenceAgent> Agent = modelFor<SequenceAgent>(G->ModelPath, C.Target, "model");
  if (!Agent)
    return Agent.takeError();
  Expected<Loaded> L = load(C);
  if (!L)
    return L.takeError();
  Expected<ActionSpace> Space = loadActionSpaces(Agent->spaceName());
  if (!Space)
    return Space.takeError();
  CompilerEnv Env(std::move(*Space), EnvOptions{RewardKind::IRInstructions, 1000});
  auto Indices = [&](const SequenceProposal &P) {
    return sequenceIndices(Env.actions(), P.Actions);
  };
  // At the start the model sees the frontend's module as the compiler's agent does (before
  // mandatory inlining); round 0 is effort 1's choice, then the rest best predicted first.
  auto Propose = [&](const Module &State,
                     bool AtStart) -> Expected<std::vector<std::vector<size_t>>> {
    std::vector<SequenceProposal> Ranked =
        Agent->rank(AtStart || G->StartRanking ? *L->M : State);
    if (G->Mined)
      llvm::sort(Ranked, [](const SequenceProposal &A, const SequenceProposal &B) {
        return A.CoreSetIndex < B.CoreSetIndex;
      });
    std::vector<std::vector<size_t>> Seqs;
    if (AtStart && !G->Mined)
      for (const SequenceProposal &P : proposalsForEffort(Ranked, 1))
        Seqs.push_back(Indices(P));
    for (const SequenceProposal &P : Ranked)
      Seqs.push_back(Indices(P)); // a repeat of effort 1's is skipped by the search
    return Seqs;
  };
  GuidedOptions Options;
  Options.MaxEvaluations = G->Evaluations;
  Options.PerRound = G->PerRound;
  Options.FirstRound = G->FirstRound;
  Options.ClangAction = Env.actions().indexOf(WholeClangPipelineAction);
  Objective O = objectiveOf(Agent->model().metadata());
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> S = guidedSearch(Env, C.Bench, Propose, Options, O);
  if (!S)
    return S.takeError();
  R.Seconds = since(Start);
  R.Rejected = S->Rejected, R.Rejection = S->FirstRejection;
  R.Rounds = S->Rounds, R.Improvements = S->Improvements, R.Composed = S->Composed;
  // Nothing beat clang's output: it ships. (The environment's replay of clang's pipeline
  // starts after mandatory inlining and can differ from clang's object by a few bytes.)
  if (!S->Improvements) {
    R.IR = Base.ClangIR, R.Bytes = Base.ClangBytes;
    R.Sequence = WholeClangPipelineAction;
  } else {
    Expected<EvalRow> Found = measureSequence(Env, C, S->Best, R, O);
    if (!Found)
      return Found.takeError();
    R = *Found;
  }
  if (!G->Mix)
    return R;
  // Effort 2 as the compiler ships it: the search, then the function mix of every version it
  // measured (and clang's), kept where smaller.
  std::vector<MixSequence> Versions;
  for (const std::vector<size_t> &Seq : S->Measured) {
    MixSequence V;
    for (size_t A : Seq)
      V.Actions.push_back(Env.actions().Actions[A].Name);
    V.Name = join(V.Actions, " ");
    Versions.push_back(std::move(V));
  }
  Expected<MixOutcome> Mix = mixOfVersions(*L, Agent->spaceName(), Versions);
  if (!Mix)
    return Mix.takeError();
  // The versions are measured again as clang compiles them; only the mix itself, when it
  // ships and beats the search's result, changes the row.
  R.Sequence += Mix->Note;
  if (Mix->Shipped && Mix->Shipped->first < R.Bytes)
    std::tie(R.Bytes, R.IR) = *Mix->Shipped;
  R.Seconds = since(Start);
  return R;
}

// clang's -Oz pipeline with the ML inliner deciding every call site: "inliner" (the model built
// into smartcc for the module's target) or "inliner:MODEL.smm". Before the -Oz fallback.
Expected<EvalRow> evalInliner(const CorpusModule &C, StringRef ModelPath, const EvalRow &Base) {
  Expected<InlinePolicy> P = modelFor<InlinePolicy>(ModelPath, C.Target, "inliner model");
  if (!P)
    return P.takeError();
  CandidateSpec Spec;
  Spec.Name = "inliner";
  Spec.Inliner = std::make_shared<const InlinePolicy>(std::move(*P));
  return evalCandidate(C, Spec, Base);
}

// "MODEL.smm,growth=PERCENT", each part optional: the regalloc method's model (empty: the one
// built in for the module's target) and the bytes the per-function choice may add, as the
// compiler's `regalloc_growth` (default 0).
struct RegAllocMethod {
  std::string Model;
  double GrowthPercent = 0;
};

Expected<RegAllocMethod> parseRegAllocMethod(StringRef Arg) {
  RegAllocMethod R;
  std::optional<StringRef> Growth;
  if (Arg.starts_with("growth=")) {
    Growth = Arg.drop_front(7);
  } else if (size_t I = Arg.find(",growth="); I != StringRef::npos) {
    Growth = Arg.drop_front(I + 8);
    R.Model = Arg.take_front(I).str();
  } else {
    R.Model = Arg.str();
  }
  if (Growth &&
      (Growth->getAsDouble(R.GrowthPercent) || !(R.GrowthPercent >= 0 && R.GrowthPercent <= 100)))
    return createStringError(inconvertibleErrorCode(),
                             "--method regalloc: growth=%s: expected a percentage (0 to 100)",
                             Growth->str().c_str());
  return R;
}

// ML register allocation as the compiler does it with `regalloc` set, at --regalloc-level
// (default O2): clang's middle-end at that level once, then clang's codegen with LLVM's greedy
// priorities, and the compiler's per-function choice among greedy and the policy's heads:
// "regalloc" (the model built in for the module's target) or "regalloc:MODEL.smm", either
// with ",growth=PERCENT". The row's clang figures are greedy's at that level; its costs are
// the allocator's own report.
Expected<EvalRow> evalRegAlloc(CorpusModule C, StringRef Arg, const EvalRow &Base) {
  Expected<RegAllocMethod> Method = parseRegAllocMethod(Arg);
  if (!Method)
    return Method.takeError();
  Expected<RegAllocPolicy> P =
      modelFor<RegAllocPolicy>(Method->Model, C.Target, "register-allocation model");
  if (!P)
    return P.takeError();
  C.Bench.CC1Args = cc1ArgsAtLevel(std::move(C.Bench.CC1Args), RegAllocLevel);
  Expected<Loaded> L = load(C);
  if (!L)
    return L.takeError();
  setSizeAttributesForLevel(*L->M, RegAllocLevel);
  auto Start = std::chrono::steady_clock::now();
  if (Error E = L->CG->optimize(*L->M, CandidateSpec()))
    return std::move(E);
  const double OptSeconds = since(Start);
  EvalRow R = Base;
  R.IR = R.ClangIR = countIRInstructions(*L->M);
  // Greedy, as clang.
  auto GreedyStart = std::chrono::steady_clock::now();
  std::unique_ptr<Module> Copy = CloneModule(*L->M);
  SmallVector<char, 0> Obj;
  RegAllocCost Greedy;
  Expected<ObjectSize> GreedySize = L->CG->emitObject(*Copy, Obj, {nullptr, nullptr, &Greedy});
  if (!GreedySize)
    return GreedySize.takeError();
  R.ClangBytes = GreedySize->linkedImageBytes();
  R.ClangCost = Greedy.weighted();
  R.ClangSeconds = OptSeconds + since(GreedyStart);
  // The per-function choice.
  auto MLStart = std::chrono::steady_clock::now();
  Expected<PortfolioAllocation> A =
      L->CG->emitObjectPerFunction(*L->M, *P, Method->GrowthPercent / 100.0);
  if (!A)
    return A.takeError();
  Expected<ObjectSize> Size =
      measureObject(MemoryBufferRef(StringRef(A->Object.data(), A->Object.size()), "ml"));
  if (!Size)
    return Size.takeError();
  R.Seconds = OptSeconds + since(MLStart);
  R.Bytes = Size->linkedImageBytes();
  R.Cost = A->Cost.weighted();
  R.HeadCost = A->HeadsOnlyCost;
  R.Sequence = std::to_string(A->FunctionsChanged) + " of " + std::to_string(A->Functions) +
               " functions with spill cost allocated by the policy, " +
               std::to_string(A->Codegens) + " codegens";
  return R;
}

// A policy of the RL trainers (DQN, PPO, world model) played greedily, as the `policy`
// candidate key serves it: "policy:MODEL.smm".
Expected<EvalRow> evalPolicy(const CorpusModule &C, StringRef Path, const EvalRow &Base) {
  Expected<ExportedModel> Model = ExportedModel::load(Path.str());
  if (!Model)
    return Model.takeError();
  const json::Object &Meta = Model->metadata();
  Expected<ActionSpace> Space = loadActionSpaces(Meta.getString("space").value_or("").str());
  if (!Space)
    return Space.takeError();
  const size_t Stop = Space->size();
  unsigned Horizon = unsigned(Meta.getInteger("horizon").value_or(45));
  if (Model->outputSize() != Stop + 1)
    return createStringError(inconvertibleErrorCode(), "%s: %zu outputs for a space of %zu",
                             Path.str().c_str(), Model->outputSize(), Stop);
  EnvOptions EO;
  EO.MaxSteps = Horizon;
  Expected<ModelObservation> Obs = modelObservation(Meta, /*Policy=*/true);
  if (!Obs)
    return Obs.takeError();
  EO.Observation = Obs->Kind;
  EO.Vocab = Obs->Vocab;
  CompilerEnv Env(std::move(*Space), EO);
  auto Start = std::chrono::steady_clock::now();
  if (Error E = Env.reset(C.Bench))
    return std::move(E);
  std::vector<size_t> Seq;
  for (unsigned T = 0; T < Horizon; ++T) {
    size_t A = Model->argmax(Env.observation());
    if (A >= Stop)
      break;
    Seq.push_back(A);
    Env.step(A);
  }
  Expected<EvalRow> R = measureSequence(Env, C, Seq, Base);
  if (R)
    R->Seconds = since(Start);
  return R;
}

// Searches with the environment, then measures the best sequence both ways.
Expected<EvalRow> evalSearch(const CorpusModule &C, StringRef Kind, StringRef Arg,
                             const EvalRow &Base) {
  EvalRow R = Base;
  Expected<ActionSpace> Space = loadActionSpaces(SpaceName);
  if (!Space)
    return Space.takeError();
  CompilerEnv Env(std::move(*Space), EnvOptions{RewardKind::IRInstructions, 1000});
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> S = createStringError(inconvertibleErrorCode(), "bad method");
  if (Kind == "random") {
    auto [Trials, Length] = Arg.split('x');
    S = randomSearch(Env, C.Bench, unsigned(std::stoul(Trials.str())),
                     unsigned(std::stoul(Length.str())), Seed, TheObjective);
  } else if (Kind == "greedy") { // STEPS[,evals=N]
    auto [Steps, Cap] = Arg.split(',');
    Cap.consume_front("evals=");
    S = greedySearch(Env, C.Bench, unsigned(std::stoul(Steps.str())), TheObjective, {},
                     Cap.empty() ? 0 : std::stoull(Cap.str()), Seed);
  }
  if (!S)
    return S.takeError();
  R.Seconds = since(Start);
  R.Rejected = S->Rejected, R.Rejection = S->FirstRejection;
  return measureSequence(Env, C, S->Best, R, TheObjective);
}

// gcc -Os object sizes recorded at harvest time (harvest_gcc), by directory and source.
StringMap<uint64_t> GccOsBytes;

// Records before cross gcc existed carry no "arch": they are the host's (x86-64).
std::string gccKey(StringRef Directory, StringRef Source, StringRef Arch) {
  return (Directory + Twine('\0') + Source + Twine('\0') + Arch).str();
}

void readGccSizes() {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(CorpusDir + "/gcc-os.jsonl");
  if (!B)
    return;
  forEachJSONObject((*B)->getBuffer(), [](const json::Object &O) {
    if (O.getBoolean("ok").value_or(false))
      // image_bytes since the image metric; older records only have alloc_bytes (with .bss).
      if (std::optional<int64_t> Bytes = O.getInteger("image_bytes")
                                             ? O.getInteger("image_bytes")
                                             : O.getInteger("alloc_bytes"))
        GccOsBytes[gccKey(O.getString("directory").value_or(""),
                          O.getString("source").value_or(""),
                          O.getString("arch").value_or("x86_64"))] = uint64_t(*Bytes);
  });
}

// gcc -Os on the same compile command, as recorded at harvest time. gcc has no LLVM IR: the
// row's IR is clang's (ratio 1), only bytes compare.
Expected<EvalRow> evalGccOs(const CorpusModule &C, const EvalRow &Base) {
  auto It = GccOsBytes.find(gccKey(C.Directory, C.Source, StringRef(C.Target).split('-').first));
  if (It == GccOsBytes.end())
    return createStringError(inconvertibleErrorCode(),
                             "no gcc -Os size recorded (harvest with harvest_gcc)");
  EvalRow R = Base;
  R.Bytes = It->second;
  R.IR = Base.ClangIR;
  return R;
}


Expected<MethodSpec> parseMethod(StringRef M) {
  auto Bad = [&](const char *Expected) {
    return createStringError(inconvertibleErrorCode(), "--method %s: expected %s",
                             M.str().c_str(), Expected);
  };
  auto Digits = [](StringRef S) {
    return !S.empty() && S.find_first_not_of("0123456789") == StringRef::npos;
  };
  if (is_contained({"oz", "os", "o0", "gcc-os", "inliner", "regalloc"}, M))
    return MethodSpec{M, ""};
  if (M.starts_with("regalloc,") || M.starts_with("regalloc:")) {
    StringRef Arg = M.drop_front(8);
    Arg.consume_front(":");
    if (Expected<RegAllocMethod> R = parseRegAllocMethod(Arg); !R)
      return R.takeError();
    return MethodSpec{"regalloc", Arg};
  }
  // KIND@... or KIND:MODEL@...: the argument after KIND and the colon, if M is spelt so.
  auto ModelAtArg = [&](StringRef Kind) -> std::optional<StringRef> {
    StringRef Arg = M.drop_front(Kind.size());
    if ((!Arg.consume_front(":") && !Arg.starts_with("@")) || !Arg.contains('@'))
      return std::nullopt;
    return Arg;
  };
  if (M.starts_with("agent")) {
    std::optional<StringRef> Arg = ModelAtArg("agent");
    if (!Arg)
      return Bad("agent[:MODEL]@EFFORT[,budget=N[,time=PERCENT]][,inliner[=MODEL]]");
    if (Expected<AgentMethod> A = parseAgentMethod(*Arg); !A)
      return A.takeError();
    return MethodSpec{"agent", *Arg};
  }
  if (M.starts_with("funcmix")) {
    std::optional<StringRef> Arg = ModelAtArg("funcmix");
    if (!Arg)
      return Bad("funcmix[:MODEL]@EFFORT");
    return MethodSpec{"funcmix", *Arg};
  }
  if (M.starts_with("guided")) {
    std::optional<StringRef> Arg = ModelAtArg("guided");
    if (!Arg)
      return Bad("guided[:MODEL]@EVALS[,k=K][,first=N][,order=mined][,next=start][,mix]");
    if (Expected<GuidedMethod> G = parseGuidedMethod(*Arg); !G)
      return G.takeError();
    return MethodSpec{"guided", *Arg};
  }
  auto [Kind, Arg] = M.split(':');
  if (is_contained({"candidate", "coreset", "inliner", "policy", "perfunc"}, Kind))
    return Arg.empty() ? Expected<MethodSpec>(Bad("an argument after the colon"))
                       : MethodSpec{Kind, Arg};
  if (Kind == "random") {
    auto [Trials, Length] = Arg.split('x');
    if (!Digits(Trials) || !Digits(Length))
      return Bad("random:TRIALSxLENGTH");
    return MethodSpec{Kind, Arg};
  }
  if (Kind == "greedy") {
    auto [Steps, Cap] = Arg.split(',');
    if (!Digits(Steps) || (!Cap.empty() && (!Cap.consume_front("evals=") || !Digits(Cap))))
      return Bad("greedy:STEPS[,evals=N]");
    return MethodSpec{Kind, Arg};
  }
  return Bad("oz, os, o0, gcc-os, candidate:NAME, coreset:FILE[:K], agent[:MODEL]@EFFORT, "
             "guided[:MODEL]@EVALS, funcmix[:MODEL]@EFFORT, policy:MODEL, perfunc:OPTIONS, "
             "inliner[:MODEL], "
             "regalloc[:MODEL][,growth=PERCENT], "
             "random:TRIALSxLENGTH or greedy:STEPS[,evals=N]");
}

// One method on one module.
Expected<EvalRow> evalMethod(const CorpusModule &C, const Config &Cfg, const MethodSpec &M,
                             const EvalRow &Base) {
  if (M.Kind == "oz") {
    EvalRow R = Base;
    R.IR = Base.ClangIR, R.Bytes = Base.ClangBytes, R.Seconds = Base.ClangSeconds;
    return R;
  }
  if (M.Kind == "candidate") {
    auto It = Cfg.CandidateLibrary.find(M.Arg.str());
    if (It == Cfg.CandidateLibrary.end())
      return createStringError(inconvertibleErrorCode(), "no candidate '%s'",
                               M.Arg.str().c_str());
    return evalCandidate(C, It->second, Base);
  }
  if (M.Kind == "coreset")
    return evalCoreset(C, M.Arg, Base);
  if (M.Kind == "gcc-os")
    return evalGccOs(C, Base);
  if (M.Kind == "os" || M.Kind == "o0")
    return evalLevel(C, M.Kind == "os" ? "Os" : "O0", Base);
  if (M.Kind == "agent")
    return evalAgent(C, Cfg, M.Arg, Base);
  if (M.Kind == "guided")
    return evalGuided(C, M.Arg, Base);
  if (M.Kind == "inliner")
    return evalInliner(C, M.Arg, Base);
  if (M.Kind == "regalloc")
    return evalRegAlloc(C, M.Arg, Base);
  if (M.Kind == "policy")
    return evalPolicy(C, M.Arg, Base);
  if (M.Kind == "perfunc")
    return evalPerFunction(C, M.Arg, Base);
  if (M.Kind == "funcmix")
    return evalFunctionMix(C, M.Arg, Base);
  return evalSearch(C, M.Kind, M.Arg, Base); // random, greedy
}

// Runs Method in a child process (ContainedEvaluation.h) and brings its row back as JSON: a
// crash or an LLVM fatal error inside one method fails that method's row, and the module's
// other methods keep theirs. No time limit (a search may rightly take long); LLVM's crash
// report stays on stderr, where the sweep's log keeps it.

} // namespace smartcc::eval
