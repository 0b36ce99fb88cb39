#include "policies/env/Search.h"
#include "policies/env/ContainedEvaluation.h"
#include <chrono>
#include <optional>
#include <random>

using namespace llvm;

namespace smartcc {

namespace {

double since(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T).count();
}

Expected<uint64_t> clangValue(CompilerEnv &Env, Objective O) {
  if (O == Objective::IRInstructions)
    return Env.clangIR();
  return Env.clangObjectBytes();
}

// Resets and plays Seq; returns the objective of the final state.
Expected<uint64_t> play(CompilerEnv &Env, const Benchmark &B, const std::vector<size_t> &Seq,
                        Objective O) {
  if (Error E = Env.reset(B))
    return std::move(E);
  for (size_t A : Seq)
    Env.step(A);
  return objectiveValue(Env, O);
}

// Evaluates each sequence from the start state in contained children (see
// ContainedEvaluation.h); a failed one is counted in R and comes back as std::nullopt.
std::vector<std::optional<uint64_t>>
evaluateSequences(CompilerEnv &Env, const Benchmark &B,
                  const std::vector<std::vector<size_t>> &Sequences, Objective O,
                  const SearchOptions &Opt, SearchResult &R) {
  std::vector<ContainedResult> Results = evaluateContained(
      Sequences.size(),
      [&](size_t I) { return play(Env, B, Sequences[I], O); }, Opt.TimeoutMs);
  std::vector<std::optional<uint64_t>> Values;
  for (size_t I = 0; I < Results.size(); ++I) {
    Values.push_back(Results[I].Value);
    ++R.Evaluations;
    if (!Results[I].Value && !R.Rejected++)
      R.FirstRejection = "[" + Env.actions().namesOf(Sequences[I]) + "]: " + Results[I].Error;
  }
  return Values;
}

// A search's starting point: the unmodified module is the best so far; clang is the mark.
Expected<SearchResult> startSearch(CompilerEnv &Env, const Benchmark &B, Objective O) {
  SearchResult R;
  Expected<uint64_t> Initial = play(Env, B, {}, O);
  if (!Initial)
    return Initial.takeError();
  Expected<uint64_t> Clang = clangValue(Env, O);
  if (!Clang)
    return Clang.takeError();
  R.BestValue = R.StartValue = *Initial;
  R.ClangValue = *Clang;
  return R;
}

} // namespace

Expected<uint64_t> objectiveValue(CompilerEnv &Env, Objective O) {
  if (O == Objective::IRInstructions)
    return Env.finishedIRInstructions();
  return Env.objectBytes();
}

Expected<SearchResult> bestOf(CompilerEnv &Env, const Benchmark &B,
                              const std::vector<std::vector<size_t>> &Sequences, Objective O,
                              const SearchOptions &Opt) {
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> Started = startSearch(Env, B, O);
  if (!Started)
    return Started.takeError();
  SearchResult R = std::move(*Started);
  R.Values = evaluateSequences(Env, B, Sequences, O, Opt, R);
  for (size_t I = 0; I < Sequences.size(); ++I)
    if (R.Values[I] && *R.Values[I] < R.BestValue) {
      R.BestValue = *R.Values[I];
      R.Best = Sequences[I];
    }
  R.Seconds = since(Start);
  return R;
}

Expected<SearchResult> randomSearch(CompilerEnv &Env, const Benchmark &B, unsigned Trials,
                                    unsigned Length, uint64_t Seed, Objective O,
                                    const SearchOptions &Opt) {
  std::mt19937_64 Rng(Seed);
  std::vector<std::vector<size_t>> Sequences(Trials);
  for (std::vector<size_t> &Seq : Sequences)
    for (unsigned I = 0; I < Length; ++I)
      Seq.push_back(size_t(Rng() % Env.actions().size()));
  return bestOf(Env, B, Sequences, O, Opt);
}

Expected<SearchResult> greedySearch(CompilerEnv &Env, const Benchmark &B, unsigned MaxSteps,
                                    Objective O, const SearchOptions &Opt) {
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> Started = startSearch(Env, B, O);
  if (!Started)
    return Started.takeError();
  SearchResult R = std::move(*Started);
  for (unsigned Step = 0; Step < MaxSteps; ++Step) {
    std::optional<size_t> BestAction;
    uint64_t BestHere = R.BestValue;
    std::vector<std::vector<size_t>> Steps; // the best so far and one more action
    for (size_t A = 0; A < Env.actions().size(); ++A) {
      Steps.push_back(R.Best);
      Steps.back().push_back(A);
    }
    // One child plays them all: its state cache makes the shared prefix free.
    std::vector<std::optional<uint64_t>> Values = evaluateSequences(Env, B, Steps, O, Opt, R);
    for (size_t A = 0; A < Steps.size(); ++A)
      if (Values[A] && *Values[A] < BestHere) {
        BestHere = *Values[A];
        BestAction = A;
      }
    if (!BestAction)
      break;
    R.Best.push_back(*BestAction);
    R.BestValue = BestHere;
  }
  R.Seconds = since(Start);
  return R;
}

} // namespace smartcc
