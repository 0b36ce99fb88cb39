#include "policies/train/DQN.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <random>

using namespace llvm;

namespace smartcc {

namespace {

struct Transition {
  std::vector<float> Obs, Next;
  int64_t Action;
  float Reward;
  bool Done;
};

class Replay {
public:
  explicit Replay(size_t Capacity) : Capacity(Capacity) {}
  void push(Transition T) {
    if (Buf.size() < Capacity)
      Buf.push_back(std::move(T));
    else
      Buf[Next] = std::move(T);
    Next = (Next + 1) % Capacity;
  }
  size_t size() const { return Buf.size(); }
  const Transition &operator[](size_t I) const { return Buf[I]; }

private:
  size_t Capacity, Next = 0;
  std::vector<Transition> Buf;
};

int64_t greedyAction(torch::nn::Sequential &Q, const std::vector<float> &Obs, const Welford &S) {
  torch::NoGradGuard NoGrad;
  return Q->forward(standardizedBatch({&Obs}, S)).argmax(1).item<int64_t>();
}


Error train(const DQNOptions &O, const std::vector<CorpusModule> &Train,
            const std::vector<CorpusModule> &Validation) {
  Expected<TrainingSetup> Setup = setUpTraining(O, Train);
  if (!Setup)
    return Setup.takeError();
  std::unique_ptr<EnvWorker> &Env = Setup->Env;
  const int64_t Stop = Setup->Stop, NumActions = Setup->NumActions, In = Setup->InputSize;
  const std::string &Ckpt = Setup->CheckpointDir, &Metrics = Setup->MetricsPath;
  torch::manual_seed(O.Seed);
  torch::nn::Sequential Q = reluMLP(In, O.Hidden, NumActions);
  torch::nn::Sequential Target = reluMLP(In, O.Hidden, NumActions);
  torch::optim::Adam Optimizer(Q->parameters(), torch::optim::AdamOptions(O.LearningRate));
  Progress P;
  Expected<bool> Resumed = loadProgress(Ckpt, P);
  if (!Resumed)
    return Resumed.takeError();
  if (*Resumed) {
    torch::load(Q, Ckpt + "/q.pt");
    torch::load(Target, Ckpt + "/target.pt");
    torch::load(Optimizer, Ckpt + "/optimizer.pt");
    outs() << "resuming at step " << P.Step << ", episode " << P.Episode << "\n";
  } else {
    torch::NoGradGuard NoGrad;
    for (size_t I = 0; I < Q->parameters().size(); ++I)
      Target->parameters()[I].copy_(Q->parameters()[I]);
  }
  auto Save = [&] {
    torch::save(Q, Ckpt + "/q.pt");
    torch::save(Target, Ckpt + "/target.pt");
    torch::save(Optimizer, Ckpt + "/optimizer.pt");
    consumeError(saveProgress(Ckpt, P));
  };

  std::mt19937_64 Rng(O.Seed * 1000003u + P.Step); // a resumed run continues deterministically
  Replay Memory(O.ReplaySize);
  auto Start = std::chrono::steady_clock::now();
  uint64_t StartStep = P.Step;
  auto Export = [&] {
    return exportPolicy(Q, size_t(In), "dqn", O.SpaceName, Setup->Space, O.Horizon, P, O.Seed,
                        O.RunDir + "/model.smm", O.Observation);
  };
  while (P.Step < O.TotalSteps) {
    const CorpusModule &M = Train[Rng() % Train.size()];
    if (Error E = Env->reset(M.Bench)) {
      consumeError(std::move(E));
      continue;
    }
    std::vector<float> Obs = Env->observation();
    P.Stats.add(Obs);
    double Return = 0, LossSum = 0, GradSum = 0, QSum = 0;
    unsigned Learned = 0;
    std::vector<int64_t> Histogram(size_t(NumActions), 0);
    for (unsigned T = 0; T < O.Horizon && P.Step < O.TotalSteps; ++T) {
      double Frac = std::min(1.0, double(P.Step) / double(std::max<uint64_t>(1, O.EpsilonDecaySteps)));
      double Epsilon = O.EpsilonStart + (O.EpsilonEnd - O.EpsilonStart) * Frac;
      int64_t A = std::uniform_real_distribution<double>(0, 1)(Rng) < Epsilon
                      ? int64_t(Rng() % uint64_t(NumActions))
                      : greedyAction(Q, Obs, P.Stats);
      ++Histogram[size_t(A)];
      float Reward = 0;
      bool Done = A == Stop || T + 1 == O.Horizon;
      if (A != Stop) {
        StepResult R = Env->step(size_t(A));
        Reward = float(R.Reward);
        Done |= R.Done;
      }
      std::vector<float> Next = Env->observation();
      P.Stats.add(Next);
      Return += Reward;
      Memory.push({Obs, Next, A, Reward, Done});
      Obs = std::move(Next);
      ++P.Step;

      if (P.Step >= O.LearnStart && Memory.size() >= O.BatchSize) {
        std::vector<const std::vector<float> *> Os, Ns;
        std::vector<int64_t> As;
        std::vector<float> Rs, Ds;
        for (size_t B = 0; B < O.BatchSize; ++B) {
          const Transition &X = Memory[Rng() % Memory.size()];
          Os.push_back(&X.Obs), Ns.push_back(&X.Next), As.push_back(X.Action);
          Rs.push_back(X.Reward), Ds.push_back(X.Done ? 0.0f : 1.0f);
        }
        torch::Tensor QValues = Q->forward(standardizedBatch(Os, P.Stats))
                                    .gather(1, torch::tensor(As).unsqueeze(1))
                                    .squeeze(1);
        torch::Tensor Targets;
        {
          torch::NoGradGuard NoGrad;
          // Double DQN (van Hasselt et al. 2016): the online network picks the next action,
          // the target network values it. With the max over 43 noisy estimates taken by the
          // target network alone, Q-values on the CompilerGym-style corpus climbed to 10x the
          // largest return there is (about 1) within 30k steps, and the greedy policy learned
          // to stop at once.
          torch::Tensor NextStates = standardizedBatch(Ns, P.Stats);
          torch::Tensor NextAction = std::get<1>(Q->forward(NextStates).max(1)).unsqueeze(1);
          torch::Tensor NextValue = Target->forward(NextStates).gather(1, NextAction).squeeze(1);
          Targets = torch::tensor(Rs) + float(O.Gamma) * torch::tensor(Ds) * NextValue;
        }
        torch::Tensor Loss = torch::smooth_l1_loss(QValues, Targets);
        Optimizer.zero_grad();
        Loss.backward();
        double Norm = torch::nn::utils::clip_grad_norm_(Q->parameters(), 10.0);
        Optimizer.step();
        LossSum += Loss.item<double>(), GradSum += Norm, QSum += QValues.mean().item<double>();
        ++Learned;
      }
      if (P.Step % O.TargetSync == 0) {
        torch::NoGradGuard NoGrad;
        for (size_t I = 0; I < Q->parameters().size(); ++I)
          Target->parameters()[I].copy_(Q->parameters()[I]);
      }
      if (P.Step % O.CheckpointEvery == 0)
        Save();
      if (Done)
        break;
    }
    ++P.Episode;
    double Elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    double Rate = double(P.Step - StartStep) / std::max(1e-9, Elapsed);
    json::Array Hist;
    for (int64_t H : Histogram)
      Hist.push_back(H);
    json::Object Line{{"trainer", "dqn"},
                      {"episode", int64_t(P.Episode)},
                      {"step", int64_t(P.Step)},
                      {"module", M.Bench.Name},
                      {"return", Return},
                      {"ir", int64_t(Env->irInstructions())},
                      {"clang_ir", int64_t(Env->clangIR())},
                      {"initial_ir", int64_t(Env->initialIR())},
                      {"actions", std::move(Hist)},
                      {"steps_per_second", Rate}};
    if (Learned) {
      Line["loss"] = LossSum / Learned;
      Line["grad_norm"] = GradSum / Learned;
      Line["q_mean"] = QSum / Learned;
    }
    if (!Validation.empty() && O.ValidateEvery && P.Step / O.ValidateEvery > P.Validations) {
      P.Validations = P.Step / O.ValidateEvery;
      double Score =
          validateGreedy(*Env, Validation, O.ValidationModules, O.Reward, O.Horizon, Stop,
                         [&](const std::vector<float> &Obs) { return greedyAction(Q, Obs, P.Stats); });
      Line["validation_geomean"] = Score;
      if (Error E = exportIfBest(Score, Ckpt, int64_t(P.Step), Export))
        return E;
    }
    appendMetrics(Metrics, json::Value(std::move(Line)));
    if (P.Episode % 10 == 0)
      printStepProgress(P.Step, O.TotalSteps, Rate, P.Episode);
  }
  Save();
  return exportIfNeverValidated(Ckpt, Export);
}

} // namespace

Error trainDQN(const DQNOptions &O, const std::vector<CorpusModule> &Train,
               const std::vector<CorpusModule> &Validation) {
  return guardLibTorch([&] { return train(O, Train, Validation); });
}

} // namespace smartcc
