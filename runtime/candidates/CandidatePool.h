// Evaluates candidates in forked processes, in parallel with the compile that forked them.
//
// Why processes: a candidate may crash inside LLVM, loop forever, hit a fatal error or set
// global cl::opt state (-enable-machine-outliner ...). A process contains all of that, can be
// killed on a timeout, and needs no copy of the module: fork() hands each candidate the
// compiler's memory as it was at the fork, copy-on-write.
//
// Shape: the compiler forks one *launcher* at the start of the middle-end, then carries on
// with clang's own -Oz pipeline (the baseline). The launcher keeps the pristine module and
// forks one process per candidate, at most `Jobs` at a time, killing any that exceed the
// timeout. Results come back in shared memory; objects in one memfd per candidate.
#pragma once
#include "runtime/candidates/CandidateResult.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/config/CandidateSpec.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

class CandidatePool {
public:
  // Forks the launcher. M's state at this moment is what every candidate starts from.
  static llvm::Expected<std::unique_ptr<CandidatePool>>
  launch(llvm::Module &M, std::vector<CandidateSpec> Specs, const CandidateContext &Ctx,
         unsigned Jobs, unsigned TimeoutMs);
  ~CandidatePool();

  // Waits until every candidate has finished or been killed.
  void wait();
  // Stops everything now (the compile failed: its candidates are worthless).
  void cancel();

  size_t size() const { return Specs.size(); }
  const CandidateSpec &spec(size_t I) const { return Specs[I]; }
  const CandidateResult &result(size_t I) const { return Results[I]; }
  llvm::Expected<std::string> objectBytes(size_t I) const;
  llvm::Expected<std::string> assemblyBytes(size_t I) const;
  // The optimized module before code generation (with CandidateContext::EmitBitcode).
  llvm::Expected<std::string> bitcodeBytes(size_t I) const;
  // Its -fstack-usage lines (CandidateResult::StackUsageBytes).
  llvm::Expected<std::string> stackUsageBytes(size_t I) const;

private:
  CandidatePool() = default;
  std::vector<CandidateSpec> Specs;
  CandidateResult *Results = nullptr; // shared mapping, one slot per candidate
  std::vector<int> OutputFds;         // memfd per candidate
  pid_t Launcher = -1;
  unsigned TimeoutMs = 0;
  unsigned Jobs = 1;
};

} // namespace smartcc
