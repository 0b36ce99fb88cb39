// The inputs of smartcc's ML inliner: LLVM's own inliner features, exactly as MLInlineAdvisor
// fills them for each call site (llvm/Analysis/InlineModelFeatureMaps.h: the InlineCost
// features first, e.g. callsite_cost, threshold, sroa_savings, then call-graph features such
// as callee_basic_block_count, callsite_height, node_count, caller_users). Reusing LLVM's
// extraction keeps the features identical to MLGO's and costs nothing to maintain.
//
// The raw values are counts and costs spanning 0..1e5; the model sees sign(x)*log(1+|x|) of
// each, so that one linear layer can weigh a 10-instruction and a 10,000-instruction callee.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace smartcc {

// Names in the order of MLInlineAdvisor's feature map (what the model's inputs mean).
const std::vector<std::string> &inlineFeatureNames();
inline size_t inlineFeatureCount() { return inlineFeatureNames().size(); }

// The model's input for one call site.
std::vector<float> transformInlineFeatures(llvm::ArrayRef<int64_t> Raw);

} // namespace smartcc
