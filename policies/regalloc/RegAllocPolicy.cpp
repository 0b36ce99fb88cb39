#include "policies/regalloc/RegAllocPolicy.h"
#include "policies/regalloc/AllocatorOptions.h"
#include "policies/regalloc/EvictionChannel.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>
#include <cmath>

#include "BuiltinRegAllocModels.inc"

using namespace llvm;

namespace smartcc {

const std::vector<std::string> &regAllocFeatureNames() {
  // Documented in docs/ml-regalloc.md; the order is the model's input order.
  static const std::vector<std::string> Names = {
      "log_size_instrs",     "log_spill_weight",    "log_segments",
      "log_uses_defs",       "log_class_registers", "in_one_block",
      "has_hint",            "assign_stage",        "global_bit",
      "class_priority",      "log_default_order",   "spillable",
      "start_fraction",      "end_fraction",        "split_product",
      "log_function_instrs", "crosses_call",
  };
  return Names;
}

const std::vector<std::string> &evictionFeatureNames() {
  // LLVM 22's RA_EVICT_FEATURES_LIST, less the mask (legality, not a preference) and the
  // scalar progress (the same at every position, so it cannot change a choice).
  static const std::vector<std::string> Names = {
      "is_free",          "nr_urgent",          "nr_broken_hints",
      "is_hint",          "is_local",           "nr_rematerializable",
      "nr_defs_and_uses", "weighed_reads_by_max", "weighed_writes_by_max",
      "weighed_read_writes_by_max", "weighed_indvars_by_max", "hint_weights_by_max",
      "start_bb_freq_by_max", "end_bb_freq_by_max", "hottest_bb_freq_by_max",
      "liverange_size",   "use_def_density",    "max_stage",
      "min_stage",        "evict_nothing",
  };
  return Names;
}

RegAllocPolicy RegAllocPolicy::greedy() { return RegAllocPolicy(); }

Expected<RegAllocPolicy> RegAllocPolicy::fromModel(ExportedModel Model, StringRef Source) {
  auto Fail = [&](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Source + ": " + Message);
  };
  StringRef Kind = Model.metadata().getString("kind").value_or("");
  if (Kind != "regalloc")
    return Fail("not a register-allocation model (kind '" + Kind + "')");
  if (Model.inputSize() != regAllocFeatureCount())
    return Fail("the model reads " + Twine(Model.inputSize()) + " features, smartcc's " +
                "register-allocation features are " + Twine(regAllocFeatureCount()));
  if (Model.outputSize() < 1 || Model.outputSize() > 64)
    return Fail("a register-allocation model has 1 to 64 outputs (heads), not " +
                Twine(Model.outputSize()));
  RegAllocPolicy P;
  if (const json::Value *V = Model.metadata().get("head_options")) {
    const json::Array *Heads = V->getAsArray();
    if (!Heads || Heads->size() != Model.outputSize())
      return Fail("head_options must list one array of options per head (" +
                  Twine(Model.outputSize()) + ")");
    for (const json::Value &H : *Heads) {
      P.HeadOptions.emplace_back();
      const json::Array *Args = H.getAsArray();
      if (!Args)
        return Fail("head_options: head " + Twine(P.HeadOptions.size() - 1) +
                    " is not an array of options");
      for (const json::Value &A : *Args) {
        std::optional<StringRef> S = A.getAsString();
        if (!S)
          return Fail("head_options: head " + Twine(P.HeadOptions.size() - 1) +
                      ": an option is not a string");
        if (Error E = checkAllocatorOption(*S))
          return Fail("head_options: head " + Twine(P.HeadOptions.size() - 1) + ": " +
                      toString(std::move(E)));
        P.HeadOptions.back().push_back(S->str());
      }
    }
  }
  if (const json::Value *V = Model.metadata().get("head_evictions")) {
    const json::Array *Heads = V->getAsArray();
    if (!Heads || Heads->size() != Model.outputSize())
      return Fail("head_evictions must have one entry per head (" + Twine(Model.outputSize()) +
                  "): null or an object of weights by eviction feature");
    for (const json::Value &H : *Heads) {
      const std::string Which = "head_evictions: head " + std::to_string(P.HeadEvictions.size());
      P.HeadEvictions.emplace_back();
      if (H.kind() == json::Value::Null)
        continue;
      const json::Object *W = H.getAsObject();
      if (!W)
        return Fail(Which + " is neither null nor an object");
      for (const auto &[Name, Weight] : *W) {
        if (!llvm::is_contained(evictionFeatureNames(), Name.str()))
          return Fail(Which + ": '" + Name.str() + "' is not an eviction feature");
        std::optional<double> X = Weight.getAsNumber();
        if (!X || !std::isfinite(*X))
          return Fail(Which + ": the weight of '" + Name.str() + "' is not a number");
        P.HeadEvictions.back().emplace_back(Name.str(), float(*X));
      }
      if (P.HeadEvictions.back().empty())
        return Fail(Which + " has no weights (null means LLVM's eviction)");
      llvm::sort(P.HeadEvictions.back());
    }
  }
  P.Model = std::move(Model);
  P.Source = Source.str();
  return P;
}

Expected<RegAllocPolicy> RegAllocPolicy::load(const std::string &Path) {
  Expected<ExportedModel> M = ExportedModel::load(Path);
  if (!M)
    return M.takeError();
  return fromModel(std::move(*M), Path);
}

std::optional<Expected<RegAllocPolicy>> RegAllocPolicy::builtinFor(StringRef Triple) {
  std::optional<Expected<BuiltinModel>> B =
      findBuiltinModel(BuiltinModels, Triple, "register-allocation model");
  if (!B)
    return std::nullopt;
  if (!*B)
    return Expected<RegAllocPolicy>(B->takeError());
  return fromModel(std::move((*B)->Model), (*B)->Source);
}

int64_t RegAllocPolicy::chooseEviction(const EvictionObservation &O, unsigned Head) const {
  if (!evicts(Head) || O.Positions == 0)
    return -1; // the channel answers its first legal position
  std::vector<double> Score(O.Positions, 0.0);
  for (const auto &[Name, Weight] : HeadEvictions[Head]) {
    if (Name == "evict_nothing") {
      Score.back() += Weight;
      continue;
    }
    const std::vector<float> *F = O.feature(Name);
    if (!F || F->size() != O.Positions)
      continue; // not a per-position feature of this LLVM: no preference from it
    for (size_t P = 0; P < O.Positions; ++P)
      Score[P] += double(Weight) * double((*F)[P]);
  }
  int64_t Best = -1;
  for (size_t P = 0; P < O.Positions; ++P)
    if (O.Legal[P] && (Best < 0 || Score[P] > Score[size_t(Best)]))
      Best = int64_t(P);
  return Best;
}

unsigned RegAllocPolicy::adjust(ArrayRef<float> Features, unsigned Low24, unsigned Head) const {
  if (!Model || Head >= heads())
    return Low24;
  float Out = Model->forward(Features)[Head];
  if (!std::isfinite(Out) || Out == 0.f)
    return Low24;
  // Bounded: a factor of e^8 either way is enough to move a range across the whole queue.
  double Scaled = double(Low24) * std::exp(std::clamp(double(Out), -8.0, 8.0));
  return unsigned(std::clamp(std::llround(Scaled), 0LL, (1LL << 24) - 1));
}

} // namespace smartcc
