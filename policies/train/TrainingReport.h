// Renders a run's metrics.jsonl into RUN/report.html: SVG learning curves (episode return,
// validation geomean against clang -Oz, loss, mean Q, gradient norm; for the world-model agent
// its model losses, actor-critic, distillation and gradient norms instead) and the action
// histogram of the latest episodes, like the papers' training figures. No LibTorch needed.
#pragma once
#include "llvm/Support/Error.h"
#include <string>

namespace smartcc {
llvm::Error writeTrainingReport(const std::string &RunDir);
}
