// What a machine function looks like to the register allocator, before allocation: the
// features from which a model predicts which allocator gives it the fewest bytes
// (policies/regalloc/AllocatorPlan.h), so that the compiler code-generates once with the
// predicted allocators instead of once per allocator. Computed from public LLVM types only
// (the live intervals and loops every allocator requires), in a fixed order.
#pragma once
#include <string>
#include <vector>

namespace llvm {
class LiveIntervals;
class MachineFunction;
class MachineLoopInfo;
} // namespace llvm

namespace smartcc {

// The names, in order (model metadata lists them, so a model for other features is refused).
const std::vector<std::string> &allocatorFeatureNames();

std::vector<float> allocatorFeatures(const llvm::MachineFunction &MF,
                                     const llvm::LiveIntervals &LIS,
                                     const llvm::MachineLoopInfo &Loops);

} // namespace smartcc
