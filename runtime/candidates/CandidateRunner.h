// Runs one candidate inside a candidate process: apply the spec to this process's private
// copy of the module, run the middle-end, check the result, generate code with clang's own
// backend, measure, and hand the bytes back. Every failure becomes an Outcome, never an exit
// code the compile could see.
#pragma once
#include "runtime/candidates/CandidateResult.h"
#include "runtime/config/CandidateSpec.h"
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
  bool EmitBitcode = false;   // hand back the optimized module too (the function mix reads it)
};

// Counts IR instructions of the module (the unit of the IR metric and the growth guard).
uint64_t countIRInstructions(const llvm::Module &M);

// Runs in a forked candidate process. Writes the object, then the assembly if requested, then
// the optimized module's bitcode if requested, to OutFd and fills R.
void runCandidate(llvm::Module &M, const CandidateSpec &Spec, const CandidateContext &Ctx,
                  CandidateResult &R, int OutFd);

} // namespace smartcc
