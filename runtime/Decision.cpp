#include "runtime/Decision.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace smartcc {

void chooseWinner(TUDecision &D) {
  D.Winner = -1;
  if (!D.BaselineMeasured) {
    D.KeptReason = "baseline_unmeasured";
    return;
  }
  bool AnyOk = false;
  uint64_t Best = D.BaselineValue;
  for (size_t I = 0; I < D.Candidates.size(); ++I) {
    const CandidateReport &C = D.Candidates[I];
    if (C.Result.Result != Outcome::Ok)
      continue;
    AnyOk = true;
    if (C.Value < Best) { // strictly smaller; the first in list order wins a tie among candidates
      Best = C.Value;
      D.Winner = int(I);
    }
  }
  if (D.Winner < 0)
    D.KeptReason = D.Candidates.empty() ? "no_candidates" : AnyOk ? "no_smaller" : "all_failed";
}

static std::string relative(uint64_t Value, uint64_t Baseline) {
  if (!Baseline)
    return "-";
  double Pct = (double(Value) - double(Baseline)) * 100.0 / double(Baseline);
  std::string S;
  raw_string_ostream(S) << format("%+.2f%%", Pct);
  return S;
}

void printExplain(const TUDecision &D, raw_ostream &OS) {
  OS << "smartcc: " << D.Input << " -> " << D.Output << " (" << D.Target << ", -" << D.Level
     << ", metric " << metricName(D.SizeMetric) << ")\n";
  OS << format("  %-30s %12s %9s %9s  %s\n", "candidate", metricName(D.SizeMetric), "vs clang",
               "ms", "outcome");
  OS << format("  %-30s %12llu %9s %9.0f  %s\n", ("clang -" + D.Level).c_str(),
               (unsigned long long)D.BaselineValue, "", D.BaselineMillis,
               D.Winner < 0 ? "shipped" : "");
  for (size_t I = 0; I < D.Candidates.size(); ++I) {
    const CandidateReport &C = D.Candidates[I];
    std::string Outcome = int(I) == D.Winner ? "shipped" : outcomeName(C.Result.Result);
    if (C.Result.Result == Outcome::Ok && int(I) != D.Winner)
      Outcome = C.Value < D.BaselineValue ? "smaller, not best" : "not smaller";
    if (C.Result.Result != Outcome::Ok && C.Result.Message[0])
      Outcome += std::string(": ") + C.Result.Message;
    if (C.Result.Result == Outcome::Ok)
      OS << format("  %-30s %12llu %9s %9.0f  %s\n", C.Name.c_str(), (unsigned long long)C.Value,
                   relative(C.Value, D.BaselineValue).c_str(), C.Result.Millis, Outcome.c_str());
    else
      OS << format("  %-30s %12s %9s %9.0f  %s\n", C.Name.c_str(), "-", "-", C.Result.Millis,
                   Outcome.c_str());
  }
  if (!D.AgentModel.empty()) {
    OS << format("  agent %s, effort %u, %.2f ms:\n", D.AgentModel.c_str(), D.Effort,
                 D.AgentMillis);
    for (const CandidateReport &C : D.Candidates) {
      if (!C.Predicted)
        continue;
      std::string Measured = "not measured";
      if (C.Result.Result == Outcome::Ok && D.BaselineValue && C.Value)
        Measured = formatv("measured {0}%", format("%+.2f", 100.0 * std::log(double(
                                                             D.BaselineValue) / double(C.Value))))
                       .str();
      OS << format("    %-10s predicted %+.2f%%, %s: %s\n", C.Name.c_str(), *C.Predicted,
                   Measured.c_str(), C.Sequence.c_str());
    }
  } else if (!D.AgentNote.empty()) {
    OS << "  agent: " << D.AgentNote << "\n";
  }
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
  if (D.Winner < 0)
    OS << "  kept clang's output: " << D.KeptReason << "\n";
  if (!D.Note.empty())
    OS << "  note: " << D.Note << "\n";
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
      O["alloc_bytes"] = int64_t(C.Result.Object.AllocBytes);
      O["text_bytes"] = int64_t(C.Result.Object.TextBytes);
      O["file_bytes"] = int64_t(C.Result.Object.FileBytes);
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
    if (C.Predicted) {
      O["sequence"] = C.Sequence;
      O["predicted_percent"] = double(*C.Predicted);
    }
    Cands.push_back(std::move(O));
  }
  json::Object Line{
      {"directory", D.Directory},
      {"input", D.Input},
      {"output", D.Output},
      {"target", D.Target},
      {"level", D.Level},
      {"metric", metricName(D.SizeMetric)},
      {"baseline",
       json::Object{{"value", int64_t(D.BaselineValue)},
                    {"alloc_bytes", int64_t(D.Baseline.AllocBytes)},
                    {"text_bytes", int64_t(D.Baseline.TextBytes)},
                    {"file_bytes", int64_t(D.Baseline.FileBytes)},
                    {"ms", D.BaselineMillis}}},
      {"candidates", std::move(Cands)},
      {"chosen", D.Winner >= 0 ? D.Candidates[D.Winner].Name : std::string("baseline")},
      {"shipped_value", int64_t(D.shippedValue())},
      {"saved", int64_t(D.BaselineValue) - int64_t(D.shippedValue())}};
  if (D.Winner < 0)
    Line["kept_reason"] = D.KeptReason;
  if (!D.Note.empty())
    Line["note"] = D.Note;
  if (!D.AgentModel.empty())
    Line["agent"] = json::Object{{"model", D.AgentModel}, {"effort", int64_t(D.Effort)},
                                 {"ms", D.AgentMillis}, {"cpu_ms", D.AgentCpuMillis}};
  if (!D.InlinerModel.empty())
    Line["inliner"] = D.InlinerModel;
  if (!D.RegAllocModel.empty())
    Line["regalloc"] = D.RegAllocModel;
  if (!D.BudgetNote.empty())
    Line["budget"] = D.BudgetNote;
  std::string S;
  raw_string_ostream(S) << json::Value(std::move(Line)) << "\n";
  return S;
}

Counters statsDelta(const TUDecision &D) {
  Counters C{{"tu.optimized", 1}};
  if (D.Winner >= 0)
    C["tu.won"] = 1;
  else
    C["tu.kept." + D.KeptReason] = 1;
  // Counters in the metric's unit: bytes, or thousandths of spill cost at -O1..-O3.
  const std::string Unit = D.SizeMetric == Metric::RegAllocCost ? "regalloc_cost_milli." : "bytes.";
  if (D.BaselineMeasured) {
    C[Unit + "baseline"] = int64_t(D.BaselineValue);
    C[Unit + "shipped"] = int64_t(D.shippedValue());
    C[Unit + "saved"] = int64_t(D.BaselineValue) - int64_t(D.shippedValue());
  }
  if (!D.AgentModel.empty()) {
    C["agent.served"] = 1;
    if (D.Winner >= 0 && D.Candidates[D.Winner].Predicted)
      C["agent.won"] = 1;
  }
  for (const CandidateReport &R : D.Candidates) {
    if (R.Result.Result == Outcome::NotRun)
      continue;
    C["candidate.evaluated"] += 1;
    if (R.Result.Result != Outcome::Ok)
      C[std::string("candidate.discarded.") + outcomeName(R.Result.Result)] += 1;
  }
  return C;
}

} // namespace smartcc
