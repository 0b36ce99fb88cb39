// Training the register-allocation policy (policies/regalloc/): a small network rescaling the
// greedy allocator's priorities, judged by the allocator's own frequency-weighted spill,
// reload and copy cost (runtime/RegAllocCost.h) on real modules of the training split.
//
// --trainer regalloc-es: evolution strategies (policies/train/EvolutionStrategies.h) from the
// warm start, a network whose output layer is zero: LLVM's default advisor exactly, which is
// what behavioural cloning of the default advisor converges to, reached without an epoch (the
// policy is a residual on the default priority, so the clone needs no fitting).
// Each module is first optimized once by clang's pipeline at Level (for O1..O3 the harvested
// -Oz frontend module loses its minsize/optsize attributes, and the cc1 arguments say the
// level: the module a speed build hands to codegen); the optimized bitcode is kept in
// RUN/checkpoint/optimized, so every policy evaluation is codegen only.
#pragma once
#include "policies/env/Corpus.h"
#include "policies/train/EvolutionStrategies.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace smartcc {

struct RegAllocTrainOptions {
  std::string RunDir;
  std::string TargetPrefix = "x86_64";
  std::string Level = "O2"; // O1, O2, O3, Os or Oz
  uint64_t Seed = 1;
  unsigned Hidden = 16;
  unsigned Jobs = 2;
  // Evolution strategies (RunDir, Seed and Jobs are the ones above).
  ESOptions ES = [] {
    ESOptions E;
    E.Trainer = "regalloc-es";
    E.Iterations = 40;
    E.ItemsPerIteration = 24;
    E.Sigma = 0.1;
    E.StepSize = 0.02;
    return E;
  }();
  unsigned ValidationModules = 60;
};

llvm::Error trainRegAllocES(const RegAllocTrainOptions &O, const std::vector<CorpusModule> &Train,
                            const std::vector<CorpusModule> &Validation);

// A module made ready for register allocation at Level: its cc1 arguments and the bitcode of
// clang's optimized module (what codegen receives).
struct CodegenModule {
  std::string Hash, Name;
  std::vector<std::string> CC1Args;
  std::string OptimizedBitcodePath;
};

// Rewrites a harvested -Oz module's cc1 arguments for Level.
std::vector<std::string> cc1ArgsForLevel(std::vector<std::string> Args, llvm::StringRef Level);

// Optimizes M at Level into Dir/HASH.bc (kept if present).
llvm::Expected<CodegenModule> prepareCodegenModule(const CorpusModule &M, llvm::StringRef Level,
                                                   const std::string &Dir);

struct RegAllocMeasurement {
  double Cost = 0;       // RegAllocCost::weighted()
  uint64_t Bytes = 0;    // allocated bytes of the object
  unsigned Ranges = 0, Changed = 0;
};
// Code-generates M's optimized module with Policy (null: LLVM's greedy as clang).
class RegAllocPolicy;
llvm::Expected<RegAllocMeasurement> measureRegAlloc(const CodegenModule &M,
                                                    const RegAllocPolicy *Policy);

} // namespace smartcc
