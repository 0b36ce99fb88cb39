#include "policies/regalloc/AllocatorPlan.h"
#include "policies/regalloc/AllocatorFeatures.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/AllocatorOptions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/LiveDebugVariables.h"
#include "llvm/CodeGen/LiveIntervals.h"
#include "llvm/CodeGen/LiveRegMatrix.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachinePassRegistry.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/RegAllocRegistry.h"
#include "llvm/IR/Function.h"
#include "llvm/Pass.h"
#include "llvm/Support/CommandLine.h"
#include <memory>
#include <mutex>
#include <optional>

using namespace llvm;

namespace smartcc {

std::string AllocatorChoice::name() const {
  std::string N = Allocator == Kind::Basic  ? "basic"
                  : Allocator == Kind::PBQP ? "pbqp"
                                            : "greedy";
  for (const std::string &O : Options)
    N += ":" + O;
  return N;
}

Expected<AllocatorChoice> parseAllocatorChoice(StringRef Spec) {
  SmallVector<StringRef, 4> Parts;
  Spec.split(Parts, ':');
  AllocatorChoice C;
  if (Parts[0] == "greedy")
    C.Allocator = AllocatorChoice::Kind::Greedy;
  else if (Parts[0] == "basic")
    C.Allocator = AllocatorChoice::Kind::Basic;
  else if (Parts[0] == "pbqp")
    C.Allocator = AllocatorChoice::Kind::PBQP;
  else
    return createStringError(inconvertibleErrorCode(),
                             "unknown register allocator '" + Parts[0] +
                                 "' (expected greedy, basic or pbqp)");
  for (StringRef O : ArrayRef(Parts).drop_front()) {
    // The options are the greedy allocator's: they mean nothing to the others.
    if (C.Allocator != AllocatorChoice::Kind::Greedy)
      return createStringError(inconvertibleErrorCode(),
                               "allocator options are greedy's, not " + Parts[0] + "'s: '" +
                                   Spec + "'");
    if (Error E = checkAllocatorOption(O))
      return std::move(E);
    C.Options.push_back(O.str());
  }
  return C;
}

Expected<std::vector<AllocatorChoice>> parseAllocatorChoices(ArrayRef<std::string> Specs) {
  std::vector<AllocatorChoice> Choices;
  for (const std::string &Spec : Specs) {
    Expected<AllocatorChoice> C = parseAllocatorChoice(Spec);
    if (!C)
      return C.takeError();
    Choices.push_back(std::move(*C));
  }
  return Choices;
}

namespace {

thread_local const AllocatorPlan *ThreadPlan = nullptr;
thread_local AllocatorCounts ThreadCounts;

std::mutex InstallLock;
unsigned Installed = 0;
RegisterRegAlloc::FunctionPassCtor Previous = nullptr;

// The value of -regalloc: what TargetPassConfig makes the registry's default the first time it
// builds an allocator, if nothing did before.
RegisterRegAlloc::FunctionPassCtor regAllocOption() {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("regalloc");
  if (It == Options.end())
    return nullptr;
  using RegAllocOpt =
      cl::opt<RegisterRegAlloc::FunctionPassCtor, false, RegisterPassParser<RegisterRegAlloc>>;
  return static_cast<RegAllocOpt *>(It->second)->getValue();
}

FunctionPass *createAllocator(AllocatorChoice::Kind K) {
  switch (K) {
  case AllocatorChoice::Kind::Basic:
    return createBasicRegisterAllocator();
  case AllocatorChoice::Kind::PBQP:
    return createDefaultPBQPRegisterAllocator();
  case AllocatorChoice::Kind::Greedy:
    break;
  }
  return createGreedyRegisterAllocator();
}

class PlanRegAlloc : public MachineFunctionPass {
public:
  static char ID;
  explicit PlanRegAlloc(const AllocatorPlan &P) : MachineFunctionPass(ID), Plan(P) {
    for (const AllocatorChoice &C : Plan.Choices)
      if (!instance(C.Allocator))
        Allocators.push_back({C.Allocator, std::unique_ptr<FunctionPass>(createAllocator(C.Allocator))});
  }

  StringRef getPassName() const override { return "smartcc per-function register allocation"; }

  // Every analysis any allocator requires; preserved only what all of them preserve.
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    std::optional<SmallVector<AnalysisID, 32>> Preserved;
    for (const Instance &I : Allocators) {
      AnalysisUsage U;
      I.Pass->getAnalysisUsage(U);
      for (AnalysisID ID : U.getRequiredSet()) {
        if (is_contained(U.getRequiredTransitiveSet(), ID))
          AU.addRequiredTransitiveID(*const_cast<char *>(static_cast<const char *>(ID)));
        else
          AU.addRequiredID(ID);
      }
      for (AnalysisID ID : U.getUsedSet())
        AU.addUsedIfAvailableID(ID);
      if (U.getPreservesAll())
        continue;
      if (!Preserved)
        Preserved.emplace(U.getPreservedSet().begin(), U.getPreservedSet().end());
      else
        erase_if(*Preserved,
                 [&](AnalysisID ID) { return !is_contained(U.getPreservedSet(), ID); });
    }
    if (!Preserved) {
      AU.setPreservesAll();
      return;
    }
    // PBQP neither uses nor declares the debug-variable locations and the live register
    // matrix, and leaves them as they were before it ran; it is the only allocator that does
    // not declare them preserved. Left out, the pass manager would compute them again after
    // this pass: the locations from a function whose debug values the first computation had
    // already taken out (so they would be lost), the matrix empty. Kept, they are what they
    // are after greedy or basic, or what the rewriter after a PBQP allocation would see.
    for (AnalysisID ID : {AnalysisID(&LiveDebugVariablesWrapperLegacy::ID),
                          AnalysisID(&LiveRegMatrixWrapperLegacy::ID)})
      if (!is_contained(*Preserved, ID))
        Preserved->push_back(ID);
    for (AnalysisID ID : *Preserved)
      AU.addPreservedID(ID);
  }

  bool runOnMachineFunction(MachineFunction &MF) override {
    auto Fixed = Plan.ByFunction.find(MF.getName());
    const bool Predict = Plan.Model && Fixed == Plan.ByFunction.end();
    unsigned Index = Fixed != Plan.ByFunction.end() ? Fixed->second : Plan.Default;
    if (Predict || Plan.Features) {
      std::vector<float> F =
          allocatorFeatures(MF, getAnalysis<LiveIntervalsWrapperPass>().getLIS(),
                            getAnalysis<MachineLoopInfoWrapperPass>().getLI());
      if (Predict)
        Index = Plan.Model->choose(F);
      if (Plan.Features)
        (*Plan.Features)[MF.getName()] = std::move(F);
    }
    const AllocatorChoice &C = Plan.Choices[Index];
    ThreadCounts.Moved += Index != 0;
    FunctionPass *P = instance(C.Allocator);
    // The allocator finds its analyses through a resolver of its own (a pass deletes its
    // resolver), filled from the dispatcher's, which the pass manager filled for this
    // function: the dispatcher requires all of them.
    AnalysisResolver *Own = getResolver();
    if (!P->getResolver())
      P->setResolver(new AnalysisResolver(Own->getPMDataManager()));
    AnalysisResolver *R = P->getResolver();
    R->clearAnalysisImpls();
    AnalysisUsage U;
    P->getAnalysisUsage(U);
    for (AnalysisID ID : U.getRequiredSet())
      if (Pass *Impl = Own->findImplPass(ID))
        R->addAnalysisImplsPair(ID, Impl);
    // Greedy reads its splitting options while it allocates, and they are process-wide: every
    // greedy allocation holds the options lock, with options or without, so that a thread
    // allocating with LLVM's defaults never sees another's (the trainer measures on two
    // threads; without the lock 22 of 943 modules had greedy objects that were another
    // thread's option's).
    std::optional<FunctionAllocatorOptions> Options;
    if (C.Allocator == AllocatorChoice::Kind::Greedy)
      Options.emplace(C.Options);
    switch (C.Allocator) {
    case AllocatorChoice::Kind::Greedy:
      ++ThreadCounts.Greedy;
      break;
    case AllocatorChoice::Kind::Basic:
      ++ThreadCounts.Basic;
      break;
    case AllocatorChoice::Kind::PBQP:
      ++ThreadCounts.PBQP;
      break;
    }
    // (runOnFunction is the allocator's MachineFunctionPass entry: it finds MF again through
    // MachineModuleInfo and keeps the machine function's properties as the allocator says.)
    return P->runOnFunction(MF.getFunction());
  }

  void releaseMemory() override {
    for (Instance &I : Allocators)
      I.Pass->releaseMemory();
  }

private:
  struct Instance {
    AllocatorChoice::Kind Kind;
    std::unique_ptr<FunctionPass> Pass;
  };
  FunctionPass *instance(AllocatorChoice::Kind K) const {
    for (const Instance &I : Allocators)
      if (I.Kind == K)
        return I.Pass.get();
    return nullptr;
  }

  std::vector<Instance> Allocators;
  AllocatorPlan Plan; // a copy: the pass manager may outlive the scope
};

char PlanRegAlloc::ID = 0;

FunctionPass *createFromRegistry() {
  if (const AllocatorPlan *P = ThreadPlan)
    return new PlanRegAlloc(*P);
  // Another thread's scope: this thread's code generation gets what it would have had.
  RegisterRegAlloc::FunctionPassCtor Ctor;
  {
    std::lock_guard<std::mutex> G(InstallLock);
    Ctor = Previous;
  }
  FunctionPass *Pass = Ctor ? Ctor() : nullptr; // -regalloc's "default" gives no pass
  return Pass ? Pass : createGreedyRegisterAllocator();
}

} // namespace

AllocatorPlan AllocatorPlan::predicted(std::shared_ptr<const AllocatorModel> Model) {
  AllocatorPlan P;
  P.Choices = Model->allocators();
  P.Model = std::move(Model);
  return P;
}

ScopedAllocatorPlan::ScopedAllocatorPlan(const AllocatorPlan &Plan) {
  ThreadPlan = &Plan;
  std::lock_guard<std::mutex> G(InstallLock);
  if (Installed++ == 0) {
    Previous = RegisterRegAlloc::getDefault();
    if (!Previous)
      Previous = regAllocOption();
    RegisterRegAlloc::setDefault(createFromRegistry);
  }
}

ScopedAllocatorPlan::~ScopedAllocatorPlan() {
  ThreadPlan = nullptr;
  std::lock_guard<std::mutex> G(InstallLock);
  if (--Installed == 0)
    RegisterRegAlloc::setDefault(Previous);
}

AllocatorCounts takeAllocatorCounts() {
  AllocatorCounts C = ThreadCounts;
  ThreadCounts = {};
  return C;
}

} // namespace smartcc
