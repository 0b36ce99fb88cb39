// Training the ML inliner (policies/inliner/): a small network over LLVM's inliner features
// deciding each call site of clang's -Oz pipeline, judged by the module's real object bytes.
//
//  1. Behavioural cloning (--trainer inliner-bc): every training module is compiled with LLVM's
//     heuristic asked through smartcc's advisor (byte-identical to clang -Oz), each call site's
//     features and decision are recorded, and the network learns to reproduce the decisions.
//     The warm start MLGO also uses: a policy that already behaves like -Oz.
//  2. Evolution strategies (--trainer inliner-es, from the cloned model): antithetic Gaussian
//     perturbations of all weights, each pair scored on the same sampled training modules by
//     100*log(clang -Oz bytes / bytes) after the whole -Oz pipeline and code generation,
//     centred-rank fitness, Adam on the estimated gradient. Modules are compiled in parallel
//     (threads, one LLVMContext each). The shipped model is the best on validation modules.
//
// Both checkpoint into RUN/checkpoint and resume; metrics go to RUN/metrics.jsonl (rendered by
// smartcc-train --report), the model to RUN/model.smm.
#pragma once
#include "policies/env/Corpus.h"
#include "policies/inliner/InlinePolicy.h"
#include "policies/train/EvolutionStrategies.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace smartcc {

struct InlinerTrainOptions {
  std::string RunDir;
  std::string TargetPrefix = "x86_64";
  uint64_t Seed = 1;
  unsigned Hidden = 32;
  unsigned Jobs = 2; // modules compiled at once
  // Behavioural cloning.
  unsigned Epochs = 40;
  double LearningRate = 3e-3;
  // Evolution strategies (RunDir, Seed and Jobs are the ones above).
  std::string InitModel; // the cloned model to start from (required for ES)
  ESOptions ES = [] {
    ESOptions E;
    E.Trainer = "inliner-es";
    E.Iterations = 60;
    E.ItemsPerIteration = 16;
    E.Sigma = 0.05;
    E.StepSize = 0.02;
    return E;
  }();
  unsigned ValidationModules = 40;
};

// Modules of which the measurements mean something for the inliner: at least one call site
// reaches the policy. Also returns clang -Oz's bytes of each kept module.
struct InlinerModule {
  CorpusModule Module;
  uint64_t ClangBytes = 0;
  unsigned CallSites = 0; // decisions the heuristic took through the advisor
};

// Compiles M with Policy (null: clang's heuristic, not through the advisor) through clang's
// -Oz pipeline and codegen; Log (optional) receives the decisions.
llvm::Expected<uint64_t> compileWithInliner(const CorpusModule &M,
                                            std::shared_ptr<const InlinePolicy> Policy,
                                            InlineLog *Log = nullptr);

llvm::Error trainInlinerBC(const InlinerTrainOptions &O, const std::vector<CorpusModule> &Train,
                           const std::vector<CorpusModule> &Validation);
llvm::Error trainInlinerES(const InlinerTrainOptions &O, const std::vector<CorpusModule> &Train,
                           const std::vector<CorpusModule> &Validation);

} // namespace smartcc
