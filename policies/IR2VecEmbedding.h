// Module embeddings with LLVM 22's IR2Vec (llvm/Analysis/IR2Vec.h) and smartcc's vocabulary:
// the observation beside (or instead of) Autophase's 56 counts. A module's embedding is the sum
// of its defined functions' IR2Vec vectors, as IR2Vec's program-level embedding is; LLVM's
// embedders give instruction -> block -> function, and the weights of opcode, type and operand
// are LLVM's own (-ir2vec-opc-weight 1.0, -type-weight 0.5, -arg-weight 0.2).
#pragma once

#include "policies/IR2VecVocabulary.h"
#include "llvm/Analysis/IR2Vec.h"
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

struct ModuleEmbedding {
  std::vector<double> Sum;   // over defined functions (dimension of the vocabulary)
  unsigned Functions = 0;    // defined functions embedded
  unsigned Instructions = 0; // their instructions (without debug intrinsics)
};

ModuleEmbedding embedModule(const llvm::Module &M, const IR2VecVocabulary &Vocab,
                            llvm::IR2VecKind Kind = llvm::IR2VecKind::Symbolic);

// The embedding as a model input: the sum divided by the instruction count (what the module's
// code is made of, independent of its size) followed by log(1 + instructions) (how much of it
// there is). Dimension + 1 values.
std::vector<float> embeddingObservation(const ModuleEmbedding &E);

} // namespace smartcc
