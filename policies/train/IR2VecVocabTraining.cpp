#include "policies/train/IR2VecVocabTraining.h"
#include "policies/IR2VecVocabulary.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

using namespace llvm;

namespace smartcc {

Expected<TripletSet> readTriplets(ArrayRef<std::string> Files, int64_t Entities) {
  TripletSet Out;
  std::set<std::array<int64_t, 3>> Seen;
  for (const std::string &File : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(File, /*IsText=*/true);
    if (!B)
      return createStringError(B.getError(), File + ": " + B.getError().message());
    SmallVector<StringRef, 0> Lines;
    (*B)->getBuffer().split(Lines, '\n');
    for (size_t N = 0; N < Lines.size(); ++N) {
      StringRef L = Lines[N].trim();
      if (L.empty() || L.starts_with("MAX_RELATION="))
        continue;
      SmallVector<StringRef, 3> F;
      L.split(F, ' ', -1, false);
      if (F.size() == 1 && N == 0) // OpenKE's count line
        continue;
      if (F.size() == 1 || F.size() > 3) { // tabs are llvm-ir2vec's separators too
        F.clear();
        L.split(F, '\t', -1, false);
      }
      std::array<int64_t, 3> T;
      bool Ok = F.size() == 3;
      for (size_t I = 0; Ok && I < 3; ++I)
        Ok = !F[I].trim().getAsInteger(10, T[I]) && T[I] >= 0;
      if (!Ok || T[0] >= Entities || T[1] >= Entities)
        return createStringError(inconvertibleErrorCode(),
                                 File + ":" + Twine(N + 1) +
                                     ": expected 'head tail relation' with entity ids below " +
                                     Twine(Entities) + ", got '" + L + "'");
      ++Out.Lines;
      Out.Relations = std::max(Out.Relations, T[2] + 1);
      if (Seen.insert(T).second)
        Out.Triplets.push_back(T);
    }
  }
  return Out;
}

namespace {

// TransE's distance of head + relation to tail, L1 over unit vectors (smaller = more true).
torch::Tensor distance(const torch::Tensor &H, const torch::Tensor &R, const torch::Tensor &T) {
  namespace F = torch::nn::functional;
  auto N = F::NormalizeFuncOptions().p(2).dim(-1);
  return (F::normalize(H, N) + F::normalize(R, N) - F::normalize(T, N)).abs().sum(-1);
}

// Filtered link prediction: for each query, the rank of the true entity among all entities
// once the other true answers (in Known) are removed.
LinkPrediction linkPrediction(const torch::Tensor &Ent, const torch::Tensor &Rel,
                              const std::vector<std::array<int64_t, 3>> &Queries,
                              const std::set<std::array<int64_t, 3>> &Known) {
  torch::NoGradGuard NoGrad;
  LinkPrediction P;
  const int64_t E = Ent.size(0);
  double RankSum = 0;
  for (const std::array<int64_t, 3> &Q : Queries) {
    for (int Side = 0; Side < 2; ++Side) { // 0: predict the tail, 1: the head
      torch::Tensor H = Side == 0 ? Ent[Q[0]].expand({E, -1}) : Ent;
      torch::Tensor T = Side == 0 ? Ent : Ent[Q[1]].expand({E, -1});
      torch::Tensor D = distance(H, Rel[Q[2]].expand({E, -1}), T);
      auto Acc = D.accessor<float, 1>();
      int64_t Truth = Side == 0 ? Q[1] : Q[0];
      float Mine = Acc[Truth];
      int64_t Rank = 1;
      for (int64_t X = 0; X < E; ++X) {
        if (X == Truth || !(Acc[X] < Mine))
          continue;
        std::array<int64_t, 3> Other = Side == 0 ? std::array<int64_t, 3>{Q[0], X, Q[2]}
                                                 : std::array<int64_t, 3>{X, Q[1], Q[2]};
        if (!Known.count(Other))
          ++Rank;
      }
      RankSum += double(Rank);
      P.Hits1 += Rank == 1;
      P.Hits10 += Rank <= 10;
      ++P.Queries;
    }
  }
  if (P.Queries) {
    P.MeanRank = RankSum / double(P.Queries);
    P.Hits1 /= double(P.Queries);
    P.Hits10 /= double(P.Queries);
  }
  return P;
}

json::Object figures(const LinkPrediction &P, StringRef Prefix) {
  return json::Object{{(Prefix + "mean_rank").str(), P.MeanRank},
                      {(Prefix + "hits1").str(), P.Hits1},
                      {(Prefix + "hits10").str(), P.Hits10},
                      {(Prefix + "queries").str(), int64_t(P.Queries)}};
}

} // namespace

Error trainIR2VecVocabulary(const VocabTrainOptions &O, const TripletSet &Train,
                            const TripletSet &Validation) {
  if (Train.Triplets.empty())
    return createStringError(inconvertibleErrorCode(), "no training triplets");
  const std::string Ckpt = O.RunDir + "/checkpoint", Metrics = O.RunDir + "/metrics.jsonl";
  if (std::error_code EC = sys::fs::create_directories(Ckpt))
    return errorCodeToError(EC);
  const int64_t NumEnt = int64_t(IR2VecVocabulary::entities().size());
  const int64_t NumRel = std::max(Train.Relations, Validation.Relations);
  torch::manual_seed(O.Seed);
  torch::Tensor Ent = torch::empty({NumEnt, int64_t(O.Dimension)});
  torch::Tensor Rel = torch::empty({NumRel, int64_t(O.Dimension)});
  torch::nn::init::xavier_uniform_(Ent);
  torch::nn::init::xavier_uniform_(Rel);
  Ent.set_requires_grad(true);
  Rel.set_requires_grad(true);
  torch::optim::Adam Optimizer({Ent, Rel}, torch::optim::AdamOptions(O.LearningRate));

  Progress P, Saved;
  Expected<bool> Resumed = loadProgress(Ckpt, Saved);
  if (!Resumed)
    return Resumed.takeError();
  double Best = 1e300;
  if (*Resumed) {
    torch::Tensor E2, R2;
    torch::load(E2, Ckpt + "/entities.pt");
    torch::load(R2, Ckpt + "/relations.pt");
    if (E2.sizes() != Ent.sizes() || R2.sizes() != Rel.sizes())
      return createStringError(inconvertibleErrorCode(),
                               Ckpt + ": the checkpoint has another dimension or relation count");
    {
      torch::NoGradGuard NoGrad;
      Ent.copy_(E2);
      Rel.copy_(R2);
    }
    torch::load(Optimizer, Ckpt + "/optimizer.pt");
    P.Step = Saved.Step;
    P.Validations = Saved.Validations;
    Best = loadBestScore(Ckpt, 1e300);
    outs() << "resuming at epoch " << P.Step << "\n";
  }

  std::set<std::array<int64_t, 3>> TrainSet(Train.Triplets.begin(), Train.Triplets.end());
  std::set<std::array<int64_t, 3>> Known = TrainSet;
  Known.insert(Validation.Triplets.begin(), Validation.Triplets.end());
  std::vector<std::array<int64_t, 3>> Unseen;
  for (const std::array<int64_t, 3> &T : Validation.Triplets)
    if (!TrainSet.count(T))
      Unseen.push_back(T);
  outs() << Train.Triplets.size() << " training triplets (" << Train.Lines << " read), "
         << Validation.Triplets.size() << " validation (" << Unseen.size()
         << " not in training), " << NumEnt << " entities, " << NumRel << " relations, "
         << O.Dimension << " dimensions\n";

  torch::Tensor All = torch::empty({int64_t(Train.Triplets.size()), 3}, torch::kLong);
  for (size_t I = 0; I < Train.Triplets.size(); ++I)
    for (int J = 0; J < 3; ++J)
      All[int64_t(I)][J] = Train.Triplets[I][J];
  auto Start = std::chrono::steady_clock::now();
  const uint64_t StartEpoch = P.Step;
  while (P.Step < O.Epochs) {
    // The epoch's order and corruptions come from a generator seeded by (seed, epoch), so a
    // resumed run draws what an uninterrupted one would.
    torch::Generator Gen = at::detail::createCPUGenerator(O.Seed * 7919u + P.Step);
    torch::Tensor Order = torch::randperm(All.size(0), Gen, torch::kLong);
    double LossSum = 0;
    unsigned Batches = 0;
    for (int64_t B = 0; B < All.size(0); B += O.Minibatch) {
      torch::Tensor Idx = Order.slice(0, B, std::min(All.size(0), B + int64_t(O.Minibatch)));
      torch::Tensor Pos = All.index_select(0, Idx);
      int64_t N = Pos.size(0) * int64_t(O.Negatives);
      torch::Tensor Neg = Pos.repeat({int64_t(O.Negatives), 1});
      // Bernoulli: replace the head or the tail with a random entity.
      torch::Tensor Replace = torch::randint(NumEnt, {N}, Gen, torch::kLong);
      torch::Tensor Side = torch::randint(2, {N}, Gen, torch::kLong);
      Neg.select(1, 0).copy_(torch::where(Side == 0, Replace, Neg.select(1, 0)));
      Neg.select(1, 1).copy_(torch::where(Side == 1, Replace, Neg.select(1, 1)));
      auto Dist = [&](const torch::Tensor &X) {
        return distance(Ent.index_select(0, X.select(1, 0)), Rel.index_select(0, X.select(1, 2)),
                        Ent.index_select(0, X.select(1, 1)));
      };
      torch::Tensor DPos = Dist(Pos).repeat({int64_t(O.Negatives)});
      torch::Tensor Loss = torch::relu(O.Margin + DPos - Dist(Neg)).mean();
      Optimizer.zero_grad();
      Loss.backward();
      Optimizer.step();
      LossSum += Loss.item<double>();
      ++Batches;
    }
    ++P.Step;
    json::Object Line{{"trainer", "ir2vec-vocab"},
                      {"step", int64_t(P.Step)},
                      {"loss", LossSum / std::max(1u, Batches)}};
    bool Validate = P.Step % O.ValidateEvery == 0 || P.Step == O.Epochs;
    if (Validate) {
      torch::Tensor EntD = Ent.detach(), RelD = Rel.detach();
      LinkPrediction V = linkPrediction(EntD, RelD, Validation.Triplets, Known);
      LinkPrediction U = linkPrediction(EntD, RelD, Unseen, Known);
      for (auto &KV : figures(V, "validation_"))
        Line[KV.first] = std::move(KV.second);
      for (auto &KV : figures(U, "unseen_"))
        Line[KV.first] = std::move(KV.second);
      ++P.Validations;
      double Elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
      double Eta = Elapsed / double(P.Step - StartEpoch) * double(O.Epochs - P.Step);
      outs() << format("epoch %4llu/%u  loss %.4f  validation mean rank %.2f, hits@1 %.3f, "
                       "hits@10 %.3f; unseen (%zu) mean rank %.2f, hits@10 %.3f  ETA %.0f s\n",
                       (unsigned long long)P.Step, O.Epochs, LossSum / std::max(1u, Batches),
                       V.MeanRank, V.Hits1, V.Hits10, U.Queries / 2, U.MeanRank, U.Hits10, Eta);
      outs().flush();
      double Score = Validation.Triplets.empty() ? -double(P.Step) : V.MeanRank;
      if (Score < Best) {
        Best = Score;
        // Shipped vectors are the unit-normalized ones TransE scored.
        torch::Tensor Unit = torch::nn::functional::normalize(
            EntD, torch::nn::functional::NormalizeFuncOptions().p(2).dim(-1));
        std::vector<std::vector<double>> Vectors(static_cast<size_t>(NumEnt));
        auto Acc = Unit.accessor<float, 2>();
        for (int64_t I = 0; I < NumEnt; ++I)
          for (int64_t J = 0; J < Unit.size(1); ++J)
            Vectors[size_t(I)].push_back(Acc[I][J]);
        if (Error E = writeFileAtomically(O.RunDir + "/vocabulary.json",
                                          IR2VecVocabulary::toJson(Vectors)))
          return E;
        json::Object Card{{"trainer", "ir2vec-vocab"},
                          {"epoch", int64_t(P.Step)},
                          {"seed", int64_t(O.Seed)},
                          {"dimension", int64_t(O.Dimension)},
                          {"train_triplets", int64_t(Train.Triplets.size())},
                          {"train_lines", int64_t(Train.Lines)},
                          {"validation_triplets", int64_t(Validation.Triplets.size())},
                          {"validation", figures(V, "")},
                          {"unseen", figures(U, "")}};
        std::string Text;
        raw_string_ostream(Text) << formatv("{0:2}", json::Value(std::move(Card))) << "\n";
        if (Error E = writeFileAtomically(O.RunDir + "/vocabulary-figures.json", Text))
          return E;
        if (Error E = saveBestScore(Ckpt, Score, int64_t(P.Step)))
          return E;
      }
      torch::save(EntD, Ckpt + "/entities.pt");
      torch::save(RelD, Ckpt + "/relations.pt");
      torch::save(Optimizer, Ckpt + "/optimizer.pt");
      if (Error E = saveProgress(Ckpt, P))
        return E;
    }
    appendMetrics(Metrics, json::Value(std::move(Line)));
  }
  return Error::success();
}

} // namespace smartcc
