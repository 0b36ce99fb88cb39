// The observation vector the agents see, shared by the learning environment and the compiler's
// policy candidate so that both compute exactly the same input: log(1 + x) of each Autophase
// feature, then the action histogram (count of each action taken / horizon).
#pragma once
#include "policies/AutophaseFeatures.h"
#include <cmath>
#include <vector>

namespace smartcc {

inline std::vector<float> observationVector(const AutophaseVector &Features,
                                            const std::vector<size_t> &History,
                                            size_t NumActions, unsigned Horizon) {
  std::vector<float> Obs;
  Obs.reserve(Features.size() + NumActions);
  for (int64_t F : Features)
    Obs.push_back(float(std::log1p(double(F > 0 ? F : 0))));
  std::vector<float> Histogram(NumActions, 0.0f);
  for (size_t A : History)
    if (A < NumActions)
      Histogram[A] += 1.0f / float(Horizon);
  Obs.insert(Obs.end(), Histogram.begin(), Histogram.end());
  return Obs;
}

} // namespace smartcc
