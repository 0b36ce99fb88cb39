// Register allocators chosen per function: greedy, basic or PBQP, each optionally with greedy's
// splitting options, one per function of a code generation.
//
// LLVM picks one allocator for a whole code generation (-regalloc, or the target's default),
// but at -Oz no allocator is the smallest everywhere: on the functions of a crypto library
// (Mbed TLS, x86-64) greedy is smallest on 4 functions of 5, basic on most of the rest, and the
// per-function best is 1.5 % smaller than greedy alone (docs/results/allocators-by-bytes.md).
// Allocation of one function does not depend on another's, so one code generation can give
// each function its own allocator.
//
// How: within a ScopedAllocatorPlan, the register-allocator registry's default (what
// TargetPassConfig builds when no -regalloc option is given) is a dispatcher pass that holds
// one instance of each allocator and runs, per machine function, the one the plan names.
// The dispatcher asks the pass manager for every analysis any of its allocators requires and
// preserves only what all of them preserve, then lends each allocator its own analysis
// resolver. The -regalloc option itself stays as it was, so the target adds exactly the passes
// it adds for its default allocator (x86's AMX tile allocation), and a plan giving every
// function greedy is clang's object byte for byte (unit test).
//
// The plan is the thread's: other threads building code generations while a scope is open get
// the allocator they would have had (the previous default, else greedy).
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace smartcc {

class AllocatorModel;

// One way to allocate a function.
struct AllocatorChoice {
  enum class Kind { Greedy, Basic, PBQP };
  Kind Allocator = Kind::Greedy;
  // Greedy's splitting options (policies/regalloc/AllocatorOptions.h's allow-list), set while
  // it allocates the function.
  std::vector<std::string> Options;

  // "greedy", "basic", "pbqp", or "greedy:-name=value[:-name=value...]".
  std::string name() const;
  bool operator==(const AllocatorChoice &O) const {
    return Allocator == O.Allocator && Options == O.Options;
  }
};

// Parses AllocatorChoice::name()'s syntax; an error says what is wrong with Spec.
llvm::Expected<AllocatorChoice> parseAllocatorChoice(llvm::StringRef Spec);
// Each of Specs parsed, in order; the first error if one is not an allocator.
llvm::Expected<std::vector<AllocatorChoice>>
parseAllocatorChoices(llvm::ArrayRef<std::string> Specs);

// Which allocator each function takes: Choices[ByFunction[name]], else the one Model predicts
// from the function's features, else Choices[Default].
struct AllocatorPlan {
  std::vector<AllocatorChoice> Choices{AllocatorChoice{}};
  unsigned Default = 0;
  llvm::StringMap<unsigned> ByFunction;
  // With a model, Choices are its allocators (predicted()).
  std::shared_ptr<const AllocatorModel> Model;
  // When set, every function's features (AllocatorFeatures.h) are recorded here as it is
  // allocated: the training data of the model.
  llvm::StringMap<std::vector<float>> *Features = nullptr;

  static AllocatorPlan predicted(std::shared_ptr<const AllocatorModel> Model);
};

// Code generations started on this thread within the scope allocate as Plan says (Plan must
// outlive them). Scopes on one thread do not nest.
class ScopedAllocatorPlan {
public:
  explicit ScopedAllocatorPlan(const AllocatorPlan &Plan);
  ~ScopedAllocatorPlan();
  ScopedAllocatorPlan(const ScopedAllocatorPlan &) = delete;
  ScopedAllocatorPlan &operator=(const ScopedAllocatorPlan &) = delete;
};

// How many functions each allocator allocated on this thread since the last call (for tests
// and statistics): greedy, basic, PBQP.
struct AllocatorCounts {
  unsigned Greedy = 0, Basic = 0, PBQP = 0;
  unsigned Moved = 0; // functions not given Choices[0]
};
AllocatorCounts takeAllocatorCounts();

} // namespace smartcc
