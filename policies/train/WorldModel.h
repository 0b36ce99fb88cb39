// A world-model agent in the spirit of DreamerV3 and CompilerDream. Real episodes go into a
// replay of sequences; a recurrent state-space model (RSSM) learns to predict observations,
// rewards and episode ends from them; a latent actor-critic learns from rollouts imagined in
// that model; and the policy that ships is a plain feed-forward network over the observation,
// distilled from the latent actor (the compiler has no RSSM to run). Same action set, stop
// action, horizon, standardization, checkpoints, metrics and export as DQN and PPO.
//
// World model (per step t of a replayed window):
//   h_t = GRU(h_{t-1}, [z_{t-1}, a_{t-1}])        deterministic state
//   e_t = enc(symlog x_t)                          observation embedding
//   z_t ~ q(z | h_t, e_t)   (posterior)            stochastic state: LatentGroups categoricals
//   z_t ~ p(z | h_t)        (prior)                of LatentClasses each, straight-through
//   dec([h_t, z_t]) -> symlog x_t, reward head -> r_t (two-hot over symlog bins), continuation
//   head -> 1 - terminal_t.
// Loss = reconstruction + reward + continuation + KLDynamics * max(FreeNats, KL(sg q || p))
//        + KLRepresentation * max(FreeNats, KL(q || sg p)).
#pragma once
#include "policies/env/Corpus.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace smartcc {

struct WorldModelOptions : TrainerOptions {
  // Environment steps per iteration (whole episodes, at least this many), then TrainUpdates
  // gradient steps, each on BatchSequences windows of SequenceLength replayed steps.
  unsigned RolloutSteps = 256, TrainUpdates = 16;
  unsigned BatchSequences = 16, SequenceLength = 16;
  unsigned ImagineHorizon = 15; // imagined steps from every replayed state
  // Width of the latent side (the GRU state h and every hidden layer of the world model, latent
  // actor and critic), sized for CPU training; the shipped actor is Hidden wide, as PPO's.
  unsigned ModelHidden = 128;
  unsigned LatentGroups = 16, LatentClasses = 8; // z: 16 categoricals of 8 classes
  size_t ReplaySize = 100000;                    // steps kept (and checkpointed)
  uint64_t LearnStart = 500;                     // uniformly random steps before learning
  // PPO's rate for all four: a run makes about as many updates per environment step as PPO
  // does, far fewer in total than DreamerV3 (3e-5); at 1e-4 the critic still trailed the
  // imagined returns threefold after 3000 steps.
  double ModelLearningRate = 3e-4, ActorLearningRate = 3e-4, CriticLearningRate = 3e-4;
  double DistillLearningRate = 3e-4;
  double Gamma = 0.99, Lambda = 0.95, EntropyCoef = 1e-3;
  double FreeNats = 1.0, KLDynamics = 0.5, KLRepresentation = 0.1;
  double RewardSmoothing = 0.5; // Gaussian kernel width in steps (DreamSmooth); 0 = off
  double Epsilon = 0.02;        // share of uniformly random actions when collecting
  double SlowCriticRate = 0.02; // EMA rate of the critic that computes the return targets
};

// Trains (resuming from RunDir's checkpoint if there is one), writing RunDir/metrics.jsonl,
// RunDir/checkpoint/ and, at the end, RunDir/model.smm (the distilled reactive actor).
llvm::Error trainWorldModel(const WorldModelOptions &O, const std::vector<CorpusModule> &Train,
                            const std::vector<CorpusModule> &Validation);

} // namespace smartcc
