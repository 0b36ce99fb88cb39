// An IR2Vec seed vocabulary: one vector per IR entity LLVM 22's IR2Vec knows (opcodes,
// canonical types, operand kinds, comparison predicates), from which llvm::ir2vec's embedders
// build instruction, block, function and (summed here) module embeddings.
//
// Debian's LLVM 22 ships no trained vocabulary, so smartcc trains its own
// (smartcc-train --trainer ir2vec-vocab, policies/train/IR2VecVocabTraining.h) and ships it in
// LLVM's own JSON format ({"Opcodes": {...}, "Types": {...}, "Arguments": {...}}, comparison
// predicates under "Arguments", as llvm-ir2vec reads them): `llvm-ir2vec embeddings
// --ir2vec-vocab-path=` accepts the same file, which is how the tests check that smartcc's
// in-process embeddings are LLVM's.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/IR2Vec.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace smartcc {

class IR2VecVocabulary {
public:
  // Every entity in LLVM's canonical order: position I is llvm-ir2vec's entity id I (the ids of
  // `llvm-ir2vec triplets`), with the JSON section it is written under.
  struct Entity {
    std::string Name;    // "Add", "IntegerTy", "Pointer", "ICMP_eq"
    std::string Section; // "Opcodes", "Types" or "Arguments"
  };
  static const std::vector<Entity> &entities();

  // Parses a vocabulary (LLVM's JSON). Every entity must be present with the same dimension:
  // a vocabulary missing an entity would embed it as zero without a word (LLVM's loader does
  // so), which hides a stale file. Errors name Source and the entity.
  static llvm::Expected<IR2VecVocabulary> parse(llvm::StringRef Json, llvm::StringRef Source);
  static llvm::Expected<IR2VecVocabulary> load(llvm::StringRef Path);
  // The one compiled into smartcc (policies/models/ir2vec/vocabulary.json), if any.
  static const IR2VecVocabulary *builtin();

  // LLVM's JSON for vectors given in entities() order (what the trainer writes).
  static std::string toJson(const std::vector<std::vector<double>> &Vectors);

  const llvm::ir2vec::Vocabulary &vocabulary() const { return *Vocab; }
  unsigned dimension() const { return Vocab->getDimension(); }
  const std::string &source() const { return Source; }
  // A short digest of the vectors (for cards, stats and cache keys).
  const std::string &digest() const { return Digest; }

private:
  std::unique_ptr<llvm::ir2vec::Vocabulary> Vocab; // the type is movable but not assignable
  std::string Source, Digest;
};

} // namespace smartcc
