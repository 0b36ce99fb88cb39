// A learned choice of register allocator per function (policies/regalloc/AllocatorPlan.h):
// from a function's features before allocation (AllocatorFeatures.h) it predicts under which
// of its allocators the function is smallest, so that the compiler code-generates once with
// the predicted allocators instead of once per allocator and once more.
//
// The shipped model format (policies/model/ExportedModel.h) with metadata
//   "kind": "allocator-choice", "features": [names, as allocatorFeatureNames()],
//   "allocators": [AllocatorChoice names; the first is the reference, usually greedy],
//   "margin": M (optional, default 0)
// and one output per allocator (a score). A function takes the best-scoring allocator when its
// score beats the reference's by more than M, else the reference: a wrong move costs bytes,
// staying costs only the saving missed. Trained by smartcc-train --trainer allocator-choice.
//
// A proposal model ("use": "proposal", smartcc-train --trainer allocator-proposal) has the same
// form; it names per function the one allocator other than the reference worth trying, and the
// compiler keeps it only where it measured smaller (runtime/compile/AllocatorsByBytes.h).
// Its optional "gates" ({"min_reference_bytes": N, "min_mix_gain_bytes": M}, chosen by the
// trainer on the training split) say where checking is not worth its code generations.
#pragma once
#include "policies/model/ExportedModel.h"
#include "policies/regalloc/AllocatorPlan.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smartcc {

// The names of the built-in models in a candidate's `allocator_model` (else a path).
inline constexpr const char *BuiltinChoiceModel = "builtin";
inline constexpr const char *BuiltinProposalModel = "builtin-proposals";

// Where checked proposals stop early (AllocatorsByBytes.h, allocateByProposals): a module
// whose functions take fewer than MinReferenceBytes image bytes under the reference is not
// proposed for (most modules are small and save little), and a mix that would save fewer than
// MinMixGainBytes over the better whole object is not code-generated. Zero: no gate.
struct ProposalGates {
  uint64_t MinReferenceBytes = 0;
  uint64_t MinMixGainBytes = 0;
};

class AllocatorModel {
public:
  // Errors name Source (the model's path) and what does not match.
  static llvm::Expected<AllocatorModel> fromModel(ExportedModel M, llvm::StringRef Source);
  static llvm::Expected<AllocatorModel> load(const std::string &Path);
  // The model built into smartcc for Triple's architecture, if any: the choice model
  // (policies/models/allocators/) or the proposal model (policies/models/allocator-proposals/).
  static std::optional<llvm::Expected<AllocatorModel>> builtinFor(llvm::StringRef Triple);
  static std::optional<llvm::Expected<AllocatorModel>> builtinProposalFor(llvm::StringRef Triple);
  // The model a candidate's `allocator_model` names for Triple: BuiltinChoiceModel,
  // BuiltinProposalModel or a path. An error if it is not built in for Triple's architecture.
  static llvm::Expected<AllocatorModel> forSpec(llvm::StringRef Spec, llvm::StringRef Triple);

  const std::vector<AllocatorChoice> &allocators() const { return Allocators; }
  // The index into allocators() of Features' predicted allocator.
  unsigned choose(llvm::ArrayRef<float> Features) const;
  // The index (never 0, the reference) of the allocator to try for Features' function.
  unsigned propose(llvm::ArrayRef<float> Features) const;
  bool isProposalModel() const { return Proposal; }
  const ProposalGates &gates() const { return Gates; }
  const std::string &source() const { return Source; }

private:
  ExportedModel Model;
  std::vector<AllocatorChoice> Allocators;
  float Margin = 0;
  bool Proposal = false;
  ProposalGates Gates;
  std::string Source;
};

} // namespace smartcc
