// Per-function mixing of differently optimized versions of one translation unit: after several
// candidates (pass sequences) have been compiled and measured, each externally visible function
// can take its body from the version in which it came out smallest, and the mixed module is
// compiled once more. The module-level choice keeps one version for every function; functions
// prefer different sequences, so the mix can beat every candidate for the price of one more
// code generation.
//
// Why only non-local functions are choices: their contract is the ABI and the source, the same
// in every version, exactly as when objects compiled with different flags are linked. Local
// functions and constants a transplanted body uses come with it (renamed copies), because a
// version's internal helpers may rely on that version's interprocedural facts (dead arguments,
// zapped returns). Mutable or address-significant local data cannot be copied (two copies would
// split its state): a function that reaches any stays with the base version.
//
// The mix is an estimate built from per-function object bytes; the caller compiles it and keeps
// it only when it is really smaller.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace llvm {
class Module;
}

namespace smartcc {

// One optimized version: its module (before code generation) and the object bytes of each of
// its functions (runtime/FunctionSizes.h, ideally compiled with function sections).
struct MixVersion {
  const llvm::Module *M = nullptr;
  std::map<std::string, uint64_t> FunctionBytes;
  // Its code-generation options (LLVM options such as the machine outliner's), as one key: only
  // versions with the base's key are donors, since the mix is compiled with the base's
  // options and a function's bytes under other ones do not carry over (the outliner moves code
  // out of the functions it measures).
  std::string Codegen;
  // Whether FunctionBytes include each function's jump tables (objects with function
  // sections: .rodata.F). Without, a function only moves between versions that agree on
  // jump tables (its no-jump-tables attribute), or the tables' bytes would go unseen.
  bool JumpTablesCounted = false;
};

struct FunctionMixPlan {
  unsigned Base = 0;                  // the version every function not listed keeps
  std::map<std::string, unsigned> Take; // function -> version its body comes from
  int64_t EstimatedSaving = 0;        // bytes, by the per-function estimate
  unsigned Considered = 0;            // functions that could have moved
};

// Chooses, for each non-local function of Versions[Base], the version whose estimate is
// smallest: the function's own bytes plus a share of the local functions and constants it
// reaches (shared helpers split among the functions that reach them). Functions that cannot be
// transplanted (see above) stay.
FunctionMixPlan planFunctionMix(llvm::ArrayRef<MixVersion> Versions, unsigned Base);

// Builds the mixed module: a copy of Versions[Plan.Base] in which each function of Plan.Take
// has its body from its version, then unreferenced locals removed by the caller's cleanup
// (globaldce). All versions must share one LLVMContext. Errors: the result does not verify.
llvm::Expected<std::unique_ptr<llvm::Module>>
buildFunctionMix(llvm::ArrayRef<MixVersion> Versions, const FunctionMixPlan &Plan);

} // namespace smartcc
