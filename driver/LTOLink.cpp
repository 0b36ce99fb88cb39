#include "driver/LTOLink.h"
#include "runtime/Decision.h"
#include "runtime/LinkAgent.h"
#include "runtime/LinkInputs.h"
#include "runtime/ProcessWait.h"
#include "runtime/SideOutputs.h"
#include "runtime/SizeMeasurer.h"
#include "runtime/lto/OptimizedModuleReplay.h"
#include "runtime/UnwindSharing.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/InputInfo.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Tool.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include <chrono>
#include <optional>
#include <csignal>
#include <cstring>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <atomic>
#include <cmath>
#include <numeric>
#include <thread>

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

namespace {

// The least link_time allowance: a candidate of a link that takes clang 20 ms still gets a
// chance (starting lld costs tens of ms), while a small link's whole cost stays within a
// fraction of a second (it was a whole second: 5x clang's links on zlib's small programs).
constexpr double LinkAllowanceFloorMs = 250.0;

// Linker arguments that write files besides the output or print to stdout: a repeated link
// would write them again (a map file of a candidate that does not ship) or print twice.
// Options are matched whole (alone or with "="), so that --version-script is not --version;
// the fragments match any spelling (-plugin-opt=obj-path=, --lto-obj-path=, ...).
bool writesSideOutput(StringRef A) {
  for (StringRef Option : {"-Map", "--Map", "-M", "--print-map", "--why-extract",
                           "--dependency-file", "--reproduce", "--trace", "-t", "--version",
                           "-v", "--verbose", "--out-implib", "--print-archive-stats",
                           "--print-symbol-order", "--print-gc-sections", "--print-icf-sections",
                           "--print-memory-usage"})
    if (A == Option || A.starts_with((Option + "=").str()))
      return true;
  for (StringRef Fragment : {"obj-path", "save-temps", "emit-asm", "emit-llvm",
                             "thinlto-index-only", "thinlto-emit", "time-trace", "remarks"})
    if (A.contains(Fragment))
      return true;
  return false;
}

// The lld link job of an -flto compilation at a size level, or null (with the reason).
const Command *ownedLink(const Compilation &C, const Config &Cfg, std::string &Reason,
                         std::string &Level) {
  const Driver &D = C.getDriver();
  if (D.getLTOMode() == LTOK_None) {
    Reason = "not_lto";
    return nullptr;
  }
  const opt::Arg *O = C.getArgs().getLastArg(clang::options::OPT_O_Group);
  Level = O && O->getOption().matches(clang::options::OPT_O) ? std::string("O") + O->getValue()
                                                              : "";
  if (Level != "Oz" && Level != "Os") {
    Reason = "not_size_level";
    return nullptr;
  }
  if (!Cfg.takesOver(Level)) {
    Reason = "level_not_enabled";
    return nullptr;
  }
  const Command *Link = nullptr;
  for (const Command &Job : C.getJobs())
    if (Job.getCreator().isLinkJob())
      Link = &Job;
  if (!Link) {
    Reason = "no_link";
    return nullptr;
  }
  if (!sys::path::filename(Link->getExecutable()).starts_with("ld.lld")) {
    Reason = "lto_link_not_lld"; // GNU ld / gold with LLVMgold.so: clang's link, as is
    return nullptr;
  }
  for (const char *A : Link->getArguments()) {
    if (writesSideOutput(A)) {
      Reason = "link_side_output";
      return nullptr;
    }
    // The user chose LTO's pipeline (-Wl,--lto-newpm-passes=...): candidates would replace it
    // (lld keeps the last one), and no default pipeline runs for replay to save.
    if (StringRef(A).contains("lto-newpm-passes")) {
      Reason = "user_lto_pipeline";
      return nullptr;
    }
  }
  return Link;
}

// The value following "-o" in the linker's arguments.
std::string linkOutput(const llvm::opt::ArgStringList &Args) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (StringRef(Args[I]) == "-o")
      return Args[I + 1];
  return "";
}

// smartcc's LTO pass plugin (runtime/lto/LTOPassPlugin.cpp): <bin>/../lib/smartcc, in the
// build tree as when installed.
std::string ltoPluginPath() {
  std::string Self = sys::fs::getMainExecutable(nullptr, (void *)&ltoPluginPath);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Self)));
  sys::path::append(P, "lib", "smartcc", "smartcc-lto-plugin.so");
  return std::string(P);
}

bool usesPlugin(const LinkCandidateSpec &S) {
  return llvm::any_of(S.Pipeline, [](const std::string &St) {
    return StringRef(St).contains("smartcc-");
  });
}

// The LTO optimization level of clang's link (-plugin-opt=O2 from clang's driver at -Oz/-Os;
// lld's --lto-O), 2 when none is given: LTO's own pipeline is then lto<ON>.
unsigned ltoLevel(const llvm::opt::ArgStringList &Args) {
  unsigned Level = 2;
  for (StringRef A : Args)
    for (StringRef Prefix : {"-plugin-opt=O", "--plugin-opt=O", "--lto-O", "-lto-O"}) {
      StringRef Value = A;
      if (Value.consume_front(Prefix) && Value.size() == 1 && Value[0] >= '0' &&
          Value[0] <= '3') {
        Level = unsigned(Value[0] - '0');
        break;
      }
    }
  return Level;
}

// Paths inside a pass pipeline's text cannot hold the pipeline's own punctuation.
bool fitsInPipeline(StringRef Path) { return Path.find_first_of(",<>()\"") == StringRef::npos; }

// What a candidate adds to clang's linker command. An after_lto_pipeline candidate gets LTO's
// own pipeline in front of its own, or, replaying (Replay: the optimized program's file), the
// replay pass instead.
std::vector<std::string> extraLinkerArgs(const LinkCandidateSpec &S, bool Thin, unsigned Level,
                                         StringRef Replay = "") {
  std::vector<std::string> Out;
  std::vector<std::string> Pipeline = S.Pipeline;
  if (S.AfterLTOPipeline && !Replay.empty())
    Pipeline.insert(Pipeline.begin(), ("smartcc-replay-optimized<" + Replay + ">").str());
  else if (S.AfterLTOPipeline && !Pipeline.empty()) // empty: lld's own pipeline, as clang's
    Pipeline.insert(Pipeline.begin(), "lto<O" + std::to_string(Level) + ">");
  if (!Replay.empty() || usesPlugin(S))
    Out.push_back("--load-pass-plugin=" + ltoPluginPath());
  if (!Pipeline.empty()) {
    std::string Passes;
    for (const std::string &Stage : Pipeline) {
      std::string St = Stage;
      // lto<...> is the full-LTO post-link pipeline; a ThinLTO backend's is thinlto<...>.
      if (Thin && StringRef(St).starts_with("lto<"))
        St = "thin" + St;
      Passes += (Passes.empty() ? "" : ",") + St;
    }
    Out.push_back("--lto-newpm-passes=" + Passes);
  }
  for (const std::string &A : S.LLVMArgs)
    Out.push_back("-mllvm=" + A);
  Out.insert(Out.end(), S.LinkerArgs.begin(), S.LinkerArgs.end());
  return Out;
}

// A link started with its standard streams on /dev/null (only its output file and exit status
// count); Env: the whole environment, or none for this process's.
sys::ProcessInfo spawnQuiet(const std::vector<std::string> &Cmd,
                            std::optional<ArrayRef<StringRef>> Env, std::string &Err) {
  std::vector<StringRef> Argv(Cmd.begin(), Cmd.end());
  std::optional<StringRef> Null = StringRef("/dev/null");
  return sys::ExecuteNoWait(Argv[0], Argv, Env, {Null, Null, Null}, 0, &Err);
}

// RunningLink::Index of the link that optimizes the program once for replaying candidates.
constexpr size_t OptimizeIndex = SIZE_MAX;

struct RunningLink {
  size_t Index; // into the candidates, or OptimizeIndex
  sys::ProcessInfo PI;
  std::chrono::steady_clock::time_point Start;
};

double millisSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

} // namespace

// One owned link from before clang's jobs run to the decision.
struct OwnedLTOLink {
  const Compilation &C;
  const Config &Cfg;
  const Command *Link = nullptr;
  std::string Reason; // why not owned (Link null)
  std::string Level, Output;
  bool Verbose = false;
  bool Prepared = false;
  TUDecision D;
  std::vector<LinkCandidateSpec> Specs;
  std::vector<std::string> Temps;
  std::vector<std::vector<std::string>> Commands;
  std::vector<RunningLink> Active;
  size_t Next = 0;
  unsigned Jobs = 1;
  // Replay (runtime/lto/OptimizedModuleReplay.h): a full-LTO link optimizes the program once
  // (OptimizeCmd: clang's command with lld's --lto-emit-llvm, the plugin saving the module to
  // OptimizedPath), just before the first candidate that replays it (OptimizeAt); a candidate
  // with a ReplayCommands entry then runs that instead of Commands' whole link, unless the
  // optimizing link failed or did not run.
  enum class ReplayState { Off, Waiting, Running, Ready, Failed };
  ReplayState Replay = ReplayState::Off;
  std::vector<std::string> OptimizeCmd;
  std::string OptimizedPath;
  std::vector<std::vector<std::string>> ReplayCommands; // empty: the candidate does not replay
  size_t OptimizeAt = 0;
  // Shared unwind (LinkCandidateSpec::SharedUnwind): the candidates start at once (their
  // passes decide on machine code which functions are frameless); their outputs are checked
  // against clang's link's summary (BaselineUnwind, when it could be read) before they may
  // ship, those that end before clang's link when it is read (PendingChecks, with the output
  // as measured). Once it is read (Ready/Failed), candidates not yet started run only where a
  // shared entry can gain (Ready).
  enum class FramelessState { Off, Waiting, Ready, Failed };
  FramelessState Frameless = FramelessState::Off;
  std::string FramelessNote;
  std::optional<UnwindSummary> BaselineUnwind;
  std::vector<std::pair<size_t, std::unique_ptr<MemoryBuffer>>> PendingChecks;
  void readFrameless(MemoryBufferRef Baseline);
  void checkShared(size_t Index, MemoryBufferRef Out);
  std::chrono::steady_clock::time_point LinkStart = std::chrono::steady_clock::now();

  OwnedLTOLink(const Compilation &C, const Config &Cfg) : C(C), Cfg(Cfg) {}
  void prepare();
  void prepareReplay(const std::vector<std::string> &Cmd);
  bool replays(size_t K) const { return Replay == ReplayState::Ready && !ReplayCommands[K].empty(); }
  // The next candidate replays but the program is still being optimized.
  bool nextMustWait() const {
    return Next < Commands.size() && Replay == ReplayState::Running &&
           !ReplayCommands[Next].empty();
  }
  bool optimizeIsNext() const { return Replay == ReplayState::Waiting && Next >= OptimizeAt; }
  void startOptimize();
  void endOptimize(bool Ended, int Status, double Millis);
  bool startNext();
  std::unique_ptr<MemoryBuffer> measure(StringRef Path, CandidateResult &R);
  void endLink(const RunningLink &L, bool Ended, int Status, const char *StopReason);
  void runBeside();
  void waitAndReap(std::optional<double> AllowanceLeft);
  // Candidate links that ended, the longest of each kind (0: none yet): what the next is
  // expected to take.
  double LongestLinkMillis = 0, LongestReplayMillis = 0;
  // While clang's link runs (the command only links): a thread keeps the threads it leaves
  // busy, starting the next candidate when one ends, until finish() stops it.
  std::thread Beside;
  std::atomic<bool> StopBeside{false};
  int WakeFd = -1; // an eventfd: written to stop the thread
  void joinBeside() {
    StopBeside = true;
    if (Beside.joinable()) {
      uint64_t One = 1;
      (void)!::write(WakeFd, &One, sizeof One);
      Beside.join();
    }
    if (WakeFd >= 0)
      ::close(WakeFd), WakeFd = -1;
  }
  void killActive();
  void finish(double BaselineMillis);
};

// The decision's frame and every candidate's command; nothing runs yet.
void OwnedLTOLink::prepare() {
  Prepared = true;
  Verbose = C.getArgs().hasArg(clang::options::OPT_v);
  const llvm::opt::ArgStringList &Args = Link->getArguments();
  D.Kind = "link";
  D.Input = "(LTO link)";
  D.Output = Output;
  D.Target = C.getDefaultToolChain().getTripleString();
  D.Level = Level + " -flto";
  D.SizeMetric = Cfg.SizeMetric == Metric::IRInstructions ? Metric::ImageBytes : Cfg.SizeMetric;
  D.Rules.AllowRamGrowth = Cfg.AllowRamGrowth;
  D.Rules.CodeForUnwind = Cfg.CodeForUnwind;
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd))
    D.Directory = Cwd.str().str();

  // The candidates: clang's exact linker command, the output redirected, the candidate's
  // arguments appended (lld takes the last of a repeated option).
  const bool Thin = C.getDriver().getLTOMode() == LTOK_Thin;
  const unsigned LTOLevel = ltoLevel(Args);
  // The agent's proposals first (ranked on this program), then the configured candidates.
  std::vector<std::optional<float>> Predicted;
  std::string AgentSpace;
  std::vector<std::string> Inputs;
  for (const InputInfo &I : Link->getInputInfos())
    if (I.isFilename())
      Inputs.push_back(I.getFilename());
  LinkAgentChoice A = linkAgentCandidates(Inputs, Cfg, D.Target, Level);
  if (A.Active) {
    D.AgentModel = A.Model;
    D.AgentMillis = A.Millis;
    D.AgentFeatures = A.Features;
    D.AgentModules = A.Modules;
    D.Effort = Cfg.Effort;
    AgentSpace = A.ActionSpace;
    for (size_t I = 0; I < A.Specs.size(); ++I) {
      Specs.push_back(std::move(A.Specs[I]));
      Predicted.push_back(A.Predicted[I]);
    }
  }
  if (!A.Note.empty())
    D.AgentNote = A.Note;
  for (const std::string &Name : Cfg.LinkCandidates) {
    // A link model may have proposed it already (ranked by its prediction).
    if (llvm::any_of(Specs, [&](const LinkCandidateSpec &S) { return S.Name == Name; }))
      continue;
    const LinkCandidateSpec &Spec = Cfg.LinkCandidateLibrary.at(Name);
    // Not for this target (as compile candidates' skip_targets).
    if (skipsTarget(Spec.SkipTargets, D.Target))
      continue;
    Specs.push_back(Spec);
    Predicted.push_back(std::nullopt);
  }
  // A large program (link_large_kib): the whole-link candidates would take longer than
  // link_time allows (the IR outliner before LTO's pipeline took 3.4 clang links and more on a
  // 260 KB library), and started first they hold a thread until they are killed. The ones
  // that replay the program optimized once go first instead, in their own order, so the
  // optimizing link starts beside clang's link. Small programs keep the order: there the
  // whole-link IR outliner must start at once to end in time.
  D.InputBitcodeBytes = bitcodeInputBytes(Inputs);
  const bool CanReplay = !Thin && Cfg.LinkReplay;
  if (CanReplay && Cfg.LinkLargeKiB && D.InputBitcodeBytes >= uint64_t(Cfg.LinkLargeKiB) * 1024) {
    D.LargeLink = true;
    std::vector<size_t> Order(Specs.size());
    std::iota(Order.begin(), Order.end(), 0);
    std::stable_partition(Order.begin(), Order.end(),
                          [&](size_t K) { return Specs[K].AfterLTOPipeline; });
    std::vector<LinkCandidateSpec> OrderedSpecs;
    std::vector<std::optional<float>> OrderedPredicted;
    for (size_t K : Order) {
      OrderedSpecs.push_back(std::move(Specs[K]));
      OrderedPredicted.push_back(Predicted[K]);
    }
    Specs = std::move(OrderedSpecs);
    Predicted = std::move(OrderedPredicted);
  }
  for (size_t K = 0; K < Specs.size(); ++K) {
    if (Specs[K].SharedUnwind) {
      if (Frameless == FramelessState::Off) {
        // A linker script may place a function by its section's name (a reset handler at the
        // vector table): the pass moves functions into a section of its own, so not there.
        const bool Script = llvm::any_of(Args, [](const char *A) {
          return StringRef(A).starts_with("-T") || StringRef(A).starts_with("--script");
        });
        // The output check finds the runs and the functions by their symbols: a link that
        // keeps no symbol table (-s) or drops the local symbols (-x: the run's markers and the
        // outliner's functions are local) would leave it nothing to read.
        const bool Stripped = llvm::any_of(Args, [](const char *A) {
          StringRef S(A);
          if (!S.consume_front("-"))
            return false;
          S.consume_front("-");
          return S == "s" || S == "strip-all" || S == "x" || S == "discard-all" ||
                 S.starts_with("retain-symbols-file");
        });
        Frameless = Script || Stripped ? FramelessState::Failed : FramelessState::Waiting;
        if (Script)
          FramelessNote = "the link has a linker script (functions may be placed by section)";
        else if (Stripped)
          FramelessNote = "the link drops symbols (-s, -x), which the output check reads";
      }
      Specs[K].Pipeline.push_back("smartcc-shared-unwind");
    }
    const LinkCandidateSpec &Spec = Specs[K];
    const std::string &Name = Spec.Name;
    SmallString<256> Temp;
    // Agent candidates are named agent#N: no '#' in file names.
    std::string FileTag = Name;
    std::replace(FileTag.begin(), FileTag.end(), '#', '-');
    sys::fs::createUniquePath(Output + "-smartcc-" + FileTag + "-%%%%%%%%.tmp", Temp, false);
    std::vector<std::string> Cmd{Link->getExecutable()};
    for (size_t I = 0; I < Args.size(); ++I) {
      Cmd.push_back(Args[I]);
      if (StringRef(Args[I]) == "-o" && I + 1 < Args.size())
        Cmd.push_back(std::string(Temp)), ++I;
    }
    std::vector<std::string> Base = Cmd;
    for (std::string &Arg : extraLinkerArgs(Spec, Thin, LTOLevel))
      Cmd.push_back(std::move(Arg));
    Temps.push_back(std::string(Temp));
    Commands.push_back(std::move(Cmd));
    ReplayCommands.emplace_back();
    if (Spec.AfterLTOPipeline && CanReplay) {
      if (Replay == ReplayState::Off)
        prepareReplay(Base);
      if (Replay == ReplayState::Waiting) {
        for (std::string &Arg : extraLinkerArgs(Spec, Thin, LTOLevel, OptimizedPath))
          Base.push_back(std::move(Arg));
        ReplayCommands.back() = std::move(Base);
      }
    }
    CandidateReport R;
    R.Name = Name;
    R.SharedUnwind = Spec.SharedUnwind;
    if (Predicted[K]) {
      R.Predicted = Predicted[K];
      if (StringRef(Name).starts_with("agent#")) { // a sequence (a library name says itself)
        R.Sequence = Spec.Description;
        R.ActionSpace = AgentSpace;
      }
    }
    D.Candidates.push_back(std::move(R));
  }
  // A link ends a build (nothing else is left to run beside it): all hardware threads.
  Jobs = Cfg.Jobs ? Cfg.Jobs
                  : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}

// The link that optimizes the program once, from a candidate's command (Cmd, its output
// redirected): writing nothing but the saved module, it replaces the output by /dev/null.
void OwnedLTOLink::prepareReplay(const std::vector<std::string> &Cmd) {
  Replay = ReplayState::Failed;
  D.ReplayOutcome = "not_run";
  if (!sys::fs::exists(ltoPluginPath())) {
    D.ReplayNote = "smartcc's LTO pass plugin is missing: " + ltoPluginPath();
    return;
  }
  SmallString<128> Path;
  if (std::error_code EC = sys::fs::createTemporaryFile("smartcc-lto-optimized", "bc", Path)) {
    D.ReplayNote = "no temporary file: " + EC.message();
    return;
  }
  if (!fitsInPipeline(Path)) {
    sys::fs::remove(Path);
    D.ReplayNote = ("the temporary directory's path cannot go in a pass pipeline: " + Path).str();
    return;
  }
  OptimizedPath = std::string(Path);
  OptimizeCmd = Cmd;
  for (size_t I = 0; I + 1 < OptimizeCmd.size(); ++I)
    if (OptimizeCmd[I] == "-o")
      OptimizeCmd[I + 1] = "/dev/null";
  OptimizeCmd.push_back("--load-pass-plugin=" + ltoPluginPath());
  OptimizeCmd.push_back("--lto-emit-llvm");
  // Just before the first candidate that replays: a whole-link candidate before it (the IR
  // outliner, first by default) starts first, at once beside clang's link. Run first instead,
  // the optimizing link delayed it by its own time, and on small links (jansson's test
  // programs, the 250 ms floor) the IR outliner was then killed at the allowance's end.
  OptimizeAt = Commands.size() - 1;
  Replay = ReplayState::Waiting;
  D.ReplayOutcome = "";
}

// Starts the optimizing link, its environment telling the plugin where to save the module.
void OwnedLTOLink::startOptimize() {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E)
    if (!StringRef(*E).starts_with(std::string(SaveOptimizedEnv) + "="))
      Env.push_back(*E);
  Env.push_back(std::string(SaveOptimizedEnv) + "=" + OptimizedPath);
  std::vector<StringRef> EnvRefs(Env.begin(), Env.end());
  std::string Err;
  sys::ProcessInfo PI = spawnQuiet(OptimizeCmd, ArrayRef<StringRef>(EnvRefs), Err);
  if (PI.Pid == sys::ProcessInfo::InvalidPid) {
    Replay = ReplayState::Failed;
    D.ReplayOutcome = "not_run";
    D.ReplayNote = "could not start the optimizing link: " + Err;
    return;
  }
  Active.push_back({OptimizeIndex, PI, std::chrono::steady_clock::now()});
  Replay = ReplayState::Running;
}

// The optimizing link ended (or was stopped: !Ended): replay is ready when it saved a module.
void OwnedLTOLink::endOptimize(bool Ended, int Status, double Millis) {
  D.ReplayMillis = Millis;
  uint64_t Size = 0;
  if (!Ended) {
    D.ReplayNote = "the optimizing link was stopped (link_time)";
  } else if (WIFSIGNALED(Status)) {
    D.ReplayNote = std::string("the optimizing link crashed: ") + strsignal(WTERMSIG(Status));
  } else if (WEXITSTATUS(Status) != 0) {
    D.ReplayNote = "the optimizing link failed with status " + std::to_string(WEXITSTATUS(Status));
  } else if (sys::fs::file_size(OptimizedPath, Size) || Size == 0) {
    D.ReplayNote = "the optimizing link saved no module";
  } else {
    Replay = ReplayState::Ready;
    D.ReplayOutcome = "ok";
    return;
  }
  Replay = ReplayState::Failed;
  D.ReplayOutcome = Ended ? "failed" : "timeout";
}

// Starts candidate Next (or records why it cannot run, or the optimizing link before it);
// false when none is left or the next one waits for the optimizing link.
bool OwnedLTOLink::startNext() {
  if (Next >= Commands.size() || nextMustWait())
    return false;
  if (optimizeIsNext()) {
    startOptimize();
    return true;
  }
  CandidateResult &R = D.Candidates[Next].Result;
  if (Specs[Next].SharedUnwind && Frameless == FramelessState::Failed) {
    R.Result = Outcome::NotRun;
    R.setMessage(FramelessNote.c_str());
    ++Next;
    return true;
  }
  if (usesPlugin(Specs[Next]) && !sys::fs::exists(ltoPluginPath())) {
    R.Result = Outcome::NotRun;
    R.setMessage(("smartcc's LTO pass plugin is missing: " + ltoPluginPath()).c_str());
    ++Next;
    return true;
  }
  const bool Replaying = replays(Next);
  D.Candidates[Next].Replayed = Replaying;
  std::string Err;
  sys::ProcessInfo PI =
      spawnQuiet(Replaying ? ReplayCommands[Next] : Commands[Next], std::nullopt, Err);
  if (PI.Pid == sys::ProcessInfo::InvalidPid) {
    R.Result = Outcome::NotRun;
    R.setMessage(Err.c_str());
  } else {
    Active.push_back({Next, PI, std::chrono::steady_clock::now()});
  }
  ++Next;
  return true;
}

// Kills a candidate link. lld writes its output into a temporary file beside it (OUT.tmpXXXX)
// and removes that on a signal it can catch, not on SIGKILL: those are removed here.
static void stopLink(const RunningLink &L, StringRef Output) {
  int Status = 0;
  ::kill(L.PI.Pid, SIGKILL);
  waitForExit(L.PI.Pid, -1, Status);
  if (Output.empty()) // the optimizing link writes to /dev/null
    return;
  StringRef Dir = sys::path::parent_path(Output);
  std::string Prefix = (sys::path::filename(Output) + ".tmp").str();
  std::error_code EC;
  for (sys::fs::directory_iterator I(Dir.empty() ? "." : Dir, EC), E; I != E && !EC;
       I.increment(EC))
    if (sys::path::filename(I->path()).starts_with(Prefix))
      sys::fs::remove(I->path());
}

// Stops the candidate links still running, unmeasured.
void OwnedLTOLink::killActive() {
  for (RunningLink &L : Active)
    stopLink(L, L.Index == OptimizeIndex ? "" : Temps[L.Index]);
  Active.clear();
}

// Measures a link's output as a linked image into R; the output as read, for further checks
// (null when it could not be measured).
std::unique_ptr<MemoryBuffer> OwnedLTOLink::measure(StringRef Path, CandidateResult &R) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    R.Result = Outcome::CodegenFailed;
    R.setMessage(("cannot read the output: " + Buf.getError().message()).c_str());
    return nullptr;
  }
  Expected<FileSize> Size = measureFile((*Buf)->getMemBufferRef());
  if (!Size) {
    R.Result = Outcome::CodegenFailed;
    R.setMessage(toString(Size.takeError()).c_str());
    return nullptr;
  }
  R.Result = Outcome::Ok;
  R.Object = Size->Size;
  return std::move(*Buf);
}

// Records how link L ended (Ended false: out of time, StopReason says which limit; it is
// stopped here), already removed from Active.
void OwnedLTOLink::endLink(const RunningLink &L, bool Ended, int Status,
                           const char *StopReason) {
  if (L.Index == OptimizeIndex) {
    if (!Ended)
      stopLink(L, "");
    endOptimize(Ended, Status, millisSince(L.Start));
    return;
  }
  CandidateResult &R = D.Candidates[L.Index].Result;
  R.Millis = millisSince(L.Start);
  if (Ended) {
    double &Longest = D.Candidates[L.Index].Replayed ? LongestReplayMillis : LongestLinkMillis;
    Longest = std::max(Longest, R.Millis);
  }
  if (!Ended) {
    stopLink(L, Temps[L.Index]);
    R.Result = Outcome::Timeout;
    R.setMessage(StopReason);
  } else if (WIFSIGNALED(Status)) {
    R.Result = Outcome::Crashed;
    R.Signal = WTERMSIG(Status);
    R.setMessage(strsignal(WTERMSIG(Status)));
  } else if (WEXITSTATUS(Status) != 0) {
    R.Result = Outcome::CodegenFailed;
    R.setMessage(("the link failed with status " + std::to_string(WEXITSTATUS(Status))).c_str());
  } else {
    std::unique_ptr<MemoryBuffer> Out = measure(Temps[L.Index], R);
    // A shared unwind entry ships only where the output's own instructions prove it right,
    // checked against clang's link: now, or once it is read.
    if (Out && Specs[L.Index].SharedUnwind) {
      if (Frameless == FramelessState::Waiting)
        PendingChecks.emplace_back(L.Index, std::move(Out));
      else
        checkShared(L.Index, Out->getMemBufferRef());
    }
  }
}

// clang's link is measured: its unwind entries, against which the shared-unwind candidates'
// outputs are checked, and whether a shared entry can gain anything there (those not started
// yet run only then).
void OwnedLTOLink::readFrameless(MemoryBufferRef Baseline) {
  Frameless = FramelessState::Failed;
  Expected<UnwindSummary> S = summarizeUnwind(Baseline);
  if (!S) {
    FramelessNote = "cannot read clang's link's unwind entries: " + toString(S.takeError());
    return;
  }
  BaselineUnwind = std::move(*S);
  if (BaselineUnwind->DebugInfo) {
    FramelessNote = "the program has debug information (every function gets a frame of its own)";
    return;
  }
  if (BaselineUnwind->Frameless.size() + BaselineUnwind->FramelessOutlined < 2) {
    FramelessNote = "fewer than two frameless functions in clang's link";
    return;
  }
  Frameless = FramelessState::Ready;
}

// The output check of a shared-unwind candidate (Out: its measured output).
void OwnedLTOLink::checkShared(size_t Index, MemoryBufferRef Out) {
  CandidateResult &R = D.Candidates[Index].Result;
  if (!BaselineUnwind) {
    R.Result = Outcome::VerifierFailed;
    R.setMessage(("unwind check: " + FramelessNote).c_str());
    return;
  }
  Expected<SharedUnwindCheck> Check = checkSharedUnwind(Out, *BaselineUnwind);
  if (!Check) {
    R.Result = Outcome::VerifierFailed;
    R.setMessage(("unwind check: " + toString(Check.takeError())).c_str());
  }
}

// Waits until an active link ends, one runs out of time or WakeFd is written, then ends each
// link that has ended or is out of time: its own timeout_ms, or the shared allowance when
// AllowanceLeft (ms) is given. Every link ended is seen as soon as it ends, so that its time
// is its own and its thread takes the next candidate at once.
void OwnedLTOLink::waitAndReap(std::optional<double> AllowanceLeft) {
  // (WakeFd is closed once the thread beside clang's link has ended: a negative entry would
  // make waitForAnyExit poll every 50 ms, as for kernels without pidfds.)
  std::vector<int> Fds;
  if (WakeFd >= 0)
    Fds.push_back(WakeFd);
  const size_t FirstPid = Fds.size();
  double Wait = AllowanceLeft ? *AllowanceLeft : double(Cfg.TimeoutMs);
  for (const RunningLink &L : Active) {
    Fds.push_back(openPidFd(L.PI.Pid));
    Wait = std::min(Wait, double(Cfg.TimeoutMs) - millisSince(L.Start));
  }
  auto WaitStart = std::chrono::steady_clock::now();
  if (Wait > 0)
    waitForAnyExit(Fds, int(std::ceil(Wait)));
  const bool SharedOut = AllowanceLeft && millisSince(WaitStart) >= *AllowanceLeft;
  for (size_t I = FirstPid; I < Fds.size(); ++I)
    if (Fds[I] >= 0)
      ::close(Fds[I]);
  for (size_t I = 0; I < Active.size();) {
    RunningLink L = Active[I];
    int Status = 0;
    bool Ended = waitForExit(L.PI.Pid, 0, Status);
    bool OwnOut = millisSince(L.Start) >= double(Cfg.TimeoutMs);
    if (!Ended && !OwnOut && !SharedOut) {
      ++I;
      continue;
    }
    Active.erase(Active.begin() + I);
    endLink(L, Ended, Status, OwnOut ? "timeout_ms" : "beyond link_time");
  }
}

// The thread beside clang's link: one candidate link after another on the threads clang's
// link leaves, each within timeout_ms (link_time is counted from clang's link's end), until
// finish() or the handle's end stops it (WakeFd).
void OwnedLTOLink::runBeside() {
  while (!StopBeside) {
    while (Active.size() + 1 < Jobs && startNext())
      ;
    if (Active.empty())
      return;
    waitAndReap(std::nullopt);
  }
}

void OwnedLTOLink::finish(double BaselineMillis) {
  joinBeside();
  D.BaselineMillis = BaselineMillis;
  CandidateResult Base;
  std::unique_ptr<MemoryBuffer> BaseOut = measure(Output, Base);
  if (Base.Result != Outcome::Ok) {
    D.Note = std::string("cannot measure clang's link: ") + Base.Message;
  } else {
    D.Baseline = Base.Object;
    D.BaselineValue = metricValue(Base.Object, 0, D.SizeMetric);
    D.BaselineMeasured = true;
  }
  if (Frameless == FramelessState::Waiting) {
    if (BaseOut)
      readFrameless(BaseOut->getMemBufferRef());
    else
      Frameless = FramelessState::Failed, FramelessNote = "clang's link is not measured";
  }
  // Shared-unwind candidates that ended beside clang's link: their checks, now.
  for (auto &[Index, Out] : PendingChecks)
    checkShared(Index, Out->getMemBufferRef());
  PendingChecks.clear();
  if (D.Candidates.empty())
    D.KeptReason = "no_candidates";

  // The candidates' shared wall-time allowance (link_time), counted from the end of clang's
  // link (those started beside it had a head start); at least LinkAllowanceFloorMs, so that
  // a link too quick to time is not starved.
  auto PhaseStart = std::chrono::steady_clock::now();
  const double Allowance =
      Cfg.LinkTime ? std::max(LinkAllowanceFloorMs, BaselineMillis * Cfg.LinkTime / 100.0) : 0.0;
  auto AllowanceLeft = [&] {
    return Allowance ? Allowance - millisSince(PhaseStart) : double(Cfg.TimeoutMs);
  };
  // A candidate starts only if it can be expected to end within the allowance: a link killed
  // at its end is wall time and CPU spent for nothing. Expected: the longest candidate link
  // that has ended so far (running side by side, they take 1.3-1.5x clang's link on two
  // cores), clang's own link before any has, with a margin of StartMargin: candidates differ
  // (the IR outliner's link takes 1.1-1.4x the machine outliner's), and one started with
  // barely its expected time left was seen killed just short of its end.
  constexpr double StartMargin = 1.2;
  // A replaying candidate only generates code: before one has ended, expected to take what
  // clang's link took beyond optimizing the program (at least 40 % of it: code generation
  // with the machine outliner takes longer), then the longest that has.
  auto ExpectedFor = [&](size_t K) {
    if (!replays(K))
      return std::max(BaselineMillis, LongestLinkMillis);
    if (LongestReplayMillis > 0)
      return LongestReplayMillis;
    return std::max(0.4 * BaselineMillis, BaselineMillis - D.ReplayMillis);
  };
  // Without a measured baseline none could ship: none runs, those started beside clang's link
  // are stopped.
  if (!D.BaselineMeasured) {
    for (const RunningLink &L : Active)
      if (L.Index != OptimizeIndex)
        D.Candidates[L.Index].Result.Result = Outcome::NotRun;
    killActive();
    if (Replay == ReplayState::Running)
      Replay = ReplayState::Failed, D.ReplayOutcome = "not_run";
    for (; Next < Commands.size(); ++Next)
      D.Candidates[Next].Result.Result = Outcome::NotRun;
  }
  while (Next < Commands.size() || !Active.empty()) {
    while (Next < Commands.size() && Active.size() < Jobs && !nextMustWait()) {
      if (optimizeIsNext()) {
        // Worth it only if a replaying candidate can still end after it.
        // (The two together take about clang's link: half of it each.)
        if (Allowance && AllowanceLeft() < StartMargin * BaselineMillis) {
          Replay = ReplayState::Failed;
          D.ReplayOutcome = "not_run";
          D.ReplayNote = "beyond link_time";
          continue;
        }
        startOptimize();
        continue;
      }
      if (AllowanceLeft() <= 0 ||
          (Allowance && AllowanceLeft() < StartMargin * ExpectedFor(Next))) {
        CandidateResult &R = D.Candidates[Next++].Result;
        R.Result = Outcome::NotRun;
        R.setMessage("beyond link_time");
        continue;
      }
      startNext();
    }
    if (Active.empty())
      continue;
    waitAndReap(Allowance ? std::optional<double>(AllowanceLeft()) : std::nullopt);
  }
  // The optimizing link may have been prepared for candidates that never started.
  if (Replay == ReplayState::Waiting)
    D.ReplayOutcome = "not_run", D.ReplayNote = "no replaying candidate ran";
  for (CandidateReport &R : D.Candidates)
    if (R.Result.Result == Outcome::Ok)
      R.Value = metricValue(R.Result.Object, 0, D.SizeMetric);
  if (D.BaselineMeasured && !D.Candidates.empty())
    chooseWinner(D);
  else if (!D.BaselineMeasured)
    D.KeptReason = "baseline_unmeasured";

  if (D.Winner >= 0) {
    if (std::error_code EC = sys::fs::rename(Temps[size_t(D.Winner)], Output)) {
      D.Note = "could not replace the output, kept clang's link: " + EC.message();
      D.Winner = -1;
      D.KeptReason = "write_failed";
    }
  }
  // (The candidates' temporary outputs go with the handle, LTOLinkHandle's destructor.)

  // Wall time from before clang's link (candidates may have started beside it) to here.
  D.TotalMillis = millisSince(LinkStart);
  if (Cfg.Explain)
    printExplain(D, errs());
  else if (Verbose)
    printVerbose(D, errs());
  recordDecision(Cfg, D);
}

LTOLinkHandle::LTOLinkHandle() = default;
LTOLinkHandle::LTOLinkHandle(LTOLinkHandle &&) = default;
LTOLinkHandle &LTOLinkHandle::operator=(LTOLinkHandle &&) = default;
// However the link ended (clang's link failed, or the decision is made): nothing of it may
// keep running or stay on disk but the output.
LTOLinkHandle::~LTOLinkHandle() {
  if (!L)
    return;
  L->joinBeside();
  L->killActive();
  for (const std::string &T : L->Temps)
    sys::fs::remove(T);
  if (!L->OptimizedPath.empty())
    sys::fs::remove(L->OptimizedPath);
}

LTOLinkHandle beginLTOLink(const Compilation &C, const Config &Cfg) {
  LTOLinkHandle H;
  // -### and -fdriver-only print or check the jobs without running them: no link to own,
  // and nothing may run beside it.
  if (!Cfg.LTOLinks || C.getArgs().hasArg(clang::options::OPT__HASH_HASH_HASH) ||
      C.getArgs().hasArg(clang::options::OPT_fdriver_only))
    return H;
  H.L = std::make_unique<OwnedLTOLink>(C, Cfg);
  OwnedLTOLink &L = *H.L;
  L.Link = ownedLink(C, Cfg, L.Reason, L.Level);
  if (L.Link) {
    L.Output = linkOutput(L.Link->getArguments());
    if (L.Output.empty() || L.Output == "-")
      L.Link = nullptr, L.Reason = "not_lto"; // nothing to count, nothing to own
  }
  if (!L.Link)
    return H;
  // A command that only links has every input on disk already: the first candidates run
  // beside clang's link, on the threads its LTO code generation leaves (it is one thread for
  // most of a full-LTO link). A command that also compiles writes the inputs first, so its
  // candidates (and the link agent, which reads the inputs) wait for the compiles.
  if (C.getJobs().size() == 1) {
    L.prepare();
    L.WakeFd = ::eventfd(0, EFD_CLOEXEC);
    if (L.Jobs > 1 && L.WakeFd >= 0)
      L.Beside = std::thread([&L] { L.runBeside(); });
  }
  return H;
}

void finishLTOLink(LTOLinkHandle H, bool Succeeded, double BaselineMillis) {
  if (!H.L)
    return;
  OwnedLTOLink &L = *H.L;
  if (!L.Link) {
    if (Succeeded && L.Reason != "not_lto" && L.Reason != "no_link")
      addCounters(L.Cfg, {{"link.passthrough." + L.Reason, 1}});
    return;
  }
  if (!Succeeded)
    return; // H's destructor stops the candidates started beside clang's link
  if (!L.Prepared)
    L.prepare();
  L.finish(BaselineMillis);
}

} // namespace smartcc
