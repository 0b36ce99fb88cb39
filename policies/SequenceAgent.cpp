#include "policies/SequenceAgent.h"
#include "policies/AutophaseFeatures.h"
#include "policies/ModuleObservation.h"
#include "policies/Observation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"
#include <algorithm>
#include <limits>
#include <numeric>

#include "BuiltinModels.inc"
// The link agent's models (policies/models/link/*.smm): the generated table has the same name.
namespace smartcc_link_models {
#include "BuiltinLinkModels.inc"
}
static const smartcc::EmbeddedModel *const BuiltinLinkModels = smartcc_link_models::BuiltinModels;

using namespace llvm;

namespace smartcc {

Expected<SequenceAgent> SequenceAgent::fromModel(ExportedModel Model, StringRef Source,
                                                 StringRef Kind) {
  auto Fail = [&](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Source + ": " + Message);
  };
  const json::Object &Meta = Model.metadata();
  StringRef Declared = Meta.getString("kind").value_or("");
  if (Declared != Kind)
    return Fail("not a " + Kind + " model (" +
                (Declared.empty() ? Twine("trainer '") + Meta.getString("trainer").value_or("?") +
                                        "'"
                                  : "a " + Declared + " model") +
                "); see smartcc-train --trainer value" +
                (Kind == "link-value" ? " and scripts/link-tables.py" : ""));
  const json::Array *Seqs = Meta.getArray("sequences");
  if (!Seqs || Seqs->size() != Model.outputSize())
    return Fail("model has " + Twine(Model.outputSize()) + " outputs but " +
                Twine(Seqs ? Seqs->size() : 0) + " sequences");
  SequenceAgent A;
  Expected<ModelObservation> Obs = modelObservation(Meta, /*Policy=*/false);
  if (!Obs)
    return Fail(toString(Obs.takeError()));
  A.Observation = Obs->Kind;
  A.Vocab = Obs->Vocab;
  if (usesIR2Vec(A.Observation) && Kind == "link-value")
    return Fail("link models read Autophase features only (IR2Vec is not summed over a "
                "program's modules yet)");
  if (Model.inputSize() != Obs->size())
    return Fail("model has " + Twine(Model.inputSize()) + " inputs; its observation (" +
                observationName(A.Observation) + ") has " + Twine(Obs->size()));
  A.Kind = Kind.str();
  A.NegativeGainWeight = Meta.getNumber("negative_gain_weight").value_or(0);
  if (A.NegativeGainWeight < 0 || A.NegativeGainWeight > 1)
    return Fail("negative_gain_weight must be within [0, 1]");
  A.Space = Meta.getString("space").value_or("").str();
  Expected<ActionSpace> Space = loadActionSpaces(A.Space);
  if (!Space)
    return Fail(toString(Space.takeError()));
  for (const json::Value &S : *Seqs) {
    StringRef Column = S.getAsString().value_or("");
    if (A.isLinkModel() && Column.starts_with("link:")) {
      A.Sequences.emplace_back();
      A.LinkCandidates.push_back(Column.drop_front(5).str());
      continue;
    }
    A.LinkCandidates.emplace_back();
    std::vector<std::string> Names;
    for (StringRef N : split(S.getAsString().value_or(""), ' '))
      if (!N.empty()) {
        if (Space->indexOf(N) < 0)
          return Fail("sequence action '" + N + "' is not in space '" + A.Space + "'");
        Names.push_back(N.str());
      }
    A.Sequences.push_back(std::move(Names));
  }
  A.Model = std::move(Model);
  A.Source = Source.str();
  return std::move(A);
}

Expected<SequenceAgent> SequenceAgent::load(const std::string &Path, StringRef Kind) {
  Expected<ExportedModel> M = ExportedModel::load(Path);
  if (!M)
    return M.takeError();
  return fromModel(std::move(*M), Path, Kind);
}

Expected<SequenceAgent> SequenceAgent::loadForLinks(const std::string &Path) {
  Expected<ExportedModel> M = ExportedModel::load(Path);
  if (!M)
    return M.takeError();
  StringRef Kind = M->metadata().getString("kind").value_or("") == "link-value"
                       ? "link-value"
                       : "sequence-value";
  Expected<SequenceAgent> A = fromModel(std::move(*M), Path, Kind);
  if (A && A->Observation != ObservationKind::Autophase)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": the link agent reads Autophase features (summed over the "
                                    "program's modules); this model reads " +
                                 observationName(A->Observation));
  return A;
}

std::optional<Expected<SequenceAgent>> SequenceAgent::builtinFor(StringRef Triple,
                                                                 StringRef Kind) {
  bool Link = Kind == "link-value";
  std::optional<Expected<BuiltinModel>> B = findBuiltinModel(
      Link ? BuiltinLinkModels : BuiltinModels, Triple, Link ? "link model" : "model");
  if (!B)
    return std::nullopt;
  if (!*B)
    return Expected<SequenceAgent>(B->takeError());
  return fromModel(std::move((*B)->Model), (*B)->Source, Kind);
}

std::vector<std::string> SequenceAgent::builtinNames() {
  std::vector<std::string> Out;
  for (const EmbeddedModel *E = BuiltinModels; E->Name; ++E)
    Out.push_back(E->Name);
  return Out;
}

std::vector<SequenceProposal> SequenceAgent::rank(const Module &M) const {
  return rankScores(Model.forward(moduleObservation(M, Observation, Vocab)));
}

std::vector<SequenceProposal> SequenceAgent::rank(const AutophaseVector &Features) const {
  // Only Autophase models get here (fromModel refuses others for links; loadForLinks too).
  return rankScores(Model.forward(observationVector(Features, {}, 0, 1)));
}

std::vector<SequenceProposal> SequenceAgent::rankScores(const std::vector<float> &Scores) const {
  std::vector<size_t> Order(Sequences.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Scores[A] > Scores[B]; });
  std::vector<SequenceProposal> Out;
  for (size_t I : Order) {
    SequenceProposal P;
    P.Actions = Sequences[I];
    P.Text = join(P.Actions, " ");
    // A model trained with a weight on losses predicts w * gain below 0 (SequenceValue.h):
    // the explain line and the confidence margin read the gain itself.
    P.PredictedPercent = Scores[I] < 0 && NegativeGainWeight > 0
                             ? Scores[I] / float(NegativeGainWeight)
                             : Scores[I];
    P.Rank = unsigned(Out.size() + 1);
    P.CoreSetIndex = unsigned(I);
    if (!LinkCandidates.empty() && !LinkCandidates[I].empty()) {
      P.LinkCandidate = LinkCandidates[I];
      P.Text = "link candidate " + P.LinkCandidate;
    }
    Out.push_back(std::move(P));
  }
  return Out;
}

double firstChoiceMargin(const std::vector<SequenceProposal> &Proposals) {
  double Margin = std::numeric_limits<double>::infinity();
  for (size_t J = 1; J < Proposals.size(); ++J)
    Margin = std::min(Margin, double(Proposals[0].PredictedPercent) -
                                  double(Proposals[J].PredictedPercent));
  return Margin;
}

std::vector<SequenceProposal> proposalsForGuidedStart(const std::vector<SequenceProposal> &Ranked,
                                                      size_t Count) {
  std::vector<SequenceProposal> Out = proposalsForEffort(Ranked, 1);
  for (const SequenceProposal &P : Ranked) {
    if (Out.size() >= Count)
      break;
    if (none_of(Out, [&](const SequenceProposal &Q) { return Q.CoreSetIndex == P.CoreSetIndex; }))
      Out.push_back(P);
  }
  return Out;
}

std::vector<SequenceProposal> proposalsForEffort(std::vector<SequenceProposal> Ranked,
                                                 unsigned Effort, double ConfidenceMargin) {
  if (Effort >= 2 || Ranked.empty())
    return Ranked;
  std::vector<SequenceProposal> Out{Ranked.front()};
  if (Effort == 0)
    return Out;
  // Effort 1: the model's first choice, then the core set's own best sequences in the order
  // they were mined (each the most valuable given those before it), skipping the one chosen.
  // The fixed order is strong on its own; the learned choice adds what differs per TU.
  std::vector<SequenceProposal> ByCoreSetOrder = Ranked;
  std::stable_sort(ByCoreSetOrder.begin(), ByCoreSetOrder.end(),
                   [](const SequenceProposal &A, const SequenceProposal &B) {
                     return A.CoreSetIndex < B.CoreSetIndex;
                   });
  for (const SequenceProposal &P : ByCoreSetOrder) {
    if (Out.size() == EffortOneCandidates)
      break;
    if (P.CoreSetIndex != Out.front().CoreSetIndex)
      Out.push_back(P);
  }
  if (ConfidenceMargin > 0 && firstChoiceMargin(Out) >= ConfidenceMargin)
    Out.resize(1);
  return Out;
}

} // namespace smartcc
