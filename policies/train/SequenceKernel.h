// The kernel chooser (issue 21, "a calibrated chooser"): instead of a network, the predicted
// gain of each core-set sequence on a module is the average of what the sequences measured on
// the training modules, each weighted by exp(-|x - x_i|^2 / tau), x the standardized
// observation: a soft nearest-neighbour rule (Milepost GCC predicted optimizations from similar
// programs the same way). The bandwidth tau is the one knob: tiny, the nearest module decides;
// huge, every module weighs the same and the rule is the prior (the best fixed ranking), so
// validation chooses between "modules like this one" and "the average module" on evidence.
//
// It ships in the ordinary model format: standardization, a linear layer whose row i is
// (2 x_i / tau, bias -|x_i|^2 / tau) -- the squared distance up to |x|^2, which is the same
// for every i and cancels in the softmax --, a softmax layer, and a linear layer whose column i
// holds module i's targets. The compiler serves it as any sequence-value model.
#pragma once
#include "policies/train/SequenceValue.h"
#include "policies/train/Welford.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace smartcc {

// Bandwidths tried, as multiples of the median squared distance between training modules;
// +infinity stands for the prior (a model whose softmax is uniform).
std::vector<double> kernelBandwidthGrid();

// Predictions of the kernel rule fitted on Train at bandwidth Tau (absolute, in squared
// standardized distance) for the rows of T; Stats standardize both.
std::vector<std::vector<float>> kernelPredict(const ValueTable &Train, const Welford &Stats,
                                              double Tau, const ValueTable &T,
                                              double NegativeWeight);

// Fits the bandwidth on Validation and writes O.RunDir/model.smm (and metrics.jsonl, one line
// per bandwidth tried). Uses O's observation, negative-gain weight, column re-mining, seed and
// target; no LibTorch.
llvm::Error trainSequenceKernel(const SequenceValueOptions &O, const ValueTable &Train,
                                const ValueTable &Validation);

} // namespace smartcc
