// What every trainer shares: the resumable progress record, standardized batches, metrics
// lines, greedy validation against clang -Oz, saving checkpoints and exporting the policy.
#pragma once
#include "policies/env/Corpus.h"
#include "policies/env/EnvWorker.h"
#include "policies/ModuleObservation.h"
#include "policies/train/Welford.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <optional>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace smartcc {

// Options every trainer has.
struct TrainerOptions {
  std::string RunDir;
  std::string SpaceName = "autophase";
  uint64_t TotalSteps = 20000;
  unsigned Horizon = 45, Hidden = 256;
  uint64_t ValidateEvery = 5000;
  unsigned ValidationModules = 20;
  uint64_t Seed = 1;
  // IR instructions (the papers' reward) or object bytes of the real target (codegen per step:
  // slower, but the only reward that sees code-generation options).
  RewardKind Reward = RewardKind::IRInstructions;
  // The observation before the action histogram (ModuleObservation.h): autophase-log1p,
  // ir2vec or autophase-log1p+ir2vec (the built-in IR2Vec vocabulary).
  ObservationKind Observation = ObservationKind::Autophase;
};

// What every trainer starts from: the action space (plus stop), a crash-safe environment, the
// observation size and the run's files.
struct TrainingSetup {
  ActionSpace Space;
  std::unique_ptr<EnvWorker> Env;
  int64_t Stop = 0, NumActions = 0, InputSize = 0;
  std::string CheckpointDir, MetricsPath;
};
llvm::Expected<TrainingSetup> setUpTraining(const TrainerOptions &O,
                                            const std::vector<CorpusModule> &Train);

// LibTorch reports errors by exception; LLVM is built without them: trainers run inside this.
llvm::Error guardLibTorch(const std::function<llvm::Error()> &Train);

// What survives an interruption besides networks and optimizers (saved with torch::save).
struct Progress {
  uint64_t Step = 0, Episode = 0;
  uint64_t Validations = 0; // validation intervals completed
  Welford Stats;
};

llvm::json::Value toJSON(const Progress &P);
bool fromJSON(const llvm::json::Value &V, Progress &P);
// "step S/T  [episode E  ]R steps/s  ETA N s", flushed so that a log file shows progress as
// it happens (a long run is watched through its log).
void printStepProgress(uint64_t Step, uint64_t Total, double StepsPerSecond,
                       std::optional<uint64_t> Episode = std::nullopt);

// Writes Path atomically (a temporary beside it, renamed): an interrupted run never leaves a
// half-written checkpoint or model.
llvm::Error writeFileAtomically(const std::string &Path, llvm::StringRef Bytes);
// RunDir/checkpoint/state.json; written last, so it is the checkpoint's commit point.
llvm::Error saveProgress(const std::string &CheckpointDir, const Progress &P);
// False when there is no checkpoint; an error when there is a broken one.
llvm::Expected<bool> loadProgress(const std::string &CheckpointDir, Progress &P);
// The validation score of the model kept so far (CheckpointDir/best.json), so that a resumed
// run keeps its best model unless it beats it; Default when there is none.
double loadBestScore(const std::string &CheckpointDir, double Default);
llvm::Error saveBestScore(const std::string &CheckpointDir, double Score, int64_t Step);

// The policy an environment trainer (DQN, PPO, world model) ships is its best on validation,
// not its last: after a validation scoring Score, Export writes model.smm if Score beats the
// best so far (CheckpointDir/best.json, kept across resumes). At the end of a run,
// exportIfNeverValidated exports the last policy only when no validation ever ran. (On the byte
// reward the world model's distilled actor collapsed to one bad sequence after a few hundred
// steps; its last policy was 0.76x clang -Oz on the eval split, its best 1.01x on validation.)
llvm::Error exportIfBest(double Score, const std::string &CheckpointDir, int64_t Step,
                         const std::function<llvm::Error()> &Export);
llvm::Error exportIfNeverValidated(const std::string &CheckpointDir,
                                   const std::function<llvm::Error()> &Export);

// The feed-forward network most trainers use: two ReLU hidden layers of Hidden units, Out
// linear outputs (layers 0, 2 and 4 are the Linear ones). Every layer is one the shipped
// format evaluates.
torch::nn::Sequential reluMLP(int64_t In, int64_t Hidden, int64_t Out);

// Rows standardized with S, as one [rows x features] tensor.
torch::Tensor standardizedBatch(const std::vector<const std::vector<float> *> &Rows,
                                const Welford &S);
void appendMetrics(const std::string &Path, const llvm::json::Value &Line);

// Greedy rollouts on held-out modules with Pick choosing each action (Stop ends an episode):
// geomean of clang -Oz / final, above 1 = smaller than clang -Oz, in the training reward's
// measure: IR instructions, or object bytes (the model kept is the best on validation, so a
// byte-trained policy must be chosen by bytes: fewer IR instructions often means more bytes).
double validateGreedy(EnvWorker &Env, const std::vector<CorpusModule> &Modules, unsigned Count,
                      RewardKind Measure, unsigned Horizon, int64_t Stop,
                      const std::function<int64_t(const std::vector<float> &)> &Pick);

// Exports Net (its outputs: one value per action, stop last) with the run's metadata.
llvm::Error exportPolicy(torch::nn::Sequential &Net, size_t InputSize, const std::string &Trainer,
                         const std::string &SpaceName, const ActionSpace &Space,
                         unsigned Horizon, const Progress &P, uint64_t Seed,
                         const std::string &Path,
                         ObservationKind Observation = ObservationKind::Autophase);

} // namespace smartcc
