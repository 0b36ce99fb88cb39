#include "policies/regalloc/AllocatorModel.h"
#include "policies/model/EmbeddedModels.h"
#include "policies/regalloc/AllocatorFeatures.h"

#include "BuiltinAllocatorModels.inc"
namespace proposals {
#include "BuiltinAllocatorProposalModels.inc"
}

using namespace llvm;

namespace smartcc {
namespace {

Error bad(StringRef Source, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Source + ": " + Why);
}

} // namespace

Expected<AllocatorModel> AllocatorModel::fromModel(ExportedModel M, StringRef Source) {
  const json::Object &Meta = M.metadata();
  std::optional<StringRef> Kind = Meta.getString("kind");
  if (!Kind || *Kind != "allocator-choice")
    return bad(Source, "not an allocator-choice model (metadata kind)");
  const json::Array *Features = Meta.getArray("features");
  const std::vector<std::string> &Names = allocatorFeatureNames();
  bool Same = Features && Features->size() == Names.size();
  for (size_t I = 0; Same && I < Names.size(); ++I)
    Same = (*Features)[I].getAsString() == StringRef(Names[I]);
  if (!Same)
    return bad(Source, "its features are not this smartcc's (" + Twine(Names.size()) +
                           " features, from " + Names.front() + " to " + Names.back() + ")");
  if (M.inputSize() != Names.size())
    return bad(Source, "input size " + Twine(M.inputSize()) + ", expected " +
                           Twine(Names.size()));
  AllocatorModel A;
  const json::Array *Allocators = Meta.getArray("allocators");
  if (!Allocators || Allocators->size() < 2)
    return bad(Source, "'allocators' must name at least two allocators");
  for (const json::Value &V : *Allocators) {
    std::optional<StringRef> Name = V.getAsString();
    if (!Name)
      return bad(Source, "'allocators' must be strings");
    Expected<AllocatorChoice> C = parseAllocatorChoice(*Name);
    if (!C)
      return bad(Source, toString(C.takeError()));
    A.Allocators.push_back(std::move(*C));
  }
  if (M.outputSize() != A.Allocators.size())
    return bad(Source, "output size " + Twine(M.outputSize()) + " for " +
                           Twine(A.Allocators.size()) + " allocators");
  if (std::optional<StringRef> Use = Meta.getString("use")) {
    if (*Use != "choice" && *Use != "proposal")
      return bad(Source, "'use' must be \"choice\" or \"proposal\", not \"" + *Use + "\"");
    A.Proposal = *Use == "proposal";
  }
  if (std::optional<double> Margin = Meta.getNumber("margin"))
    A.Margin = float(*Margin);
  if (const json::Value *Gates = Meta.get("gates")) {
    const json::Object *G = Gates->getAsObject();
    if (!G || !A.Proposal)
      return bad(Source, "'gates' must be an object, in a proposal model");
    for (const auto &[Key, Field] :
         {std::pair{"min_reference_bytes", &A.Gates.MinReferenceBytes},
          std::pair{"min_mix_gain_bytes", &A.Gates.MinMixGainBytes}}) {
      const json::Value *V = G->get(Key);
      if (!V)
        continue;
      std::optional<int64_t> N = V->getAsInteger();
      if (!N || *N < 0)
        return bad(Source, Twine("gates: '") + Key + "' must be a non-negative integer");
      *Field = uint64_t(*N);
    }
    for (const auto &KV : *G)
      if (KV.first != "min_reference_bytes" && KV.first != "min_mix_gain_bytes")
        return bad(Source, "gates: unknown key '" + KV.first.str() + "'");
  }
  A.Model = std::move(M);
  A.Source = Source.str();
  return A;
}

Expected<AllocatorModel> AllocatorModel::load(const std::string &Path) {
  Expected<ExportedModel> M = ExportedModel::load(Path);
  if (!M)
    return M.takeError();
  return fromModel(std::move(*M), Path);
}

namespace {
std::optional<Expected<AllocatorModel>> builtinFrom(const EmbeddedModel *Table, StringRef Triple,
                                                    StringRef Label) {
  std::optional<Expected<BuiltinModel>> B = findBuiltinModel(Table, Triple, Label);
  if (!B)
    return std::nullopt;
  if (!*B)
    return Expected<AllocatorModel>(B->takeError());
  return AllocatorModel::fromModel(std::move((*B)->Model), (*B)->Source);
}
} // namespace

std::optional<Expected<AllocatorModel>> AllocatorModel::builtinFor(StringRef Triple) {
  return builtinFrom(BuiltinModels, Triple, "allocator-choice model");
}

std::optional<Expected<AllocatorModel>> AllocatorModel::builtinProposalFor(StringRef Triple) {
  return builtinFrom(proposals::BuiltinModels, Triple, "allocator-proposal model");
}

Expected<AllocatorModel> AllocatorModel::forSpec(StringRef Spec, StringRef Triple) {
  const bool Proposals = Spec == BuiltinProposalModel;
  if (Spec != BuiltinChoiceModel && !Proposals)
    return load(Spec.str());
  std::optional<Expected<AllocatorModel>> B =
      Proposals ? builtinProposalFor(Triple) : builtinFor(Triple);
  if (!B)
    return createStringError(inconvertibleErrorCode(), Twine("no allocator-") +
                                                           (Proposals ? "proposal" : "choice") +
                                                           " model is built in for " + Triple);
  return std::move(*B);
}

namespace {
// The index of the highest of Scores from From on (the first on ties).
unsigned bestFrom(const std::vector<float> &Scores, unsigned From) {
  unsigned Best = From;
  for (unsigned I = From + 1; I < Scores.size(); ++I)
    if (Scores[I] > Scores[Best])
      Best = I;
  return Best;
}
} // namespace

unsigned AllocatorModel::choose(ArrayRef<float> Features) const {
  std::vector<float> Scores = Model.forward(Features);
  unsigned Best = bestFrom(Scores, 0);
  return Best != 0 && Scores[Best] - Scores[0] > Margin ? Best : 0;
}

unsigned AllocatorModel::propose(ArrayRef<float> Features) const {
  return bestFrom(Model.forward(Features), 1);
}

} // namespace smartcc
