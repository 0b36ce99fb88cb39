// Training the register-allocation policy (policies/regalloc/): a small network rescaling the
// greedy allocator's priorities, judged by the allocator's own frequency-weighted spill,
// reload and copy cost (runtime/measure/RegAllocCost.h) on real modules of the training split.
//
// Head selection (CandidateHeads > 0): a head only has to be good where LLVM's priorities and
// the other heads are not, so heads are picked like a core set: CandidateHeads random heads are
// drawn (seeded), each one's per-function costs are measured on every training module
// (checkpointed), and heads are added one at a time, each time the one that lowers the
// training objective most, until Heads are chosen or none helps. ES then refines them.
// With OptionHeads > 0 the candidates also include heads that carry greedy allocator options
// (policies/regalloc/AllocatorOptions.h): each option set of allocatorOptionSets() on LLVM's
// priorities and on the first OptionHeads heads the selection picks among the drawn ones
// (measured and checkpointed the same way); the final choice is among all of them.
// With EvictionHeads > 0 the candidates also include heads that take the allocator's eviction
// decisions (RegAllocPolicy.h, "head_evictions"): EvictionHeads seeded random eviction scorers,
// each a perturbation of one that imitates LLVM's own rule (evict the lightest interference,
// break few hints, evict nothing when every interference is heavier), on LLVM's priorities
// and on the first OptionHeads heads chosen among the drawn ones.
//
// --trainer regalloc-es: evolution strategies (policies/train/EvolutionStrategies.h) on the
// objective the compiler serves: each function allocated by the cheapest of LLVM's priorities
// and the policy's heads (runtime/compile/RegAllocPortfolio.h), so a head is rewarded for being good
// where the others and LLVM are not. The warm start is behavioural cloning of the default
// advisor, reached without an epoch (the policy is a residual on LLVM's priority, so a zero
// output is LLVM's advisor exactly) plus, with InitSpread, a few random features per head so
// that the heads start out different (otherwise every head is LLVM's and no function gains).
// Each module is first optimized once by clang's pipeline at Level (for O1..O3 the harvested
// -Oz frontend module loses its minsize/optsize attributes, and the cc1 arguments say the
// level: the module a speed build hands to codegen); the optimized bitcode is kept in
// RUN/checkpoint/optimized, so every policy evaluation is codegen only.
#pragma once
#include "policies/env/Corpus.h"
#include "policies/train/EvolutionStrategies.h"
#include "runtime/compile/CodegenContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace smartcc {

struct RegAllocTrainOptions {
  std::string RunDir;
  std::string TargetPrefix = "x86_64";
  std::string Level = "O2"; // O1, O2, O3, Os or Oz
  uint64_t Seed = 1;
  unsigned Hidden = 0; // 0: linear heads
  unsigned Heads = 8;
  double InitSpread = 2.0; // largest starting weight of a head's random features (0: none)
  // > 0 (linear heads only): the starting heads are chosen among this many seeded random ones
  // by their measured worth on the training modules (selectHeads below), not taken as drawn.
  unsigned CandidateHeads = 0;
  // > 0 (with CandidateHeads): also candidates with allocator options, see above.
  unsigned OptionHeads = 0;
  // > 0 (with CandidateHeads): also candidates that decide evictions, see above.
  unsigned EvictionHeads = 0;
  // The fraction of a module's code bytes the per-function choice may add over greedy's
  // (the compiler's `regalloc_growth` / 100): head selection and every figure use it.
  double MaxGrowth = 0;
  unsigned Jobs = 2;
  // Evolution strategies (RunDir, Seed and Jobs are the ones above).
  ESOptions ES = [] {
    ESOptions E;
    E.Trainer = "regalloc-es";
    E.Iterations = 40;
    E.ItemsPerIteration = 24;
    E.Sigma = 0.1;
    E.StepSize = 0.02;
    return E;
  }();
  unsigned ValidationModules = 60;
};

llvm::Error trainRegAllocES(const RegAllocTrainOptions &O, const std::vector<CorpusModule> &Train,
                            const std::vector<CorpusModule> &Validation);

// A module made ready for register allocation at Level: its cc1 arguments and the bitcode of
// clang's optimized module (what codegen receives).
struct CodegenModule {
  std::string Hash, Name;
  std::vector<std::string> CC1Args;
  std::string OptimizedBitcodePath;
};

// Optimizes M at Level into Dir/HASH.bc (kept if present).
llvm::Expected<CodegenModule> prepareCodegenModule(const CorpusModule &M, llvm::StringRef Level,
                                                   const std::string &Dir);

// A prepared module, loaded for codegen: its compile's context and clang's optimized module.
struct OpenModule {
  std::unique_ptr<CodegenContext> CG;
  std::unique_ptr<llvm::LLVMContext> Ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> M;
};
llvm::Expected<OpenModule> openForCodegen(const CodegenModule &M);

struct RegAllocMeasurement {
  double Cost = 0;       // RegAllocCost::weighted()
  uint64_t Bytes = 0;    // allocated bytes of the object
  llvm::StringMap<double> PerFunction; // RegAllocCost::PerFunction
  llvm::StringMap<uint64_t> FunctionBytes; // each function's bytes (functionBytes)
};
// Code-generates M's optimized module with Policy's head 0 on every function (null Policy:
// LLVM's greedy as clang).
class RegAllocPolicy;
llvm::Expected<RegAllocMeasurement> measureRegAlloc(const CodegenModule &M,
                                                    const RegAllocPolicy *Policy);

// The compiler's per-function choice on M: the cost with each function at the cheapest of
// Greedy (M's costs under LLVM's priorities) and Policy's heads, and with heads only.
struct PerFunctionMeasurement {
  double Cost = 0, HeadsOnlyCost = 0;
  unsigned FunctionsChanged = 0;
};
llvm::Expected<PerFunctionMeasurement>
measurePerFunction(const CodegenModule &M, const RegAllocMeasurement &Greedy,
                   const RegAllocPolicy &Policy, double MaxGrowth = 0);

} // namespace smartcc
