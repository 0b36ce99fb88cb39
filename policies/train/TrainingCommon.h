// What every trainer shares: the resumable progress record, standardized batches, metrics
// lines, greedy validation against clang -Oz, saving checkpoints and exporting the policy.
#pragma once
#include "policies/env/Corpus.h"
#include "policies/env/EnvWorker.h"
#include "policies/train/Welford.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace smartcc {

// What survives an interruption besides networks and optimizers (saved with torch::save).
struct Progress {
  uint64_t Step = 0, Episode = 0;
  uint64_t Validations = 0; // validation intervals completed
  Welford Stats;
};

llvm::json::Value toJSON(const Progress &P);
bool fromJSON(const llvm::json::Value &V, Progress &P);
// RunDir/checkpoint/state.json; written last, so it is the checkpoint's commit point.
llvm::Error saveProgress(const std::string &CheckpointDir, const Progress &P);
// False when there is no checkpoint; an error when there is a broken one.
llvm::Expected<bool> loadProgress(const std::string &CheckpointDir, Progress &P);

// Rows standardized with S, as one [rows x features] tensor.
torch::Tensor standardizedBatch(const std::vector<const std::vector<float> *> &Rows,
                                const Welford &S);
void appendMetrics(const std::string &Path, const llvm::json::Value &Line);

// Greedy rollouts on held-out modules with Pick choosing each action (Stop ends an episode):
// geomean of clang -Oz IR / final IR (above 1 = fewer instructions than clang -Oz).
double validateGreedy(EnvWorker &Env, const std::vector<CorpusModule> &Modules, unsigned Count,
                      unsigned Horizon, int64_t Stop,
                      const std::function<int64_t(const std::vector<float> &)> &Pick);

// Exports Net (its outputs: one value per action, stop last) with the run's metadata.
llvm::Error exportPolicy(torch::nn::Sequential &Net, size_t InputSize, const std::string &Trainer,
                         const std::string &SpaceName, const ActionSpace &Space,
                         unsigned Horizon, const Progress &P, uint64_t Seed,
                         const std::string &Path);

} // namespace smartcc
