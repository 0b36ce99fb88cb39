// Where the ML inliner meets the optimizer. With `inliner` = ml (the model shipped for the
// target) or a model path, every candidate that runs a middle-end inlines by the policy, and
// one more candidate runs clang's own pipeline with it ("oz-ml-inliner"). clang's own output
// (the baseline every candidate must beat) is never touched, so the fallback still holds.
#pragma once
#include "runtime/config/CandidateSpec.h"
#include "runtime/config/Config.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace smartcc {

class InlinePolicy;

struct InlinerChoice {
  std::shared_ptr<const InlinePolicy> Policy; // null: LLVM's heuristic
  std::string Note; // why ml was asked for and not used (no model for this target)
};

InlinerChoice inlinerFor(const Config &Cfg, llvm::StringRef Triple);

// Gives Specs the policy (candidates continuing from clang's optimized module have inlined
// already and are left alone) and appends the oz-ml-inliner candidate.
void applyInliner(std::vector<CandidateSpec> &Specs, const InlinerChoice &Choice);

constexpr const char *MLInlinerCandidate = "oz-ml-inliner";

} // namespace smartcc
