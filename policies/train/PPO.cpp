#include "policies/train/PPO.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <random>

using namespace llvm;

namespace smartcc {

namespace {

torch::nn::Sequential mlp(int64_t In, int64_t Hidden, int64_t Out) {
  return torch::nn::Sequential(torch::nn::Linear(In, Hidden), torch::nn::Tanh(),
                               torch::nn::Linear(Hidden, Hidden), torch::nn::Tanh(),
                               torch::nn::Linear(Hidden, Out));
}

struct Sample {
  std::vector<float> Obs;
  int64_t Action;
  float LogProb, Value, Reward;
  bool Done;
  float Advantage = 0, Return = 0;
};

Error train(const PPOOptions &O, const std::vector<CorpusModule> &Train,
            const std::vector<CorpusModule> &Validation) {
  Expected<TrainingSetup> Setup = setUpTraining(O, Train);
  if (!Setup)
    return Setup.takeError();
  EnvWorker &Env = *Setup->Env;
  const int64_t Stop = Setup->Stop, NumActions = Setup->NumActions, In = Setup->InputSize;
  const std::string &Ckpt = Setup->CheckpointDir, &Metrics = Setup->MetricsPath;
  torch::manual_seed(O.Seed);
  torch::nn::Sequential Actor = mlp(In, O.Hidden, NumActions), Critic = mlp(In, O.Hidden, 1);
  std::vector<torch::Tensor> Params = Actor->parameters();
  for (const torch::Tensor &T : Critic->parameters())
    Params.push_back(T);
  torch::optim::Adam Optimizer(Params, torch::optim::AdamOptions(O.LearningRate));
  Progress P;
  Expected<bool> Resumed = loadProgress(Ckpt, P);
  if (!Resumed)
    return Resumed.takeError();
  if (*Resumed) {
    torch::load(Actor, Ckpt + "/actor.pt");
    torch::load(Critic, Ckpt + "/critic.pt");
    torch::load(Optimizer, Ckpt + "/optimizer.pt");
    outs() << "resuming at step " << P.Step << ", episode " << P.Episode << "\n";
  }
  std::mt19937_64 Rng(O.Seed * 1000003u + P.Step);
  auto Start = std::chrono::steady_clock::now();
  uint64_t StartStep = P.Step;

  auto Export = [&] {
    return exportPolicy(Actor, size_t(In), "ppo", O.SpaceName, Setup->Space, O.Horizon, P,
                        O.Seed, O.RunDir + "/model.smm", O.Observation);
  };
  while (P.Step < O.TotalSteps) {
    // Rollout: whole episodes until at least RolloutSteps samples.
    std::vector<Sample> Batch;
    std::vector<double> Returns, IRRatios;
    std::vector<int64_t> Histogram(size_t(NumActions), 0);
    while (Batch.size() < O.RolloutSteps) {
      const CorpusModule &M = Train[Rng() % Train.size()];
      if (Error E = Env.reset(M.Bench)) {
        consumeError(std::move(E));
        continue;
      }
      double Return = 0;
      for (unsigned T = 0; T < O.Horizon; ++T) {
        std::vector<float> Obs = Env.observation();
        P.Stats.add(Obs);
        torch::NoGradGuard NoGrad;
        torch::Tensor X = standardizedBatch({&Obs}, P.Stats);
        torch::Tensor LogProbs = torch::log_softmax(Actor->forward(X), 1).squeeze(0);
        int64_t A = torch::multinomial(LogProbs.exp(), 1).item<int64_t>();
        float Value = Critic->forward(X).item<float>();
        ++Histogram[size_t(A)];
        float Reward = 0;
        bool Done = A == Stop || T + 1 == O.Horizon;
        if (A != Stop) {
          StepResult R = Env.step(size_t(A));
          Reward = float(R.Reward);
          Done |= R.Done;
        }
        Batch.push_back({Obs, A, LogProbs[A].item<float>(), Value, Reward, Done});
        Return += Reward;
        ++P.Step;
        if (Done)
          break;
      }
      ++P.Episode;
      Returns.push_back(Return);
      if (Env.irInstructions())
        IRRatios.push_back(double(Env.clangIR()) / double(Env.irInstructions()));
    }
    // Generalized advantage estimation, episode by episode (Done cuts the bootstrap).
    float Next = 0, Gae = 0;
    for (size_t I = Batch.size(); I-- > 0;) {
      Sample &S = Batch[I];
      if (S.Done)
        Next = 0, Gae = 0;
      float Delta = S.Reward + float(O.Gamma) * Next - S.Value;
      Gae = Delta + float(O.Gamma * O.Lambda) * Gae;
      S.Advantage = Gae;
      S.Return = Gae + S.Value;
      Next = S.Value;
    }
    torch::Tensor Adv = torch::empty({int64_t(Batch.size())});
    for (size_t I = 0; I < Batch.size(); ++I)
      Adv[int64_t(I)] = Batch[I].Advantage;
    Adv = (Adv - Adv.mean()) / (Adv.std() + 1e-8);

    // Several epochs of clipped updates over shuffled minibatches.
    double PolicyLoss = 0, ValueLoss = 0, Entropy = 0, KL = 0, ClipFrac = 0, Grad = 0;
    unsigned Updates = 0;
    std::vector<size_t> Order(Batch.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    for (unsigned E = 0; E < O.Epochs; ++E) {
      std::shuffle(Order.begin(), Order.end(), Rng);
      for (size_t From = 0; From < Order.size(); From += O.Minibatch) {
        size_t To = std::min(Order.size(), From + O.Minibatch);
        std::vector<const std::vector<float> *> Rows;
        std::vector<int64_t> Acts, Idx;
        std::vector<float> OldLogP, Rets;
        for (size_t K = From; K < To; ++K) {
          const Sample &S = Batch[Order[K]];
          Rows.push_back(&S.Obs), Acts.push_back(S.Action), Idx.push_back(int64_t(Order[K]));
          OldLogP.push_back(S.LogProb), Rets.push_back(S.Return);
        }
        torch::Tensor X = standardizedBatch(Rows, P.Stats);
        torch::Tensor LogProbs = torch::log_softmax(Actor->forward(X), 1);
        torch::Tensor LogP = LogProbs.gather(1, torch::tensor(Acts).unsqueeze(1)).squeeze(1);
        torch::Tensor Ratio = (LogP - torch::tensor(OldLogP)).exp();
        torch::Tensor A = Adv.index_select(0, torch::tensor(Idx));
        torch::Tensor Surrogate = torch::min(Ratio * A, Ratio.clamp(1 - O.Clip, 1 + O.Clip) * A);
        torch::Tensor VLoss = (Critic->forward(X).squeeze(1) - torch::tensor(Rets)).pow(2).mean();
        torch::Tensor Ent = -(LogProbs.exp() * LogProbs).sum(1).mean();
        torch::Tensor Loss = -Surrogate.mean() + O.ValueCoef * VLoss - O.EntropyCoef * Ent;
        Optimizer.zero_grad();
        Loss.backward();
        Grad += torch::nn::utils::clip_grad_norm_(Params, 0.5);
        Optimizer.step();
        PolicyLoss += -Surrogate.mean().item<double>(), ValueLoss += VLoss.item<double>();
        Entropy += Ent.item<double>();
        KL += (torch::tensor(OldLogP) - LogP).mean().item<double>();
        ClipFrac += ((Ratio - 1).abs() > O.Clip).to(torch::kFloat32).mean().item<double>();
        ++Updates;
      }
    }
    torch::save(Actor, Ckpt + "/actor.pt");
    torch::save(Critic, Ckpt + "/critic.pt");
    torch::save(Optimizer, Ckpt + "/optimizer.pt");
    if (Error E = saveProgress(Ckpt, P))
      return E;

    double Elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    double Rate = double(P.Step - StartStep) / std::max(1e-9, Elapsed);
    auto Mean = [](const std::vector<double> &V) {
      double S = 0;
      for (double X : V)
        S += X;
      return V.empty() ? 0.0 : S / double(V.size());
    };
    json::Array Hist;
    for (int64_t H : Histogram)
      Hist.push_back(H);
    json::Object Line{{"trainer", "ppo"},
                      {"episode", int64_t(P.Episode)},
                      {"step", int64_t(P.Step)},
                      {"return", Mean(Returns)},
                      {"ir_ratio", Mean(IRRatios)},
                      {"actions", std::move(Hist)},
                      {"loss", PolicyLoss / Updates},
                      {"value_loss", ValueLoss / Updates},
                      {"entropy", Entropy / Updates},
                      {"approx_kl", KL / Updates},
                      {"clip_fraction", ClipFrac / Updates},
                      {"grad_norm", Grad / Updates},
                      {"steps_per_second", Rate}};
    if (!Validation.empty() && O.ValidateEvery && P.Step / O.ValidateEvery > P.Validations) {
      P.Validations = P.Step / O.ValidateEvery;
      double Score =
          validateGreedy(Env, Validation, O.ValidationModules, O.Reward, O.Horizon, Stop,
                         [&](const std::vector<float> &Obs) {
                           torch::NoGradGuard NoGrad;
                           return Actor->forward(standardizedBatch({&Obs}, P.Stats))
                               .argmax(1)
                               .item<int64_t>();
                         });
      Line["validation_geomean"] = Score;
      if (Error E = exportIfBest(Score, Ckpt, int64_t(P.Step), Export))
        return E;
    }
    appendMetrics(Metrics, json::Value(std::move(Line)));
    printStepProgress(P.Step, O.TotalSteps, Rate);
  }
  return exportIfNeverValidated(Ckpt, Export);
}

} // namespace

Error trainPPO(const PPOOptions &O, const std::vector<CorpusModule> &Train,
               const std::vector<CorpusModule> &Validation) {
  return guardLibTorch([&] { return train(O, Train, Validation); });
}

} // namespace smartcc
