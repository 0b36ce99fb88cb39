// Evolution strategies over the weights of an exported model, shared by the trainers whose
// reward is a real compile (the ML inliner's object bytes, the register allocator's spill cost):
// antithetic Gaussian perturbations, each pair scored on the same sampled training items,
// centred-rank fitness, Adam (LibTorch) on the estimated gradient. Everything random in an
// iteration derives from (seed, iteration), so an interrupted and resumed run ends identical
// to an uninterrupted one. Checkpoints: RUN/checkpoint/{theta.pt, es-optimizer.pt, best.json}.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <string>
#include <vector>

namespace smartcc {

struct ESOptions {
  std::string Trainer;   // "inliner-es", ... (metrics lines)
  std::string RunDir;
  uint64_t Seed = 1;
  unsigned Iterations = 60, Pairs = 8, ItemsPerIteration = 16, Jobs = 2, ValidateEvery = 5;
  double Sigma = 0.05, StepSize = 0.02;
};

struct ESSample {
  double Gain = 0;    // the item's reward in percent (higher is better)
  double Changed = 0; // decisions that differ from the default policy (monitoring)
};

struct ESProblem {
  size_t TrainItems = 0;
  // Scores Weights on training item Item; called from Jobs threads at once.
  std::function<ESSample(llvm::ArrayRef<float> Weights, size_t Item)> Sample;
  // Validates Weights: its score (higher is better; the best one is exported), and the
  // figures to log under "validation" (printed by the caller).
  std::function<std::pair<double, llvm::json::Object>(llvm::ArrayRef<float> Weights)> Validate;
  // Metadata of the shipped model (RUN/model.smm, rewritten at each new best): the starting
  // model's and the trainer's; the engine adds "trainer", "seed", "iteration", "validation".
  llvm::json::Object ModelMetadata;
};

llvm::Error runEvolutionStrategies(const ESOptions &O, llvm::ArrayRef<float> Init,
                                   const ESProblem &P);

// Runs Work(0..N-1) on Jobs threads.
void parallelFor(size_t N, unsigned Jobs, const std::function<void(size_t)> &Work);

} // namespace smartcc
