// Trains smartcc's IR2Vec seed vocabulary (IR2VecVocabulary.h) the way IR2Vec's authors do:
// the IR of the training split becomes a knowledge graph of (head, relation, tail) triplets,
// written by LLVM's own `llvm-ir2vec triplets` (relations: 0 = an instruction's type, 1 = the
// next instruction, 2 + i = its i-th operand), and TransE (Bordes et al., NeurIPS 2013) learns
// entity vectors with head + relation ~ tail: a margin loss between true triplets and ones with
// the head or tail replaced at random, distances in L1 over unit-normalized vectors.
//
// The triplets are deduplicated (a knowledge graph is a set; counted, the graph would be
// dominated by the load/store/getelementptr chains every function has), so training is
// seconds to minutes. Validation is link prediction on the validation packages' triplets:
// the filtered rank of the true tail (and head) among all entities, mean rank and hits@1/@10,
// over all of them and over those never seen in training.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace smartcc {

struct TripletSet {
  std::vector<std::array<int64_t, 3>> Triplets; // head, tail, relation (train2id order); unique
  int64_t Relations = 0;                         // largest relation + 1
  uint64_t Lines = 0;                            // triplet lines read, duplicates included
};

// Reads llvm-ir2vec's triplet files ("MAX_RELATION=N" header, then "head tail relation") or
// OpenKE's train2id.txt (a count line first). Entity ids must be below Entities (the
// vocabulary's entity count); errors name the file and line.
llvm::Expected<TripletSet> readTriplets(llvm::ArrayRef<std::string> Files, int64_t Entities);

struct VocabTrainOptions {
  std::string RunDir;
  unsigned Dimension = 64;
  unsigned Epochs = 300;
  unsigned Minibatch = 256;
  unsigned Negatives = 4;       // corrupted triplets per true one
  double Margin = 1.0;
  double LearningRate = 3e-3;
  unsigned ValidateEvery = 25;  // epochs
  uint64_t Seed = 1;
};

struct LinkPrediction {
  double MeanRank = 0, Hits1 = 0, Hits10 = 0; // filtered, heads and tails together
  size_t Queries = 0;
};

// Trains, validating every ValidateEvery epochs; RunDir/vocabulary.json is the best vocabulary
// on validation (lowest filtered mean rank over all validation triplets), RunDir/metrics.jsonl
// has every epoch's loss and every validation, RunDir/checkpoint resumes an interrupted run.
llvm::Error trainIR2VecVocabulary(const VocabTrainOptions &O, const TripletSet &Train,
                                  const TripletSet &Validation);

} // namespace smartcc
