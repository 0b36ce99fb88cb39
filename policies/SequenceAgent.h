// The sequence-value agent as the compiler serves it (no LibTorch): a shipped model predicts,
// from a translation unit's pre-optimization module, the gain of each sequence of its core set
// over clang -Oz; the compiler then runs the best-predicted ones as candidates (how many is the
// effort level) and measures them. Trained by smartcc-train --trainer value (SequenceValue.h).
#pragma once
#include "policies/ActionSpace.h"
#include "policies/AutophaseFeatures.h"
#include "policies/ModuleObservation.h"
#include "policies/model/ExportedModel.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

struct SequenceProposal {
  std::string Text;                 // "clang-default no-machine-outliner"
  std::vector<std::string> Actions; // the same, one action name each
  float PredictedPercent = 0;       // predicted 100*log(clang -Oz / sequence); > 0 = smaller
  unsigned Rank = 0;                // 1 = the model's first choice
  unsigned CoreSetIndex = 0;        // position in the core set (mined order: best first)
  std::string LinkCandidate;        // a link-value model's column "link:NAME": NAME (no Actions)
};

class SequenceAgent {
public:
  // Checks that Model is a model of kind Kind whose sequences exist in its action space. Kinds:
  // "sequence-value" (per TU: every column a core-set sequence) and "link-value" (the link
  // agent's, trained on whole-program links by scripts/link-tables.py: columns are sequences
  // or link candidates "link:NAME"). Errors name Source.
  static llvm::Expected<SequenceAgent> fromModel(ExportedModel Model, llvm::StringRef Source,
                                                 llvm::StringRef Kind = "sequence-value");
  static llvm::Expected<SequenceAgent> load(const std::string &Path,
                                            llvm::StringRef Kind = "sequence-value");
  // The model compiled into smartcc for this target triple, if there is one: the per-TU agent
  // (policies/models/TARGET.smm) or, with Kind "link-value", the link agent's
  // (policies/models/link/TARGET.smm).
  static std::optional<llvm::Expected<SequenceAgent>>
  builtinFor(llvm::StringRef Triple, llvm::StringRef Kind = "sequence-value");
  // A model file for the link agent: a link-value model, or else a per-TU one (its kind is
  // read from the file, which is parsed once).
  static llvm::Expected<SequenceAgent> loadForLinks(const std::string &Path);
  bool isLinkModel() const { return Kind == "link-value"; }
  // Names of the built-in models (policies/models/*.smm).
  static std::vector<std::string> builtinNames();

  // Every core-set sequence, best predicted first (ties: core-set order, so deterministic).
  std::vector<SequenceProposal> rank(const llvm::Module &M) const;
  // The same from features already computed (an LTO link sums those of its modules): Autophase
  // models only (the link agent's).
  std::vector<SequenceProposal> rank(const AutophaseVector &Features) const;
  // The core set: sequence I is what a proposal with CoreSetIndex I plays.
  const std::vector<std::vector<std::string>> &sequences() const { return Sequences; }
  ObservationKind observation() const { return Observation; }
  const std::string &spaceName() const { return Space; }
  const std::string &source() const { return Source; }
  const ExportedModel &model() const { return Model; }

private:
  std::vector<SequenceProposal> rankScores(const std::vector<float> &Scores) const;
  ExportedModel Model;
  ObservationKind Observation = ObservationKind::Autophase; // metadata "observation"
  const IR2VecVocabulary *Vocab = nullptr;                   // the built-in one, when read
  std::string Space, Source, Kind;
  double NegativeGainWeight = 0; // metadata "negative_gain_weight" (SequenceValue.h)
  std::vector<std::vector<std::string>> Sequences;
  std::vector<std::string> LinkCandidates; // per column: NAME of "link:NAME", else ""
};

// Effort levels: 0 = the model's first choice only; 1 (default) = that choice and the core set's
// first sequences in mined order, EffortOneCandidates in all; 2 = the whole core set.
constexpr size_t EffortOneCandidates = 3;
// ConfidenceMargin (percent, 0 = off): at effort 1, the first choice runs alone when its
// prediction beats every other effort-1 proposal's by at least this much (the compiler's
// `agent_confidence`; smartcc-train --score reports what each margin keeps).
std::vector<SequenceProposal> proposalsForEffort(std::vector<SequenceProposal> Ranked,
                                                 unsigned Effort, double ConfidenceMargin = 0);
// Effort 2's first round when a guided search follows it (runtime/candidates/GuidedSearch.h): effort 1's
// proposals, then the best predicted others, Count in all. On 120 eval modules (x86-64,
// docs/results/guided-search.md) the 9 best and 3 continuations measured 1.0248 against
// the whole core set's 1.0239, with 12 sequences compiled instead of 19 (aarch64, 48 modules:
// 1.0329 against 1.0334).
constexpr size_t GuidedStartCandidates = 9;
std::vector<SequenceProposal> proposalsForGuidedStart(const std::vector<SequenceProposal> &Ranked,
                                                      size_t Count = GuidedStartCandidates);
// The predicted margin of the first of Proposals over the others (percent); +infinity when
// there is no other.
double firstChoiceMargin(const std::vector<SequenceProposal> &Proposals);

} // namespace smartcc
