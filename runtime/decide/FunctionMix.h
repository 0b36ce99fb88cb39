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

// A whole object's bytes: its image (the metric) and the code and unwind tables in it.
struct MixTotals {
  double Image = 0, Code = 0, Unwind = 0;
};

// The ship rule the mix must keep (code_for_unwind, runtime/decide/Decision.h): when unwind tables
// shrink below clang's, code may grow by at most Percent of clang's code.
struct MixRule {
  bool Active = false;
  MixTotals Clang;
  double Percent = 0;
  bool allows(double Code, double Unwind) const {
    return !Active || Unwind >= Clang.Unwind || Code <= Clang.Code * (1 + Percent / 100);
  }
};

// One optimized version: its module (before code generation) and the object bytes of each of
// its functions (runtime/measure/FunctionSizes.h, ideally compiled with function sections).
struct MixVersion {
  const llvm::Module *M = nullptr;
  std::map<std::string, uint64_t> FunctionBytes;
  // The unwind-entry part of FunctionBytes (what is not code): a move may not grow code, even
  // when it shrinks unwind tables more (the ship rule code_for_unwind).
  std::map<std::string, uint64_t> UnwindBytes;
  // Its code-generation options (LLVM options such as the machine outliner's), as one key: only
  // versions with the base's key are donors, since the mix is compiled with the base's
  // options and a function's bytes under other ones do not carry over (the outliner moves code
  // out of the functions it measures).
  std::string Codegen;
  // Whether FunctionBytes include each function's jump tables (objects with function
  // sections: .rodata.F). Without, a function only moves between versions that agree on
  // jump tables (its no-jump-tables attribute), or the tables' bytes would go unseen.
  bool JumpTablesCounted = false;
  MixTotals Measured; // its whole object
};

struct FunctionMixPlan {
  unsigned Base = 0;                  // the version every function not listed keeps
  std::map<std::string, unsigned> Take; // function -> version its body comes from
  int64_t EstimatedSaving = 0;        // bytes, by the per-function estimate
  unsigned Considered = 0;            // functions that could have moved
  MixTotals Estimated;                // the mix's object, by the estimate
  bool Allowed = true;                // the rule allows that estimate
};

// Chooses, greedily, which non-local functions of Versions[Base] take their body from which
// version: each move counts the function's bytes and the locals it brings (once per version)
// against the function's bytes in Base and the locals no unmoved function reaches any more;
// a move must save a whole byte and add no code. Functions that cannot be transplanted (see
// above) stay.
// With an active rule a move must leave the estimate within it, or, while the base itself
// breaks it, take code away.
FunctionMixPlan planFunctionMix(llvm::ArrayRef<MixVersion> Versions, unsigned Base,
                                const MixRule &Rule = {});

// Plans with each version that shares its code-generation options with another as the base,
// and returns the plan whose estimated image is smallest, within the rule, and smaller than
// every version the rule allows; a plan that moves nothing when none is. Versions whose
// object has machine-outlined code (OUTLINED_FUNCTION_N) take no part: the outliner moved
// code out of the functions whose bytes would be compared.
FunctionMixPlan planBestFunctionMix(llvm::ArrayRef<MixVersion> Versions, const MixRule &Rule);

// Builds the mixed module: a copy of Versions[Plan.Base] in which each function of Plan.Take
// has its body from its version, then unreferenced locals removed by the caller's cleanup
// (globaldce). All versions must share one LLVMContext. Errors: the result does not verify.
llvm::Expected<std::unique_ptr<llvm::Module>>
buildFunctionMix(llvm::ArrayRef<MixVersion> Versions, const FunctionMixPlan &Plan);

} // namespace smartcc
