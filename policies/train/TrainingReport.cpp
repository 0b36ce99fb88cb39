#include "policies/train/TrainingReport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace smartcc {

namespace {

using Series = std::vector<std::pair<double, double>>; // (step, value)

// One line chart; a moving average smooths noisy series (episode returns).
void plot(raw_ostream &OS, const std::string &Title, const Series &S, unsigned Smooth) {
  const int W = 640, H = 220, L = 60, R = 20, T = 30, B = 30;
  OS << "<h3>" << Title << "</h3>";
  if (S.empty()) {
    OS << "<p>(no data yet)</p>";
    return;
  }
  Series Y = S;
  if (Smooth > 1)
    for (size_t I = 0; I < S.size(); ++I) {
      double Sum = 0;
      size_t From = I + 1 >= Smooth ? I + 1 - Smooth : 0;
      for (size_t J = From; J <= I; ++J)
        Sum += S[J].second;
      Y[I].second = Sum / double(I + 1 - From);
    }
  double X0 = Y.front().first, X1 = std::max(Y.back().first, X0 + 1);
  double Lo = Y[0].second, Hi = Y[0].second;
  for (auto &P : Y)
    Lo = std::min(Lo, P.second), Hi = std::max(Hi, P.second);
  if (Hi - Lo < 1e-12)
    Hi = Lo + 1;
  auto PX = [&](double X) { return L + (X - X0) / (X1 - X0) * (W - L - R); };
  auto PY = [&](double V) { return T + (Hi - V) / (Hi - Lo) * (H - T - B); };
  OS << "<svg width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">"
     << format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>",
               L, T, W - L - R, H - T - B)
     << "<polyline fill=\"none\" stroke=\"#2a6\" stroke-width=\"1.5\" points=\"";
  for (auto &P : Y)
    OS << format("%.1f,%.1f ", PX(P.first), PY(P.second));
  OS << "\"/>"
     << format("<text x=\"2\" y=\"%d\" font-size=\"11\">%.4g</text>", T + 4, Hi)
     << format("<text x=\"2\" y=\"%d\" font-size=\"11\">%.4g</text>", H - B, Lo)
     << format("<text x=\"%d\" y=\"%d\" font-size=\"11\">step %.0f</text>", L, H - 8, X0)
     << format("<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">step %.0f</text>",
               W - R, H - 8, X1)
     << "</svg>";
}

} // namespace

Error writeTrainingReport(const std::string &RunDir) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(RunDir + "/metrics.jsonl");
  if (!Buf)
    return createStringError(Buf.getError(), "%s/metrics.jsonl: %s", RunDir.c_str(),
                             Buf.getError().message().c_str());
  std::map<std::string, Series> Curves;
  std::vector<double> Actions;
  std::vector<std::string> Names;
  std::string Trainer;
  unsigned Episodes = 0;
  for (StringRef Line : split((*Buf)->getBuffer(), '\n')) {
    Expected<json::Value> V = json::parse(Line);
    if (!V) {
      consumeError(V.takeError());
      continue;
    }
    const json::Object *O = V->getAsObject();
    if (!O)
      continue;
    ++Episodes;
    Trainer = O->getString("trainer").value_or("").str();
    double Step = double(O->getInteger("step").value_or(0));
    for (const char *K : {"return", "validation_geomean", "loss", "q_mean", "grad_norm"})
      if (std::optional<double> X = O->getNumber(K))
        Curves[K].push_back({Step, *X});
    // DQN logs each episode's counts, PPO the mean ratio of its rollout.
    if (std::optional<double> Ratio = O->getNumber("ir_ratio"))
      Curves["ir_ratio"].push_back({Step, *Ratio});
    else if (auto IR = O->getInteger("ir"), Clang = O->getInteger("clang_ir"); IR && Clang && *IR)
      Curves["ir_ratio"].push_back({Step, double(*Clang) / double(*IR)});
    if (const json::Array *A = O->getArray("actions")) { // histogram of the last 200 episodes
      if (Actions.size() != A->size() || Episodes % 200 == 1)
        Actions.assign(A->size(), 0.0);
      for (size_t I = 0; I < A->size(); ++I)
        Actions[I] += (*A)[I].getAsNumber().value_or(0);
    }
  }
  std::error_code EC;
  raw_fd_ostream OS(RunDir + "/report.html", EC);
  if (EC)
    return errorCodeToError(EC);
  OS << "<!doctype html><html><head><meta charset=\"utf-8\"><title>smartcc training: "
     << Trainer << "</title></head><body style=\"font-family:sans-serif\"><h1>" << Trainer
     << " training, " << Episodes << " episodes</h1>";
  plot(OS, "Validation: clang -Oz IR / policy IR (geomean, above 1 = better than -Oz)",
       Curves["validation_geomean"], 1);
  plot(OS, "Training episodes: clang -Oz IR / final IR (moving average of 20)",
       Curves["ir_ratio"], 20);
  plot(OS, "Episode return (moving average of 20)", Curves["return"], 20);
  plot(OS, "Loss", Curves["loss"], 10);
  plot(OS, "Mean Q", Curves["q_mean"], 10);
  plot(OS, "Gradient norm", Curves["grad_norm"], 10);
  OS << "<h3>Actions taken (recent episodes)</h3><svg width=\"640\" height=\"160\" "
        "xmlns=\"http://www.w3.org/2000/svg\">";
  double Max = Actions.empty() ? 1 : *std::max_element(Actions.begin(), Actions.end());
  for (size_t I = 0; I < Actions.size(); ++I) {
    double Height = Max > 0 ? Actions[I] / Max * 130 : 0;
    OS << format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#46a\"/>",
                 10 + I * 620.0 / Actions.size(), 140 - Height, 620.0 / Actions.size() - 1,
                 Height);
  }
  OS << "</svg><p>Action indices follow the run's action space (the model's metadata lists "
        "their names); the last bar is the stop action.</p></body></html>\n";
  return Error::success();
}

} // namespace smartcc
