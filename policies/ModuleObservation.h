// Which observation a sequence-value model reads, and computing it for a module: the same code
// serves the compiler (SequenceAgent) and the trainer (value tables re-observed from the
// corpus), so a model sees at compile time exactly what it was trained on.
//
//   autophase-log1p         log(1 + x) of the 56 Autophase counts (the first agents' input)
//   ir2vec                  the module's IR2Vec embedding per instruction and log(1 + size)
//                           (IR2VecEmbedding.h; smartcc's vocabulary, dimension + 1 values)
//   autophase-log1p+ir2vec  both, Autophase first
#pragma once

#include "policies/AutophaseFeatures.h"
#include "policies/IR2VecVocabulary.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

enum class ObservationKind { Autophase, IR2Vec, Both };

llvm::Expected<ObservationKind> parseObservationKind(llvm::StringRef Name);
llvm::StringRef observationName(ObservationKind K);
inline bool usesIR2Vec(ObservationKind K) { return K != ObservationKind::Autophase; }
// Inputs of a model reading K (IR2VecDimension: the vocabulary's).
size_t observationSize(ObservationKind K, unsigned IR2VecDimension);

// Vocab is needed (non-null) when K uses IR2Vec.
std::vector<float> moduleObservation(const llvm::Module &M, ObservationKind K,
                                     const IR2VecVocabulary *Vocab);
// K's observation from its parts: Autophase's (log1p, 56 values) and IR2Vec's (dimension + 1).
std::vector<float> combineObservation(ObservationKind K, const std::vector<float> &Autophase,
                                      const std::vector<float> &IR2Vec);

// The RL policies (DQN, PPO, world model) read K's observation followed by the action
// histogram; their metadata names it "<K>+action-histogram".
std::string policyObservationName(ObservationKind K);
llvm::Expected<ObservationKind> parsePolicyObservation(llvm::StringRef Name);

// A policy's whole observation: K's (from the Autophase counts and, when K uses IR2Vec, the
// module's IR2Vec observation) followed by the action histogram (Observation.h). The
// environment and the compiler's policy candidate both build it here.
std::vector<float> policyObservation(ObservationKind K, const AutophaseVector &Features,
                                     const std::vector<float> &Embedding,
                                     const std::vector<size_t> &History, size_t NumActions,
                                     unsigned Horizon);

// What a model's metadata says it reads: its "observation" (a policy's with the action
// histogram) and, when that uses IR2Vec, the built-in vocabulary (checked against the model's
// "ir2vec_vocabulary"). Size excludes the histogram.
struct ModelObservation {
  ObservationKind Kind = ObservationKind::Autophase;
  const IR2VecVocabulary *Vocab = nullptr;
  size_t size() const { return observationSize(Kind, Vocab ? Vocab->dimension() : 0); }
};
llvm::Expected<ModelObservation> modelObservation(const llvm::json::Object &Meta, bool Policy);

// For a model whose metadata declares observation K: the built-in vocabulary when K uses
// IR2Vec (its digest must be the metadata's "ir2vec_vocabulary"), else null. Errors say why.
llvm::Expected<const IR2VecVocabulary *> vocabularyFor(ObservationKind K,
                                                       llvm::StringRef TrainedDigest);

} // namespace smartcc
