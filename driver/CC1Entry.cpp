#include "driver/CC1Entry.h"
#include "runtime/compile/EpiloguePops.h"
#include "runtime/compile/UnwindAwareConstants.h"
#include "driver/Eligibility.h"
#include "runtime/observe/SideOutputs.h"
#include "runtime/observe/Stats.h"
#include "runtime/decide/TUOptimizer.h"
#include "runtime/support/LLVMTargets.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/CodeGen/ObjectFilePCHContainerWriter.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/FrontendTool/Utils.h"
#include "clang/Options/OptionUtils.h"
#include "clang/Serialization/ObjectFilePCHContainerReader.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TargetSelect.h"
#include <cstdlib>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

int runRealClangCC1(ArrayRef<const char *> Args, CC1Mode Mode) {
  std::string Clang = realClangPath();
  if (Mode == CC1Mode::OwnProcess) {
    std::vector<const char *> Argv{Clang.c_str(), "-cc1"};
    Argv.insert(Argv.end(), Args.begin(), Args.end());
    Argv.push_back(nullptr);
    execv(Clang.c_str(), const_cast<char *const *>(Argv.data()));
    errs() << "smartcc: error: cannot execute '" << Clang << "'\n";
    return 1;
  }
  std::vector<const char *> WithCC1{"-cc1"};
  WithCC1.insert(WithCC1.end(), Args.begin(), Args.end());
  return runRealClangTool(WithCC1);
}

int runRealClangTool(ArrayRef<const char *> Args) {
  std::string Clang = realClangPath();
  std::vector<StringRef> Argv{Clang};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::string Error;
  bool Failed = false;
  int RC = sys::ExecuteAndWait(Clang, Argv, std::nullopt, {}, 0, 0, &Error, &Failed);
  if (Failed)
    errs() << "smartcc: error: cannot execute '" << Clang << "': " << Error << "\n";
  return RC;
}

namespace {

// As clang's cc1: an LLVM fatal error becomes a clang diagnostic and exit status 70 (which
// makes the driver produce its crash report) or 1.
void reportFatalAsDiagnostic(void *UserData, const char *Message, bool GenCrashDiag) {
  auto &Diags = *static_cast<clang::DiagnosticsEngine *>(UserData);
  Diags.Report(clang::diag::err_fe_error_backend) << Message;
  sys::RunInterruptHandlers();
  sys::Process::Exit(GenCrashDiag ? 70 : 1);
}

bool parseInvocation(ArrayRef<const char *> Args, clang::CompilerInvocation &Inv,
                     clang::DiagnosticsEngine &Diags) {
  std::string Clang = realClangPath();
  return clang::CompilerInvocation::CreateFromArgs(Inv, Args, Diags, Clang.c_str());
}

void countPassthrough(const Config &Cfg, const std::string &Reason) {
  addCounters(Cfg, {{"passthrough." + Reason, 1}});
}

} // namespace

bool isEligibleCC1(ArrayRef<const char *> Args, const Config &Cfg, std::string &Reason) {
  clang::DiagnosticOptions DiagOpts;
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts,
                                 new clang::IgnoringDiagConsumer());
  auto Inv = std::make_shared<clang::CompilerInvocation>();
  if (!parseInvocation(Args, *Inv, Diags)) {
    Reason = "unparsed_cc1";
    return false;
  }
  Eligibility E = classifyCompile(*Inv, Cfg);
  Reason = E.Reason;
  return E.Eligible || E.HarvestOnly;
}

int runCC1(ArrayRef<const char *> Args, const Config &Cfg, CC1Mode Mode) {
  initializeLLVMTargetsOnce();
  // Code generation passes that candidates ask for by function attribute (clang's own
  // output carries none and is left as clang builds it).
  registerUnwindAwareConstants();
  registerEpiloguePops();
  auto PCHOps = std::make_shared<clang::PCHContainerOperations>();
  PCHOps->registerWriter(std::make_unique<clang::ObjectFilePCHContainerWriter>());
  PCHOps->registerReader(std::make_unique<clang::ObjectFilePCHContainerReader>());

  // Argument diagnostics are buffered until the real diagnostics engine exists, as in clang.
  clang::DiagnosticOptions DiagOpts;
  auto *DiagsBuffer = new clang::TextDiagnosticBuffer;
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts, DiagsBuffer);
  auto Inv = std::make_shared<clang::CompilerInvocation>();
  bool Success = parseInvocation(Args, *Inv, Diags);
  Eligibility E;
  if (Success)
    E = classifyCompile(*Inv, Cfg);
  if (!Success || (!E.Eligible && !E.HarvestOnly)) {
    countPassthrough(Cfg, Success ? E.Reason : "unparsed_cc1");
    return runRealClangCC1(Args, Mode);
  }

  auto Clang = std::make_unique<clang::CompilerInstance>(std::move(Inv), std::move(PCHOps));
  if (Clang->getHeaderSearchOpts().UseBuiltinIncludes &&
      Clang->getHeaderSearchOpts().ResourceDir.empty())
    Clang->getHeaderSearchOpts().ResourceDir = clang::GetResourcesPath(realClangPath());
  Clang->createVirtualFileSystem(vfs::getRealFileSystem(), DiagsBuffer);
  Clang->createDiagnostics();
  install_fatal_error_handler(reportFatalAsDiagnostic, &Clang->getDiagnostics());
  DiagsBuffer->FlushDiagnostics(Clang->getDiagnostics());

  TUOptimizer Optimizer(*Clang, Cfg, E.Level, std::vector<std::string>(Args.begin(), Args.end()),
                        /*HarvestOnly=*/!E.Eligible);
  Optimizer.attach();
  Success = clang::ExecuteCompilerInvocation(Clang.get());
  Optimizer.finish(Success);
  remove_fatal_error_handler();

  if (Clang->getFrontendOpts().DisableFree) {
    // As clang: skip freeing the AST and friends, which the process exit does faster.
    Clang->getDiagnosticClient().~DiagnosticConsumer();
    BuryPointer(std::move(Clang));
  }
  return !Success;
}

} // namespace smartcc
