// Effort 2's guided search in the compiler (issue 21): after the agent's 9 best proposals
// (proposalsForGuidedStart) have been compiled, up to `guided_candidates` more candidates
// continue the smallest shippable result so far. Each candidate of the agent reports the
// agent's ranking of its core set on the module it reached (CandidateSpec::ProposeAfter); the
// next round compiles that state followed by the best ranked sequences, 3 at a time, so the
// search composes sequences no core-set member is. A round with a smaller result moves on from
// it; one without goes further down the same ranking.
// When no proposal beat clang, clang's own optimized module is continued (the agent ranks it
// when clang's middle-end ends).
//
// Later rounds need the modules the first ones started from, but clang's compile has moved on
// (and may have freed its context) by then: the frontend's module and clang's optimized one
// are kept as bitcode, written when they pass by, only when the search will run.
#pragma once
#include "runtime/candidates/CandidatePool.h"
#include "runtime/config/CandidateSpec.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace smartcc {

class SequenceAgent;

constexpr unsigned GuidedPerRound = 3;

class GuidedSearch {
public:
  GuidedSearch(std::shared_ptr<const SequenceAgent> Agent, unsigned Candidates);
  ~GuidedSearch();

  void snapshotStart(llvm::Module &M);
  // Also ranks the core set on M (the continuations of clang's own output). Only the first
  // call counts.
  void snapshotAfterClang(llvm::Module &M);

  using Launcher = llvm::function_ref<std::unique_ptr<CandidatePool>(
      llvm::Module &, std::vector<CandidateSpec>)>;
  // A result's value in the decision's metric, or none when it could not ship (a ship rule):
  // such a state is not continued.
  using ValueOf = llvm::function_ref<std::optional<uint64_t>(const CandidateResult &)>;
  // Runs the rounds after the pools of Earlier have finished; BaselineValue is clang's output
  // in the decision's metric. Returns the rounds' pools (finished), in order.
  std::vector<std::unique_ptr<CandidatePool>>
  run(const std::vector<const CandidatePool *> &Earlier, uint64_t BaselineValue, ValueOf Value,
      Launcher Launch);

  const std::string &note() const { return Note; } // what it did, for explain and -v

private:
  struct Anchor {
    std::vector<std::string> Actions; // after clang's pipeline when AfterClang
    bool AfterClang = true;
    std::vector<std::pair<unsigned, float>> Next; // core-set index, prediction
    uint64_t Value = 0;
  };
  llvm::Module *moduleFor(bool AfterClang);

  std::shared_ptr<const SequenceAgent> Agent;
  unsigned Candidates = 0;
  llvm::SmallVector<char, 0> StartBitcode, AfterClangBitcode;
  std::vector<std::pair<unsigned, float>> ClangNext;
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<llvm::Module> Start, AfterClang;
  std::string Note;
};

} // namespace smartcc
