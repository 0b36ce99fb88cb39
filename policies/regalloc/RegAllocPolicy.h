// A register-allocation policy as the compiler evaluates it (no LibTorch). It steers LLVM's
// greedy allocator through the priority advisor: for every live range the allocator queues,
// LLVM's default priority is computed first and the policy may rescale its ordering part
// (the low 24 bits: the range's size, or its position for local ranges) by exp(output). The
// stage, hint, class and global bits stay LLVM's, and any priority is a legal one, so no
// allocation can be invalid; the allocator, splitter and spiller remain LLVM's.
//
// A model is kind "regalloc" in the exported format (smartcc-train --trainer regalloc-es): one
// output per *head* (at most 64), read over regAllocFeatureNames(). Each head is a way to rescale the
// priorities; a compile chooses, per function, LLVM's own priorities or one head
// (RegAllocPlan, runtime/compile/RegAllocPortfolio.h). The output layer of the warm start is zero, so
// the untrained model is LLVM's default advisor exactly (see docs/ml-regalloc.md).
//
// A head may also carry greedy allocator options (metadata "head_options": per head, a list of
// "-name=value" from policies/regalloc/AllocatorOptions.h), set while it allocates a function:
// a head with zero weights and options is LLVM's priorities with those options.
//
// A head may also take the allocator's eviction decisions (metadata "head_evictions": per head,
// null or an object of weights by eviction feature name, evictionFeatureNames()). While such a
// head allocates a function, LLVM's own ML eviction advisor decides evictions, served
// in-process (EvictionChannel.h): at each decision every legal position (a candidate register,
// or "evict nothing") is scored by the weighted sum of its features and the best is taken.
// LLVM offers only legal positions, so no allocation can be invalid.
#pragma once
#include "policies/model/ExportedModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace smartcc {

// The live-range features, already transformed (log1p of counts, 0/1 flags, fractions).
const std::vector<std::string> &regAllocFeatureNames();
inline size_t regAllocFeatureCount() { return regAllocFeatureNames().size(); }

// The per-position features of LLVM 22's ML eviction advisor (MLRegAllocEvictAdvisor.cpp) an
// eviction head may weigh, plus "evict_nothing" (1 at the position that evicts nothing).
const std::vector<std::string> &evictionFeatureNames();

struct EvictionObservation;

// What a policy did in one compile (explain, statistics, training monitors).
struct RegAllocLog {
  unsigned Ranges = 0;    // priorities asked for
  unsigned Changed = 0;   // ... that differ from LLVM's
  unsigned Evictions = 0; // eviction decisions taken by eviction heads
};

class RegAllocPolicy {
public:
  // LLVM's default priority, asked through smartcc's advisor (the plumbing's test).
  static RegAllocPolicy greedy();
  static llvm::Expected<RegAllocPolicy> fromModel(ExportedModel Model, llvm::StringRef Source);
  static llvm::Expected<RegAllocPolicy> load(const std::string &Path);
  // The model compiled into smartcc for this target triple (policies/models/regalloc/), if any.
  static std::optional<llvm::Expected<RegAllocPolicy>> builtinFor(llvm::StringRef Triple);

  bool isGreedy() const { return !Model; }
  // Ways to rescale priorities: the model's outputs (0 for greedy()).
  unsigned heads() const { return Model ? unsigned(Model->outputSize()) : 0; }
  // The rescaled ordering part of LLVM's priority by Head: Low24 * exp(output[Head]), clamped
  // to 24 bits.
  unsigned adjust(llvm::ArrayRef<float> Features, unsigned Low24, unsigned Head = 0) const;
  // The allocator options Head sets (none for most heads, and for greedy()).
  llvm::ArrayRef<std::string> headOptions(unsigned Head) const {
    return Head < HeadOptions.size() ? llvm::ArrayRef<std::string>(HeadOptions[Head])
                                     : llvm::ArrayRef<std::string>();
  }
  // Whether Head decides evictions (it has eviction weights); LLVM's advisor does otherwise.
  bool evicts(unsigned Head) const {
    return Head < HeadEvictions.size() && !HeadEvictions[Head].empty();
  }
  bool anyEvicts() const {
    return llvm::any_of(HeadEvictions, [](const auto &W) { return !W.empty(); });
  }
  // Head's choice at one eviction decision: the legal position of the highest score (the
  // first of equal ones).
  int64_t chooseEviction(const EvictionObservation &O, unsigned Head) const;
  const std::string &source() const { return Source; }

private:
  std::optional<ExportedModel> Model;
  std::vector<std::vector<std::string>> HeadOptions; // empty, or one list per head
  // Empty, or one list per head of (feature, weight); an empty list is LLVM's eviction.
  std::vector<std::vector<std::pair<std::string, float>>> HeadEvictions;
  std::string Source = "<llvm greedy>";
};

// Which head of a policy allocates which function of a module. Functions not listed take
// Default; Greedy means LLVM's own priorities (the policy is not asked).
struct RegAllocPlan {
  static constexpr int Greedy = -1;
  int Default = 0;
  llvm::StringMap<int> Heads;
  static RegAllocPlan wholeModule(int Head) {
    RegAllocPlan P;
    P.Default = Head;
    return P;
  }
  int headFor(llvm::StringRef Function) const {
    auto It = Heads.find(Function);
    return It == Heads.end() ? Default : It->second;
  }
};

} // namespace smartcc
