#include "policies/env/Search.h"
#include "policies/env/ContainedEvaluation.h"
#include <chrono>
#include <optional>
#include <algorithm>
#include <numeric>
#include <random>
#include <set>

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

Expected<Objective> parseObjective(StringRef Name) {
  if (Name == "ir")
    return Objective::IRInstructions;
  if (Name == "bytes")
    return Objective::ObjectBytes;
  if (Name == "shipped")
    return Objective::ShippedBytes;
  return createStringError(inconvertibleErrorCode(),
                           "unknown objective '" + Name + "' (ir, bytes or shipped)");
}

Expected<uint64_t> objectiveValue(CompilerEnv &Env, Objective O) {
  if (O == Objective::IRInstructions)
    return Env.finishedIRInstructions();
  if (O == Objective::ShippedBytes)
    return Env.shippedBytes();
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
                                    Objective O, const SearchOptions &Opt,
                                    uint64_t MaxEvaluations, uint64_t Seed) {
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> Started = startSearch(Env, B, O);
  if (!Started)
    return Started.takeError();
  SearchResult R = std::move(*Started);
  std::mt19937_64 Rng(Seed);
  for (unsigned Step = 0; Step < MaxSteps; ++Step) {
    std::optional<size_t> BestAction;
    uint64_t BestHere = R.BestValue;
    std::vector<size_t> Order(Env.actions().size());
    std::iota(Order.begin(), Order.end(), size_t(0));
    if (MaxEvaluations) {
      if (R.Evaluations >= MaxEvaluations)
        break;
      std::shuffle(Order.begin(), Order.end(), Rng);
      Order.resize(std::min<uint64_t>(Order.size(), MaxEvaluations - R.Evaluations));
    }
    std::vector<std::vector<size_t>> Steps; // the best so far and one more action
    for (size_t A : Order) {
      Steps.push_back(R.Best);
      Steps.back().push_back(A);
    }
    // One child plays them all: its state cache makes the shared prefix free.
    std::vector<std::optional<uint64_t>> Values = evaluateSequences(Env, B, Steps, O, Opt, R);
    for (size_t I = 0; I < Steps.size(); ++I)
      if (Values[I] && *Values[I] < BestHere) {
        BestHere = *Values[I];
        BestAction = Order[I];
      }
    if (!BestAction)
      break;
    R.Best.push_back(*BestAction);
    R.BestValue = BestHere;
  }
  R.Seconds = since(Start);
  return R;
}

Expected<SearchResult> guidedSearch(CompilerEnv &Env, const Benchmark &B,
                                    ContinuationProposer Propose, const GuidedOptions &G,
                                    Objective O, const SearchOptions &Opt) {
  auto Start = std::chrono::steady_clock::now();
  Expected<SearchResult> Started = startSearch(Env, B, O);
  if (!Started)
    return Started.takeError();
  SearchResult R = std::move(*Started);
  std::set<std::vector<size_t>> Tried;
  // clang's own pipeline is what ships when nothing beats it: the best so far, not evaluated.
  if (G.ClangAction >= 0) {
    R.Best = {size_t(G.ClangAction)};
    R.BestValue = R.ClangValue;
    Tried.insert(R.Best);
  }
  // The anchor's state is replayed here, not in a contained child: every prefix of it was
  // already evaluated in one (or is the start), and the children forked later find it cached.
  auto ProposalsAt = [&](const std::vector<size_t> &Anchor)
      -> Expected<std::vector<std::vector<size_t>>> {
    if (Error E = Env.reset(B))
      return std::move(E);
    for (size_t A : Anchor)
      Env.step(A);
    Expected<Module *> M = Env.module();
    if (!M)
      return M.takeError();
    return Propose(**M, Anchor.empty());
  };
  std::vector<size_t> Anchor;
  Expected<std::vector<std::vector<size_t>>> Proposals = ProposalsAt(Anchor);
  if (!Proposals)
    return Proposals.takeError();
  size_t Next = 0;
  // A new anchor: the best so far, and the model's proposals on its module.
  auto MoveAnchor = [&]() -> Error {
    Anchor = R.Best;
    Expected<std::vector<std::vector<size_t>>> More = ProposalsAt(Anchor);
    if (!More)
      return More.takeError();
    *Proposals = std::move(*More);
    Next = 0;
    return Error::success();
  };
  while (R.Evaluations < G.MaxEvaluations) {
    std::vector<std::vector<size_t>> Batch;
    const unsigned Size = R.Rounds == 0 && G.FirstRound ? G.FirstRound : G.PerRound;
    const uint64_t Room = std::min<uint64_t>(Size, G.MaxEvaluations - R.Evaluations);
    for (; Next < Proposals->size() && Batch.size() < Room; ++Next) {
      std::vector<size_t> Seq = Anchor;
      llvm::append_range(Seq, (*Proposals)[Next]);
      if (Seq.empty() || !Tried.insert(Seq).second)
        continue;
      Batch.push_back(std::move(Seq));
    }
    if (Batch.empty()) {
      if (Anchor == R.Best)
        break;
      if (Error E = MoveAnchor()) // the start's proposals ran out: continue the best so far
        return std::move(E);
      continue;
    }
    ++R.Rounds;
    std::vector<std::optional<uint64_t>> Values = evaluateSequences(Env, B, Batch, O, Opt, R);
    std::optional<size_t> Winner;
    for (size_t I = 0; I < Batch.size(); ++I) {
      if (Values[I])
        R.Measured.push_back(Batch[I]);
      if (Values[I] && *Values[I] < (Winner ? *Values[*Winner] : R.BestValue))
        Winner = I;
    }
    if (Winner) {
      R.Best = Batch[*Winner];
      R.BestValue = *Values[*Winner];
      R.Composed = !Anchor.empty();
      ++R.Improvements;
    }
    // Nothing better from the best so far: further down its proposals. Otherwise (a new best,
    // or the start's first round found nothing) the best so far is continued.
    if (Winner || Anchor != R.Best)
      if (Error E = MoveAnchor())
        return std::move(E);
  }
  R.Seconds = since(Start);
  return R;
}

} // namespace smartcc
