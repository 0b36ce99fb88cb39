// The state of one owned -flto link (driver/LTOLink.h), shared by the files that run its
// candidates (driver/LTOLink.cpp) and measure and decide them (driver/LTOLinkDecision.cpp).
#pragma once
#include "driver/LTOLink.h"
#include "driver/WholeProgramLink.h"
#include "runtime/decide/Decision.h"
#include "runtime/link/LoaderView.h"
#include "runtime/link/UnwindSharing.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Job.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <thread>
#include <unistd.h>

namespace smartcc {

// The least link_time allowance: a candidate of a link that takes clang 20 ms still gets a
// chance (starting lld costs tens of ms), while a small link's whole cost stays within a
// fraction of a second (it was a whole second: 5x clang's links on zlib's small programs).
constexpr double LinkAllowanceFloorMs = 250.0;

// RunningLink::Index of the link that optimizes the program once for replaying candidates.
constexpr size_t OptimizeIndex = SIZE_MAX;

struct RunningLink {
  size_t Index; // into the candidates, or OptimizeIndex
  llvm::sys::ProcessInfo PI;
  std::chrono::steady_clock::time_point Start;
};

inline double millisSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}


// A link started with its standard streams on /dev/null (only its output file and exit status
// count); Env: the whole environment, or none for this process's; ErrorsTo: a file for its
// standard error instead.
llvm::sys::ProcessInfo spawnQuiet(const std::vector<std::string> &Cmd,
                                  std::optional<llvm::ArrayRef<llvm::StringRef>> Env,
                                  std::string &Err, llvm::StringRef ErrorsTo = "");

// Kills a candidate link and removes what it leaves beside Output.
void stopLink(const RunningLink &L, llvm::StringRef Output);

// The link the candidates repeat, as a plain command: clang's link job, or the command a
// build hands smartcc's linker front (driver/LinkerFront.h).
struct LinkCommand {
  std::string Executable;
  std::vector<std::string> Args;   // without the executable
  std::vector<std::string> Inputs; // the input files (objects, archives, bitcode)
  std::string Triple;
  bool Thin = false;        // ThinLTO
  bool Verbose = false;     // -v: the decision is printed
  bool Relocatable = false; // -r: the output is an input of another link
  llvm::opt::ArgStringList argList() const {
    llvm::opt::ArgStringList List;
    for (const std::string &A : Args)
      List.push_back(A.c_str());
    return List;
  }
};

// One owned link from before clang's jobs run to the decision.
struct OwnedLTOLink {
  const Config &Cfg;
  // The link the candidates repeat: clang's -flto link, or for a whole-program link the -flto
  // form of the user's plain link (WP), whose own link (UserLink) is then the baseline; or the
  // linker front's command (then Link is null).
  const clang::driver::Command *Link = nullptr;
  LinkCommand Job;
  bool Owned = false;
  std::string Reason; // why not owned (Link null)
  bool WholeProgram = false;
  ClangLinkCommand WP;
  const clang::driver::Command *UserLink = nullptr;
  // Whole-program: the baseline's loader view is what every candidate must show
  // (runtime/link/LoaderView.h), kept as UserView; the shared-unwind candidates are checked
  // against the first candidate (the whole-program link with lld's own pipeline), their LTO
  // baseline.
  void checkLoaderViews(llvm::MemoryBufferRef Baseline);
  // A relocatable link's candidates: the later link must see the symbols the baseline
  // defines and needs (runtime/link/RelocatableView.h).
  void checkRelocatableViews(llvm::MemoryBufferRef Baseline);
  // A linked image's candidates define no global symbol the reference link does not
  // (runtime/link/LinkedSymbols.h): clang's link, or the whole-program link (candidate 0).
  void checkNewDefinitions(const llvm::MemoryBuffer *Baseline);
  // What the shared-unwind candidates are checked against, in messages.
  const char *baselineName() const {
    return WholeProgram ? "the whole-program link" : Link ? "clang's link" : "the user's link";
  }
  void waitForWholeProgram();
  // Whole-program: the loader's view of the user's own link, read before a candidate may
  // replace it; the per-TU links that follow are judged against it (driver/PerTULink.h).
  std::optional<LoaderView> UserView;
  std::string Level, Output;
  // The user's map file (-Map), empty if none: each candidate writes its own beside its
  // output (its temporary's name + ".map"), and the shipped link's replaces it.
  std::string MapFile;
  bool Verbose = false;
  bool Prepared = false;
  TUDecision D;
  std::vector<LinkCandidateSpec> Specs;
  std::vector<std::string> Temps;
  std::vector<std::vector<std::string>> Commands;
  std::vector<RunningLink> Active;
  size_t Next = 0;
  unsigned Jobs = 1;
  // Replay (runtime/link/plugin/OptimizedModuleReplay.h): a full-LTO link optimizes the program once
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
  std::vector<std::pair<size_t, std::unique_ptr<llvm::MemoryBuffer>>> PendingChecks;
  void readFrameless(llvm::MemoryBufferRef Baseline);
  void checkShared(size_t Index, llvm::MemoryBufferRef Out);
  std::chrono::steady_clock::time_point LinkStart = std::chrono::steady_clock::now();

  explicit OwnedLTOLink(const Config &Cfg) : Cfg(Cfg) {}
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
  std::unique_ptr<llvm::MemoryBuffer> measure(llvm::StringRef Path, CandidateResult &R);
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

} // namespace smartcc
