#include "runtime/candidates/RegAllocCandidates.h"
#include "policies/regalloc/RegAllocPolicy.h"

using namespace llvm;

namespace smartcc {

RegAllocChoice regAllocFor(const Config &Cfg, StringRef Triple) {
  RegAllocChoice C;
  if (Cfg.RegAlloc == "greedy")
    return C;
  std::optional<Expected<RegAllocPolicy>> P;
  if (Cfg.RegAlloc == "ml") {
    P = RegAllocPolicy::builtinFor(Triple);
    if (!P) {
      C.Note = "no register-allocation model is built in for " + Triple.str();
      return C;
    }
  } else {
    P = RegAllocPolicy::load(Cfg.RegAlloc); // checked when the configuration was read
  }
  if (!*P) {
    C.Note = toString(P->takeError());
    return C;
  }
  C.Policy = std::make_shared<const RegAllocPolicy>(std::move(**P));
  return C;
}

bool isSpeedLevel(StringRef Level) { return Level == "O1" || Level == "O2" || Level == "O3"; }

void applyRegAlloc(std::vector<CandidateSpec> &Specs, const RegAllocChoice &Choice,
                   double MaxGrowth) {
  if (!Choice.Policy)
    return;
  // It continues from clang's optimized module: the middle-end is not run twice. Its first
  // codegen is LLVM's own allocation of that module (runtime/compile/RegAllocPortfolio.h), whose cost
  // it reports: at a speed level that is the baseline, so no replica of clang runs.
  CandidateSpec ML;
  ML.Name = MLRegAllocCandidate;
  ML.Description = "clang's optimized module, registers allocated with " + Choice.Policy->source();
  ML.Pipeline.clear();
  ML.AfterClangPipeline = true;
  ML.RegAlloc = Choice.Policy;
  ML.RegAllocMaxGrowth = MaxGrowth;
  Specs.push_back(std::move(ML));
}

} // namespace smartcc
