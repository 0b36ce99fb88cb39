#include "runtime/compile/PipelineBuilder.h"
#include "runtime/compile/MacroPipelines.h"
#include "runtime/compile/TestPasses.h"
#include "policies/inliner/MLInlineAdvisor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/TargetOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Frontend/Driver/CodeGenOptions.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace smartcc {

namespace {

std::optional<CodeModel::Model> codeModel(StringRef Name) {
  return StringSwitch<std::optional<CodeModel::Model>>(Name)
      .Case("tiny", CodeModel::Tiny)
      .Case("small", CodeModel::Small)
      .Case("kernel", CodeModel::Kernel)
      .Case("medium", CodeModel::Medium)
      .Case("large", CodeModel::Large)
      .Default(std::nullopt);
}

// The subset of clang's TargetOptions that can influence middle-end decisions through TTI or
// subtarget queries; codegen-only options do not matter here because codegen is clang's own.
TargetOptions targetOptions(const clang::CompilerInstance &CI) {
  const clang::CodeGenOptions &CG = CI.getCodeGenOpts();
  const clang::LangOptions &Lang = CI.getLangOpts();
  TargetOptions O;
  O.ThreadModel = Lang.getThreadModel() == clang::LangOptions::ThreadModelKind::Single
                      ? ThreadModel::Single
                      : ThreadModel::POSIX;
  O.FloatABIType = StringSwitch<FloatABI::ABIType>(CG.FloatABI)
                       .Case("soft", FloatABI::Soft)
                       .Case("softfp", FloatABI::Soft)
                       .Case("hard", FloatABI::Hard)
                       .Default(FloatABI::Default);
  O.AllowFPOpFusion = Lang.getDefaultFPContractMode() == clang::LangOptions::FPM_Fast
                          ? FPOpFusion::Fast
                          : FPOpFusion::Standard;
  O.UseInitArray = CG.UseInitArray;
  O.DisableIntegratedAS = CG.DisableIntegratedAS;
  O.NoInfsFPMath = Lang.NoHonorInfs;
  O.NoNaNsFPMath = Lang.NoHonorNaNs;
  O.NoZerosInBSS = CG.NoZeroInitializedInBSS;
  O.FunctionSections = CG.FunctionSections;
  O.DataSections = CG.DataSections;
  O.UniqueSectionNames = CG.UniqueSectionNames;
  O.EmulatedTLS = CG.EmulatedTLS;
  O.EnableTLSDESC = CG.EnableTLSDESC;
  O.EmitAddrsig = CG.Addrsig;
  O.EmitCallSiteInfo = CG.EmitCallSiteInfo;
  O.DebuggerTuning = CG.getDebuggerTuning();
  if (CG.hasSjLjExceptions())
    O.ExceptionModel = ExceptionHandling::SjLj;
  if (CG.hasDWARFExceptions())
    O.ExceptionModel = ExceptionHandling::DwarfCFI;
  O.MCOptions.ABIName = CI.getTargetOpts().ABI;
  return O;
}

// clang's mapping from -O flags to the pass builder's levels.
OptimizationLevel optimizationLevel(const clang::CodeGenOptions &CG) {
  switch (CG.OptimizationLevel) {
  case 0:
    return OptimizationLevel::O0;
  case 1:
    return OptimizationLevel::O1;
  case 2:
    return CG.OptimizeSize == 2 ? OptimizationLevel::Oz
           : CG.OptimizeSize == 1 ? OptimizationLevel::Os
                                  : OptimizationLevel::O2;
  default:
    return OptimizationLevel::O3;
  }
}

PipelineTuningOptions tuningOptions(const clang::CodeGenOptions &CG, const CandidateSpec &Spec) {
  PipelineTuningOptions PTO;
  PTO.LoopUnrolling = Spec.LoopUnrolling.value_or(CG.UnrollLoops);
  PTO.LoopInterleaving = PTO.LoopUnrolling; // clang ties interleaving to unrolling
  PTO.LoopVectorization = Spec.LoopVectorization.value_or(CG.VectorizeLoop);
  PTO.SLPVectorization = Spec.SLPVectorization.value_or(CG.VectorizeSLP);
  PTO.MergeFunctions = Spec.MergeFunctions.value_or(CG.MergeFunctions);
  PTO.CallGraphProfile = !CG.DisableIntegratedAS;
  PTO.UnifiedLTO = CG.UnifiedLTO;
  return PTO;
}

} // namespace

Expected<std::unique_ptr<TargetMachine>>
createClangLikeTargetMachine(const clang::CompilerInstance &CI) {
  const clang::CodeGenOptions &CG = CI.getCodeGenOpts();
  const clang::TargetOptions &TO = CI.getTargetOpts();
  Triple TT(TO.Triple);
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T)
    return createStringError(inconvertibleErrorCode(), "no target for '%s': %s",
                             TO.Triple.c_str(), Error.c_str());
  std::optional<CodeGenOptLevel> Level = CodeGenOpt::getLevel(CG.OptimizationLevel);
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, TO.CPU, join(TO.Features, ","), targetOptions(CI), CG.RelocationModel,
      codeModel(CG.CodeModel), Level.value_or(CodeGenOptLevel::Default)));
  if (!TM)
    return createStringError(inconvertibleErrorCode(), "cannot create a target machine");
  TM->setLargeDataThreshold(CG.LargeDataThreshold);
  return std::move(TM);
}

struct PipelineRunner::Impl {
  std::unique_ptr<TargetMachine> TM;
  std::unique_ptr<TargetLibraryInfoImpl> TLII;
  PipelineTuningOptions PTO;
  OptimizationLevel Level = OptimizationLevel::Oz;
  bool VerifyEach = false;
  std::shared_ptr<const InlinePolicy> Inliner;
  InlineLog *Log = nullptr;
};

void PipelineRunner::setInlineLog(InlineLog *Log) { P->Log = Log; }

PipelineRunner::~PipelineRunner() = default;

Expected<std::unique_ptr<PipelineRunner>>
PipelineRunner::create(const clang::CompilerInstance &CI, const CandidateSpec *Tuning) {
  const clang::CodeGenOptions &CG = CI.getCodeGenOpts();
  Expected<std::unique_ptr<TargetMachine>> TM = createClangLikeTargetMachine(CI);
  if (!TM)
    return TM.takeError();
  std::unique_ptr<PipelineRunner> R(new PipelineRunner());
  R->P = std::make_unique<Impl>();
  R->P->TM = std::move(*TM);
  R->P->TLII.reset(driver::createTLII(Triple(CI.getTargetOpts().Triple), CG.getVecLib()));
  R->P->PTO = tuningOptions(CG, Tuning ? *Tuning : CandidateSpec());
  R->P->Level = optimizationLevel(CG);
  R->P->VerifyEach = CG.VerifyEach;
  if (Tuning)
    R->P->Inliner = Tuning->Inliner;
  return std::move(R);
}

Error PipelineRunner::run(Module &M, StringRef Stage) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassInstrumentationCallbacks PIC;
  // Standard instrumentation is not optional: it is what makes passes skip optnone functions.
  StandardInstrumentations SI(M.getContext(), /*DebugLogging=*/false, P->VerifyEach);
  SI.registerCallbacks(PIC, &MAM);
  // "clang-default-os": clang -Os on the same code. Its functions lose `minsize` (what clang's
  // frontend adds at -Oz only) and the pipeline is -Os's, with the loop vectorizer clang's
  // driver enables at -Os. Real clang -Oz output is larger than -Os's for a good share of TUs.
  const bool AsOs = Stage == "clang-default-os";
  PipelineTuningOptions PTO = P->PTO;
  if (AsOs) {
    PTO.LoopVectorization = true;
    for (Function &F : M)
      F.removeFnAttr(Attribute::MinSize);
  }
  PassBuilder PB(P->TM.get(), PTO, std::nullopt, &PIC);
  registerTestPasses(PB);
  FAM.registerPass([&] { return TargetLibraryAnalysis(*P->TLII); });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  std::optional<ScopedMLInliner> MLInliner;
  if (P->Inliner)
    MLInliner.emplace(MAM, *P->Inliner, P->Log);

  ModulePassManager MPM;
  if (Stage == "default" || Stage == "clang-default")
    MPM.addPass(PB.buildPerModuleDefaultPipeline(P->Level));
  else if (AsOs)
    MPM.addPass(PB.buildPerModuleDefaultPipeline(OptimizationLevel::Os));
  else if (addMacroPipeline(PB, Stage, P->Level, MPM))
    ;
  else if (Error E = PB.parsePassPipeline(MPM, Stage))
    return createStringError(inconvertibleErrorCode(), "pipeline '%s': %s", Stage.str().c_str(),
                             toString(std::move(E)).c_str());
  MPM.run(M, MAM);
  return Error::success();
}

Error runCandidatePipeline(Module &M, const CandidateSpec &Spec,
                           const clang::CompilerInstance &CI, InlineLog *Log) {
  Expected<std::unique_ptr<PipelineRunner>> Runner = PipelineRunner::create(CI, &Spec);
  if (!Runner)
    return Runner.takeError();
  (*Runner)->setInlineLog(Log);
  if (Spec.AfterClangPipeline) // finish clang's own pipeline first
    if (Error E = (*Runner)->run(M, ClangPipelineTail))
      return E;
  for (const std::string &Stage : Spec.Pipeline)
    if (Error E = (*Runner)->run(M, Stage))
      return E;
  return (*Runner)->run(M, MandatoryFinish);
}

} // namespace smartcc
