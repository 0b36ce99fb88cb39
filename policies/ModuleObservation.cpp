#include "policies/ModuleObservation.h"
#include "policies/AutophaseFeatures.h"
#include "policies/IR2VecEmbedding.h"
#include "policies/Observation.h"

using namespace llvm;

namespace smartcc {

Expected<ObservationKind> parseObservationKind(StringRef Name) {
  if (Name == "autophase-log1p" || Name == "autophase")
    return ObservationKind::Autophase;
  if (Name == "ir2vec")
    return ObservationKind::IR2Vec;
  if (Name == "autophase-log1p+ir2vec" || Name == "both")
    return ObservationKind::Both;
  return createStringError(inconvertibleErrorCode(),
                           "unknown observation '" + Name +
                               "' (autophase-log1p, ir2vec or autophase-log1p+ir2vec)");
}

StringRef observationName(ObservationKind K) {
  switch (K) {
  case ObservationKind::Autophase:
    return "autophase-log1p";
  case ObservationKind::IR2Vec:
    return "ir2vec";
  case ObservationKind::Both:
    return "autophase-log1p+ir2vec";
  }
  return "";
}

size_t observationSize(ObservationKind K, unsigned IR2VecDimension) {
  size_t A = AutophaseFeatures::Count, I = size_t(IR2VecDimension) + 1;
  return K == ObservationKind::Autophase ? A : K == ObservationKind::IR2Vec ? I : A + I;
}

std::vector<float> combineObservation(ObservationKind K, const std::vector<float> &Autophase,
                                      const std::vector<float> &IR2Vec) {
  if (K == ObservationKind::Autophase)
    return Autophase;
  if (K == ObservationKind::IR2Vec)
    return IR2Vec;
  std::vector<float> Out = Autophase;
  Out.insert(Out.end(), IR2Vec.begin(), IR2Vec.end());
  return Out;
}

std::vector<float> moduleObservation(const Module &M, ObservationKind K,
                                     const IR2VecVocabulary *Vocab) {
  std::vector<float> A, I;
  if (K != ObservationKind::IR2Vec)
    A = observationVector(computeAutophase(M), {}, 0, 1);
  if (usesIR2Vec(K) && Vocab)
    I = embeddingObservation(embedModule(M, *Vocab));
  return combineObservation(K, A, I);
}

std::vector<float> policyObservation(ObservationKind K, const AutophaseVector &Features,
                                     const std::vector<float> &Embedding,
                                     const std::vector<size_t> &History, size_t NumActions,
                                     unsigned Horizon) {
  std::vector<float> Base = observationVector(Features, History, NumActions, Horizon);
  if (!usesIR2Vec(K))
    return Base;
  // [Autophase | histogram] -> [K's observation | histogram]
  auto Split = Base.begin() + AutophaseFeatures::Count;
  std::vector<float> Obs =
      combineObservation(K, std::vector<float>(Base.begin(), Split), Embedding);
  Obs.insert(Obs.end(), Split, Base.end());
  return Obs;
}

std::string policyObservationName(ObservationKind K) {
  return (observationName(K) + "+action-histogram").str();
}

Expected<ObservationKind> parsePolicyObservation(StringRef Name) {
  if (!Name.consume_back("+action-histogram"))
    return createStringError(inconvertibleErrorCode(),
                             "unknown policy observation '" + Name +
                                 "' (expected '<observation>+action-histogram')");
  return parseObservationKind(Name);
}

Expected<const IR2VecVocabulary *> vocabularyFor(ObservationKind K, StringRef TrainedDigest) {
  if (!usesIR2Vec(K))
    return nullptr;
  const IR2VecVocabulary *V = IR2VecVocabulary::builtin();
  if (!V)
    return createStringError(inconvertibleErrorCode(),
                             "model reads IR2Vec embeddings, and this smartcc has no IR2Vec "
                             "vocabulary");
  if (TrainedDigest != V->digest())
    return createStringError(inconvertibleErrorCode(),
                             "model was trained with IR2Vec vocabulary '" + TrainedDigest +
                                 "'; this smartcc's is '" + V->digest() +
                                 "' (retrain the model with this vocabulary)");
  return V;
}

Expected<ModelObservation> modelObservation(const json::Object &Meta, bool Policy) {
  StringRef Name = Meta.getString("observation")
                       .value_or(Policy ? "autophase-log1p+action-histogram" : "autophase-log1p");
  Expected<ObservationKind> K = Policy ? parsePolicyObservation(Name) : parseObservationKind(Name);
  if (!K)
    return K.takeError();
  Expected<const IR2VecVocabulary *> V =
      vocabularyFor(*K, Meta.getString("ir2vec_vocabulary").value_or(""));
  if (!V)
    return V.takeError();
  return ModelObservation{*K, *V};
}

} // namespace smartcc
