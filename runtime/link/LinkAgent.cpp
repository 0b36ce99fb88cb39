#include "runtime/link/LinkAgent.h"
#include "runtime/link/LinkInputs.h"
#include "policies/AutophaseFeatures.h"
#include "policies/SequenceAgent.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include <chrono>

using namespace llvm;

namespace smartcc {

Expected<LinkCandidateSpec> linkCandidateForSequence(ArrayRef<std::string> Actions,
                                                     const ActionSpace &Space, StringRef Level) {
  LinkCandidateSpec S;
  for (const std::string &Name : Actions) {
    int I = Space.indexOf(Name);
    if (I < 0)
      return createStringError(inconvertibleErrorCode(), "unknown action '%s'", Name.c_str());
    const Action &A = Space.Actions[size_t(I)];
    switch (A.Kind) {
    case ActionKind::Pass:
      S.Pipeline.push_back(A.Pipeline);
      break;
    case ActionKind::Macro:
      if (A.Pipeline == "clang-default")
        S.Pipeline.push_back("lto<O2>");
      else if (A.Pipeline == "clang-default-os")
        return createStringError(inconvertibleErrorCode(),
                                 "'%s' has no link-time form (it re-runs -Os from the frontend)",
                                 Name.c_str());
      else
        S.Pipeline.push_back(("smartcc-macro<" + A.Pipeline + ";" + Level + ">").str());
      break;
    case ActionKind::Option:
      for (const auto &[Key, Value] : A.FunctionAttrs)
        S.Pipeline.push_back("smartcc-function-attr<" + Key + "=" + Value + ">");
      for (const std::string &Arg : A.LLVMArgs)
        if (!is_contained(S.LLVMArgs, Arg))
          S.LLVMArgs.push_back(Arg);
      break;
    }
  }
  // Options alone still need a middle-end: lld's own, as clang's link.
  if (none_of(S.Pipeline, [](const std::string &St) {
        return !StringRef(St).starts_with("smartcc-function-attr<");
      }))
    S.Pipeline.push_back("lto<O2>");
  return S;
}

namespace {

// Adds the features of the bitcode module in Buf (nothing for other files).
void addModuleFeatures(MemoryBufferRef Buf, AutophaseVector &Sum, unsigned &Modules,
                       std::string &Note) {
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(Buf, Ctx);
  if (!M) {
    Note += (Note.empty() ? "" : "; ") + Buf.getBufferIdentifier().str() + ": " +
            toString(M.takeError());
    return;
  }
  AutophaseVector F = computeAutophase(**M);
  for (size_t I = 0; I < F.size(); ++I)
    Sum[I] += F[I];
  ++Modules;
}

} // namespace

LinkAgentChoice linkAgentCandidates(ArrayRef<std::string> Inputs, const Config &Cfg,
                                    StringRef Triple, StringRef Level, bool FatSections) {
  LinkAgentChoice C;
  if (Cfg.LinkAgent == "off")
    return C;
  // As for TUs: a configured link candidate list (`none` included) says which candidates run;
  // the agent joins it only when asked for by name.
  if (!Cfg.settingIsDefault("link_candidates") && Cfg.settingIsDefault("link_agent"))
    return C;
  auto Start = std::chrono::steady_clock::now();
  // builtin: the model trained on links (kind link-value) for the target. The per-TU agent
  // on the program's summed features lost on every measured link (docs/design.md, "LTO
  // links"), so it serves only when named by path.
  std::optional<Expected<SequenceAgent>> Agent;
  if (Cfg.LinkAgent == "builtin") {
    Agent = SequenceAgent::builtinFor(Triple, "link-value");
    if (!Agent) {
      C.Note = ("no built-in link model for " + Triple).str();
      return C;
    }
  } else { // checked when the configuration was read
    Agent = SequenceAgent::loadForLinks(Cfg.LinkAgent);
  }
  if (!*Agent) {
    C.Note = "agent model unusable: " + toString(Agent->takeError());
    return C;
  }
  Expected<ActionSpace> Space = loadActionSpaces((*Agent)->spaceName());
  if (!Space) {
    C.Note = "agent model's action space: " + toString(Space.takeError());
    return C;
  }

  // What LTO merges: the bitcode among the inputs. Archive members count whether or not the
  // link pulls them in (an estimate: the features are counts the model sees on a log scale).
  AutophaseVector Sum{};
  forEachBitcodeInput(
      Inputs, [&](MemoryBufferRef Module) { addModuleFeatures(Module, Sum, C.Modules, C.Note); },
      FatSections);
  if (!C.Modules) {
    C.Note = "no bitcode among the link's inputs" + (C.Note.empty() ? "" : ": " + C.Note);
    return C;
  }

  C.Features.assign(Sum.begin(), Sum.end());
  std::vector<SequenceProposal> Ranked = (*Agent)->rank(Sum);
  if ((*Agent)->isLinkModel()) {
    // Its columns have no mined order: effort 0 runs its first choice, 1 its first three, 2
    // all of them, best predicted first (within link_time, so the order matters).
    size_t Keep = Cfg.Effort == 0 ? 1 : Cfg.Effort == 1 ? EffortOneCandidates : Ranked.size();
    Ranked.resize(std::min(Keep, Ranked.size()));
  } else {
    Ranked = proposalsForEffort(std::move(Ranked), Cfg.Effort);
  }
  for (const SequenceProposal &P : Ranked) {
    if (!P.LinkCandidate.empty()) {
      auto It = Cfg.LinkCandidateLibrary.find(P.LinkCandidate);
      if (It == Cfg.LinkCandidateLibrary.end()) {
        C.Skipped.push_back(P.Text + " (not in the link candidate library)");
        continue;
      }
      LinkCandidateSpec S = It->second;
      S.Description = P.Text;
      C.Specs.push_back(std::move(S)); // keeps its library name
      C.Predicted.push_back(P.PredictedPercent);
      continue;
    }
    Expected<LinkCandidateSpec> S = linkCandidateForSequence(P.Actions, *Space, Level);
    if (!S) {
      C.Skipped.push_back(P.Text + " (" + toString(S.takeError()) + ")");
      continue;
    }
    if (S->Pipeline == std::vector<std::string>{"lto<O2>"} && S->LLVMArgs.empty()) {
      C.Skipped.push_back(P.Text + " (clang's link)");
      continue;
    }
    S->Name = "agent#" + std::to_string(P.Rank);
    S->Description = P.Text;
    C.Specs.push_back(std::move(*S));
    C.Predicted.push_back(P.PredictedPercent);
  }
  C.Active = true;
  C.Model = (*Agent)->source();
  C.ActionSpace = (*Agent)->spaceName();
  C.Millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return C;
}

} // namespace smartcc
