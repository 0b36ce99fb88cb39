// The record of one translation unit's decision, and its three renderings: the
// --smartcc-explain table, the SMARTCC_LOG JSON line and the statistics counters.
#pragma once
#include "runtime/candidates/CandidateResult.h"
#include "runtime/config/Config.h"
#include "runtime/observe/Stats.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace smartcc {

// What a smaller candidate must also respect to ship, against clang's object. Both guard
// users whose build differs from what the metric sees:
//  - RAM: writable data (.data + .bss + TLS) must not grow, and zero-initialized data must not
//    become initialized (.bss -> .data: the same RAM, more bytes on disk).
//  - code for unwind tables: a candidate may not add more than CodeForUnwind percent of clang's
//    code while its unwind tables shrink; a build without unwind tables (firmware) would get
//    only the growth.
// Not for -O1..-O3 register-allocation decisions, which have their own byte allowance.
struct ShipRules {
  bool Active = true;
  bool AllowRamGrowth = false;
  double CodeForUnwind = 0.0; // percent
};
// The rule Candidate breaks against Baseline ("ram_growth", "code_for_unwind"), or null.
// SharedUnwind: CandidateReport::SharedUnwind; UnwindTradeCode: code bytes the candidate
// has only where unwind tables are emitted (CandidateResult::UnwindTradeCode), left out of the
// code-for-unwind rule.
const char *brokenShipRule(const ObjectSize &Candidate, const ObjectSize &Baseline,
                           const ShipRules &Rules, bool SharedUnwind = false,
                           uint64_t UnwindTradeCode = 0);
inline constexpr double SharedUnwindCodePercent = 1.0;
// The image bytes that ship when Candidate competes alone with clang's object under the default
// rules: its own where it is smaller and breaks no rule, clang's otherwise (training's and
// smartcc-eval's `shipped` objective). The compiler judges only a candidate that would win
// (chooseWinner), so a larger one keeps its own bytes here.
uint64_t shippedImageBytes(const ObjectSize &Candidate, const ObjectSize &Clang);
// A PLT entry in a shared library, x86-64 and AArch64 alike: 16 bytes of .plt, 8 of .got.plt,
// 24 of .rela.plt.
inline constexpr uint64_t PLTEntryBytes = 48;

struct CandidateReport {
  std::string Name;
  CandidateResult Result;
  uint64_t Value = 0; // in the metric's unit; meaningful when Result.Result == Outcome::Ok
  const char *Rejected = nullptr;    // the ship rule a smaller candidate broke, if any
  // A symbol the candidate's object needs and clang's does not (runtime/measure/UndefinedSymbols.h):
  // such a candidate never ships (rule "new_undefined_symbol").
  std::string NewUndefined;
  // In shared-library code (-fPIC, not -fPIE): exported symbols of the TU that the candidate's
  // object reaches through the PLT or GOT and clang's object does not (runtime/measure/UndefinedSymbols.h,
  // LinkReferences::Interposable): each is a PLT entry or GOT slot in the library, with 8 bytes of
  // writable .got.plt. The first one and how many. Under the default rules such a candidate is
  // RAM growth (rule "new_plt_entry"); with allow_ram_growth its value in a whole-object
  // metric (image, alloc, file) is charged PLTEntryBytes for each.
  std::string NewPLT;
  unsigned NewPLTCount = 0;
  std::string Sequence;              // an agent proposal's action sequence
  std::string ActionSpace;           // ... and the space its action names come from
  std::optional<float> Predicted;    // its predicted gain, 100*log(clang / candidate)
  bool Replayed = false; // a link candidate that replayed the optimized program (LTOLink.cpp)
  // A shared-unwind link candidate (runtime/compile/SharedUnwind.h): its unwind tables shrink by
  // sharing entries, not by trading code for them, and a build without unwind tables never
  // runs it, so the code-for-unwind rule allows it SharedUnwindCodePercent of clang's code:
  // moving functions changes the machine outliner's choices a little, either way (on the
  // training links' shared-unwind candidates -1.3 % to +0.8 % of code on AArch64, -0.6 % to
  // +1.8 % on x86-64, median 0; libz.so +20 bytes of 42 KB for 1,128 bytes of unwind tables).
  bool SharedUnwind = false;
  // A per-TU candidate that may share one unwind entry among its frameless functions
  // (CandidateSpec::SharedUnwind): before it ships, its object is checked
  // (runtime/link/SharedUnwindObject.h). Not SharedUnwind: its code-for-unwind rule is clang's.
  bool UnwindRun = false;
};

struct TUDecision {
  // "tu" for a translation unit; "link" for an -flto link (driver/LTOLink.h): its counters
  // are kept apart (link.*), so that the per-TU figures stay per TU.
  std::string Kind = "tu";
  std::string Directory, Input, Output, Target, Level; // paths as given, relative to Directory
  Metric SizeMetric = Metric::ImageBytes;
  ShipRules Rules;
  // -Wframe-larger-than: the stack-size warnings clang's compile printed; a candidate whose
  // own differ is not shipped (rule "stack_size_warning", runtime/measure/StackSizeWarnings.h).
  bool CheckStackSize = false;
  StackSizeWarnings ClangStackSize;
  ObjectSize Baseline;
  uint64_t BaselineValue = 0;
  bool BaselineMeasured = false;
  double BaselineMillis = 0; // the whole clang compile, frontend included
  double TotalMillis = 0;    // links: the owned link's wall time, clang's link to decision
  std::vector<CandidateReport> Candidates;
  int Winner = -1;           // index into Candidates; -1 = clang's own output shipped
  std::string KeptReason;    // why clang's output shipped: no_candidates, no_smaller, ...
  std::string Note;          // anything else worth saying (a failed write, ...)
  std::string AgentModel;    // the model that proposed candidates, if one served
  std::string AgentNote;     // why no agent served (when one was wanted)
  std::string InlinerModel;  // the ML inliner of the candidates, if one was used
  std::string InlinerNote;   // why none was (when one was wanted)
  std::string RegAllocModel; // the register-allocation policy of ml-regalloc, if one was used
  std::string RegAllocNote;  // why none was (when one was wanted)
  double AgentMillis = 0;    // its features and inference (wall)
  double AgentCpuMillis = 0; // the same in CPU time
  // What the agent saw of an -flto link (raw Autophase counts summed over its bitcode modules):
  // logged, so that links measured at effort 2 become training rows (scripts/link-tables.py).
  std::vector<int64_t> AgentFeatures;
  unsigned AgentModules = 0;
  unsigned Effort = 1;
  std::string BudgetNote;    // candidates the candidate budget left out, and why
  std::string MixNote;       // why the function mix compiled nothing (explain only)
  // Links: the one optimization of the program that after_lto_pipeline candidates replay:
  // "" (none prepared), "ok", "failed", "timeout" or "not_run"; its wall time; why not ok.
  std::string ReplayOutcome;
  double ReplayMillis = 0;
  std::string ReplayNote;
  // Links: the bitcode LTO merges (bytes, files and archive members) and whether that made the
  // link large (link_large_kib: replaying candidates first).
  uint64_t InputBitcodeBytes = 0;
  bool LargeLink = false;
  // Links of a program compiled at -Os (optsize, no minsize: LTO's code generation outlines
  // nothing): the machine outliner's candidates first.
  bool OutlinerFirst = false;
  // Links: a plain link made whole-program (driver/WholeProgramLink.h): the baseline is the
  // link as the user asked for it, the candidates lld's whole-program links of its objects'
  // bitcode.
  bool WholeProgram = false;

  uint64_t shippedValue() const {
    return Winner >= 0 ? Candidates[Winner].Value : BaselineValue;
  }
  const ObjectSize &shippedObject() const {
    return Winner >= 0 ? Candidates[Winner].Result.Object : Baseline;
  }
};

// Picks the strictly smallest measured candidate that breaks no ship rule, or keeps the
// baseline (ties go to clang).
void chooseWinner(TUDecision &D);

void printExplain(const TUDecision &D, llvm::raw_ostream &OS);
// Under -v (without explain): every candidate that did not simply lose, and what shipped.
void printVerbose(const TUDecision &D, llvm::raw_ostream &OS);
std::string toJSONLine(const TUDecision &D);
Counters statsDelta(const TUDecision &D);

} // namespace smartcc
