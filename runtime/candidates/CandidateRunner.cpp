#include "runtime/candidates/CandidateRunner.h"
#include "llvm/Support/xxhash.h"
#include "runtime/compile/UnwindAwareConstants.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "runtime/compile/ClangBackend.h"
#include "runtime/support/FileDescriptorIO.h"
#include "runtime/decide/FunctionMixCandidate.h"
#include "policies/SequenceAgent.h"
#include "runtime/compile/OptionActions.h"
#include "runtime/compile/PipelineBuilder.h"
#include "runtime/candidates/PolicyRollout.h"
#include "runtime/measure/RegAllocCost.h"
#include "runtime/compile/RegAllocPortfolio.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/AllocatorPlan.h"
#include "policies/regalloc/MLRegAllocAdvisor.h"
#include "runtime/compile/AllocatorsByBytes.h"
#include "runtime/compile/LocalCallRegisters.h"
#include "policies/model/ExportedModel.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "runtime/compile/SharedUnwind.h"
#include "runtime/compile/SharedUnwindCodegen.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <chrono>
#include <map>
#include <optional>
#include <unistd.h>

using namespace llvm;

namespace smartcc {
namespace {

// Swallows every backend diagnostic (a candidate must print nothing: configure scripts read
// stderr) and remembers the first error, which decides the candidate's outcome.
struct RecordingDiagnosticHandler : DiagnosticHandler {
  std::string FirstError;
  StackSizeWarnings Stack; // what clang's handler would have printed (-Wframe-larger-than)
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (Stack.add(DI))
      return true;
    if (DI.getSeverity() == DS_Error && FirstError.empty()) {
      raw_string_ostream OS(FirstError);
      DiagnosticPrinterRawOStream DP(OS);
      DI.print(DP);
    }
    return true;
  }
};

} // namespace

uint64_t countIRInstructions(const Module &M) {
  uint64_t N = 0;
  for (const Function &F : M)
    N += F.getInstructionCount();
  return N;
}

void runCandidate(Module &Frontend, const CandidateSpec &Spec, const CandidateContext &Ctx,
                  CandidateResult &R, int OutFd) {
  auto Start = std::chrono::steady_clock::now();
  auto Finish = [&](Outcome O, StringRef Message) {
    R.Result = O;
    R.setMessage(Message.str().c_str());
    R.Millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
                   .count();
  };
  clang::CompilerInstance &CI = *Ctx.CI;
  auto Handler = std::make_unique<RecordingDiagnosticHandler>();
  RecordingDiagnosticHandler *Diags = Handler.get();
  Frontend.getContext().setDiagnosticHandler(std::move(Handler));

  // Candidate LLVM options go on top of the user's -mllvm options (this is the candidate's
  // own process: global option state is fine).
  if (Error E = applyLLVMOptions(CI.getFrontendOpts().LLVMArgs, Spec.LLVMArgs, ""))
    return Finish(Outcome::BadPipeline, toString(std::move(E)));
  // The function mix is built here from the measured versions, not optimized from Frontend.
  std::unique_ptr<Module> Mixed;
  std::string Note;
  if (Spec.Mix) {
    std::vector<std::string> BaseArgs;
    Expected<std::unique_ptr<Module>> Built =
        buildMixCandidate(*Spec.Mix, Frontend.getContext(), CI, Note, BaseArgs);
    if (!Built)
      return Finish(Outcome::BadPipeline, "function mix: " + toString(Built.takeError()));
    if (!*Built)
      return Finish(Outcome::Unchanged, "no mix is estimated smaller than the best version");
    Mixed = std::move(*Built);
    // Compiled as its base was (the machine outliner, ...).
    if (Error E = applyLLVMOptions(CI.getFrontendOpts().LLVMArgs, BaseArgs, ""))
      return Finish(Outcome::BadPipeline, toString(std::move(E)));
  }
  Module &M = Mixed ? *Mixed : Frontend;
  addFunctionAttributes(M, Spec.FunctionAttrs);

  R.IRBefore = countIRInstructions(M);
  if (Error E = runCandidatePipeline(M, Spec, CI))
    return Finish(Outcome::BadPipeline, toString(std::move(E)));
  if (!Spec.Policy.empty()) {
    Expected<ExportedModel> Model = ExportedModel::load(Spec.Policy);
    if (!Model)
      return Finish(Outcome::BadPipeline, "policy: " + toString(Model.takeError()));
    Expected<std::vector<std::string>> Taken = playPolicy(M, *Model, CI, Spec.Inliner);
    if (!Taken)
      return Finish(Outcome::BadPipeline, "policy: " + toString(Taken.takeError()));
  }
  if (!Spec.Actions.empty())
    if (Error E = playSequence(M, Spec.ActionSpace, Spec.Actions, CI, Spec.Inliner))
      return Finish(Outcome::BadPipeline, "sequence: " + toString(std::move(E)));
  std::string VerifierMessage;
  raw_string_ostream VOS(VerifierMessage);
  if (verifyModule(M, &VOS))
    return Finish(Outcome::VerifierFailed, VerifierMessage);
  R.IRAfter = countIRInstructions(M);
  if (Spec.ProposeAfter)
    for (const SequenceProposal &P : Spec.ProposeAfter->rank(M)) {
      if (R.NextCount == CandidateResult::MaxNext)
        break;
      R.NextPredicted[R.NextCount] = P.PredictedPercent;
      R.Next[R.NextCount++] = uint8_t(P.CoreSetIndex);
    }
  uint64_t Bound = uint64_t(Ctx.MaxGrowth * double(std::max<uint64_t>(R.IRBefore, 64)));
  if (R.IRAfter > Bound && !Spec.BitcodeOnly) // (the pre-link module is not a contender)
    return Finish(Outcome::Growth, "IR grew from " + std::to_string(R.IRBefore) + " to " +
                                       std::to_string(R.IRAfter) + " instructions");
  // The module as optimized, for the function mix (codegen rewrites it below).
  SmallString<0> Bitcode;
  if (Ctx.EmitBitcode || Spec.BitcodeOnly) {
    raw_svector_ostream BOS(Bitcode);
    WriteBitcodeToFile(M, BOS);
  }
  if (Spec.BitcodeOnly) {
    if (!writeAll(OutFd, Bitcode.data(), Bitcode.size()))
      return Finish(Outcome::CodegenFailed, "cannot hand the bitcode back");
    R.BitcodeBytes = Bitcode.size();
    Finish(Outcome::Ok, "");
    return;
  }

  // Interprocedural register allocation (-enable-ipra, from the candidate's llvm_args or the
  // user's -mllvm) only across calls that bind locally: runtime/compile/LocalCallRegisters.h.
  if (ipraEnabledInProcess())
    limitIPRAToLocalCalls(M);
  // The frameless functions' shared unwind entry: the run at the end of the module, decided
  // on machine code by the stages registered here (once per process).
  if (Spec.SharedUnwind) {
    ModuleAnalysisManager MAM;
    SharedUnwindPass("", /*UncheckedThunks=*/false, /*InText=*/true).run(M, MAM);
    registerSharedUnwindCodegenPasses();
  }
  // Codegen rewrites the IR it runs on, so the assembly (if any) comes from a copy.
  std::unique_ptr<Module> ForAsm = Ctx.EmitAssembly ? CloneModule(M) : nullptr;
  SmallString<0> Object, Assembly;
  auto Emit = [&](Module &Mod, SmallVectorImpl<char> &Out, EmitKind Kind) -> Error {
    if (emitWithClangBackend(CI, Mod, Kind, Out) && Diags->FirstError.empty())
      return Error::success();
    return createStringError(inconvertibleErrorCode(), Diags->FirstError.empty()
                                                           ? "backend error"
                                                           : Diags->FirstError);
  };
  // With a register-allocation policy each function gets the cheapest of LLVM's allocation
  // and the policy's heads; the assembly then follows the same plan.
  RegAllocPlan Plan = RegAllocPlan::wholeModule(RegAllocPlan::Greedy);
  const bool WantsStackUsage = !CI.getCodeGenOpts().StackUsageOutput.empty();
  std::string StackUsage;
  // (Per-function allocation assembles its object from several code generations: no single
  // set of stack-usage lines describes it.)
  if (WantsStackUsage && (Spec.RegAlloc || !Spec.Allocators.empty() || !Spec.AllocatorModel.empty()))
    return Finish(Outcome::CodegenFailed, "-fstack-usage with per-function register allocation");
  // (Checked with the configuration.)
  Expected<std::vector<AllocatorChoice>> Parsed = parseAllocatorChoices(Spec.Allocators);
  if (!Parsed)
    return Finish(Outcome::BadPipeline, toString(Parsed.takeError()));
  std::vector<AllocatorChoice> Allocators = std::move(*Parsed);
  AllocatorPlan ByBytes;
  std::shared_ptr<const AllocatorModel> Proposals; // checked proposals
  if (!Spec.AllocatorModel.empty()) {
    Expected<AllocatorModel> Model =
        AllocatorModel::forSpec(Spec.AllocatorModel, M.getTargetTriple().str());
    if (!Model)
      return Finish(Outcome::BadPipeline, toString(Model.takeError()));
    auto Shared = std::make_shared<const AllocatorModel>(std::move(*Model));
    if (Shared->isProposalModel())
      Proposals = std::move(Shared);
    else
      ByBytes = AllocatorPlan::predicted(std::move(Shared));
  }
  if (Spec.RegAlloc && (!Allocators.empty() || ByBytes.Model || Proposals))
    return Finish(Outcome::BadPipeline, "a register-allocation policy and allocators by bytes");
  if (!Allocators.empty() || Proposals) {
    // The code the unwind-aware constants added, per code generation (by its object's hash):
    // the one whose object ships is what the code-for-unwind rule leaves out.
    std::vector<std::pair<uint64_t, unsigned long long>> Trades;
    auto Hash = [](ArrayRef<char> Bytes) {
      return xxh3_64bits(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Bytes.data()),
                                           Bytes.size()));
    };
    auto EmitObject = [&](Module &Mod, SmallVectorImpl<char> &Out) {
      takeUnwindConstantsCodeBytes();
      Error E = Emit(Mod, Out, EmitKind::Object);
      Trades.emplace_back(Hash(Out), takeUnwindConstantsCodeBytes());
      return E;
    };
    Expected<BytesAllocation> A = Proposals ? allocateByProposals(M, *Proposals, EmitObject)
                                            : allocateByBytes(M, Allocators, EmitObject);
    if (!A)
      return Finish(Outcome::CodegenFailed, toString(A.takeError()));
    Object = std::move(A->Object);
    const uint64_t Shipped = Hash(Object);
    for (const auto &[Emitted, Trade] : Trades)
      if (Emitted == Shipped)
        R.UnwindTradeCode = Trade;
    ByBytes = std::move(A->Plan);
    R.StackWarnings.Count = UINT32_MAX; // several code generations, one object
    R.RegAllocFunctions = A->Functions;
    R.RegAllocFunctionsChanged = A->FunctionsMoved;
    R.RegAllocCodegens = A->Codegens;
    if (A->FunctionsMoved) {
      // Which allocators the moved functions took, for explain.
      std::map<unsigned, unsigned> Taken;
      for (const auto &F : ByBytes.ByFunction)
        ++Taken[F.getValue()];
      std::string Moved;
      for (auto [Index, Count] : Taken)
        Moved += (Moved.empty() ? "" : ", ") + std::to_string(Count) + " " +
                 ByBytes.Choices[Index].name();
      Note += (Note.empty() ? "" : "; ") + std::to_string(A->FunctionsMoved) + " of " +
              std::to_string(A->Functions) + " functions to another allocator (" + Moved + ")";
    }
    for (const std::string &Failure : A->Failed)
      Note += (Note.empty() ? "" : "; ") + Failure;
    if (A->Stopped != BytesAllocation::StoppedAt::None)
      Note += std::string(Note.empty() ? "" : "; ") +
              (A->Stopped == BytesAllocation::StoppedAt::SmallModule
                   ? "no proposals: the module is below the model's gate"
                   : "no mix: it would save less than the model's gate over the better object");
  } else if (ByBytes.Model) {
    // One code generation; the model picks each function's allocator as it is allocated.
    takeAllocatorCounts();
    Diags->Stack = {};
    takeUnwindConstantsCodeBytes();
    Error EmitError = [&] {
      ScopedAllocatorPlan Scope(ByBytes);
      return Emit(M, Object, EmitKind::Object);
    }();
    R.UnwindTradeCode = takeUnwindConstantsCodeBytes();
    R.StackWarnings = Diags->Stack;
    if (EmitError)
      return Finish(Outcome::CodegenFailed, toString(std::move(EmitError)));
    AllocatorCounts Counts = takeAllocatorCounts();
    R.RegAllocFunctions = Counts.Greedy + Counts.Basic + Counts.PBQP;
    R.RegAllocFunctionsChanged = Counts.Moved;
    R.RegAllocCodegens = 1;
    if (Counts.Moved)
      Note += (Note.empty() ? "" : "; ") + std::to_string(Counts.Moved) + " of " +
              std::to_string(R.RegAllocFunctions) + " functions to another allocator, as " +
              ByBytes.Model->source() + " predicts";
  } else if (Spec.RegAlloc) {
    Expected<PortfolioAllocation> P =
        allocatePerFunction(
            M, *Spec.RegAlloc,
            [&](Module &Mod, SmallVectorImpl<char> &Out) {
              return Emit(Mod, Out, EmitKind::Object);
            },
            Spec.RegAllocMaxGrowth);
    if (!P)
      return Finish(Outcome::CodegenFailed, toString(P.takeError()));
    Object = std::move(P->Object);
    Plan = std::move(P->Plan);
    // Several code generations, one object: which warnings it would print is not known.
    R.StackWarnings.Count = UINT32_MAX;
    R.RegAllocCost = P->Cost.weighted();
    R.RegAllocRanges = P->Log.Ranges;
    R.RegAllocChanged = P->Log.Changed;
    R.RegAllocEvictions = P->Log.Evictions;
    R.RegAllocFunctions = P->Functions;
    R.RegAllocFunctionsChanged = P->FunctionsChanged;
    R.RegAllocCodegens = P->Codegens;
    R.GreedyRegAllocCost = P->GreedyCost;
  } else {
    RegAllocCost Cost;
    ScopedRegAllocCost Measure(M.getContext(), Cost);
    takeUnwindConstantsCodeBytes();
    // -fstack-usage: this code generation's lines go to a file of the candidate's own, handed
    // back with the object (the user's .su file is clang's until a candidate ships).
    SmallString<128> StackUsagePath;
    if (WantsStackUsage) {
      if (std::error_code EC =
              sys::fs::createTemporaryFile("smartcc-stack-usage", "su", StackUsagePath))
        return Finish(Outcome::CodegenFailed, "no stack-usage file: " + EC.message());
      setStackUsageCapture(std::string(StackUsagePath));
    }
    Diags->Stack = {};
    Error EmitError = Emit(M, Object, EmitKind::Object);
    R.StackWarnings = Diags->Stack;
    if (WantsStackUsage) {
      setStackUsageCapture("");
      ErrorOr<std::unique_ptr<MemoryBuffer>> Lines = MemoryBuffer::getFile(StackUsagePath);
      sys::fs::remove(StackUsagePath);
      if (!EmitError && !Lines)
        return Finish(Outcome::CodegenFailed,
                      "no stack-usage lines: " + Lines.getError().message());
      if (Lines)
        StackUsage = (*Lines)->getBuffer().str();
    }
    if (EmitError)
      return Finish(Outcome::CodegenFailed, toString(std::move(EmitError)));
    R.RegAllocCost = Cost.weighted();
    // (Per-function allocation above assembles its object from several codegens: it reports
    // none, and the rule then counts the whole code.)
    R.UnwindTradeCode = takeUnwindConstantsCodeBytes();
  }
  if (ForAsm) {
    std::optional<ScopedMLRegAlloc> AsmPlan;
    if (Spec.RegAlloc)
      AsmPlan.emplace(*Spec.RegAlloc, nullptr, &Plan);
    std::optional<ScopedAllocatorPlan> AsmAllocators;
    if (!Allocators.empty() || ByBytes.Model)
      AsmAllocators.emplace(ByBytes);
    if (Error E = Emit(*ForAsm, Assembly, EmitKind::Assembly))
      return Finish(Outcome::CodegenFailed, "assembly: " + toString(std::move(E)));
  }

  Expected<ObjectSize> Size = measureObject(MemoryBufferRef(Object.str(), "candidate"));
  if (!Size)
    return Finish(Outcome::CodegenFailed, toString(Size.takeError()));
  if (!writeAll(OutFd, Object.data(), Object.size()) ||
      !writeAll(OutFd, Assembly.data(), Assembly.size()) ||
      !writeAll(OutFd, Bitcode.data(), Bitcode.size()) ||
      !writeAll(OutFd, StackUsage.data(), StackUsage.size()))
    return Finish(Outcome::CodegenFailed, "cannot hand the object back");
  R.StackUsageBytes = StackUsage.size();
  R.Object = *Size;
  R.ObjectBytes = Object.size();
  R.AsmBytes = Assembly.size();
  R.BitcodeBytes = Bitcode.size();
  Finish(Outcome::Ok, Note); // what the mix moved, for explain
}

} // namespace smartcc
