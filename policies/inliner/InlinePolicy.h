// An inlining policy as the compiler evaluates it (no LibTorch): for each call site LLVM's
// inliner considers, yes or no. Either a trained model (smartcc-train --trainer inliner-bc,
// inliner-es or inliner-flips; kind "inliner" in the exported model's metadata: one logit,
// inline when > 0, or with "decides": "flip", reverse LLVM's answer when > 0) or
// LLVM's own heuristic replayed through the same advisor, which is how behavioural-cloning data
// is collected and how tests check the plumbing.
#pragma once
#include "policies/model/ExportedModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smartcc {

// One decision taken while a log is attached (training data, explain, statistics).
struct InlineDecisionRecord {
  std::vector<int64_t> Features; // raw, in inlineFeatureNames() order
  bool Default = false;          // what LLVM's heuristic would have done
  bool Chosen = false;           // what the policy did
};

struct InlineLog {
  bool KeepRecords = false; // each decision with its features (training data), or counts only
  std::vector<InlineDecisionRecord> Records;
  unsigned Decisions = 0, Inlined = 0, DefaultInlined = 0, Changed = 0;
  // Counterfactuals (the flip study of the inliner trainer): the policy's answer is reversed
  // at these decisions, by their index in the order the advisor is asked (sorted). Decisions
  // before the first flip are the unflipped compile's, so "flip decision k" names one call
  // site; after it, indices may name other call sites than in the unflipped compile.
  std::vector<unsigned> FlipAt;
  bool flipsNext() const { return std::binary_search(FlipAt.begin(), FlipAt.end(), Decisions); }
  void add(llvm::ArrayRef<int64_t> Features, bool Default, bool Chosen);
};

class InlinePolicy {
public:
  // LLVM's heuristic, asked through the ML advisor.
  static InlinePolicy heuristic();
  // Checks kind "inliner" and the input size against this LLVM's feature map. Errors name Source.
  static llvm::Expected<InlinePolicy> fromModel(ExportedModel Model, llvm::StringRef Source);
  static llvm::Expected<InlinePolicy> load(const std::string &Path);
  // The model compiled into smartcc for this target triple (policies/models/inliner/), if any.
  static std::optional<llvm::Expected<InlinePolicy>> builtinFor(llvm::StringRef Triple);

  bool isHeuristic() const { return !Model; }
  // Whether decide() needs LLVM's own answer (a second InlineCost analysis per call site): for
  // the heuristic itself, and for a model that corrects it (metadata "decides": "flip").
  bool needsHeuristic() const { return !Model || Flips; }
  // The model's logit: inline when > 0, or (a correcting model) reverse the heuristic's answer
  // when > 0. The heuristic's decision as +-1.
  float logit(llvm::ArrayRef<int64_t> Features, bool Default) const;
  bool decide(llvm::ArrayRef<int64_t> Features, bool Default) const {
    bool Positive = logit(Features, Default) > 0;
    return Flips ? Default != Positive : Positive;
  }
  const std::string &source() const { return Source; }

private:
  std::optional<ExportedModel> Model;
  bool Flips = false; // the model says where to reverse LLVM's answer, not what to do
  std::string Source = "<llvm heuristic>";
};

} // namespace smartcc
