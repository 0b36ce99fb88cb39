#include "policies/RankCorrelation.h"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace smartcc {

namespace {
std::vector<double> averageRanks(const std::vector<double> &X) {
  std::vector<size_t> Order(X.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) { return X[A] < X[B]; });
  std::vector<double> Rank(X.size());
  for (size_t I = 0; I < Order.size();) {
    size_t J = I;
    while (J + 1 < Order.size() && X[Order[J + 1]] == X[Order[I]])
      ++J;
    for (size_t K = I; K <= J; ++K)
      Rank[Order[K]] = (double(I) + double(J)) / 2.0;
    I = J + 1;
  }
  return Rank;
}
} // namespace

double spearman(const std::vector<double> &A, const std::vector<double> &B) {
  if (A.size() != B.size() || A.size() < 2)
    return 0;
  std::vector<double> RA = averageRanks(A), RB = averageRanks(B);
  double MA = 0, MB = 0;
  for (size_t I = 0; I < RA.size(); ++I)
    MA += RA[I], MB += RB[I];
  MA /= double(RA.size()), MB /= double(RB.size());
  double Cov = 0, VA = 0, VB = 0;
  for (size_t I = 0; I < RA.size(); ++I) {
    Cov += (RA[I] - MA) * (RB[I] - MB);
    VA += (RA[I] - MA) * (RA[I] - MA);
    VB += (RB[I] - MB) * (RB[I] - MB);
  }
  return VA > 0 && VB > 0 ? Cov / std::sqrt(VA * VB) : 0;
}

} // namespace smartcc
