#include "runtime/candidates/AgentCandidates.h"
#include "policies/SequenceAgent.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <ctime>

using namespace llvm;

namespace smartcc {

AgentChoice agentCandidates(const Module &M, const Config &Cfg, StringRef Triple, bool Guided) {
  AgentChoice C;
  if (Cfg.Agent == "off")
    return C;
  // A configured candidate list (`none` included) says which candidates run; the agent joins
  // it only when asked for by name.
  if (!Cfg.candidatesAreDefault() && Cfg.settingIsDefault("agent"))
    return C;
  auto Start = std::chrono::steady_clock::now();
  // Thread CPU time too: on a loaded machine (make -j, other jobs) the wall time of a
  // sub-millisecond computation is mostly time spent descheduled.
  auto CpuNow = [] {
    timespec T{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
    return double(T.tv_sec) * 1e3 + double(T.tv_nsec) / 1e6;
  };
  double CpuStart = CpuNow();
  std::optional<Expected<SequenceAgent>> Agent;
  if (Cfg.Agent == "builtin")
    Agent = SequenceAgent::builtinFor(Triple);
  else
    Agent = SequenceAgent::load(Cfg.Agent); // checked when the configuration was read
  if (!Agent) {
    C.Note = ("no built-in agent model for " + Triple).str();
    return C;
  }
  if (!*Agent) {
    C.Note = "agent model unusable: " + toString(Agent->takeError());
    return C;
  }
  std::vector<SequenceProposal> Ranked = (*Agent)->rank(M);
  std::vector<SequenceProposal> Chosen =
      Guided && Cfg.Effort == 2 ? proposalsForGuidedStart(Ranked)
                                : proposalsForEffort(Ranked, Cfg.Effort, Cfg.AgentConfidence);
  if (Cfg.AgentConfidence > 0 && Cfg.Effort == 1 && Chosen.size() == 1)
    C.Note = formatv("first choice alone: predicted {0:f2} % better than the other proposals "
                     "(agent_confidence {1} %)",
                     firstChoiceMargin(proposalsForEffort(Ranked, 1)), Cfg.AgentConfidence)
                 .str();
  for (const SequenceProposal &P : Chosen) {
    CandidateSpec S;
    S.Name = "agent#" + std::to_string(P.Rank);
    S.Description = P.Text;
    S.Pipeline.clear(); // the sequence starts from the frontend's module, as it was trained
    S.Actions = P.Actions;
    // A sequence that begins with clang's whole pipeline continues from clang's own result:
    // the candidate forks when clang's middle-end ends and skips re-running it (about half of
    // a compile). Nothing but that pipeline is clang's own output: not a candidate.
    if (!S.Actions.empty() && S.Actions.front() == WholeClangPipelineAction) {
      S.Actions.erase(S.Actions.begin());
      if (S.Actions.empty()) {
        C.Skipped.push_back(P.Text);
        continue;
      }
      S.AfterClangPipeline = true;
    }
    S.ActionSpace = (*Agent)->spaceName();
    S.PredictedPercent = P.PredictedPercent;
    C.Specs.push_back(std::move(S));
  }
  C.Active = true;
  C.Model = (*Agent)->source();
  C.Agent = std::make_shared<const SequenceAgent>(std::move(**Agent));
  C.Millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  C.CpuMillis = CpuNow() - CpuStart;
  return C;
}

} // namespace smartcc
