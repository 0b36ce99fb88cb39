#include "policies/train/EvolutionStrategies.h"
#include "policies/model/ExportedModel.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <torch/torch.h>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

using namespace llvm;

namespace smartcc {

void parallelFor(size_t N, unsigned Jobs, const std::function<void(size_t)> &Work) {
  DefaultThreadPool Pool(hardware_concurrency(std::max(1u, Jobs)));
  for (size_t I = 0; I < N; ++I)
    Pool.async([&Work, I] { Work(I); });
  Pool.wait();
}

namespace {
using Clock = std::chrono::steady_clock;

ArrayRef<float> view(const torch::Tensor &T) {
  return ArrayRef<float>(T.data_ptr<float>(), size_t(T.numel()));
}
} // namespace

Error runEvolutionStrategies(const ESOptions &O, ArrayRef<float> Init, const ESProblem &P) {
  const std::string Ckpt = O.RunDir + "/checkpoint", Metrics = O.RunDir + "/metrics.jsonl";
  if (std::error_code EC = sys::fs::create_directories(Ckpt))
    return errorCodeToError(EC);
  if (!P.TrainItems)
    return createStringError(inconvertibleErrorCode(), "no training item to score");
  const int64_t NW = int64_t(Init.size());
  std::vector<float> W0(Init.begin(), Init.end());
  torch::Tensor Theta = torch::from_blob(W0.data(), {NW}).clone().set_requires_grad(true);
  torch::optim::Adam Optimizer(std::vector<torch::Tensor>{Theta},
                               torch::optim::AdamOptions(O.StepSize));
  Progress Prog;
  Expected<bool> Resumed = loadProgress(Ckpt, Prog);
  if (!Resumed)
    return Resumed.takeError();
  double Best = -1e300;
  if (*Resumed) {
    torch::Tensor Saved;
    torch::load(Saved, Ckpt + "/theta.pt");
    {
      torch::NoGradGuard NoGrad;
      Theta.copy_(Saved);
    }
    torch::load(Optimizer, Ckpt + "/es-optimizer.pt");
    Best = loadBestScore(Ckpt, Best);
    outs() << "resuming at iteration " << Prog.Step << "\n";
  }

  // Validates, exports when best, and returns the figures for the metrics line.
  auto Validate = [&](const torch::Tensor &Weights, int64_t Step) -> Expected<json::Object> {
    torch::Tensor C = Weights.detach().contiguous();
    auto [Score, Figures] = P.Validate(view(C));
    if (Score > Best) {
      Best = Score;
      json::Object Meta = P.ModelMetadata;
      Meta["trainer"] = O.Trainer;
      Meta["seed"] = int64_t(O.Seed);
      Meta["iteration"] = Step;
      Meta["validation"] = json::Object(Figures);
      if (Error E = writeFileAtomically(O.RunDir + "/model.smm",
                                        ExportedModel::serialize(Meta, view(C))))
        return std::move(E);
      if (Error E = saveBestScore(Ckpt, Best, Step))
        return std::move(E);
    }
    return Figures;
  };

  Clock::time_point Start = Clock::now();
  const uint64_t First = Prog.Step;
  if (Prog.Step == 0) { // the starting point's figure
    Expected<json::Object> V = Validate(Theta, 0);
    if (!V)
      return V.takeError();
    json::Object Line{{"trainer", O.Trainer}, {"step", 0}};
    for (auto &[K, X] : *V)
      Line["validation_" + K.str()] = X;
    appendMetrics(Metrics, json::Value(std::move(Line)));
  }
  for (; Prog.Step < O.Iterations;) {
    std::mt19937_64 Rng(O.Seed * 1000003ULL + Prog.Step);
    std::vector<size_t> Order(P.TrainItems);
    std::iota(Order.begin(), Order.end(), 0);
    std::shuffle(Order.begin(), Order.end(), Rng);
    Order.resize(std::min<size_t>(Order.size(), O.ItemsPerIteration));
    torch::Generator Gen = at::detail::createCPUGenerator(O.Seed * 7919ULL + Prog.Step);
    torch::Tensor Eps = at::randn({int64_t(O.Pairs), NW}, Gen);

    std::vector<torch::Tensor> Candidates;
    for (unsigned I = 0; I < O.Pairs; ++I)
      for (float Sign : {1.f, -1.f})
        Candidates.push_back((Theta.detach() + Sign * float(O.Sigma) * Eps[I]).contiguous());
    const size_t NI = Order.size();
    std::vector<ESSample> Samples(Candidates.size() * NI);
    parallelFor(Samples.size(), O.Jobs, [&](size_t T) {
      Samples[T] = P.Sample(view(Candidates[T / NI]), Order[T % NI]);
    });
    std::vector<double> Fitness(Candidates.size(), 0.0);
    double ChangedSum = 0;
    for (size_t T = 0; T < Samples.size(); ++T) {
      Fitness[T / NI] += Samples[T].Gain / double(NI);
      ChangedSum += Samples[T].Changed;
    }
    // Centred ranks in [-0.5, 0.5]: robust to one item's outlier gain.
    std::vector<size_t> Rank(Fitness.size());
    std::iota(Rank.begin(), Rank.end(), 0);
    std::sort(Rank.begin(), Rank.end(), [&](size_t A, size_t B) { return Fitness[A] < Fitness[B]; });
    std::vector<float> Shaped(Fitness.size());
    for (size_t R = 0; R < Rank.size(); ++R)
      Shaped[Rank[R]] = float(R) / float(Rank.size() - 1) - 0.5f;
    torch::Tensor Coef = torch::zeros({int64_t(O.Pairs)});
    for (unsigned I = 0; I < O.Pairs; ++I)
      Coef[I] = Shaped[2 * I] - Shaped[2 * I + 1];
    torch::Tensor Grad = (Coef.unsqueeze(1) * Eps).sum(0) / float(2 * O.Pairs * O.Sigma);
    Optimizer.zero_grad();
    Theta.mutable_grad() = -Grad; // Adam descends: ascend the fitness
    Optimizer.step();
    ++Prog.Step;

    double MeanFit = std::accumulate(Fitness.begin(), Fitness.end(), 0.0) / double(Fitness.size());
    double MaxFit = *std::max_element(Fitness.begin(), Fitness.end());
    json::Object Line{{"trainer", O.Trainer},
                      {"step", int64_t(Prog.Step)},
                      {"fitness_mean", MeanFit},
                      {"fitness_max", MaxFit},
                      {"grad_norm", Grad.norm().item<double>()},
                      {"theta_norm", Theta.detach().norm().item<double>()},
                      {"changed_per_module", ChangedSum / double(Samples.size())}};
    double Eta = std::chrono::duration<double>(Clock::now() - Start).count() /
                 double(Prog.Step - First) * double(O.Iterations - Prog.Step);
    outs() << format("iteration %3llu/%u  fitness mean %+.3f %% max %+.3f %%  ETA %.0f s\n",
                     (unsigned long long)Prog.Step, O.Iterations, MeanFit, MaxFit, Eta);
    outs().flush(); // progress shows in a log file as it happens
    if (Prog.Step % O.ValidateEvery == 0 || Prog.Step == O.Iterations) {
      Expected<json::Object> V = Validate(Theta, int64_t(Prog.Step));
      if (!V)
        return V.takeError();
      for (auto &[K, X] : *V) // flat, so the report plots each figure
        Line["validation_" + K.str()] = X;
    }
    appendMetrics(Metrics, json::Value(std::move(Line)));
    torch::save(Theta.detach(), Ckpt + "/theta.pt");
    torch::save(Optimizer, Ckpt + "/es-optimizer.pt");
    if (Error E = saveProgress(Ckpt, Prog))
      return E;
  }
  return Error::success();
}

} // namespace smartcc
