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
  if (KeepRecords)
    Records.push_back({std::vector<int64_t>(Features.begin(), Features.end()), Default, Chosen});
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
  std::string Decides = Model.metadata().getString("decides").value_or("inline").str();
  if (Decides != "inline" && Decides != "flip")
    return Fail("\"decides\" must be \"inline\" or \"flip\", not '" + Decides + "'");
  InlinePolicy P;
  P.Flips = Decides == "flip";
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
  std::optional<Expected<BuiltinModel>> B =
      findBuiltinModel(BuiltinModels, Triple, "inliner model");
  if (!B)
    return std::nullopt;
  if (!*B)
    return Expected<InlinePolicy>(B->takeError());
  return fromModel(std::move((*B)->Model), (*B)->Source);
}

float InlinePolicy::logit(ArrayRef<int64_t> Features, bool Default) const {
  if (!Model)
    return Default ? 1.f : -1.f;
  return Model->forward(transformInlineFeatures(Features))[0];
}

} // namespace smartcc
