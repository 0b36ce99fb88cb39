#include "policies/inliner/InlineFeatures.h"
#include "llvm/Analysis/MLInlineAdvisor.h"
#include <cmath>

namespace smartcc {

const std::vector<std::string> &inlineFeatureNames() {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> Out;
    for (const llvm::TensorSpec &Spec : llvm::MLInlineAdvisor::getInitialFeatureMap())
      Out.push_back(Spec.name());
    return Out;
  }();
  return Names;
}

std::vector<float> transformInlineFeatures(llvm::ArrayRef<int64_t> Raw) {
  std::vector<float> Out(Raw.size());
  for (size_t I = 0; I < Raw.size(); ++I) {
    double X = double(Raw[I]);
    Out[I] = float(std::copysign(std::log1p(std::fabs(X)), X));
  }
  return Out;
}

} // namespace smartcc
