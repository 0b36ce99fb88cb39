// Autotuning baselines of the CompilerGym leaderboard, on smartcc's environment:
//   random search  N random sequences of length L; keep the best
//   greedy search  at each step try every action, keep the best one; stop when none helps
// The objective is the environment's IR instruction count or its object bytes (codegen of
// the final state, with the option actions taken), both compared to clang's own pipeline.
// Every sequence is evaluated in a child process (ContainedEvaluation.h): one that crashes
// LLVM or runs past the timeout is rejected, counted, and the search goes on.
#pragma once
#include "policies/env/CompilerEnv.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smartcc {

// What a search minimizes: "ir" (finished IR instructions, the papers'), "bytes" (the object's
// linked image bytes) or "shipped" (those bytes as the compiler ships them: a result that is
// smaller than clang's but breaks the default ship rules counts as clang's, which ships
// instead; CompilerEnv::shippedBytes).
enum class Objective { IRInstructions, ObjectBytes, ShippedBytes };
llvm::Expected<Objective> parseObjective(llvm::StringRef Name);

struct SearchResult {
  std::vector<size_t> Best;   // the best sequence found (empty = the starting state)
  uint64_t BestValue = 0;     // its objective value
  uint64_t ClangValue = 0;    // clang's own pipeline on the same module
  uint64_t StartValue = 0;    // the unmodified module's
  // bestOf: each given sequence's value, in order; absent where the sequence was rejected.
  std::vector<std::optional<uint64_t>> Values;
  uint64_t Evaluations = 0;   // states whose objective was computed
  double Seconds = 0;
  unsigned Rounds = 0;        // guided search: rounds run, and those that found a smaller state
  unsigned Improvements = 0;
  bool Composed = false;      // guided: the best continues an earlier best or clang's output
  std::vector<std::vector<size_t>> Measured; // guided: every sequence measured, in order
  uint64_t Rejected = 0;      // sequences that crashed, failed or timed out (skipped)
  std::string FirstRejection; // the first of them: its actions and what happened
};

struct SearchOptions {
  unsigned TimeoutMs = 120000; // per evaluated sequence
};

// Value of the env's current state.
llvm::Expected<uint64_t> objectiveValue(CompilerEnv &Env, Objective O);

llvm::Expected<SearchResult> randomSearch(CompilerEnv &Env, const Benchmark &B, unsigned Trials,
                                          unsigned Length, uint64_t Seed, Objective O,
                                          const SearchOptions &Opt = {});
// MaxEvaluations > 0 caps the states evaluated (greedy at another method's compile time): each
// step then tries the actions in an order shuffled by Seed, as many as the cap leaves.
llvm::Expected<SearchResult> greedySearch(CompilerEnv &Env, const Benchmark &B, unsigned MaxSteps,
                                          Objective O, const SearchOptions &Opt = {},
                                          uint64_t MaxEvaluations = 0, uint64_t Seed = 1);
// Guided search (effort 2): a value model proposes, from a state's module, which sequences to
// continue that state with, best first. Round 0 continues the start state (the frontend's module,
// where the model was trained); clang's own pipeline is the best so far at no cost. Each round
// evaluates the next PerRound proposals for the current anchor; when one is smaller than the best
// so far it becomes the best and the anchor, and the model is asked again on its module, so the
// search composes sequences beyond the core set. A round that finds nothing better moves the
// anchor to the best so far (once), else goes further down the same proposals. It stops at
// MaxEvaluations evaluated sequences or when the proposals run out.
struct GuidedOptions {
  unsigned MaxEvaluations = 6;
  unsigned PerRound = 3;
  unsigned FirstRound = 0; // round 0's size when not PerRound (effort 2: the whole core set)
  int ClangAction = -1; // the space's action that is clang's whole pipeline: the free start
};
using ContinuationProposer = llvm::function_ref<llvm::Expected<std::vector<std::vector<size_t>>>(
    const llvm::Module &State, bool AtStart)>;
llvm::Expected<SearchResult> guidedSearch(CompilerEnv &Env, const Benchmark &B,
                                          ContinuationProposer Propose, const GuidedOptions &G,
                                          Objective O, const SearchOptions &Opt = {});
// Evaluates given sequences (e.g. a core set) and keeps the best.
llvm::Expected<SearchResult> bestOf(CompilerEnv &Env, const Benchmark &B,
                                    const std::vector<std::vector<size_t>> &Sequences, Objective O,
                                    const SearchOptions &Opt = {});

} // namespace smartcc
