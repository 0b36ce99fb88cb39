// PPO (clipped surrogate), the strongest model-free trainer of the papers: an actor and a
// critic over the same observation, rollouts of RolloutSteps environment steps, generalized
// advantage estimation, several epochs of minibatch updates. Same action set, stop action,
// horizon, standardization, checkpoints, metrics and export as the DQN baseline.
#pragma once
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace smartcc {

struct PPOOptions : TrainerOptions {
  unsigned RolloutSteps = 512, Epochs = 4, Minibatch = 64;
  double Gamma = 0.99, Lambda = 0.95, Clip = 0.2, LearningRate = 3e-4;
  double ValueCoef = 0.5, EntropyCoef = 0.01;
};

llvm::Error trainPPO(const PPOOptions &O, const std::vector<CorpusModule> &Train,
                     const std::vector<CorpusModule> &Validation);

} // namespace smartcc
