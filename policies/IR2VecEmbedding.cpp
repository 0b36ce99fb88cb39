#include "policies/IR2VecEmbedding.h"
#include "llvm/IR/Module.h"
#include <cmath>

using namespace llvm;

namespace smartcc {

ModuleEmbedding embedModule(const Module &M, const IR2VecVocabulary &Vocab, IR2VecKind Kind) {
  ModuleEmbedding Out;
  Out.Sum.assign(Vocab.dimension(), 0.0);
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    std::unique_ptr<ir2vec::Embedder> E = ir2vec::Embedder::create(Kind, F, Vocab.vocabulary());
    if (!E)
      continue;
    const ir2vec::Embedding V = E->getFunctionVector();
    for (size_t I = 0; I < Out.Sum.size() && I < V.size(); ++I)
      Out.Sum[I] += V[I];
    ++Out.Functions;
    for (const BasicBlock &BB : F)
      Out.Instructions += BB.sizeWithoutDebug();
  }
  return Out;
}

std::vector<float> embeddingObservation(const ModuleEmbedding &E) {
  std::vector<float> Obs;
  double N = std::max(1u, E.Instructions);
  for (double X : E.Sum)
    Obs.push_back(float(X / N));
  Obs.push_back(float(std::log1p(double(E.Instructions))));
  return Obs;
}

} // namespace smartcc
