#include "runtime/link/plugin/LinkAllocators.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/AllocatorPlan.h"
#include "runtime/compile/AllocatorsByBytes.h"
#include "runtime/compile/UnwindAwareConstants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include <memory>

using namespace llvm;

namespace smartcc {

namespace {

// A target machine like lld's LTO code generation's: the module's triple, CPU and features from
// each function's attributes (clang puts them there), a section per function and per object
// (lld's LTO always asks for them), position-independent code where the module was compiled so.
Expected<std::unique_ptr<TargetMachine>> targetMachineFor(const Module &M) {
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(M.getTargetTriple(), Error);
  if (!T)
    return createStringError(inconvertibleErrorCode(), Error);
  TargetOptions Options;
  Options.FunctionSections = true;
  Options.DataSections = true;
  Options.UniqueSectionNames = true;
  const bool PIC = M.getPICLevel() != PICLevel::NotPIC || M.getPIELevel() != PIELevel::Default;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      M.getTargetTriple(), "", "", Options, PIC ? Reloc::PIC_ : Reloc::Static, std::nullopt,
      CodeGenOptLevel::Default));
  if (!TM)
    return createStringError(inconvertibleErrorCode(), "no target machine for " +
                                                           M.getTargetTriple().str());
  return std::move(TM);
}

// The built-in model (choice or proposals) for M's target; a missing or bad one fails the link.
AllocatorModel builtinModel(const Module &M, bool Proposals) {
  Expected<AllocatorModel> Model = AllocatorModel::forSpec(
      Proposals ? BuiltinProposalModel : BuiltinChoiceModel, M.getTargetTriple().str());
  if (!Model)
    report_fatal_error(Twine("smartcc-allocators: ") + toString(Model.takeError()));
  return std::move(*Model);
}

enum class PlanKind { Tried, Predicted, Proposed };

struct PlanAllocators : PassInfoMixin<PlanAllocators> {
  PlanKind Kind;
  std::vector<AllocatorChoice> Allocators; // Tried: these
  PlanAllocators(PlanKind K, std::vector<AllocatorChoice> A) : Kind(K), Allocators(std::move(A)) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    // The plan and its scope outlive the pass: lld's code generation comes after the
    // pipeline, on this thread.
    static thread_local std::unique_ptr<AllocatorPlan> Plan;
    static thread_local std::unique_ptr<ScopedAllocatorPlan> Scope;
    Scope.reset();
    Plan = std::make_unique<AllocatorPlan>();
    if (Kind == PlanKind::Predicted) {
      *Plan = AllocatorPlan::predicted(
          std::make_shared<const AllocatorModel>(builtinModel(M, /*Proposals=*/false)));
    } else {
      Expected<std::unique_ptr<TargetMachine>> TM = targetMachineFor(M);
      if (!TM)
        report_fatal_error(Twine("smartcc-allocators: ") + toString(TM.takeError()));
      // The planning code generations are not the link's: the unwind-aware constants they
      // add are not reported as the link's code (UnwindAwareConstants.h).
      ScopedUnwindTradeSilence Silence;
      auto Emit = [&](Module &Copy, SmallVectorImpl<char> &Object) -> Error {
        raw_svector_ostream OS(Object);
        legacy::PassManager PM;
        if ((*TM)->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
          return createStringError(inconvertibleErrorCode(), "the target cannot emit objects");
        PM.run(Copy);
        return Error::success();
      };
      Expected<BytesAllocation> A =
          Kind == PlanKind::Proposed
              ? allocateByProposals(M, builtinModel(M, /*Proposals=*/true), Emit,
                                    /*PlanOnly=*/true)
              : allocateByBytes(M, Allocators, Emit, /*RecordFeatures=*/false,
                                /*PlanOnly=*/true);
      if (!A)
        report_fatal_error(Twine("smartcc-allocators: ") + toString(A.takeError()));
      *Plan = std::move(A->Plan);
    }
    Scope = std::make_unique<ScopedAllocatorPlan>(*Plan);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

bool addLinkAllocatorsPass(StringRef Params, ModulePassManager &MPM) {
  if (Params == "predicted" || Params == "proposed") {
    MPM.addPass(PlanAllocators(Params == "predicted" ? PlanKind::Predicted : PlanKind::Proposed, {}));
    return true;
  }
  std::vector<AllocatorChoice> Allocators;
  SmallVector<StringRef, 4> Specs;
  Params.split(Specs, ';', -1, /*KeepEmpty=*/false);
  for (StringRef Spec : Specs) {
    Expected<AllocatorChoice> C = parseAllocatorChoice(Spec);
    if (!C) {
      consumeError(C.takeError());
      return false;
    }
    Allocators.push_back(std::move(*C));
  }
  if (Allocators.empty())
    return false;
  MPM.addPass(PlanAllocators(PlanKind::Tried, std::move(Allocators)));
  return true;
}

} // namespace smartcc
