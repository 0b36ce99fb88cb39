#include "policies/env/Search.h"
#include <chrono>
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

// A search's starting point: the unmodified module is the best so far; clang is the mark.
Expected<SearchResult> startSearch(CompilerEnv &Env, const Benchmark &B, Objective O) {
  SearchResult R;
  Expected<uint64_t> Initial = play(Env, B, {}, O);
  if (!Initial)
    return Initial.takeError();
  Expected<uint64_t> Clang = clangValue(Env, O);
  if (!Clang)
    return Clang.takeError();
  R.BestValue = *Initial;
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
                              const std::vector<std::vector<size_t>> &Sequences, Objective O) {
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> Started = startSearch(Env, B, O);
  if (!Started)
    return Started.takeError();
  SearchResult R = std::move(*Started);
  for (const std::vector<size_t> &Seq : Sequences) {
    Expected<uint64_t> V = play(Env, B, Seq, O);
    if (!V)
      return V.takeError();
    ++R.Evaluations;
    if (*V < R.BestValue) {
      R.BestValue = *V;
      R.Best = Seq;
    }
  }
  R.Seconds = since(Start);
  return R;
}

Expected<SearchResult> randomSearch(CompilerEnv &Env, const Benchmark &B, unsigned Trials,
                                    unsigned Length, uint64_t Seed, Objective O) {
  std::mt19937_64 Rng(Seed);
  std::vector<std::vector<size_t>> Sequences(Trials);
  for (std::vector<size_t> &Seq : Sequences)
    for (unsigned I = 0; I < Length; ++I)
      Seq.push_back(size_t(Rng() % Env.actions().size()));
  return bestOf(Env, B, Sequences, O);
}

Expected<SearchResult> greedySearch(CompilerEnv &Env, const Benchmark &B, unsigned MaxSteps,
                                    Objective O) {
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> Started = startSearch(Env, B, O);
  if (!Started)
    return Started.takeError();
  SearchResult R = std::move(*Started);
  for (unsigned Step = 0; Step < MaxSteps; ++Step) {
    std::optional<size_t> BestAction;
    uint64_t BestHere = R.BestValue;
    for (size_t A = 0; A < Env.actions().size(); ++A) {
      std::vector<size_t> Seq = R.Best;
      Seq.push_back(A);
      Expected<uint64_t> V = play(Env, B, Seq, O); // the state cache makes the prefix free
      if (!V)
        return V.takeError();
      ++R.Evaluations;
      if (*V < BestHere) {
        BestHere = *V;
        BestAction = A;
      }
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
