#include "driver/LTOLink.h"
#include "runtime/compile/UnwindAwareConstants.h"
#include "driver/LTOLinkCommand.h"
#include "driver/OwnedLTOLink.h"
#include "runtime/decide/Decision.h"
#include "runtime/link/LinkAgent.h"
#include "runtime/link/LinkInputs.h"
#include "runtime/observe/SideOutputs.h"
#include "runtime/support/ProcessWait.h"
#include "runtime/link/plugin/OptimizedModuleReplay.h"
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

// A link started with its standard streams on /dev/null (only its output file and exit status
// count); Env: the whole environment, or none for this process's.
sys::ProcessInfo spawnQuiet(const std::vector<std::string> &Cmd,
                            std::optional<ArrayRef<StringRef>> Env, std::string &Err,
                            StringRef ErrorsTo) {
  std::vector<StringRef> Argv(Cmd.begin(), Cmd.end());
  std::optional<StringRef> Null = StringRef("/dev/null");
  std::optional<StringRef> Errors = ErrorsTo.empty() ? Null : std::optional<StringRef>(ErrorsTo);
  return sys::ExecuteNoWait(Argv[0], Argv, Env, {Null, Null, Errors}, 0, &Err);
}

// This process's environment with Key set to Value (whatever it held before), for a link
// that reports to smartcc through a file the variable names.
static std::vector<std::string> environWith(StringRef Key, StringRef Value) {
  std::vector<std::string> Env;
  std::string Prefix = (Key + "=").str();
  for (char **E = environ; *E; ++E)
    if (!StringRef(*E).starts_with(Prefix))
      Env.push_back(*E);
  Env.push_back(Prefix + Value.str());
  return Env;
}

// The decision's frame and every candidate's command; nothing runs yet.
void OwnedLTOLink::prepare() {
  Prepared = true;
  Verbose = Job.Verbose;
  const llvm::opt::ArgStringList Args = Job.argList();
  MapFile = mapFileOf(Args);
  D.Kind = "link";
  D.Input = WholeProgram       ? "(whole-program link)"
            : Job.Relocatable ? "(LTO relocatable link)"
                              : "(LTO link)";
  D.Output = Output;
  D.Target = Job.Triple;
  // A whole-program link's baseline is clang's plain link at the command's level (a link
  // command without -O links objects compiled at theirs).
  D.Level = Level.empty() ? std::string("Os/Oz") : WholeProgram ? Level : Level + " -flto";
  D.WholeProgram = WholeProgram;
  D.SizeMetric = Cfg.SizeMetric == Metric::IRInstructions ? Metric::ImageBytes : Cfg.SizeMetric;
  D.Rules.AllowRamGrowth = Cfg.AllowRamGrowth;
  D.Rules.CodeForUnwind = Cfg.CodeForUnwind;
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd))
    D.Directory = Cwd.str().str();

  // The candidates: clang's exact linker command, the output redirected, the candidate's
  // arguments appended (lld takes the last of a repeated option).
  const bool Thin = !WholeProgram && Job.Thin;
  const unsigned LTOLevel = ltoLevel(Args);
  // The agent's proposals first (ranked on this program), then the configured candidates.
  std::vector<std::optional<float>> Predicted;
  std::string AgentSpace;
  const std::vector<std::string> &Inputs = Job.Inputs;
  // The whole-program link itself comes first: lld's own LTO pipeline, nothing added (as
  // clang's -flto link of the command); the other candidates change it as they change
  // clang's.
  if (WholeProgram) {
    LinkCandidateSpec Whole;
    Whole.Name = "whole-program";
    Whole.Description = "the link whole-program from the objects' bitcode (lld, -flto)";
    Specs.push_back(std::move(Whole));
    Predicted.push_back(std::nullopt);
  }
  LinkAgentChoice A = linkAgentCandidates(Inputs, Cfg, D.Target, Level.empty() ? "Oz" : Level,
                                          /*FatSections=*/WholeProgram);
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
    // lld refuses identical code folding in a relocatable link: its sections are the next
    // link's to fold.
    if (Job.Relocatable && llvm::any_of(Spec.LinkerArgs, [](StringRef A) {
          return A.starts_with("--icf") || A.starts_with("-icf");
        }))
      continue;
    // unwind_constants=false: no candidate of the link uses them either.
    if (!Cfg.UnwindConstants && usesUnwindConstants(Spec))
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
  auto Reorder = [&](ArrayRef<size_t> Order) {
    std::vector<LinkCandidateSpec> OrderedSpecs;
    std::vector<std::optional<float>> OrderedPredicted;
    for (size_t K : Order) {
      OrderedSpecs.push_back(std::move(Specs[K]));
      OrderedPredicted.push_back(Predicted[K]);
    }
    Specs = std::move(OrderedSpecs);
    Predicted = std::move(OrderedPredicted);
  };
  D.InputBitcodeBytes = bitcodeInputBytes(Inputs, /*FatSections=*/WholeProgram);
  const bool CanReplay = !Thin && Cfg.LinkReplay;
  if (CanReplay && Cfg.LinkLargeKiB && D.InputBitcodeBytes >= uint64_t(Cfg.LinkLargeKiB) * 1024) {
    D.LargeLink = true;
    std::vector<size_t> Order(Specs.size());
    std::iota(Order.begin(), Order.end(), 0);
    // (A whole-program link's first candidate, the whole-program link itself, stays first:
    // the others' time and unwind check are counted against it.)
    std::stable_partition(Order.begin() + (WholeProgram ? 1 : 0), Order.end(),
                          [&](size_t K) { return Specs[K].AfterLTOPipeline; });
    Reorder(Order);
  }
  // A program compiled at -Os: LTO's code generation outlines minsize functions only, so
  // here it outlines nothing, and the candidates that run the machine outliner hold most of
  // the link's bytes (Linux's vmlinux.o: 5.2 % with the outliner alone, the best three all
  // outline). They go first, in their order (the replaying ones first on a large program).
  if (optimizedForSizeWithoutMinSize(Inputs, WholeProgram)) {
    D.OutlinerFirst = true;
    std::vector<size_t> Order(Specs.size());
    std::iota(Order.begin(), Order.end(), 0);
    std::stable_partition(Order.begin() + (WholeProgram ? 1 : 0), Order.end(), [&](size_t K) {
      return llvm::is_contained(Specs[K].LLVMArgs, "-enable-machine-outliner=always");
    });
    Reorder(Order);
  }
  for (size_t K = 0; K < Specs.size(); ++K) {
    if (Specs[K].SharedUnwind) {
      if (Frameless == FramelessState::Off) {
        FramelessNote = sharedUnwindRefusal(Args);
        Frameless = FramelessNote.empty() ? FramelessState::Waiting : FramelessState::Failed;
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
    std::vector<std::string> Cmd{Job.Executable};
    for (size_t I = 0; I < Args.size(); ++I) {
      Cmd.push_back(Args[I]);
      if (StringRef(Args[I]) == "-o" && I + 1 < Args.size())
        Cmd.push_back(std::string(Temp)), ++I;
    }
    if (!MapFile.empty())
      redirectMapFile(Cmd, (Temp + ".map").str());
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
  redirectMapFile(OptimizeCmd, "/dev/null"); // not the map of the candidate it was made from
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
  std::vector<std::string> Env = environWith(SaveOptimizedEnv, OptimizedPath);
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
  // The unwind-aware constants in lld's code generation count the code they add into a file
  // of the candidate's own (UnwindAwareConstants.h), read back when it ends.
  std::vector<std::string> Env;
  std::vector<StringRef> EnvRefs;
  if (usesUnwindConstants(Specs[Next])) {
    Env = environWith(UnwindTradeFileEnv, Temps[Next] + ".trade");
    EnvRefs.assign(Env.begin(), Env.end());
  }
  sys::ProcessInfo PI =
      spawnQuiet(Replaying ? ReplayCommands[Next] : Commands[Next],
                 Env.empty() ? std::nullopt : std::optional<ArrayRef<StringRef>>(EnvRefs), Err,
                 WholeProgram && Next == 0 ? StringRef(Temps[0] + ".err") : StringRef());
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
void stopLink(const RunningLink &L, StringRef Output) {
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
  for (const std::string &T : L->Temps) {
    sys::fs::remove(T);
    sys::fs::remove(T + ".trade");
    if (!L->MapFile.empty())
      sys::fs::remove(T + ".map");
  }
  if (L->WholeProgram && !L->Temps.empty())
    sys::fs::remove(L->Temps[0] + ".err");
  if (!L->OptimizedPath.empty())
    sys::fs::remove(L->OptimizedPath);
}

LTOLinkHandle beginLTOLink(const Compilation &C, const Config &Cfg, ArrayRef<const char *> Argv) {
  LTOLinkHandle H;
  // -### and -fdriver-only print or check the jobs without running them: no link to own,
  // and nothing may run beside it.
  if (!Cfg.LTOLinks || C.getArgs().hasArg(clang::options::OPT__HASH_HASH_HASH) ||
      C.getArgs().hasArg(clang::options::OPT_fdriver_only))
    return H;
  H.L = std::make_unique<OwnedLTOLink>(Cfg);
  OwnedLTOLink &L = *H.L;
  L.Link = ownedLink(C, Cfg, L.Reason, L.Level);
  if (!L.Link && L.Reason == "not_lto") {
    L.UserLink = wholeProgramLink(C, Cfg, Argv, L.WP, L.Reason, L.Level);
    if (L.UserLink) {
      L.WholeProgram = true;
      L.Link = L.WP.Link;
    } else if (L.Reason.empty()) {
      L.Reason = "not_lto";
    }
  }
  if (L.Link) {
    L.Output = linkOutput(L.Link->getArguments());
    if (L.Output.empty() || L.Output == "-")
      L.Link = nullptr, L.Reason = "not_lto"; // nothing to count, nothing to own
  }
  if (!L.Link)
    return H;
  L.Owned = true;
  L.Job.Executable = L.Link->getExecutable();
  for (const char *A : L.Link->getArguments())
    L.Job.Args.push_back(A);
  for (const InputInfo &I : L.Link->getInputInfos())
    if (I.isFilename())
      L.Job.Inputs.push_back(I.getFilename());
  L.Job.Triple = C.getDefaultToolChain().getTripleString();
  L.Job.Thin = C.getDriver().getLTOMode() == LTOK_Thin;
  L.Job.Verbose = C.getArgs().hasArg(clang::options::OPT_v);
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

LTOLinkResult finishLTOLink(LTOLinkHandle H, bool Succeeded, double BaselineMillis) {
  LTOLinkResult R;
  if (!H.L)
    return R;
  OwnedLTOLink &L = *H.L;
  if (!L.Owned) {
    if (Succeeded && L.Reason != "not_lto" && L.Reason != "no_link")
      addCounters(L.Cfg, {{"link.passthrough." + L.Reason, 1}});
    return R;
  }
  R.Owned = true;
  if (!Succeeded)
    return R; // H's destructor stops the candidates started beside clang's link
  if (!L.Prepared)
    L.prepare();
  L.finish(BaselineMillis);
  R.UserView = std::move(L.UserView);
  return R;
}

} // namespace smartcc
