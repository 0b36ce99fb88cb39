#include "runtime/decide/Decision.h"
#include "policies/ActionSpace.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#include <tuple>
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace smartcc {

const char *brokenShipRule(const ObjectSize &Candidate, const ObjectSize &Baseline,
                           const ShipRules &Rules, bool SharedUnwind, uint64_t UnwindTradeCode) {
  if (!Rules.Active)
    return nullptr;
  if (!Rules.AllowRamGrowth &&
      (Candidate.ramBytes() > Baseline.ramBytes() || Candidate.DataBytes > Baseline.DataBytes))
    return "ram_growth";
  const double CodeAllowance =
      double(Baseline.CodeBytes) *
      (SharedUnwind ? std::max(Rules.CodeForUnwind, SharedUnwindCodePercent) : Rules.CodeForUnwind) /
      100.0;
  // Unwind tables as linked: with the .eh_frame_hdr entries of the FDEs.
  auto Unwind = [](const ObjectSize &S) { return S.UnwindBytes + 8 * S.FDEs; };
  // Code that exists only with unwind tables is not what a build without them would get.
  const double Code = double(Candidate.CodeBytes) -
                      double(std::min<uint64_t>(UnwindTradeCode, Candidate.CodeBytes));
  if (Unwind(Candidate) < Unwind(Baseline) &&
      Code > double(Baseline.CodeBytes) + CodeAllowance)
    return "code_for_unwind";
  return nullptr;
}

uint64_t shippedImageBytes(const ObjectSize &Candidate, const ObjectSize &Clang) {
  if (Candidate.linkedImageBytes() < Clang.linkedImageBytes() &&
      brokenShipRule(Candidate, Clang, ShipRules{}))
    return Clang.linkedImageBytes();
  return Candidate.linkedImageBytes();
}

void chooseWinner(TUDecision &D) {
  D.Winner = -1;
  for (CandidateReport &C : D.Candidates)
    C.Rejected = nullptr;
  if (!D.BaselineMeasured) {
    D.KeptReason = "baseline_unmeasured";
    return;
  }
  bool AnyOk = false, AnyRejected = false;
  uint64_t Best = D.BaselineValue;
  // Metrics of the whole object, in which a PLT entry the link adds is charged.
  const bool WholeImage = D.SizeMetric == Metric::ImageBytes ||
                          D.SizeMetric == Metric::AllocBytes || D.SizeMetric == Metric::FileBytes;
  for (size_t I = 0; I < D.Candidates.size(); ++I) {
    CandidateReport &C = D.Candidates[I];
    if (C.Result.Result != Outcome::Ok)
      continue;
    AnyOk = true;
    if (C.Value >= D.BaselineValue)
      continue;
    // Only a candidate that would win is judged by the rules, so the counts say what they cost.
    C.Rejected = brokenShipRule(C.Result.Object, D.Baseline, D.Rules, C.SharedUnwind,
                                C.Result.UnwindTradeCode);
    if (!C.Rejected && D.Rules.Active && !C.NewUndefined.empty())
      C.Rejected = "new_undefined_symbol";
    if (!C.Rejected && D.Rules.Active && D.CheckStackSize &&
        !(C.Result.StackWarnings == D.ClangStackSize))
      C.Rejected = "stack_size_warning";
    // The library's PLT entries the candidate adds: writable .got.plt (RAM), and image bytes
    // its object does not show, charged where RAM growth is allowed.
    const uint64_t Value = C.Value + (WholeImage ? PLTEntryBytes * C.NewPLTCount : 0);
    if (!C.Rejected && D.Rules.Active && C.NewPLTCount &&
        (!D.Rules.AllowRamGrowth || Value >= D.BaselineValue))
      C.Rejected = "new_plt_entry";
    if (C.Rejected) {
      AnyRejected = true;
      continue;
    }
    if (Value < Best) { // strictly smaller; the first in list order wins a tie among candidates
      Best = Value;
      D.Winner = int(I);
    }
  }
  if (D.Winner < 0)
    D.KeptReason = D.Candidates.empty() ? "no_candidates"
                   : AnyRejected        ? "smaller_rejected"
                   : AnyOk              ? "no_smaller"
                                        : "all_failed";
}

// Change against clang in percent: negative = smaller, as everywhere smartcc prints sizes.
static double changePercent(double Value, double Baseline) {
  return (Value - Baseline) * 100.0 / Baseline;
}

static std::string relative(uint64_t Value, uint64_t Baseline) {
  if (!Baseline)
    return "-";
  std::string S;
  raw_string_ostream(S) << format("%+.2f%%", changePercent(double(Value), double(Baseline)));
  return S;
}

// The name column: 31 wide, or as wide as the longest candidate name (link candidates').
static int nameWidth(const TUDecision &D) {
  size_t W = 31;
  for (const CandidateReport &C : D.Candidates)
    W = std::max(W, C.Name.size());
  return int(W);
}

static void printRow(raw_ostream &OS, int Width, StringRef Name, StringRef Value,
                     StringRef Versus, const ObjectSize *Size, double Millis, StringRef Outcome) {
  OS << format("  %-*s %10s %9s", Width, Name.str().c_str(), Value.str().c_str(),
               Versus.str().c_str());
  if (Size)
    OS << format(" %8llu %7llu %6llu %7llu %6llu", (unsigned long long)Size->CodeBytes,
                 (unsigned long long)Size->ReadOnlyBytes, (unsigned long long)Size->DataBytes,
                 (unsigned long long)Size->UnwindBytes, (unsigned long long)Size->BssBytes);
  else
    OS << format(" %8s %7s %6s %7s %6s", "-", "-", "-", "-", "-");
  OS << format(" %7.0f  %s\n", Millis, Outcome.str().c_str());
}

static std::string ruleInWords(const CandidateReport &C) {
  StringRef Rule = C.Rejected;
  if (Rule == "ram_growth")
    return "smaller, not shipped: its writable data (RAM) grows";
  if (Rule == "new_undefined_symbol")
    return "smaller, not shipped: it needs '" + C.NewUndefined + "', which clang's object does not";
  if (Rule == "new_plt_entry")
    return "smaller, not shipped: it calls '" + C.NewPLT + "'" +
           (C.NewPLTCount > 1 ? " (and " + std::to_string(C.NewPLTCount - 1) + " more)" : "") +
           " through the shared library's PLT where clang's object does not (an entry: " +
           std::to_string(PLTEntryBytes) + " bytes, 8 of them writable .got.plt)";
  if (Rule == "stack_size_warning")
    return "smaller, not shipped: its stack frame warnings (-Wframe-larger-than) would not be "
           "the ones clang printed";
  return "smaller, not shipped: trades code bytes for unwind tables";
}

// An agent sequence in words: each action's own description, in order.
static void printSequenceInWords(raw_ostream &OS, const CandidateReport &C) {
  Expected<ActionSpace> Space = loadActionSpaces(C.ActionSpace);
  SmallVector<StringRef, 8> Names;
  StringRef(C.Sequence).split(Names, ' ', -1, /*KeepEmpty=*/false);
  unsigned Step = 0;
  for (StringRef Name : Names) {
    int I = Space ? Space->indexOf(Name) : -1;
    OS << format("        %u. %s", ++Step, Name.str().c_str());
    if (I >= 0 && !Space->Actions[size_t(I)].Description.empty())
      OS << ": " << Space->Actions[size_t(I)].Description;
    OS << "\n";
  }
  if (!Space)
    consumeError(Space.takeError());
}

void printExplain(const TUDecision &D, raw_ostream &OS) {
  OS << "smartcc: " << D.Input << " -> " << D.Output << " (" << D.Target << ", -" << D.Level
     << ", metric " << metricName(D.SizeMetric) << "; changes: negative = smaller than clang)\n";
  const int Width = nameWidth(D);
  OS << format("  %-*s %10s %9s %8s %7s %6s %7s %6s %7s  %s\n", Width, "candidate",
               metricName(D.SizeMetric), "vs clang", "code", "rodata", "data", "unwind", "bss",
               "ms", "outcome");
  printRow(OS, Width, "clang -" + D.Level, std::to_string(D.BaselineValue), "",
           D.BaselineMeasured ? &D.Baseline : nullptr, D.BaselineMillis,
           D.Winner < 0 ? "shipped" : "");
  for (size_t I = 0; I < D.Candidates.size(); ++I) {
    const CandidateReport &C = D.Candidates[I];
    std::string Outcome = int(I) == D.Winner ? "shipped" : outcomeName(C.Result.Result);
    if (C.Result.Result == Outcome::Ok && int(I) != D.Winner)
      Outcome = C.Rejected                   ? ruleInWords(C)
                : C.Value < D.BaselineValue ? "smaller, not best"
                                            : "not smaller";
    // Why it failed, or for a measured one what it did (the function mix: what moved).
    if (C.Result.Message[0])
      Outcome += std::string(": ") + C.Result.Message;
    if (C.Result.Result == Outcome::Ok)
      printRow(OS, Width, C.Name, std::to_string(C.Value), relative(C.Value, D.BaselineValue),
               &C.Result.Object, C.Result.Millis, Outcome);
    else
      printRow(OS, Width, C.Name, "-", "-", nullptr, C.Result.Millis, Outcome);
  }
  if (!D.AgentModel.empty()) {
    OS << format("  agent %s, effort %u, %.2f ms:\n", D.AgentModel.c_str(), D.Effort,
                 D.AgentMillis);
    for (const CandidateReport &C : D.Candidates) {
      if (!C.Predicted)
        continue;
      // The model predicts 100*log(clang / candidate); shown as the change it means.
      double Predicted = (std::exp(-double(*C.Predicted) / 100.0) - 1.0) * 100.0;
      std::string Measured = "not measured";
      if (C.Result.Result == Outcome::Ok && D.BaselineValue)
        Measured = formatv("measured {0}%", format("%+.2f", changePercent(double(C.Value),
                                                                          double(D.BaselineValue))))
                       .str();
      OS << format("    %-10s predicted %+.2f%%, %s:\n", C.Name.c_str(), Predicted,
                   Measured.c_str());
      printSequenceInWords(OS, C);
    }
  }
  if (!D.AgentNote.empty()) // why it did not serve, or what it decided to skip
    OS << "  agent: " << D.AgentNote << "\n";
  if (!D.InlinerModel.empty())
    OS << "  inliner: " << D.InlinerModel << " in every candidate\n";
  else if (!D.InlinerNote.empty())
    OS << "  inliner: " << D.InlinerNote << "\n";
  if (!D.RegAllocModel.empty()) {
    OS << "  regalloc: " << D.RegAllocModel;
    for (const CandidateReport &C : D.Candidates)
      if (C.Result.RegAllocRanges)
        OS << format(", %u of %u priorities changed in %s (%u of %u functions with spill cost "
                     "allocated by the policy%s)",
                     C.Result.RegAllocChanged, C.Result.RegAllocRanges, C.Name.c_str(),
                     C.Result.RegAllocFunctionsChanged, C.Result.RegAllocFunctions,
                     C.Result.RegAllocEvictions
                         ? (", " + std::to_string(C.Result.RegAllocEvictions) +
                            " evictions decided by it")
                               .c_str()
                         : "");
    OS << "\n";
  } else if (!D.RegAllocNote.empty()) {
    OS << "  regalloc: " << D.RegAllocNote << "\n";
  }
  if (!D.BudgetNote.empty())
    OS << "  budget: " << D.BudgetNote << "\n";
  if (!D.MixNote.empty())
    OS << "  function mix: " << D.MixNote << "\n";
  if (D.LargeLink)
    OS << format("  large link: %.0f KiB of bitcode; the replaying candidates first\n",
                 D.InputBitcodeBytes / 1024.0);
  if (D.OutlinerFirst)
    OS << "  -Os program (no minsize function, LTO outlines nothing): the outliner's "
          "candidates first\n";
  if (!D.ReplayOutcome.empty()) {
    std::string Replayed;
    for (const CandidateReport &C : D.Candidates)
      if (C.Replayed)
        Replayed += (Replayed.empty() ? "" : ", ") + C.Name;
    OS << format("  replay: the program optimized once (%s, %.0f ms)", D.ReplayOutcome.c_str(),
                 D.ReplayMillis);
    if (!D.ReplayNote.empty())
      OS << ": " << D.ReplayNote;
    OS << "; replayed by " << (Replayed.empty() ? "none" : Replayed) << "\n";
  }
  if (D.Winner < 0)
    OS << "  kept clang's output: " << D.KeptReason << "\n";
  if (!D.Note.empty())
    OS << "  note: " << D.Note << "\n";
}

// Every size of an object, each class by name (the log's readers need no other source).
static void addSizes(json::Object &O, const ObjectSize &S) {
  O["image_bytes"] = int64_t(S.imageBytes());
  O["fdes"] = int64_t(S.FDEs);
  O["code_bytes"] = int64_t(S.CodeBytes);
  O["rodata_bytes"] = int64_t(S.ReadOnlyBytes);
  O["data_bytes"] = int64_t(S.DataBytes);
  O["unwind_bytes"] = int64_t(S.UnwindBytes);
  O["bss_bytes"] = int64_t(S.BssBytes);
  O["alloc_bytes"] = int64_t(S.AllocBytes);
  O["text_bytes"] = int64_t(S.TextBytes);
  O["file_bytes"] = int64_t(S.FileBytes);
}

void printVerbose(const TUDecision &D, raw_ostream &OS) {
  const bool Link = D.Kind == "link";
  const std::string Noun = Link ? "link candidate" : "candidate";
  for (const CandidateReport &C : D.Candidates)
    if (C.Result.Result != Outcome::Ok)
      OS << "smartcc: " << Noun << " '" << C.Name << "' discarded ("
         << outcomeName(C.Result.Result) << "): " << C.Result.Message << "\n";
  OS << "smartcc: " << (Link ? D.Output : D.Input) << ": shipped "
     << (D.Winner >= 0 ? Noun + " '" + D.Candidates[D.Winner].Name + "'"
                       : "clang's -" + D.Level + (Link ? " link (" : " output (") +
                             D.KeptReason + ")")
     << "\n";
  if (!D.Note.empty())
    OS << "smartcc: note: " << D.Note << "\n";
}

std::string toJSONLine(const TUDecision &D) {
  json::Array Cands;
  for (const CandidateReport &C : D.Candidates) {
    json::Object O{{"name", C.Name},
                   {"outcome", outcomeName(C.Result.Result)},
                   {"ms", C.Result.Millis},
                   {"ir_before", int64_t(C.Result.IRBefore)},
                   {"ir_after", int64_t(C.Result.IRAfter)}};
    if (C.Result.Result == Outcome::Ok) {
      O["value"] = int64_t(C.Value);
      addSizes(O, C.Result.Object);
    }
    if (C.Rejected)
      O["rejected"] = C.Rejected;
    if (!C.NewUndefined.empty())
      O["new_undefined"] = C.NewUndefined;
    if (C.NewPLTCount) {
      O["new_plt"] = C.NewPLT;
      O["new_plt_count"] = int64_t(C.NewPLTCount);
    }
    if (C.Result.Result == Outcome::Ok)
      O["regalloc_cost"] = C.Result.RegAllocCost;
    if (C.Result.RegAllocRanges) {
      O["priorities_changed"] = int64_t(C.Result.RegAllocChanged);
      O["evictions_decided"] = int64_t(C.Result.RegAllocEvictions);
      O["functions_changed"] = int64_t(C.Result.RegAllocFunctionsChanged);
      O["functions_with_cost"] = int64_t(C.Result.RegAllocFunctions);
      O["regalloc_codegens"] = int64_t(C.Result.RegAllocCodegens);
    }
    if (C.Result.Message[0])
      O["message"] = C.Result.Message;
    if (C.Replayed)
      O["replayed"] = true;
    if (C.Predicted) {
      O["sequence"] = C.Sequence;
      O["predicted_percent"] = double(*C.Predicted);
    }
    Cands.push_back(std::move(O));
  }
  json::Object Baseline{{"value", int64_t(D.BaselineValue)}, {"ms", D.BaselineMillis}};
  addSizes(Baseline, D.Baseline);
  json::Object Line{
      {"directory", D.Directory},
      {"input", D.Input},
      {"output", D.Output},
      {"target", D.Target},
      {"level", D.Level},
      {"metric", metricName(D.SizeMetric)},
      {"baseline", std::move(Baseline)},
      {"candidates", std::move(Cands)},
      {"chosen", D.Winner >= 0 ? D.Candidates[D.Winner].Name : std::string("baseline")},
      {"shipped_value", int64_t(D.shippedValue())},
      {"saved", int64_t(D.BaselineValue) - int64_t(D.shippedValue())}};
  if (D.Winner < 0)
    Line["kept_reason"] = D.KeptReason;
  if (D.Kind != "tu") // a TU's line has no kind, as before links were owned
    Line["kind"] = D.Kind;
  if (!D.Note.empty())
    Line["note"] = D.Note;
  if (D.TotalMillis > 0)
    Line["total_ms"] = D.TotalMillis;
  if (!D.AgentModel.empty()) {
    json::Object Agent{{"model", D.AgentModel}, {"effort", int64_t(D.Effort)},
                       {"ms", D.AgentMillis}, {"cpu_ms", D.AgentCpuMillis}};
    if (!D.AgentFeatures.empty()) {
      Agent["features"] = json::Array(D.AgentFeatures);
      Agent["modules"] = int64_t(D.AgentModules);
    }
    Line["agent"] = std::move(Agent);
  }
  if (!D.InlinerModel.empty())
    Line["inliner"] = D.InlinerModel;
  if (!D.RegAllocModel.empty())
    Line["regalloc"] = D.RegAllocModel;
  if (!D.BudgetNote.empty())
    Line["budget"] = D.BudgetNote;
  if (D.Kind == "link") {
    Line["input_bitcode_bytes"] = int64_t(D.InputBitcodeBytes);
    Line["large_link"] = D.LargeLink;
    if (D.OutlinerFirst)
      Line["outliner_first"] = true;
    if (D.WholeProgram)
      Line["whole_program"] = true;
  }
  if (!D.ReplayOutcome.empty()) {
    json::Object Replay{{"outcome", D.ReplayOutcome}, {"ms", D.ReplayMillis}};
    if (!D.ReplayNote.empty())
      Replay["message"] = D.ReplayNote;
    Line["replay"] = std::move(Replay);
  }
  std::string S;
  raw_string_ostream(S) << json::Value(std::move(Line)) << "\n";
  return S;
}

Counters statsDelta(const TUDecision &D) {
  Counters C{{D.Kind + ".optimized", 1}};
  if (D.Winner >= 0)
    C[D.Kind + ".won"] = 1;
  else
    C[D.Kind + ".kept." + D.KeptReason] = 1;
  if (D.WholeProgram) {
    C["link.whole_program.optimized"] = 1;
    if (D.Winner >= 0)
      C["link.whole_program.won"] = 1;
  }
  // A link's counters are its own: "link.bytes.saved", "link.image.code.shipped", ...
  const std::string Pre = D.Kind == "tu" ? "" : D.Kind + ".";
  // Counters in the metric's unit: bytes, or thousandths of spill cost at -O1..-O3.
  const std::string Unit =
      Pre + (D.SizeMetric == Metric::RegAllocCost ? "regalloc_cost_milli." : "bytes.");
  if (D.BaselineMeasured) {
    C[Unit + "baseline"] = int64_t(D.BaselineValue);
    C[Unit + "shipped"] = int64_t(D.shippedValue());
    C[Unit + "saved"] = int64_t(D.BaselineValue) - int64_t(D.shippedValue());
    // What the image carries, by section class, whatever the metric: the user's summary.
    // With the IR metric or -S the baseline is the replica's object, measured the same way.
    const ObjectSize &Base = D.Baseline, &Ship = D.shippedObject();
    for (auto [Class, B, S] : {std::tuple{"code", Base.CodeBytes, Ship.CodeBytes},
                               {"rodata", Base.ReadOnlyBytes, Ship.ReadOnlyBytes},
                               {"data", Base.DataBytes, Ship.DataBytes},
                               {"unwind", Base.UnwindBytes, Ship.UnwindBytes},
                               {"bss", Base.BssBytes, Ship.BssBytes}}) {
      C[Pre + "image." + Class + ".baseline"] = int64_t(B);
      C[Pre + "image." + Class + ".shipped"] = int64_t(S);
    }
  }
  if (!D.AgentModel.empty()) {
    C["agent.served"] = 1;
    if (D.Winner >= 0 && D.Candidates[D.Winner].Predicted)
      C["agent.won"] = 1;
  }
  for (const CandidateReport &R : D.Candidates) {
    if (R.Result.Result == Outcome::NotRun)
      continue;
    C[Pre + "candidate.evaluated"] += 1;
    if (R.Result.Result != Outcome::Ok)
      C[Pre + "candidate.discarded." + outcomeName(R.Result.Result)] += 1;
    if (R.Rejected)
      C[Pre + "candidate.rejected." + R.Rejected] += 1;
    if (R.Replayed)
      C[Pre + "candidate.replayed"] += 1;
  }
  // Links: how the one optimization of the program for replaying candidates went.
  if (!D.ReplayOutcome.empty())
    C[Pre + "replay." + D.ReplayOutcome] = 1;
  return C;
}

} // namespace smartcc
