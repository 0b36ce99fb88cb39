#include "policies/inliner/InlinePolicy.h"
#include "policies/inliner/InlineFeatures.h"
#include "llvm/ADT/Twine.h"

#include "BuiltinInlinerModels.inc"

using namespace llvm;

namespace smartcc {

void InlineLog::add(ArrayRef<int64_t> Features, bool Default, bool Chosen) {
  ++Decisions;
  Inlined += Chosen;
  DefaultInlined += Default;
  Changed += Chosen != Default;
  InlineDecisionRecord R;
  if (KeepFeatures)
    R.Features.assign(Features.begin(), Features.end());
  R.Default = Default;
  R.Chosen = Chosen;
  Records.push_back(std::move(R));
}

InlinePolicy InlinePolicy::heuristic() { return InlinePolicy(); }

Expected<InlinePolicy> InlinePolicy::fromModel(ExportedModel Model, StringRef Source) {
  auto Fail = [&](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Source + ": " + Message);
  };
  if (Model.metadata().getString("kind").value_or("") != "inliner")
    return Fail("not an inliner model (kind '" +
                Model.metadata().getString("kind").value_or("").str() + "')");
  if (Model.inputSize() != inlineFeatureCount())
    return Fail("the model reads " + Twine(Model.inputSize()) + " features, this LLVM's inliner " +
                "has " + Twine(inlineFeatureCount()));
  if (Model.outputSize() != 1)
    return Fail("an inliner model has one output (a logit), not " + Twine(Model.outputSize()));
  InlinePolicy P;
  P.Model = std::move(Model);
  P.Source = Source.str();
  return P;
}

Expected<InlinePolicy> InlinePolicy::load(const std::string &Path) {
  Expected<ExportedModel> M = ExportedModel::load(Path);
  if (!M)
    return M.takeError();
  return fromModel(std::move(*M), Path);
}

std::optional<Expected<InlinePolicy>> InlinePolicy::builtinFor(StringRef Triple) {
  // Named after the triple prefix they were trained for: inliner/x86_64.smm, inliner/aarch64.smm.
  for (const EmbeddedModel *E = BuiltinModels; E->Name; ++E)
    if (Triple.starts_with(E->Name)) {
      std::string Source = (Twine("<built-in inliner model ") + E->Name + ".smm>").str();
      Expected<ExportedModel> M = ExportedModel::parse(
          StringRef(reinterpret_cast<const char *>(E->Bytes), E->Size), Source);
      if (!M)
        return Expected<InlinePolicy>(M.takeError());
      return fromModel(std::move(*M), Source);
    }
  return std::nullopt;
}

float InlinePolicy::logit(ArrayRef<int64_t> Features, bool Default) const {
  if (!Model)
    return Default ? 1.f : -1.f;
  return Model->forward(transformInlineFeatures(Features))[0];
}

} // namespace smartcc
