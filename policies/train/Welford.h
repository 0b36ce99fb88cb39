// Welford's online mean and variance, per feature: observations are standardized with the
// statistics of everything seen so far (the seed project's DQN baseline does the same), and
// the final statistics ship with the model as its input standardization.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace smartcc {

struct Welford {
  uint64_t N = 0;
  std::vector<double> Mean, M2;

  void add(const std::vector<float> &X) {
    if (Mean.empty())
      Mean.assign(X.size(), 0.0), M2.assign(X.size(), 0.0);
    ++N;
    for (size_t I = 0; I < X.size(); ++I) {
      double Delta = X[I] - Mean[I];
      Mean[I] += Delta / double(N);
      M2[I] += Delta * (X[I] - Mean[I]);
    }
  }
  std::vector<float> mean() const { return {Mean.begin(), Mean.end()}; }
  // Standard deviations, 1 where a feature has not varied (so it passes through unscaled).
  std::vector<float> stddev() const {
    std::vector<float> S(Mean.size(), 1.0f);
    for (size_t I = 0; I < S.size() && N > 1; ++I) {
      double V = M2[I] / double(N - 1);
      S[I] = V > 1e-12 ? float(std::sqrt(V)) : 1.0f;
    }
    return S;
  }
  std::vector<float> standardize(const std::vector<float> &X) const {
    std::vector<float> Out(X), S = stddev();
    for (size_t I = 0; I < Out.size() && I < Mean.size(); ++I)
      Out[I] = float((Out[I] - Mean[I]) / S[I]);
    return Out;
  }
};

} // namespace smartcc
