// The DQN baseline (the seed project's trainer, kept so that stronger trainers have something
// to beat): epsilon-greedy exploration, experience replay, a target network (with Double DQN's
// target), Huber loss, and Welford standardization of the observation. The action set is the
// environment's plus a learned stop action (the last index), with a horizon of MaxSteps.
#pragma once
#include "policies/env/Corpus.h"
#include "policies/env/EnvWorker.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/Error.h"
#include <string>
#include <torch/torch.h>
#include <vector>

namespace smartcc {

struct DQNOptions : TrainerOptions {
  double Gamma = 0.99, LearningRate = 3e-4;
  double EpsilonStart = 1.0, EpsilonEnd = 0.05;
  uint64_t EpsilonDecaySteps = 10000;
  size_t ReplaySize = 100000, BatchSize = 64;
  uint64_t LearnStart = 500, TargetSync = 1000, CheckpointEvery = 1000;
};

// Trains (resuming from RunDir's checkpoint if there is one), writing RunDir/metrics.jsonl,
// RunDir/checkpoint/ and, at the end, RunDir/model.smm (the shipped format).
llvm::Error trainDQN(const DQNOptions &O, const std::vector<CorpusModule> &Train,
                     const std::vector<CorpusModule> &Validation);

} // namespace smartcc
