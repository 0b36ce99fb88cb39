// smartcc-core: clang's driver, run as clang-22 runs it, with smartcc's cc1 for the jobs it
// optimizes. The flow mirrors clang's own driver main step for step, so that everything not
// optimized (queries, -v, -###, links, diagnostics, exit codes, crash reports) is clang's.
#include "driver/CoreDriver.h"
#include "driver/CC1Entry.h"
#include "driver/HarvestGcc.h"
#include "driver/HarvestTargets.h"
#include "driver/LTOLink.h"
#include "driver/PerTULink.h"
#include "driver/LinkerFront.h"
#include "driver/ProgramName.h"
#include "driver/SmartccArgs.h"
#include "driver/SmartccCommands.h"
#include "runtime/config/Config.h"
#include "runtime/observe/SideOutputs.h"
#include "runtime/observe/Stats.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Config/config.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/InputInfo.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Types.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Frontend/ChainedDiagnosticConsumer.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/SerializedDiagnosticPrinter.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Options/OptionUtils.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/TargetParser/Host.h"
#include <chrono>
#include <unistd.h>

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

namespace {

// Real clang with the same arguments, under our program name (see driver/ProgramName.h).
[[noreturn]] void execClang(ArrayRef<const char *> Args) {
  std::string Clang = realClangPath();
  std::string Argv0 = clangArgv0(Clang, Args[0]);
  std::vector<const char *> Argv{Argv0.c_str()};
  Argv.insert(Argv.end(), Args.begin() + 1, Args.end());
  Argv.push_back(nullptr);
  execv(Clang.c_str(), const_cast<char *const *>(Argv.data()));
  errs() << "smartcc: error: cannot execute '" << Clang << "'\n";
  std::exit(1);
}

std::string selfPath() {
  static std::string Self = sys::fs::getMainExecutable(nullptr, (void *)&selfPath);
  return Self;
}

void reportConfigError(Error E) {
  errs() << "smartcc: error: " << toString(std::move(E)) << "\n";
}

// clang's driver puts mode and target flags inferred from the program name right after
// argv[0], so that flags on the command line override them.
void insertTargetAndModeArgs(const clang::driver::ParsedClangName &Name,
                             SmallVectorImpl<const char *> &Args, StringSaver &Saver) {
  auto Pos = Args.begin() + (Args.empty() ? 0 : 1);
  if (Name.DriverMode)
    Pos = Args.insert(Pos, Saver.save(Name.DriverMode).data());
  if (Name.TargetIsValid) {
    const char *Target[] = {"-target", Saver.save(Name.TargetPrefix).data()};
    Args.insert(Args.begin() + (Args.empty() ? 0 : 1), std::begin(Target), std::end(Target));
  }
}

// Environment variables that make clang's driver write side files (CC_PRINT_OPTIONS, ...).
// Rare and only meaningful for clang itself: such commands are handed to clang whole.
bool clangBackdoorEnvironment() {
  for (const char *Var : {"CC_PRINT_OPTIONS", "CC_PRINT_HEADERS", "CC_PRINT_HEADERS_FORMAT",
                          "CC_LOG_DIAGNOSTICS", "CC_PRINT_PROC_STAT", "CC_PRINT_INTERNAL_STAT"})
    if (std::getenv(Var))
      return true;
  return false;
}

// The cc1 entry the driver calls for an in-process job (argv: executable, "-cc1", args...).
int cc1FromDriver(SmallVectorImpl<const char *> &ArgV, const Config &Cfg) {
  // cl::opt occurrences are global; the driver may have used them already (as in clang).
  cl::ResetAllOptionOccurrences();
  BumpPtrAllocator A;
  cl::ExpansionContext ECtx(A, cl::TokenizeGNUCommandLine);
  if (Error E = ECtx.expandResponseFiles(ArgV)) {
    errs() << toString(std::move(E)) << '\n';
    return 1;
  }
  if (ArgV.size() < 2 || StringRef(ArgV[1]) != "-cc1") // -cc1as and friends: clang's own
    return runRealClangTool(ArrayRef(ArgV).slice(1));
  return runCC1(ArrayRef(ArgV).slice(2), Cfg, CC1Mode::InProcess);
}

// An out-of-process cc1 job smartcc optimizes: shown (-v, -###, crash reports) exactly as
// clang's job, but executed by smartcc-core, whose -cc1 entry takes the compile over.
class SmartccCC1Job : public CC1Command {
public:
  SmartccCC1Job(Command &Original, ArrayRef<InputInfo> Outputs, const char *Self)
      : CC1Command(Original.getSource(), Original.getCreator(),
                   Original.getResponseFileSupport(), Original.getExecutable(),
                   Original.getArguments(), Original.getInputInfos(), Outputs),
        Self(Self) {
    InProcess = false;
  }
  int Execute(ArrayRef<std::optional<StringRef>> Redirects, std::string *ErrMsg,
              bool *ExecutionFailed) const override {
    // Printing happens before Execute and reads the executable: swap it only around the run.
    auto *Mutable = const_cast<SmartccCC1Job *>(this);
    const char *Clang = getExecutable();
    Mutable->replaceExecutable(Self);
    int Result = Command::Execute(Redirects, ErrMsg, ExecutionFailed);
    Mutable->replaceExecutable(Clang);
    return Result;
  }

private:
  const char *Self;
};

// Out-of-process cc1 jobs (several jobs, or -fno-integrated-cc1) run the binary named in the
// job: eligible ones become SmartccCC1Jobs, the others keep running real clang.
void routeOutOfProcessJobs(Compilation &C, const Config &Cfg) {
  static std::string Self = selfPath();
  Counters Passthrough;
  // JobList hands out its jobs only as const owners; replacing one in place is the one way to
  // change how a job runs without changing how clang prints it.
  auto &Jobs = const_cast<JobList::list_type &>(C.getJobs().getJobs());
  for (std::unique_ptr<Command> &Job : Jobs) {
    const auto &Args = Job->getArguments();
    if (Job->InProcess || Args.empty() || StringRef(Args[0]) != "-cc1")
      continue;
    std::string Reason;
    if (!isEligibleCC1(ArrayRef(Args).slice(1), Cfg, Reason)) {
      Passthrough["passthrough." + Reason] += 1;
      continue;
    }
    std::vector<InputInfo> Outputs;
    for (const std::string &Out : Job->getOutputFilenames()) {
      const char *Name = C.getArgs().MakeArgString(Out);
      Outputs.emplace_back(types::TY_Object, Name, Name);
    }
    Job = std::make_unique<SmartccCC1Job>(*Job, Outputs, Self.c_str());
  }
  if (!Passthrough.empty())
    addCounters(Cfg, Passthrough);
}

int runDriver(SmallVector<const char *, 256> Args, const Config &Cfg) {
  InitializeAllTargets();
  BumpPtrAllocator A;
  StringSaver Saver(A);
  std::string ProgName = Args[0];
  if (clang::driver::IsClangCL(getDriverMode(ProgName, ArrayRef(Args).slice(1))) ||
      clangBackdoorEnvironment())
    execClang(Args);

  auto VFS = vfs::getRealFileSystem();
  if (Error E = expandResponseFiles(Args, /*ClangCLMode=*/false, A, VFS.get())) {
    errs() << toString(std::move(E)) << '\n';
    return 1;
  }
  bool CanonicalPrefixes = true;
  for (size_t I = 1; I < Args.size(); ++I) {
    if (!Args[I])
      continue;
    if (StringRef(Args[I]) == "-canonical-prefixes")
      CanonicalPrefixes = true;
    else if (StringRef(Args[I]) == "-no-canonical-prefixes")
      CanonicalPrefixes = false;
  }
  StringSet<> SavedStrings;
  if (const char *Override = std::getenv("CCC_OVERRIDE_OPTIONS"))
    applyOverrideOptions(Args, Override, SavedStrings, "CCC_OVERRIDE_OPTIONS", &errs());
  // The command as the user (and CCC_OVERRIDE_OPTIONS) wrote it, before the driver adds the
  // mode and target implied by the program name: what a retargeted harvest compile repeats.
  SmallVector<const char *, 256> HarvestArgs(Args.begin(), Args.end());

  // The driver's executable path decides resource dir, installed dir and the binary
  // out-of-process jobs run: always real clang's.
  std::string Path = CanonicalPrefixes ? realClangPath() : clangArgv0(realClangPath(), ProgName);

  unsigned MissingIndex, MissingCount;
  opt::InputArgList ArgList =
      clang::getDriverOptTable().ParseArgs(ArrayRef(Args).slice(1), MissingIndex, MissingCount);
  std::unique_ptr<clang::DiagnosticOptions> DiagOpts = clang::CreateAndPopulateDiagOpts(Args);
  DiagOpts->DiagnosticSuppressionMappingsFile.clear();
  auto *DiagClient = new clang::TextDiagnosticPrinter(errs(), *DiagOpts);
  DiagClient->setPrefix(sys::path::stem(ProgName).str());
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), *DiagOpts, DiagClient);

  bool UseNewCC1Process =
      ArgList.hasFlag(clang::options::OPT_fno_integrated_cc1, clang::options::OPT_fintegrated_cc1,
                      /*Default=*/CLANG_SPAWN_CC1);
  if (!DiagOpts->DiagnosticSerializationFile.empty()) {
    auto Serialized = clang::serialized_diags::create(DiagOpts->DiagnosticSerializationFile,
                                                      *DiagOpts, /*MergeChildRecords=*/true);
    Diags.setClient(
        new clang::ChainedDiagnosticConsumer(Diags.takeClient(), std::move(Serialized)));
  }
  clang::ProcessWarningOptions(Diags, *DiagOpts, *VFS, /*ReportDiags=*/false);

  Driver TheDriver(Path, sys::getDefaultTargetTriple(), Diags, "clang LLVM compiler", VFS);
  ParsedClangName TargetAndMode = ToolChain::getTargetAndModeFromProgramName(ProgName);
  TheDriver.setTargetAndMode(TargetAndMode);
  insertTargetAndModeArgs(TargetAndMode, Args, Saver);

  // CC1Main is a function_ref: the callable must outlive the compilation.
  auto CC1 = [&Cfg](SmallVectorImpl<const char *> &ArgV) { return cc1FromDriver(ArgV, Cfg); };
  if (!UseNewCC1Process) {
    TheDriver.CC1Main = CC1;
    CrashRecoveryContext::Enable();
  }

  std::unique_ptr<Compilation> C(TheDriver.BuildCompilation(Args));
  if (C && !C->containsError() && !C->getArgs().hasArg(clang::options::OPT__HASH_HASH_HASH))
    routeOutOfProcessJobs(*C, Cfg);

  Driver::ReproLevel ReproLevel = Driver::ReproLevel::OnCrash;
  if (opt::Arg *Arg = C->getArgs().getLastArg(clang::options::OPT_gen_reproducer_eq)) {
    std::optional<Driver::ReproLevel> Level =
        StringSwitch<std::optional<Driver::ReproLevel>>(Arg->getValue())
            .Case("off", Driver::ReproLevel::Off)
            .Case("crash", Driver::ReproLevel::OnCrash)
            .Case("error", Driver::ReproLevel::OnError)
            .Case("always", Driver::ReproLevel::Always)
            .Default(std::nullopt);
    if (!Level) {
      errs() << "Unknown value for " << Arg->getSpelling() << ": '" << Arg->getValue() << "'\n";
      return 1;
    }
    ReproLevel = *Level;
  }
  if (std::getenv("FORCE_CLANG_DIAGNOSTICS_CRASH"))
    ReproLevel = Driver::ReproLevel::Always;

  // Exit status and crash handling exactly as clang's driver: the first failing command's
  // status; a crash (negative, 70, or above 128) produces the crash report.
  int Res = 1, CommandRes = 0;
  double CompilationMillis = 0;
  bool IsCrash = false;
  Driver::CommandStatus Status = Driver::CommandStatus::Ok;
  const Command *FailingCommand = C->getJobs().empty() ? nullptr : &*C->getJobs().begin();
  LTOLinkHandle OwnedLink;
  if (!C->containsError()) {
    SmallVector<std::pair<int, const Command *>, 4> FailingCommands;
    OwnedLink = beginLTOLink(*C, Cfg, Args);
    auto Started = std::chrono::steady_clock::now();
    Res = TheDriver.ExecuteCompilation(*C, FailingCommands);
    CompilationMillis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Started)
            .count();
    for (const auto &[Code, Cmd] : FailingCommands) {
      CommandRes = Code;
      FailingCommand = Cmd;
      if (!Res)
        Res = CommandRes;
      IsCrash = CommandRes < 0 || CommandRes == 70 || CommandRes > 128;
      Status = IsCrash ? Driver::CommandStatus::Crash : Driver::CommandStatus::Error;
      if (IsCrash)
        break;
    }
  }
  if (std::getenv("FORCE_CLANG_DIAGNOSTICS_CRASH"))
    dbgs() << getBugReportMsg();
  if (FailingCommand &&
      TheDriver.maybeGenerateCompilationDiagnostics(Status, ReproLevel, *C, *FailingCommand))
    Res = 1;
  Diags.getClient()->finish();
  if (!UseNewCC1Process && IsCrash) {
    BuryPointer(TimerGroup::acquireTimerGlobals());
  } else {
    TimerGroup::printAll(errs());
    TimerGroup::clearAll();
  }
  LTOLinkResult Link =
      finishLTOLink(std::move(OwnedLink), Res == 0 && !IsCrash, CompilationMillis);
  // A plain link made whole-program may still be beaten by its per-TU links (a project whose
  // objects the whole-program link cannot shrink as much as they shrank one by one): they run
  // after it, judged against the user's own link.
  if (Res == 0 && !IsCrash && (!Link.Owned || Link.UserView))
    relinkPerTU(*C, Cfg, Args, CompilationMillis, Link.UserView ? &*Link.UserView : nullptr);
  if (Res == 0 && !IsCrash) {
    recordGccSize(HarvestArgs, *C, Cfg);
    harvestForOtherTargets(HarvestArgs, *C, Cfg);
  }
  // clang-22's driver ends with Res even when a job crashed or was killed (1 after the crash
  // report); newer clangs re-raise the job's signal, clang-22 does not, so neither do we.
  return Res;
}

int runCC1Reentry(int Argc, const char **Argv) {
  SmallVector<const char *, 256> Args(Argv, Argv + Argc);
  BumpPtrAllocator A;
  cl::ExpansionContext ECtx(A, cl::TokenizeGNUCommandLine);
  if (Error E = ECtx.expandResponseFiles(Args)) {
    errs() << toString(std::move(E)) << '\n';
    return 1;
  }
  if (StringRef(Args[1]) != "-cc1") // -cc1as, -cc1gen-reproducer: clang's own tools
    execClang(Args);
  Expected<Config> Cfg = loadConfig(ConfigEnvironment::fromProcess(), settingsFromParent());
  if (!Cfg) { // the parent validated this configuration; if it broke since, be clang
    consumeError(Cfg.takeError());
    return runRealClangCC1(ArrayRef(Args).slice(2), CC1Mode::OwnProcess);
  }
  return runCC1(ArrayRef(Args).slice(2), *Cfg, CC1Mode::OwnProcess);
}

} // namespace

int coreMain(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  if (isLinkerFrontName(Argv[0]))
    return linkerFrontMain(Argc, Argv);
  // The banner of a crash is clang's: its driver asks for the preprocessed source and run
  // script it writes (maybeGenerateCompilationDiagnostics), not LLVM's generic instructions.
  setBugReportMsg("PLEASE submit a bug report to " BUG_REPORT_URL
                  " and include the crash backtrace, preprocessed source, and associated run "
                  "script.\n");
  if (Argc >= 2 && StringRef(Argv[1]).starts_with("-cc1"))
    return runCC1Reentry(Argc, Argv);

  // Response files are expanded first, so that --smartcc-* options inside them are ours too.
  BumpPtrAllocator Alloc; // owns the expanded arguments for the whole run
  SmallVector<const char *, 256> All(Argv, Argv + Argc);
  bool ClangCL = clang::driver::IsClangCL(getDriverMode(All[0], ArrayRef(All).slice(1)));
  if (Error E = expandResponseFiles(All, ClangCL, Alloc, vfs::getRealFileSystem().get())) {
    errs() << toString(std::move(E)) << '\n';
    return 1;
  }
  SplitArgs S = splitSmartccArgs(int(All.size()), All.data());
  Expected<Config> Cfg = loadConfig(ConfigEnvironment::fromProcess(), S.Settings);
  if (!Cfg) {
    reportConfigError(Cfg.takeError());
    return 1;
  }
  if (!S.Commands.empty())
    return runSmartccCommands(S, *Cfg);
  if (Cfg->Disable)
    execClang(S.CompilerArgs);
  exportSettingsToChildren(S.Settings);
  return runDriver(SmallVector<const char *, 256>(S.CompilerArgs.begin(), S.CompilerArgs.end()),
                   *Cfg);
}

} // namespace smartcc
