// Measuring an owned link's outputs and deciding which ships (driver/OwnedLTOLink.h).
#include "driver/OwnedLTOLink.h"
#include "runtime/decide/Decision.h"
#include "runtime/link/LinkedSymbols.h"
#include "runtime/link/LoaderView.h"
#include "runtime/link/RelocatableView.h"
#include "runtime/link/UnwindSharing.h"
#include "runtime/measure/SizeMeasurer.h"
#include "runtime/observe/SideOutputs.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>
#include <cstring>
#include <sys/wait.h>

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

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
    std::string Message = "the link failed with status " + std::to_string(WEXITSTATUS(Status));
    // The whole-program link's first error says why (its standard error was kept).
    if (WholeProgram && L.Index == 0)
      if (ErrorOr<std::unique_ptr<MemoryBuffer>> Errors =
              MemoryBuffer::getFile(Temps[0] + ".err"))
        for (StringRef Line : llvm::split((*Errors)->getBuffer(), '\n'))
          if (Line.contains("error:")) {
            Message += ": " + Line.trim().take_front(200).str();
            break;
          }
    R.setMessage(Message.c_str());
  } else {
    std::unique_ptr<MemoryBuffer> Out = measure(Temps[L.Index], R);
    // Code only unwind tables pay for (UnwindAwareConstants.h): one count per module.
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> Trade =
            MemoryBuffer::getFile(Temps[L.Index] + ".trade")) {
      for (StringRef Line : llvm::split((*Trade)->getBuffer(), '\n')) {
        unsigned long long N = 0;
        if (!Line.trim().getAsInteger(10, N))
          R.UnwindTradeCode += N;
      }
      sys::fs::remove(Temps[L.Index] + ".trade");
    }
    // A shared unwind entry ships only where the output's own instructions prove it right,
    // checked against clang's link: now, or once it is read.
    if (Out && Specs[L.Index].SharedUnwind) {
      if (Frameless == FramelessState::Waiting)
        PendingChecks.emplace_back(L.Index, std::move(Out));
      else
        checkShared(L.Index, Out->getMemBufferRef());
    }
    // A whole-program link's shared-unwind candidates are checked against its first candidate
    // (clang's -flto link of the command, as clang's link is for an -flto command).
    if (Out && WholeProgram && L.Index == 0 && Frameless == FramelessState::Waiting) {
      readFrameless(Out->getMemBufferRef());
      for (auto &[Index, Pending] : PendingChecks)
        checkShared(Index, Pending->getMemBufferRef());
      PendingChecks.clear();
    }
  }
  if (WholeProgram && L.Index == 0 && Frameless == FramelessState::Waiting) {
    Frameless = FramelessState::Failed;
    FramelessNote = "the whole-program link did not succeed";
  }
}

// Whole-program: the whole-program link (the first candidate) runs to its end (timeout_ms),
// the next candidates beside it; their link_time is then counted against its time, as an
// -flto link's candidates' against clang's link.
void OwnedLTOLink::waitForWholeProgram() {
  auto Running = [&] {
    return llvm::any_of(Active, [](const RunningLink &L) { return L.Index == 0; });
  };
  while (Next == 0 || Running()) {
    while (Active.size() < Jobs && startNext())
      ;
    if (Active.empty())
      break;
    waitAndReap(std::nullopt);
  }
}

// Refuses (VerifierFailed, Prefix and the difference) every measured candidate whose output's
// view, as Read reads it, Differ finds different from the baseline's. Returns the baseline's
// view (none if it cannot be read).
template <typename View>
static std::optional<View> refuseDifferentViews(MemoryBufferRef Baseline, std::vector<CandidateReport> &Candidates,
                                 const std::vector<std::string> &Temps,
                                 Expected<View> (*Read)(MemoryBufferRef),
                                 std::string (*Differ)(const View &, const View &),
                                 StringRef Prefix) {
  Expected<View> Base = Read(Baseline);
  std::string BaseError = Base ? "" : toString(Base.takeError());
  for (size_t K = 0; K < Candidates.size(); ++K) {
    CandidateResult &R = Candidates[K].Result;
    if (R.Result != Outcome::Ok)
      continue;
    std::string Difference;
    if (!BaseError.empty()) {
      Difference = "cannot read the baseline's: " + BaseError;
    } else if (ErrorOr<std::unique_ptr<MemoryBuffer>> Out = MemoryBuffer::getFile(Temps[K]);
               !Out) {
      Difference = "cannot read the output: " + Out.getError().message();
    } else if (Expected<View> V = Read((*Out)->getMemBufferRef()); !V) {
      Difference = toString(V.takeError());
    } else {
      Difference = Differ(*Base, *V);
    }
    if (!Difference.empty()) {
      R.Result = Outcome::VerifierFailed;
      R.setMessage((Prefix + Difference).str().c_str());
    }
  }
  if (!Base)
    return std::nullopt;
  return std::move(*Base);
}

// Whole-program: a candidate ships only if the loader sees the program the baseline is. The
// baseline's view stays for the per-TU links that follow (UserView).
void OwnedLTOLink::checkLoaderViews(MemoryBufferRef Baseline) {
  UserView = refuseDifferentViews<LoaderView>(Baseline, D.Candidates, Temps, readLoaderView,
                                              loaderViewDifference, "loader view: ");
}

// Relocatable: a candidate ships only if the next link sees the symbols the baseline has.
void OwnedLTOLink::checkRelocatableViews(MemoryBufferRef Baseline) {
  refuseDifferentViews<RelocatableView>(Baseline, D.Candidates, Temps, readRelocatableView,
                                        relocatableViewDifference, "symbols: ");
}

// The global symbols of the image in Buf (nullopt, with Err, when it cannot be read).
static std::optional<LinkedSymbols> symbolsOf(const MemoryBuffer *Buf, std::string &Err) {
  if (!Buf) {
    Err = "it is not measured";
    return std::nullopt;
  }
  Expected<LinkedSymbols> S = readLinkedSymbols(Buf->getMemBufferRef());
  if (!S) {
    Err = toString(S.takeError());
    return std::nullopt;
  }
  return std::move(*S);
}

// A reference link's global symbols, or why they cannot be read, and its name in messages.
struct SymbolReference {
  std::optional<LinkedSymbols> Symbols;
  std::string Error;
  const char *Name;
};

// Why a candidate's symbols (read as Output, Err) cannot ship against Ref; empty if they can.
static std::string symbolDifference(const SymbolReference &Ref,
                                    const std::optional<LinkedSymbols> &Output,
                                    StringRef Err) {
  if (!Ref.Symbols)
    return std::string("cannot read ") + Ref.Name + "'s: " + Ref.Error;
  if (!Output)
    return Err.str();
  std::string New = newDefinitions(*Ref.Symbols, *Output);
  if (New.empty())
    return "";
  return New + ", which " + Ref.Name + " does not (a library call the pipeline made?)";
}

// The reference is the link as clang or the user made it; for a whole-program link, the
// whole-program link (candidate 0) too, once it passed: it may have internalized a library
// function the user's link has, and a call made anew would then pull in the library's copy.
// Each candidate's output is read once, candidate 0 first.
void OwnedLTOLink::checkNewDefinitions(const MemoryBuffer *Baseline) {
  SymbolReference Base{std::nullopt, "", Link && !WholeProgram ? "clang's link" : "the user's link"};
  Base.Symbols = symbolsOf(Baseline, Base.Error);
  std::optional<SymbolReference> Whole;
  for (size_t K = 0; K < D.Candidates.size(); ++K) {
    CandidateResult &R = D.Candidates[K].Result;
    if (R.Result != Outcome::Ok)
      continue;
    std::string Err;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Out = MemoryBuffer::getFile(Temps[K]);
    if (!Out)
      Err = "cannot read the output: " + Out.getError().message();
    std::optional<LinkedSymbols> Symbols = Out ? symbolsOf(Out->get(), Err) : std::nullopt;
    std::string Difference = symbolDifference(Base, Symbols, Err);
    if (Difference.empty() && Whole)
      Difference = symbolDifference(*Whole, Symbols, Err);
    if (!Difference.empty()) {
      R.Result = Outcome::VerifierFailed;
      R.setMessage(("symbols: " + Difference).c_str());
    } else if (WholeProgram && K == 0) {
      Whole = SymbolReference{std::move(Symbols), "", "the whole-program link"};
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
    FramelessNote = std::string("cannot read ") + baselineName() + "'s unwind entries: " +
                    toString(S.takeError());
    return;
  }
  BaselineUnwind = std::move(*S);
  if (BaselineUnwind->DebugInfo) {
    FramelessNote = "the program has debug information (every function gets a frame of its own)";
    return;
  }
  if (BaselineUnwind->Frameless.size() + BaselineUnwind->FramelessOutlined < 2) {
    FramelessNote = std::string("fewer than two frameless functions in ") + baselineName();
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

void OwnedLTOLink::finish(double BaselineMillis) {
  joinBeside();
  D.BaselineMillis = BaselineMillis;
  CandidateResult Base;
  std::unique_ptr<MemoryBuffer> BaseOut = measure(Output, Base);
  if (Base.Result != Outcome::Ok) {
    D.Note = std::string("cannot measure ") + (Link ? "clang's link" : "the user's link") +
             ": " + Base.Message;
  } else {
    D.Baseline = Base.Object;
    D.BaselineValue = metricValue(Base.Object, 0, D.SizeMetric);
    D.BaselineMeasured = true;
  }
  if (Frameless == FramelessState::Waiting && !WholeProgram) {
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
  if (WholeProgram && D.BaselineMeasured)
    waitForWholeProgram();
  // What the allowance is counted against: clang's link, or the whole-program link.
  const double AllowanceBase =
      WholeProgram && !D.Candidates.empty() ? D.Candidates[0].Result.Millis : BaselineMillis;
  // The candidates' shared wall-time allowance (link_time), counted from the end of clang's
  // link (those started beside it had a head start); at least LinkAllowanceFloorMs, so that
  // a link too quick to time is not starved.
  auto PhaseStart = std::chrono::steady_clock::now();
  const double Allowance =
      Cfg.LinkTime ? std::max(LinkAllowanceFloorMs, AllowanceBase * Cfg.LinkTime / 100.0) : 0.0;
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
      return std::max(AllowanceBase, LongestLinkMillis);
    if (LongestReplayMillis > 0)
      return LongestReplayMillis;
    return std::max(0.4 * AllowanceBase, AllowanceBase - D.ReplayMillis);
  };
  while (Next < Commands.size() || !Active.empty()) {
    while (Next < Commands.size() && Active.size() < Jobs && !nextMustWait()) {
      if (optimizeIsNext()) {
        // Worth it only if a replaying candidate can still end after it.
        // (The two together take about clang's link: half of it each.)
        if (Allowance && AllowanceLeft() < StartMargin * AllowanceBase) {
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
  if (WholeProgram && BaseOut)
    checkLoaderViews(BaseOut->getMemBufferRef());
  if (Job.Relocatable && BaseOut)
    checkRelocatableViews(BaseOut->getMemBufferRef());
  else if (D.BaselineMeasured)
    checkNewDefinitions(BaseOut.get());
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
    } else if (!MapFile.empty()) {
      // The map describes the image that ships. The output is already the candidate's: a map
      // that cannot follow is removed rather than left describing clang's link.
      // Written beside the output, it may have to cross to another file system.
      std::string Map = Temps[size_t(D.Winner)] + ".map";
      std::error_code EC = sys::fs::rename(Map, MapFile);
      if (EC && !(EC = sys::fs::copy_file(Map, MapFile)))
        sys::fs::remove(Map);
      if (EC) {
        sys::fs::remove(MapFile);
        D.Note = "the map file could not be replaced (" + EC.message() + "): " + MapFile +
                 " removed";
      }
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

} // namespace smartcc
