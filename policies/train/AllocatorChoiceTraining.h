// Trains the allocator-choice model (policies/regalloc/AllocatorModel.h): which register
// allocator gives a function the fewest bytes, predicted from its features before allocation.
//
// 1. Data (resumable, RUN/checkpoint/allocator-data.jsonl, one line per module): each module of
//    both splits is optimized at -Oz by clang's pipeline, code-generated once per allocator
//    (runtime/compile/AllocatorsByBytes.h), and each function's features and image bytes under
//    every allocator are recorded.
// 2. Model: standardized features, one linear score per allocator. The loss is the expected
//    bytes over the softmax of the scores, each function's bytes relative to the reference
//    allocator's: cost-sensitive, so that a function where the choice is worth 40 bytes counts
//    forty times one where it is worth one, and one where every allocator gives the same bytes
//    counts nothing. Full-batch Adam, seeded.
// 3. Margin: the reference is kept unless another allocator's score beats it by the margin;
//    the margin is the one of a fixed grid that saves the most bytes on the validation split.
// 4. Report (metrics.jsonl, model card): on validation, the saving of the best allocator per
//    function (what trying every allocator reaches), the model's saving, their ratio, the
//    functions moved and the moves that cost bytes.
//
// With Proposal (smartcc-train --trainer allocator-proposal) the model instead proposes, per
// function, the one allocator other than the reference to try; the compiler code-generates the
// proposals once and keeps each where it was smaller (runtime/compile/AllocatorsByBytes.h,
// checked proposals). A wrong proposal then costs nothing but the saving it missed, so there is
// no margin: the loss is the expected saving, max(0, reference - proposal), under the softmax
// of the other allocators' scores, and validation reports the saving of the proposals checked.
// Then the gates: the smallest module worth proposing for and the smallest mix worth making,
// from a grid, the most saving on the training split at no more than MaxExtraCodegens code
// generations per module beyond the reference's; the card reports them per module on both
// splits (and validation ungated).
#pragma once
#include "policies/env/Corpus.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace smartcc {

struct AllocatorChoiceOptions {
  std::string RunDir;
  std::string TargetPrefix; // modules of this target only
  std::vector<std::string> Allocators{"greedy", "basic", "pbqp",
                                      "greedy:-split-spill-mode=default"};
  unsigned Epochs = 2000;
  unsigned Hidden = 0; // 0: linear scores (one hidden layer of 16 or 32 overfitted: 22 % and 13 % of
                       // the best-of-all saving on validation, against 31 % linear)
  double LearningRate = 0.05;
  double L2 = 1e-3;
  uint64_t Seed = 1;
  unsigned Jobs = 2;
  bool Proposal = false; // a proposal model (above) instead of a choice with a margin
  // Proposals: the bound on code generations per module beyond the reference's under which the
  // gates (AllocatorModel.h, ProposalGates) are chosen on the training split.
  double MaxExtraCodegens = 1.0;
};

llvm::Error trainAllocatorChoice(const AllocatorChoiceOptions &O,
                                 const std::vector<CorpusModule> &Train,
                                 const std::vector<CorpusModule> &Validation);

} // namespace smartcc
