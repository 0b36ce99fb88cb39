#include "driver/Eligibility.h"
#include "runtime/config/BuildProbe.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace smartcc {

namespace {

std::string levelName(const CodeGenOptions &CG) {
  if (CG.OptimizationLevel == 2 && CG.OptimizeSize == 2)
    return "Oz";
  if (CG.OptimizationLevel == 2 && CG.OptimizeSize == 1)
    return "Os";
  return "O" + std::to_string(CG.OptimizationLevel);
}

// The first reason a compile must stay clang's, or "" if there is none.
const char *passthroughReason(const CompilerInvocation &Inv) {
  const FrontendOptions &FO = Inv.getFrontendOpts();
  const CodeGenOptions &CG = Inv.getCodeGenOpts();
  const LangOptions &Lang = Inv.getLangOpts();
  // LTO first: plain -flto is also an -emit-llvm-bc compile, but LTO is the reason it is clang's.
  if (CG.PrepareForLTO || CG.PrepareForThinLTO || CG.FatLTO || !CG.ThinLTOIndexFile.empty())
    return "lto";
  switch (FO.ProgramAction) {
  case frontend::EmitObj:
  case frontend::EmitAssembly:
    break;
  case frontend::PrintPreprocessedInput:
    return "preprocess";
  case frontend::ParseSyntaxOnly:
    return "syntax_only";
  case frontend::EmitBC:
  case frontend::EmitLLVM:
  case frontend::EmitLLVMOnly:
    return "emit_llvm";
  default:
    return "other_action";
  }
  if (FO.Inputs.size() != 1)
    return "several_inputs";
  Language L = FO.Inputs[0].getKind().getLanguage();
  if (L == Language::LLVM_IR)
    return "ir_input";
  if (L != Language::C && L != Language::CXX && L != Language::ObjC && L != Language::ObjCXX)
    return "not_c_family";
  if (Lang.CUDA || Lang.HIP || Lang.OpenCL || Lang.OpenMPIsTargetDevice || Lang.SYCLIsDevice)
    return "offload";
  if (Lang.ObjCAutoRefCount)
    return "objc_arc"; // ARC adds passes at three extension points
  if (FO.OutputFile.empty() || FO.OutputFile == "-")
    return "stdout_output";
  // An existing output that is not a regular file (a pipe, /dev/stdout, a device) can be
  // neither read back to measure nor replaced by rename.
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(FO.OutputFile, Status) &&
      Status.type() != llvm::sys::fs::file_type::regular_file)
    return "output_not_regular";
  if (CG.DisableLLVMPasses)
    return "llvm_passes_disabled";
  if (!Lang.Sanitize.empty() || CG.hasSanitizeCoverage() || CG.hasSanitizeBinaryMetadata())
    return "sanitizer";
  if (!CG.CoverageNotesFile.empty() || !CG.CoverageDataFile.empty() || CG.CoverageMapping)
    return "coverage";
  if (CG.hasProfileInstr() || CG.hasProfileIRUse() || CG.hasProfileClangUse() ||
      !CG.SampleProfileFile.empty() || !CG.MemoryProfileOutput.empty() ||
      !CG.MemoryProfileUsePath.empty() || CG.PseudoProbeForProfiling ||
      CG.DebugInfoForProfiling)
    return "profile";
  if (CG.InstrumentFunctions || CG.InstrumentFunctionEntryBare ||
      CG.InstrumentFunctionsAfterInlining || CG.InstrumentForProfiling)
    return "instrument_functions";
  if (!CG.PassPlugins.empty() || !FO.Plugins.empty() || !FO.ActionName.empty())
    return "plugin";
  // Side outputs written during codegen would be written again by every candidate.
  if (!CG.SplitDwarfOutput.empty())
    return "split_dwarf";
  // -fstack-usage is taken over: every candidate writes its own lines, the winner's ship
  // beside its object (runtime/candidates/CandidateRunner.cpp).
  if (CG.getEmbedBitcode() != CodeGenOptions::Embed_Off)
    return "embed_bitcode";
  // Backend diagnostics describe the code they saw; with another winner they would mislead.
  if (CG.OptimizationRemark.hasValidPattern() || CG.OptimizationRemarkMissed.hasValidPattern() ||
      CG.OptimizationRemarkAnalysis.hasValidPattern() || !CG.OptRecordFile.empty())
    return "remarks";
  // -Wframe-larger-than is taken over: a candidate ships only if its stack-size warnings are
  // the ones clang printed (runtime/measure/StackSizeWarnings.h).
  if (!FO.TimeTracePath.empty() || CG.TimePasses)
    return "timing";
  return "";
}

} // namespace

Eligibility classifyCompile(const CompilerInvocation &Inv, const Config &Cfg) {
  Eligibility E;
  if (const char *Reason = passthroughReason(Inv); *Reason) {
    E.Reason = Reason;
    return E;
  }
  llvm::SmallString<256> Directory(Inv.getFileSystemOpts().WorkingDir);
  if (Directory.empty())
    (void)llvm::sys::fs::current_path(Directory);
  const FrontendInputFile &Input = Inv.getFrontendOpts().Inputs[0];
  if (isBuildProbe(Input.isFile() ? Input.getFile() : "", Directory.str())) {
    E.Reason = "build_probe";
    return E;
  }
  E.Level = levelName(Inv.getCodeGenOpts());
  // -O1..-O3 are clang's, unless ML register allocation is on: then smartcc runs codegen
  // twice (the middle-end stays clang's) and keeps the cheaper allocation.
  const bool SpeedTakeover = Cfg.RegAlloc != "greedy" && E.Level != "O0" &&
                             E.Level != "Oz" && E.Level != "Os";
  if (SpeedTakeover)
    E.Eligible = true;
  else if (E.Level != "Oz" && E.Level != "Os")
    E.Reason = "not_size_level";
  else if (!Cfg.takesOver(E.Level))
    E.Reason = "level_not_enabled";
  else
    E.Eligible = true;
  E.HarvestOnly = !E.Eligible && !Cfg.HarvestDir.empty();
  return E;
}

} // namespace smartcc
