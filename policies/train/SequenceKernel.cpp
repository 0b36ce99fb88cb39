#include "policies/train/SequenceKernel.h"
#include "policies/model/ExportedModel.h"
#include "policies/train/TorchExport.h"
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace llvm;

namespace smartcc {

namespace {

// The training side of the rule: standardized observations, their squared norms, and the
// targets per module (a sequence that failed on a module counts as the prior's value there,
// so it neither pulls the average up nor down).
struct KernelData {
  std::vector<std::vector<float>> Z, Y;
  std::vector<double> Norm2;
  std::vector<float> Prior;
};

KernelData kernelData(const ValueTable &Train, const Welford &Stats, double NegativeWeight) {
  KernelData D;
  D.Prior = valuePrior(Train, NegativeWeight);
  for (const ValueTableRow &R : Train.Rows) {
    std::vector<float> Z = Stats.standardize(R.Obs), Y = D.Prior;
    double N2 = 0;
    for (float V : Z)
      N2 += double(V) * V;
    for (size_t J = 0; J < Y.size() && J < R.Values.size(); ++J)
      if (R.Values[J] > 0 && R.Clang > 0)
        Y[J] = float(valueTarget(R.Clang, R.Values[J], NegativeWeight));
    D.Z.push_back(std::move(Z));
    D.Y.push_back(std::move(Y));
    D.Norm2.push_back(N2);
  }
  return D;
}

double dot(const std::vector<float> &A, const std::vector<float> &B) {
  double S = 0;
  for (size_t I = 0; I < A.size() && I < B.size(); ++I)
    S += double(A[I]) * B[I];
  return S;
}

// Predictions for standardized X; Skip (a training row's own index) is left out, so training
// figures are leave-one-out, not the memorized table.
std::vector<float> predictOne(const KernelData &D, const std::vector<float> &X, double Tau,
                              size_t Skip = std::numeric_limits<size_t>::max()) {
  const size_t N = D.Z.size(), K = D.Y.empty() ? 0 : D.Y[0].size();
  std::vector<double> Logit(N, -std::numeric_limits<double>::infinity());
  double Max = -std::numeric_limits<double>::infinity();
  for (size_t I = 0; I < N; ++I) {
    if (I == Skip)
      continue;
    // -|x - z_i|^2 / tau without |x|^2, which every i shares.
    Logit[I] = std::isinf(Tau) ? 0.0 : (2.0 * dot(X, D.Z[I]) - D.Norm2[I]) / Tau;
    Max = std::max(Max, Logit[I]);
  }
  std::vector<double> Out(K, 0.0);
  double Sum = 0;
  for (size_t I = 0; I < N; ++I) {
    if (I == Skip)
      continue;
    double W = std::exp(Logit[I] - Max);
    Sum += W;
    for (size_t J = 0; J < K; ++J)
      Out[J] += W * D.Y[I][J];
  }
  std::vector<float> R(K);
  for (size_t J = 0; J < K; ++J)
    R[J] = Sum > 0 ? float(Out[J] / Sum) : 0.0f;
  return R;
}

// The median squared distance between training modules: the bandwidth's unit, so the grid
// means the same on any observation (56 Autophase counts or 120 with IR2Vec).
double medianSquaredDistance(const KernelData &D) {
  std::vector<double> Dist;
  for (size_t I = 0; I < D.Z.size(); ++I)
    for (size_t J = I + 1; J < D.Z.size(); ++J)
      Dist.push_back(D.Norm2[I] + D.Norm2[J] - 2.0 * dot(D.Z[I], D.Z[J]));
  if (Dist.empty())
    return 1.0;
  std::nth_element(Dist.begin(), Dist.begin() + Dist.size() / 2, Dist.end());
  return std::max(Dist[Dist.size() / 2], 1e-6);
}

// A bandwidth multiple as printed, and as recorded in JSON (a number, "inf" for the prior).
std::string multipleText(double Multiple) {
  return std::isinf(Multiple) ? "inf" : formatv("{0}", Multiple).str();
}
json::Value multipleJSON(double Multiple) {
  return std::isinf(Multiple) ? json::Value("inf") : json::Value(Multiple);
}

} // namespace

std::vector<double> kernelBandwidthGrid() {
  return {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
          std::numeric_limits<double>::infinity()};
}

std::vector<std::vector<float>> kernelPredict(const ValueTable &Train, const Welford &Stats,
                                              double Tau, const ValueTable &T,
                                              double NegativeWeight) {
  KernelData D = kernelData(Train, Stats, NegativeWeight);
  std::vector<std::vector<float>> P;
  for (const ValueTableRow &R : T.Rows)
    P.push_back(predictOne(D, Stats.standardize(R.Obs), Tau));
  return P;
}

Error trainSequenceKernel(const SequenceValueOptions &O, const ValueTable &TrainIn,
                          const ValueTable &ValidationIn) {
  if (TrainIn.Rows.size() < 2)
    return createStringError(inconvertibleErrorCode(),
                             "the kernel chooser needs at least two training rows");
  ValueTable Train = TrainIn, Validation = ValidationIn;
  Expected<std::string> ColumnOrder = chooseColumnOrder(O, Train, Validation);
  if (!ColumnOrder)
    return ColumnOrder.takeError();
  if (std::error_code EC = sys::fs::create_directories(O.RunDir))
    return errorCodeToError(EC);
  const std::string Metrics = O.RunDir + "/metrics.jsonl";
  sys::fs::remove(Metrics); // one fit, no resume: a rerun replaces it

  Welford Stats;
  for (const ValueTableRow &R : Train.Rows)
    Stats.add(R.Obs);
  const KernelData D = kernelData(Train, Stats, O.NegativeGainWeight);
  const double Median = medianSquaredDistance(D);
  const std::vector<float> &Prior = D.Prior;
  const ChoiceFigures PriorV = scoreFixedRanking(Validation, Prior);
  outs() << format("kernel chooser on %zu training modules, median squared distance %.3g\n"
                   "prior (each sequence's mean training target): validation top-1 %.4f "
                   "effort-1 %.4f, top-1 accuracy %.2f, Spearman %.2f\n",
                   Train.Rows.size(), Median, PriorV.Top1, PriorV.Effort1, PriorV.Top1Accuracy,
                   PriorV.Spearman);

  std::vector<std::vector<float>> ValZ; // the validation rows, standardized once
  for (const ValueTableRow &R : Validation.Rows)
    ValZ.push_back(Stats.standardize(R.Obs));

  double BestScore = -1, BestMultiple = 0;
  ChoiceFigures BestV, BestT;
  for (double Multiple : kernelBandwidthGrid()) {
    const double Tau = Multiple * Median;
    std::vector<std::vector<float>> ValPred, TrainPred;
    for (const std::vector<float> &Z : ValZ)
      ValPred.push_back(predictOne(D, Z, Tau));
    for (size_t I = 0; I < Train.Rows.size(); ++I)
      TrainPred.push_back(predictOne(D, D.Z[I], Tau, I));
    ChoiceFigures V = scoreChoices(Validation, ValPred), T = scoreChoices(Train, TrainPred);
    json::Object Line{{"trainer", "value-kernel"}, {"bandwidth_multiple", multipleJSON(Multiple)}};
    for (auto &KV : figuresJSON(V, "validation_"))
      Line[KV.first] = std::move(KV.second);
    for (auto &KV : figuresJSON(T, "train_loo_"))
      Line[KV.first] = std::move(KV.second);
    appendMetrics(Metrics, json::Value(std::move(Line)));
    outs() << format("bandwidth %6s x median  validation top-1 %.4f effort-1 %.4f (oracle %.4f, "
                     "%.0f %% of it; top-1 accuracy %.2f, Spearman %.2f)  train (leave one out) "
                     "effort-1 %.4f Spearman %.2f\n",
                     multipleText(Multiple).c_str(),
                     V.Top1, V.Effort1, V.Oracle, 100.0 * V.OracleShare, V.Top1Accuracy,
                     V.Spearman, T.Effort1, T.Spearman);
    // Ties go to the wider kernel (the grid ascends): the smoother rule, nearer the prior.
    if (choiceScore(V) >= BestScore - 1e-12) {
      BestScore = choiceScore(V);
      BestMultiple = Multiple;
      BestV = V;
      BestT = T;
    }
  }
  const double Tau = BestMultiple * Median;
  outs() << format("chosen bandwidth: %s x the median squared distance%s\n",
                   multipleText(BestMultiple).c_str(),
                   std::isinf(BestMultiple) ? " (the prior)" : "");

  // Export: standardization, Linear(d -> N), Softmax, Linear(N -> K).
  const size_t N = D.Z.size(), Dim = D.Z[0].size(), K = Prior.size();
  std::vector<float> W;
  W.reserve(N * Dim + N + K * N + K);
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < Dim; ++J)
      W.push_back(std::isinf(Tau) ? 0.0f : float(2.0 * D.Z[I][J] / Tau));
  for (size_t I = 0; I < N; ++I)
    W.push_back(std::isinf(Tau) ? 0.0f : float(-D.Norm2[I] / Tau));
  const size_t Second = W.size();
  for (size_t J = 0; J < K; ++J)
    for (size_t I = 0; I < N; ++I)
      W.push_back(D.Y[I][J]);
  W.insert(W.end(), K, 0.0f);
  json::Object Meta = valueModelMetadata(O, Train, Validation, Prior, *ColumnOrder);
  Meta["chooser"] = json::Object{
      {"kind", "kernel"},
      {"bandwidth_multiple", multipleJSON(BestMultiple)},
      {"median_squared_distance", Median}};
  Meta["validation"] = figuresJSON(BestV, "");
  Meta["validation_prior"] = figuresJSON(PriorV, "");
  Meta["train_leave_one_out"] = figuresJSON(BestT, "");
  Meta["input_size"] = int64_t(Dim);
  Meta["input_mean"] = floatsJSON(Stats.mean());
  Meta["input_std"] = floatsJSON(Stats.stddev());
  Meta["layers"] = json::Array{
      json::Object{{"kind", "linear"}, {"in", int64_t(Dim)}, {"out", int64_t(N)}, {"offset", 0}},
      json::Object{{"kind", "softmax"}},
      json::Object{{"kind", "linear"},
                   {"in", int64_t(N)},
                   {"out", int64_t(K)},
                   {"offset", int64_t(Second)}}};
  std::string Bytes = ExportedModel::serialize(Meta, W);
  // What the compiler will compute must be what was scored: check the exported model on the
  // validation rows before writing it.
  Expected<ExportedModel> M = ExportedModel::parse(Bytes, O.RunDir + "/model.smm");
  if (!M)
    return M.takeError();
  for (size_t R = 0; R < Validation.Rows.size(); ++R) {
    std::vector<float> A = M->forward(Validation.Rows[R].Obs), B = predictOne(D, ValZ[R], Tau);
    for (size_t J = 0; J < K; ++J)
      if (std::fabs(A[J] - B[J]) > 1e-2f + 1e-3f * std::fabs(B[J]))
        return createStringError(inconvertibleErrorCode(),
                                 "exported kernel model differs from the fitted rule on "
                                 "module %s (sequence %zu: %g vs %g)",
                                 Validation.Rows[R].Hash.c_str(), J, double(A[J]),
                                 double(B[J]));
  }
  return writeFileAtomically(O.RunDir + "/model.smm", Bytes);
}

} // namespace smartcc
