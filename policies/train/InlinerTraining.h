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
#include "llvm/Support/JSON.h"
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
  // The flip study (--trainer inliner-flips).
  unsigned FlipModules = 200;      // training modules whose call sites are flipped one by one
  unsigned MaxFlipsPerModule = 96; // the first decisions of a module (compile time bound)
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

// Shared by the inliner trainers ----------------------------------------------------------

// One module compiled with a policy.
struct Measured {
  uint64_t Bytes = 0;
  InlineLog Log;
  bool Failed = false;
};

// Compiles every module with Policy, Jobs at a time; progress is printed when Label is given.
std::vector<Measured> compileAll(const std::vector<const CorpusModule *> &Modules,
                                 std::shared_ptr<const InlinePolicy> Policy, unsigned Jobs,
                                 bool KeepRecords, const char *Label = nullptr);

// Geomean ratio clang/bytes over modules, and the same never worse than clang.
struct BytesFigures {
  double Raw = 1, NeverWorse = 1;
  unsigned Smaller = 0, Larger = 0, Failed = 0, Decisions = 0, Changed = 0, Inlined = 0,
           DefaultInlined = 0;
};
BytesFigures evaluatePolicy(const std::vector<InlinerModule> &Modules,
                            std::shared_ptr<const InlinePolicy> Policy, unsigned Jobs);
llvm::json::Object figuresJSON(const BytesFigures &F);

// The training and validation modules the inliner can matter for (a call site reaches the
// policy), with clang's bytes, measured once and cached in CheckpointDir so that a resumed run
// does not measure them again. Lists are sorted by hash: each split keeps its first modules, at
// most TrainCap and O.ValidationModules. No training module with a call site is an error.
struct InlinerSplit {
  std::vector<InlinerModule> Train, Validation;
};
llvm::Expected<InlinerSplit> inlinerSplit(const InlinerTrainOptions &O,
                                          const std::vector<CorpusModule> &Train,
                                          const std::vector<CorpusModule> &Validation,
                                          const std::string &CheckpointDir,
                                          unsigned TrainCap = ~0u);

// Labelled call sites: transformed features, label (1 = inline) and a weight each.
struct InlineExamples {
  std::vector<float> X, Y, W;
  void add(llvm::ArrayRef<int64_t> Features, bool Label, float Weight = 1.f);
};

// Fits the 2-hidden-layer classifier on Train (weighted BCE, positives weighed up to the
// negatives' total), keeping the epoch best on Val's labels as RUN/ModelFile (kind "inliner",
// metadata Trainer and ExtraMetadata). Checkpoints in RUN/checkpoint and resumes.
llvm::Error fitInlineClassifier(const InlinerTrainOptions &O, const std::string &Trainer,
                                const InlineExamples &Train, const InlineExamples &Val,
                                llvm::json::Object ExtraMetadata,
                                const std::string &ModelFile = "model.smm");

// The trainers ---------------------------------------------------------------------------

llvm::Error trainInlinerBC(const InlinerTrainOptions &O, const std::vector<CorpusModule> &Train,
                           const std::vector<CorpusModule> &Validation);
llvm::Error trainInlinerES(const InlinerTrainOptions &O, const std::vector<CorpusModule> &Train,
                           const std::vector<CorpusModule> &Validation);
// InlinerFlips.cpp: counterfactual labels (each call site's decision flipped alone, measured in
// real bytes), the headroom they show, and a classifier fitted on them.
llvm::Error trainInlinerFlips(const InlinerTrainOptions &O,
                              const std::vector<CorpusModule> &Train,
                              const std::vector<CorpusModule> &Validation);

} // namespace smartcc
