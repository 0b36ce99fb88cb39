#include "EvalReport.h"
#include "policies/RankCorrelation.h"
#include "runtime/measure/RegAllocCost.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace smartcc {

json::Value toJSON(const EvalRow &R) {
  json::Array Proposals;
  for (const auto &[Predicted, Bytes] : R.Proposals)
    Proposals.push_back(json::Array{Predicted, int64_t(Bytes)});
  json::Object O{{"module", R.Module},         {"package", R.Package},
                      {"method", R.Method},         {"target", R.Target},
                      {"ir", int64_t(R.IR)},        {"bytes", int64_t(R.Bytes)},
                      {"clang_ir", int64_t(R.ClangIR)}, {"clang_bytes", int64_t(R.ClangBytes)},
                      {"seconds", R.Seconds},       {"clang_seconds", R.ClangSeconds},
                      {"failed", R.Failed},         {"error", R.Error},
                      {"sequence", R.Sequence}, {"cost", R.Cost},
                      {"head_cost", R.HeadCost},    {"clang_cost", R.ClangCost},
                      {"rejected", int64_t(R.Rejected)}, {"rejection", R.Rejection},
                      {"inline_decisions", int64_t(R.InlineDecisions)},
                      {"inline_changed", int64_t(R.InlineChanged)},
                      {"codegens", int64_t(R.Codegens)}};
  if (!Proposals.empty())
    O["proposals"] = std::move(Proposals);
  if (R.Rounds) {
    O["rounds"] = int64_t(R.Rounds);
    O["improvements"] = int64_t(R.Improvements);
    O["composed"] = R.Composed;
  }
  return O;
}

bool fromJSON(const json::Value &V, EvalRow &R) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  R.Module = O->getString("module").value_or("").str();
  R.Package = O->getString("package").value_or("").str();
  R.Method = O->getString("method").value_or("").str();
  R.Target = O->getString("target").value_or("").str();
  R.IR = uint64_t(O->getInteger("ir").value_or(0));
  R.Bytes = uint64_t(O->getInteger("bytes").value_or(0));
  R.ClangIR = uint64_t(O->getInteger("clang_ir").value_or(0));
  R.ClangBytes = uint64_t(O->getInteger("clang_bytes").value_or(0));
  R.Seconds = O->getNumber("seconds").value_or(0);
  R.ClangSeconds = O->getNumber("clang_seconds").value_or(0);
  R.Failed = O->getBoolean("failed").value_or(false);
  R.Error = O->getString("error").value_or("").str();
  R.Sequence = O->getString("sequence").value_or("").str();
  R.Cost = O->getNumber("cost").value_or(-1);
  R.HeadCost = O->getNumber("head_cost").value_or(-1);
  R.ClangCost = O->getNumber("clang_cost").value_or(-1);
  R.Rejected = uint64_t(O->getInteger("rejected").value_or(0));
  R.Rejection = O->getString("rejection").value_or("").str();
  R.InlineDecisions = uint64_t(O->getInteger("inline_decisions").value_or(0));
  R.InlineChanged = uint64_t(O->getInteger("inline_changed").value_or(0));
  R.Codegens = unsigned(O->getInteger("codegens").value_or(0));
  R.Rounds = unsigned(O->getInteger("rounds").value_or(0));
  R.Improvements = unsigned(O->getInteger("improvements").value_or(0));
  R.Composed = O->getBoolean("composed").value_or(false);
  if (const json::Array *P = O->getArray("proposals"))
    for (const json::Value &X : *P)
      if (const json::Array *Pair = X.getAsArray(); Pair && Pair->size() == 2)
        R.Proposals.push_back({(*Pair)[0].getAsNumber().value_or(0),
                               uint64_t((*Pair)[1].getAsInteger().value_or(0))});
  return true;
}

namespace {

struct Summary {
  double LogIR = 0, LogBytes = 0, LogShipped = 0, MinIR = 1e9, MaxIR = 0, MinB = 1e9, MaxB = 0;
  double Seconds = 0, ClangSeconds = 0;
  unsigned N = 0, Failed = 0, Smaller = 0, Larger = 0, Empty = 0;
  void add(const EvalRow &R) {
    if (!R.Failed && !R.ClangIR && !R.IR) { // nothing left after optimization: no ratio
      ++Empty;
      return;
    }
    if (R.Failed || !R.IR || !R.Bytes) {
      ++Failed;
      return;
    }
    double RI = double(R.ClangIR) / double(R.IR), RB = double(R.ClangBytes) / double(R.Bytes);
    LogIR += std::log(RI);
    LogBytes += std::log(RB);
    LogShipped += std::log(std::max(1.0, RB)); // what smartcc ships: -Oz where the method loses
    MinIR = std::min(MinIR, RI), MaxIR = std::max(MaxIR, RI);
    MinB = std::min(MinB, RB), MaxB = std::max(MaxB, RB);
    Seconds += R.Seconds, ClangSeconds += R.ClangSeconds;
    Smaller += R.Bytes < R.ClangBytes;
    Larger += R.Bytes > R.ClangBytes;
    ++N;
  }
  double geoIR() const { return N ? std::exp(LogIR / N) : 0; }
  double geoBytes() const { return N ? std::exp(LogBytes / N) : 0; }
  double geoShipped() const { return N ? std::exp(LogShipped / N) : 0; }
};

// The register-allocation rows: cost as a multiple of greedy's (below 1 = cheaper), over the
// modules where greedy spills, reloads or copies anything, as RegAllocCost::ratio (one spill
// in the entry block added to both sides, as in the trainer's reward).
void writeRegAllocCosts(const std::vector<EvalRow> &Rows, raw_ostream &OS) {
  struct CostSummary {
    double LogCost = 0, LogHead = 0, LogBytes = 0, Seconds = 0, ClangSeconds = 0;
    unsigned N = 0, Cheaper = 0, Costlier = 0, HeadCheaper = 0, HeadCostlier = 0, Free = 0;
  };
  std::map<std::string, CostSummary> ByMethod;
  for (const EvalRow &R : Rows) {
    if (R.Failed || R.ClangCost < 0 || R.Cost < 0)
      continue;
    CostSummary &S = ByMethod[R.Method];
    if (R.ClangCost <= 0) {
      ++S.Free;
      continue;
    }
    double Head = R.HeadCost < 0 ? R.ClangCost : R.HeadCost;
    S.LogCost += std::log(RegAllocCost::ratio(R.Cost, R.ClangCost));
    S.LogHead += std::log(RegAllocCost::ratio(Head, R.ClangCost));
    S.LogBytes += std::log(double(std::max<uint64_t>(R.Bytes, 1)) /
                           double(std::max<uint64_t>(R.ClangBytes, 1)));
    S.Cheaper += R.Cost < R.ClangCost, S.Costlier += R.Cost > R.ClangCost;
    S.HeadCheaper += Head < R.ClangCost, S.HeadCostlier += Head > R.ClangCost;
    S.Seconds += R.Seconds, S.ClangSeconds += R.ClangSeconds;
    ++S.N;
  }
  if (ByMethod.empty())
    return;
  OS << "\n## Register allocation: spill cost x greedy's (below 1 = cheaper)\n\n"
     << "Frequency-weighted spills + reloads + 0.2 copies, as the greedy allocator reports them, "
        "over modules where greedy's cost is above 0; bytes and time are x greedy's too "
        "(clang's middle-end once, then the method's codegens / greedy's one).\n\n"
     << "| method | modules | cost, per-function choice | cheaper / costlier | policy heads alone "
        "(before fallback) | cheaper / costlier | bytes | time | modules without spills |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto &[Method, S] : ByMethod)
    OS << format("| %s | %u | %.4f | %u / %u | %.4f | %u / %u | %.4f | %.2f | %u |\n",
                 Method.c_str(), S.N, S.N ? std::exp(S.LogCost / S.N) : 1.0, S.Cheaper,
                 S.Costlier, S.N ? std::exp(S.LogHead / S.N) : 1.0, S.HeadCheaper,
                 S.HeadCostlier, S.N ? std::exp(S.LogBytes / S.N) : 1.0,
                 S.ClangSeconds > 0 ? S.Seconds / S.ClangSeconds : 0.0, S.Free);
}

// The ML inliner's rows: how many call sites its advisor decided and how many of its answers
// differ from LLVM's heuristic (what MLGO reports as the policy's reach).
void writeInlinerDecisions(const std::vector<EvalRow> &Rows, raw_ostream &OS) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> ByMethod; // decisions, changed
  std::map<std::string, unsigned> Modules, Touched;
  for (const EvalRow &R : Rows)
    if (!R.Failed && R.InlineDecisions) {
      ByMethod[R.Method].first += R.InlineDecisions;
      ByMethod[R.Method].second += R.InlineChanged;
      ++Modules[R.Method];
      Touched[R.Method] += R.InlineChanged > 0;
    }
  if (ByMethod.empty())
    return;
  OS << "\n## ML inliner: decisions that differ from LLVM's heuristic\n\n"
     << "| method | modules | call sites decided | changed | modules with a change |\n"
        "|---|---|---|---|---|\n";
  for (const auto &[Method, D] : ByMethod)
    OS << format("| %s | %u | %llu | %llu (%.2f %%) | %u |\n", Method.c_str(), Modules[Method],
                 (unsigned long long)D.first, (unsigned long long)D.second,
                 D.first ? 100.0 * double(D.second) / double(D.first) : 0.0, Touched[Method]);
}

// Agent rows with measured proposals: does the model's first choice measure best, do its
// predictions order the proposals as they measure, and what does the TU lose against the best
// proposal (issue 21: calibration and regret as figures of the evaluation itself).
void writeCalibration(const std::vector<EvalRow> &Rows, raw_ostream &OS) {
  struct Fig {
    unsigned N = 0, Correct = 0, RhoRows = 0;
    double Rho = 0, Regret = 0;
  };
  std::map<std::string, Fig> ByMethod;
  for (const EvalRow &R : Rows) {
    if (R.Failed || R.Proposals.empty() || !R.ClangBytes || !R.Bytes)
      continue;
    Fig &F = ByMethod[R.Method];
    uint64_t Oracle = std::min(R.ClangBytes, R.Bytes);
    std::vector<double> Predicted, Measured;
    for (const auto &[P, B] : R.Proposals)
      if (B) {
        Oracle = std::min(Oracle, B);
        Predicted.push_back(P);
        Measured.push_back(std::log(double(R.ClangBytes) / double(B)));
      }
    uint64_t First = R.Proposals[0].second ? std::min(R.Proposals[0].second, R.ClangBytes)
                                           : R.ClangBytes;
    ++F.N;
    F.Correct += First == Oracle;
    F.Regret += 100.0 * std::log(double(R.Bytes) / double(Oracle));
    if (Measured.size() >= 3 &&
        llvm::any_of(Measured, [&](double V) { return V != Measured[0]; })) {
      F.Rho += spearman(Predicted, Measured);
      ++F.RhoRows;
    }
  }
  if (ByMethod.empty())
    return;
  OS << "\n## Agent calibration (its proposals, each measured)\n\n"
     << "Top-1 accuracy: the model's first choice measures best among clang -Oz and the "
        "proposals compiled. Spearman: predicted vs measured gains over the proposals, mean over "
        "modules with three or more that differ. Regret: 100 log(shipped / best proposal or "
        "clang), mean. At effort 2 the proposals are the whole core set.\n\n"
     << "| method | modules | top-1 accuracy | Spearman (modules) | mean regret % |\n"
        "|---|---|---|---|---|\n";
  for (const auto &[Method, F] : ByMethod)
    OS << format("| %s | %u | %.2f | %.2f (%u) | %.2f |\n", Method.c_str(), F.N,
                 double(F.Correct) / double(F.N), F.RhoRows ? F.Rho / double(F.RhoRows) : 0.0,
                 F.RhoRows, F.Regret / double(F.N));
}

// Guided-search rows: how far the search went and how often what it shipped is a composition
// of sequences (an earlier best continued), which no core-set member is.
void writeGuidedSearch(const std::vector<EvalRow> &Rows, raw_ostream &OS) {
  struct Fig {
    unsigned N = 0, Rounds = 0, Improvements = 0, Composed = 0, BeatClang = 0;
  };
  std::map<std::string, Fig> ByMethod;
  for (const EvalRow &R : Rows) {
    if (R.Failed || !R.Rounds)
      continue;
    Fig &F = ByMethod[R.Method];
    ++F.N;
    F.Rounds += R.Rounds, F.Improvements += R.Improvements;
    F.Composed += R.Composed;
    F.BeatClang += R.Bytes < R.ClangBytes;
  }
  if (ByMethod.empty())
    return;
  OS << "\n## Guided search\n\n"
     << "Rounds: batches compiled, mean per module. Improvements: rounds that found a smaller "
        "state, mean. Composed: modules whose result continues an earlier best (a sequence "
        "outside the core set).\n\n"
     << "| method | modules | rounds | improvements | composed | smaller than -Oz |\n"
        "|---|---|---|---|---|---|\n";
  for (const auto &[Method, F] : ByMethod)
    OS << format("| %s | %u | %.2f | %.2f | %u | %u |\n", Method.c_str(), F.N,
                 double(F.Rounds) / F.N, double(F.Improvements) / F.N, F.Composed, F.BeatClang);
}

} // namespace

void writeMarkdown(const std::vector<EvalRow> &Rows, const std::string &Title, raw_ostream &OS,
                   const std::string &Provenance) {
  std::map<std::string, Summary> ByMethod;
  std::map<std::pair<std::string, std::string>, Summary> ByPackage;
  for (const EvalRow &R : Rows) {
    ByMethod[R.Method].add(R);
    ByPackage[{R.Method, R.Package}].add(R);
  }
  OS << "# " << Title << "\n\n";
  if (!Provenance.empty())
    OS << Provenance << "\n\n";
  OS << "Ratios are clang-22 -Oz / method (above 1.000 = smaller than clang -Oz), geometric "
        "means over modules, [min, max] in brackets. Bytes are image bytes (file-backed allocated "
        "sections: .bss is RAM, not image); "
        "\"never worse\" keeps -Oz's object where the method's is larger, as smartcc does.\n\n"
     << "| method | modules | bytes geomean [min, max] | bytes, never worse | IR geomean "
        "[min, max] | smaller / larger than -Oz | time / -Oz | failed |\n"
        "|---|---|---|---|---|---|---|---|\n";
  for (const auto &[Method, S] : ByMethod)
    if (!S.N)
      OS << "| " << Method << " | 0 | - | - | - | - | - | " << S.Failed << " |\n";
    else
      OS << format("| %s | %u | %.4f [%.3f, %.3f] | %.4f | %.4f [%.3f, %.3f] | %u / %u | %.2f | "
                   "%u |\n",
                   Method.c_str(), S.N, S.geoBytes(), S.MinB, S.MaxB, S.geoShipped(), S.geoIR(),
                   S.MinIR, S.MaxIR,
                 S.Smaller, S.Larger, S.ClangSeconds > 0 ? S.Seconds / S.ClangSeconds : 0.0,
                 S.Failed);
  // Searches contain every sequence they try; say how many were thrown out, and one of them.
  std::map<std::string, std::pair<uint64_t, unsigned>> Rejected; // sequences, modules
  std::string AnyRejection;
  for (const EvalRow &R : Rows)
    if (R.Rejected) {
      Rejected[R.Method].first += R.Rejected;
      ++Rejected[R.Method].second;
      if (AnyRejection.empty())
        AnyRejection = R.Module + " " + R.Rejection;
    }
  for (const auto &[Method, N] : Rejected)
    OS << "\n" << Method << ": " << N.first << " sequence(s) in " << N.second
       << " module(s) crashed LLVM, failed or timed out; they were rejected and the search went "
          "on.";
  if (!AnyRejection.empty())
    OS << " For example " << AnyRejection << "\n";
  // How the gain is spread over translation units (never worse: -Oz where the method loses).
  for (const auto &[Method, S] : ByMethod)
    if (S.Empty) {
      OS << "\n" << S.Empty << " module(s) with no code left after -Oz are not counted.\n";
      break;
    }
  OS << "\n## Distribution over modules (bytes, never worse)\n\n| method | improved | > 0.5 % | "
        "> 2 % | > 5 % | median gain of improved | best |\n|---|---|---|---|---|---|---|\n";
  std::map<std::string, std::vector<double>> Gains;
  for (const EvalRow &R : Rows)
    if (!R.Failed && R.Bytes && R.ClangBytes && (R.IR || R.ClangIR))
      Gains[R.Method].push_back(std::max(0.0, 1.0 - double(R.Bytes) / double(R.ClangBytes)));
  for (auto &[Method, G] : Gains) {
    std::sort(G.begin(), G.end());
    std::vector<double> Improved;
    for (double X : G)
      if (X > 0)
        Improved.push_back(X);
    auto Share = [&](double T) {
      return 100.0 * double(llvm::count_if(G, [&](double X) { return X > T; })) / double(G.size());
    };
    OS << format("| %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %.2f %% | %.2f %% |\n",
                 Method.c_str(), Share(0.0), Share(0.005), Share(0.02), Share(0.05),
                 Improved.empty() ? 0.0 : 100.0 * Improved[Improved.size() / 2],
                 G.empty() ? 0.0 : 100.0 * G.back());
  }
  writeRegAllocCosts(Rows, OS);
  writeInlinerDecisions(Rows, OS);
  writeCalibration(Rows, OS);
  writeGuidedSearch(Rows, OS);
  OS << "\n## Per package\n\n| method | package | modules | bytes geomean | IR geomean |\n"
        "|---|---|---|---|---|\n";
  for (const auto &[Key, S] : ByPackage)
    OS << format("| %s | %s | %u | %.4f | %.4f |\n", Key.first.c_str(), Key.second.c_str(), S.N,
                 S.geoBytes(), S.geoIR());
}

namespace {

std::string escapeHTML(StringRef Text) {
  std::string Out;
  for (char C : Text)
    Out += C == '<' ? "&lt;" : C == '>' ? "&gt;" : C == '&' ? "&amp;" : std::string(1, C);
  return Out;
}

// The Markdown report as HTML: headings, paragraphs and real tables (a table is a run of lines
// starting with '|', its second line the separator).
void markdownToHTML(StringRef MD, raw_ostream &OS) {
  SmallVector<StringRef, 0> Lines;
  MD.split(Lines, '\n');
  auto Cells = [](StringRef Line) {
    SmallVector<StringRef, 8> Out;
    Line.trim().drop_front().drop_back().split(Out, '|');
    return Out;
  };
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    if (L.starts_with("|")) {
      OS << "<table><thead><tr>";
      for (StringRef C : Cells(L))
        OS << "<th>" << escapeHTML(C.trim()) << "</th>";
      OS << "</tr></thead><tbody>";
      for (I += 2; I < Lines.size() && Lines[I].starts_with("|"); ++I) {
        OS << "<tr>";
        for (StringRef C : Cells(Lines[I]))
          OS << "<td>" << escapeHTML(C.trim()) << "</td>";
        OS << "</tr>";
      }
      OS << "</tbody></table>\n";
      --I;
    } else if (L.consume_front("## ")) {
      OS << "<h2>" << escapeHTML(L) << "</h2>\n";
    } else if (L.consume_front("# ")) {
      continue; // the title is the page's <h1>
    } else if (!L.trim().empty()) {
      OS << "<p>" << escapeHTML(L) << "</p>\n";
    }
  }
}

} // namespace

void writeHTML(const std::vector<EvalRow> &Rows, const std::string &Title, raw_ostream &OS,
               const std::string &Provenance) {
  std::map<std::string, Summary> ByMethod;
  for (const EvalRow &R : Rows)
    ByMethod[R.Method].add(R);
  // One bar per method (bytes geomean) with its min-max range, like the papers' Figure 3.
  const int W = 720, RowH = 28, Left = 220, Plot = 440;
  double Lo = 1.0, Hi = 1.0;
  for (const auto &[M, S] : ByMethod)
    if (S.N)
      Lo = std::min(Lo, S.MinB), Hi = std::max(Hi, S.MaxB);
  Lo = std::min(Lo, 0.95), Hi = std::max(Hi, 1.05);
  auto X = [&](double V) { return Left + (V - Lo) / (Hi - Lo) * Plot; };
  int H = RowH * int(ByMethod.size()) + 70;
  OS << "<!doctype html><html><head><meta charset=\"utf-8\"><title>" << escapeHTML(Title)
     << "</title><style>body{font-family:sans-serif} table{border-collapse:collapse;"
        "margin:0.5em 0} th,td{border:1px solid #bbb;padding:2px 6px;text-align:right} "
        "th:first-child,td:first-child{text-align:left}</style></head><body><h1>"
     << escapeHTML(Title) << "</h1>"
     << "<p>Image bytes, clang-22 -Oz / method: the bar is the geomean over modules, the line "
        "its range; right of 1.00 = smaller than -Oz.</p>"
     << "<svg width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">";
  OS << format("<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>", X(1.0),
               X(1.0), H - 45);
  int Y = 20;
  for (const auto &[M, S] : ByMethod) {
    OS << format("<text x=\"5\" y=\"%d\" font-size=\"13\">%s</text>", Y + 14,
                 escapeHTML(M).c_str());
    if (S.N) {
      double G = S.geoBytes();
      OS << format("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>",
                   std::min(X(1.0), X(G)), Y, std::fabs(X(G) - X(1.0)),
                   G >= 1.0 ? "#4a8" : "#c55")
         << format("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>",
                   X(S.MinB), Y + 9, X(S.MaxB), Y + 9)
         << format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%.4f</text>", X(Hi) + 5, Y + 14,
                   G);
    }
    Y += RowH;
  }
  OS << format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%.2f</text>", X(Lo), H - 28, Lo)
     << format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\">1.00</text>", X(1.0) - 10, H - 28)
     << format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%.2f</text>", X(Hi) - 20, H - 28, Hi)
     << format("<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">image "
               "bytes, clang-22 -Oz / method (geomean over modules; &gt; 1 = smaller)</text>",
               X((Lo + Hi) / 2), H - 8)
     << "<text x=\"5\" y=\"12\" font-size=\"12\" font-weight=\"bold\">method</text>"
     << "</svg>\n";
  std::string MD;
  raw_string_ostream MOS(MD);
  writeMarkdown(Rows, Title, MOS, Provenance);
  markdownToHTML(MD, OS);
  OS << "</body></html>\n";
}

} // namespace smartcc
