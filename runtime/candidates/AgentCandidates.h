// Where the sequence-value agent meets the optimizer: at the start of the middle-end, the
// agent ranks its core set on the translation unit's module and the effort level decides how
// many of its sequences become candidates. Every one is measured against clang's own output
// like any other candidate, so a wrong prediction costs time, never bytes.
#pragma once
#include "runtime/config/CandidateSpec.h"
#include "runtime/config/Config.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

class SequenceAgent;

struct AgentChoice {
  bool Active = false;             // a model served this TU (its proposals replace the defaults)
  std::vector<CandidateSpec> Specs; // its proposals, best predicted first
  std::shared_ptr<const SequenceAgent> Agent; // the model itself (guided search asks it again)
  std::string Model;                // which model ("<built-in model x86_64.smm>", a path)
  std::string Note;                 // why the agent did not serve (no model, a broken model)
  double Millis = 0;                // features + inference, wall time
  double CpuMillis = 0;             // the same in this thread's CPU time (load does not count)
  std::vector<std::string> Skipped; // proposals identical to clang's output (not run)
};

// The macro action that is clang's whole per-module pipeline (policies/actions/macro.toml).
constexpr const char *WholeClangPipelineAction = "clang-default";

// Guided: a guided search follows effort 2's proposals (runtime/candidates/GuidedSearch.h), which are then
// its first round (proposalsForGuidedStart) instead of the whole core set.
AgentChoice agentCandidates(const llvm::Module &M, const Config &Cfg, llvm::StringRef Triple,
                            bool Guided = false);

} // namespace smartcc
