#include "runtime/candidates/InlinerCandidates.h"
#include "policies/inliner/InlinePolicy.h"

using namespace llvm;

namespace smartcc {

InlinerChoice inlinerFor(const Config &Cfg, StringRef Triple) {
  InlinerChoice C;
  if (Cfg.Inliner == "heuristic")
    return C;
  std::optional<Expected<InlinePolicy>> P;
  if (Cfg.Inliner == "ml") {
    P = InlinePolicy::builtinFor(Triple);
    if (!P) {
      C.Note = "no ML inliner model is built in for " + Triple.str();
      return C;
    }
  } else {
    P = InlinePolicy::load(Cfg.Inliner); // checked when the configuration was read
  }
  if (!*P) {
    C.Note = toString(P->takeError());
    return C;
  }
  C.Policy = std::make_shared<const InlinePolicy>(std::move(**P));
  return C;
}

void applyInliner(std::vector<CandidateSpec> &Specs, const InlinerChoice &Choice) {
  if (!Choice.Policy)
    return;
  for (CandidateSpec &S : Specs)
    if (!S.AfterClangPipeline)
      S.Inliner = Choice.Policy;
  CandidateSpec Oz;
  Oz.Name = MLInlinerCandidate;
  Oz.Description = "clang's pipeline, inlining decided by " + Choice.Policy->source();
  Oz.Inliner = Choice.Policy;
  Specs.push_back(std::move(Oz));
}

} // namespace smartcc
