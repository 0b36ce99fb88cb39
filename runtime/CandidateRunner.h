// Runs one candidate inside a candidate process: apply the spec to this process's private
// copy of the module, run the middle-end, check the result, generate code with clang's own
// backend, measure, and hand the bytes back. Every failure becomes an Outcome, never an exit
// code the compile could see.
#pragma once
#include "runtime/CandidateResult.h"
#include "runtime/CandidateSpec.h"
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class Module;
}

namespace smartcc {

// What every candidate of one translation unit shares.
struct CandidateContext {
  clang::CompilerInstance *CI = nullptr;
  bool EmitAssembly = false;  // the user asked for -S: produce assembly to ship as well
  double MaxGrowth = 8.0;     // discard when IR instructions grow past this factor
};

// Counts IR instructions of the module (the unit of the IR metric and the growth guard).
uint64_t countIRInstructions(const llvm::Module &M);

// The candidate budget's rule (`candidate_budget`, 0 = no limit is the caller's to check): a TU
// of IRInstructions at the start of the middle-end runs at most Budget / IRInstructions
// candidates. One definition for the compiler and smartcc-eval's `agent@E,budget=N`.
uint64_t candidatesWithinBudget(uint64_t Budget, uint64_t IRInstructions);

// Runs in a forked candidate process. Writes the object, then the assembly if requested, to
// OutFd and fills R.
void runCandidate(llvm::Module &M, const CandidateSpec &Spec, const CandidateContext &Ctx,
                  CandidateResult &R, int OutFd);

} // namespace smartcc
