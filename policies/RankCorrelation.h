// Spearman's rank correlation: how well predicted gains order the measured ones. Shared by the
// trainers' scoring (SequenceValue.h) and smartcc-eval's agent calibration (no LibTorch here).
#pragma once
#include <vector>

namespace smartcc {

// Spearman's rank correlation of two equally long series (average ranks for ties); 0 when
// either is constant or shorter than 2.
double spearman(const std::vector<double> &A, const std::vector<double> &B);

} // namespace smartcc
