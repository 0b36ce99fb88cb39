#include "policies/train/TrainingReport.h"
#include "runtime/observe/JSONLines.h"
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

// Moving average over the last Smooth points.
Series smoothed(const Series &S, unsigned Smooth) {
  Series Y = S;
  if (Smooth > 1)
    for (size_t I = 0; I < S.size(); ++I) {
      double Sum = 0;
      size_t From = I + 1 >= Smooth ? I + 1 - Smooth : 0;
      for (size_t J = From; J <= I; ++J)
        Sum += S[J].second;
      Y[I].second = Sum / double(I + 1 - From);
    }
  return Y;
}

struct Curve {
  std::string Label; // shown in a legend when a chart has several curves
  Series Points;
};

// One line chart of one or more curves on shared axes; a moving average smooths noisy series
// (episode returns). LogY plots log10 of positive values (curves of different magnitudes).
void plot(raw_ostream &OS, const std::string &Title, std::vector<Curve> Curves, unsigned Smooth,
          bool LogY = false) {
  const int W = 640, H = 220, L = 60, R = 20, T = 30, B = 30;
  static const char *Colors[] = {"#2a6", "#46a", "#c63", "#a4a", "#888"};
  OS << "<h3>" << Title << "</h3>";
  llvm::erase_if(Curves, [](const Curve &C) { return C.Points.empty(); });
  if (Curves.empty()) {
    OS << "<p>(no data yet)</p>";
    return;
  }
  for (Curve &C : Curves) {
    C.Points = smoothed(C.Points, Smooth);
    if (LogY)
      for (auto &P : C.Points)
        P.second = std::log10(std::max(P.second, 1e-12));
  }
  const Series &First = Curves[0].Points;
  double X0 = First.front().first, X1 = First.back().first;
  double Lo = First[0].second, Hi = First[0].second;
  for (const Curve &C : Curves)
    for (auto &P : C.Points) {
      X0 = std::min(X0, P.first), X1 = std::max(X1, P.first);
      Lo = std::min(Lo, P.second), Hi = std::max(Hi, P.second);
    }
  X1 = std::max(X1, X0 + 1);
  if (Hi - Lo < 1e-12)
    Hi = Lo + 1;
  auto PX = [&](double X) { return L + (X - X0) / (X1 - X0) * (W - L - R); };
  auto PY = [&](double V) { return T + (Hi - V) / (Hi - Lo) * (H - T - B); };
  auto Value = [&](double V) { return LogY ? std::pow(10.0, V) : V; };
  OS << "<svg width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">"
     << format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>",
               L, T, W - L - R, H - T - B);
  for (size_t I = 0; I < Curves.size(); ++I) {
    const char *Color = Colors[I % std::size(Colors)];
    OS << "<polyline fill=\"none\" stroke=\"" << Color << "\" stroke-width=\"1.5\" points=\"";
    for (auto &P : Curves[I].Points)
      OS << format("%.1f,%.1f ", PX(P.first), PY(P.second));
    OS << "\"/>";
    if (Curves.size() > 1) // legend: one entry per curve, above the plot area
      OS << format("<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">", L + 110 * int(I),
                   T - 10, Color)
         << Curves[I].Label << "</text>";
  }
  OS << format("<text x=\"2\" y=\"%d\" font-size=\"11\">%.4g</text>", T + 4, Value(Hi))
     << format("<text x=\"2\" y=\"%d\" font-size=\"11\">%.4g</text>", H - B, Value(Lo))
     << format("<text x=\"%d\" y=\"%d\" font-size=\"11\">step %.0f</text>", L, H - 8, X0)
     << format("<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">step %.0f</text>",
               W - R, H - 8, X1)
     << "</svg>";
}

void plot(raw_ostream &OS, const std::string &Title, const Series &S, unsigned Smooth) {
  plot(OS, Title, std::vector<Curve>{{"", S}}, Smooth);
}

// The world-model agent's charts: its model losses, its latent actor-critic, and how closely
// the shipped (distilled) actor follows the latent one.
void plotWorldModel(raw_ostream &OS, std::map<std::string, Series> &Curves) {
  plot(OS, "World model: observation reconstruction (symlog squared error, summed over features)",
       Curves["recon_loss"], 10);
  plot(OS, "World model: reward loss (two-hot cross-entropy on smoothed rewards)",
       Curves["reward_loss"], 10);
  plot(OS, "World model: continuation loss (binary cross-entropy on episode ends)",
       Curves["cont_loss"], 10);
  plot(OS, "World model: KL(posterior || prior), nats", Curves["kl"], 10);
  plot(OS, "Latent actor loss (REINFORCE on imagined rollouts, with entropy bonus)",
       Curves["actor_loss"], 10);
  plot(OS, "Critic loss (two-hot cross-entropy to imagined lambda-returns)",
       Curves["critic_loss"], 10);
  plot(OS, "Latent actor entropy (nats)", Curves["entropy"], 10);
  plot(OS, "Mean value of the imagined start states", Curves["value_mean"], 10);
  plot(OS, "Shipped actor: distillation cross-entropy to the latent actor",
       Curves["distill_loss"], 10);
  plot(OS, "Shipped actor: greedy agreement with the latent actor", Curves["distill_agreement"],
       10);
  plot(OS, "Gradient norms before clipping (log scale)",
       {{"world model", Curves["model_grad_norm"]},
        {"actor", Curves["actor_grad_norm"]},
        {"critic", Curves["critic_grad_norm"]},
        {"distillation", Curves["distill_grad_norm"]}},
       10, /*LogY=*/true);
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
  unsigned Episodes = 0; // metrics lines: DQN's episodes, PPO's and dreamer's iterations
  int64_t EpisodeCount = 0;
  forEachJSONObject((*Buf)->getBuffer(), [&](const json::Object &O) {
    ++Episodes;
    Trainer = O.getString("trainer").value_or("").str();
    EpisodeCount = O.getInteger("episode").value_or(Episodes);
    double Step = double(O.getInteger("step").value_or(0));
    for (const auto &[Key, Value] : O) // every numeric entry is a curve
      if (std::optional<double> X = Value.getAsNumber(); X && Key != "step")
        Curves[Key.str()].push_back({Step, *X});
    // DQN logs each episode's counts, PPO and dreamer the mean ratio of an iteration.
    if (auto IR = O.getInteger("ir"), Clang = O.getInteger("clang_ir");
        !O.getNumber("ir_ratio") && IR && Clang && *IR)
      Curves["ir_ratio"].push_back({Step, double(*Clang) / double(*IR)});
    if (const json::Array *A = O.getArray("actions")) { // histogram of the last 200 episodes
      if (Actions.size() != A->size() || Episodes % 200 == 1)
        Actions.assign(A->size(), 0.0);
      for (size_t I = 0; I < A->size(); ++I)
        Actions[I] += (*A)[I].getAsNumber().value_or(0);
    }
  });
  std::error_code EC;
  raw_fd_ostream OS(RunDir + "/report.html", EC);
  if (EC)
    return errorCodeToError(EC);
  OS << "<!doctype html><html><head><meta charset=\"utf-8\"><title>smartcc training: "
     << Trainer << "</title></head><body style=\"font-family:sans-serif\"><h1>" << Trainer
     << " training, " << EpisodeCount << " episodes</h1>";
  const bool Inliner = StringRef(Trainer).starts_with("inliner") || Trainer == "regalloc-es";
  if (!Inliner) { // pass-ordering agents: episodes in the environment
    plot(OS, "Validation: clang -Oz IR / policy IR (geomean, above 1 = better than -Oz)",
         Curves["validation_geomean"], 1);
    plot(OS, "Training episodes: clang -Oz IR / final IR (moving average of 20)",
         Curves["ir_ratio"], 20);
    plot(OS, "Episode return (moving average of 20)", Curves["return"], 20);
  }
  if (Trainer == "dreamer") {
    plotWorldModel(OS, Curves);
  } else if (Trainer == "inliner-es") {
    plot(OS, "Validation, before fallback: clang -Oz bytes / ML-inliner bytes (geomean)",
         Curves["validation_geomean"], 1);
    plot(OS, "Perturbed policies' fitness, % smaller than clang -Oz",
         std::vector<Curve>{{"mean", Curves["fitness_mean"]}, {"best", Curves["fitness_max"]}},
         1);
    plot(OS, "Call sites decided unlike the heuristic, per module", Curves["changed_per_module"],
         1);
    plot(OS, "Gradient estimate norm", Curves["grad_norm"], 1);
  } else if (Trainer == "regalloc-es") {
    plot(OS, "Validation: frequency-weighted spill cost / greedy's (geomean, below 1 = fewer "
             "spills); each function at its cheapest of greedy and the heads, and of the heads "
             "alone (before fallback)",
         std::vector<Curve>{{"per function", Curves["validation_cost_ratio_after_fallback"]},
                            {"heads alone", Curves["validation_cost_ratio"]}},
         1);
    plot(OS, "Perturbed policies' fitness, % less spill cost than greedy",
         std::vector<Curve>{{"mean", Curves["fitness_mean"]}, {"best", Curves["fitness_max"]}},
         1);
    plot(OS, "Functions allocated by a head, per module", Curves["changed_per_module"], 1);
    plot(OS, "Gradient estimate norm", Curves["grad_norm"], 1);
  } else if (Trainer == "inliner-flips" && !Curves.count("loss")) {
    // The flip study's run: its two fitted forms have their own runs and reports.
    OS << "<p>Fitted on the flip labels: <a href=\"decide/report.html\">decide</a> (the model "
          "decides every call site), <a href=\"flip/report.html\">flip</a> (the model says "
          "where to reverse LLVM's answer). Figures: flips-summary.json.</p>";
  } else if (Trainer == "inliner-bc" || Trainer == "inliner-flips") {
    plot(OS, "Loss (weighted binary cross-entropy)", Curves["loss"], 1);
    plot(OS, Trainer == "inliner-bc" ? "Agreement with the heuristic"
                                     : "Agreement with the flip labels",
         std::vector<Curve>{{"train", Curves["train_agreement"]},
                            {"validation", Curves["validation_agreement"]}},
         1);
  } else {
    plot(OS, "Loss", Curves["loss"], 10);
    plot(OS, "Mean Q", Curves["q_mean"], 10);
    plot(OS, "Gradient norm", Curves["grad_norm"], 10);
  }
  if (Inliner) {
    OS << "</body></html>\n";
    return Error::success();
  }
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
