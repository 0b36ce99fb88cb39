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

} // namespace smartcc
