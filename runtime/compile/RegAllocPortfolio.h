// Register allocation chosen per function among LLVM's own priorities and every head of a
// policy (policies/regalloc/RegAllocPolicy.h). Register allocation of one function does not
// depend on how another was allocated (no interprocedural allocation at clang's settings), so
// the module is code-generated once with greedy priorities and once per head, each function's
// cost is read from the allocator's own report (runtime/measure/RegAllocCost.h), and a last codegen
// gives every function the cheapest of its allocations. A head therefore only has to be good
// where it is used: a policy that is worse on most functions still wins on the others, and no
// function is allocated worse than by LLVM's heuristic.
//
// A function that LLVM's priorities allocate at no cost cannot be improved, so the heads'
// codegens leave its body out (it becomes a declaration): they only compile the functions
// that spill, reload or copy, and cost a fraction of a whole codegen.
//
// Bytes are a budget, not an objective: the choice may not make the module's code larger than
// LLVM's allocation (the sum over functions of their ELF symbol sizes) by more than MaxGrowth
// (a fraction of those bytes; 0 unless the user's `regalloc_growth` says otherwise), and the
// mix ships only if the whole object is not larger than that either. A cheaper allocation is
// usually also smaller (fewer spills and reloads); where one is larger (a split that copies
// instead of spilling), it must be paid for by bytes saved in other functions or within the
// allowance, or give way.
//
// The last codegen is measured like the others; should the mix cost more than greedy's
// allocation (it cannot, unless an allocation depends on other functions after all), or be
// larger, greedy's allocation is returned instead.
#pragma once
#include "policies/regalloc/RegAllocPolicy.h"
#include "runtime/measure/RegAllocCost.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

// One allocation's figures per function: the allocator's cost report, and each function's
// bytes in the object.
struct AllocationFigures {
  RegAllocCost Cost;
  llvm::StringMap<uint64_t> Bytes; // function -> ELF symbol size
};

// Each defined function's bytes in Object.
llvm::Expected<llvm::StringMap<uint64_t>> functionBytes(llvm::StringRef Object);

struct PortfolioAllocation {
  llvm::SmallString<0> Object;   // the object of the allocation returned
  RegAllocCost Cost;             // its cost
  RegAllocLog Log;               // the policy's decisions in it
  RegAllocPlan Plan;             // which head allocated which function
  double GreedyCost = 0;         // LLVM's own priorities on the whole module
  // The policy without LLVM's priorities: each function's cheapest head (the sum of the
  // heads' per-function costs; what the policy is worth before any fallback).
  double HeadsOnlyCost = 0;
  unsigned Functions = 0;        // functions with a cost under some allocation
  unsigned FunctionsChanged = 0; // ... allocated by a head in the result
  unsigned Codegens = 0;         // code generations run
};

// Generates an object for M (which it may rewrite) into Object, allocating registers as the
// scope around the call says; an error says why it could not.
using EmitObjectFn =
    llvm::function_ref<llvm::Error(llvm::Module &M, llvm::SmallVectorImpl<char> &Object)>;

// Allocates M's functions per function as above (M is rewritten by the last codegen).
llvm::Expected<PortfolioAllocation> allocatePerFunction(llvm::Module &M,
                                                        const RegAllocPolicy &Policy,
                                                        EmitObjectFn Emit, double MaxGrowth = 0);

// The pieces, for the trainer (which has greedy's per-function costs and bytes already and
// needs no mixed object):
// the functions that cost anything under greedy (GreedyPerFunction: RegAllocCost::PerFunction),
llvm::StringSet<> costlyFunctions(const llvm::StringMap<double> &GreedyPerFunction);
// each head's figures on a copy of M that keeps only those functions' bodies,
llvm::Expected<std::vector<AllocationFigures>> headCosts(const llvm::Module &M,
                                                         const RegAllocPolicy &Policy,
                                                         const llvm::StringSet<> &Costly,
                                                         EmitObjectFn Emit);
// and the choice: each costly function's cheapest allocation (absent from the plan: greedy's,
// ties too), then, while that would make the module's functions larger in all than greedy's,
// the trade that costs least per byte saved is given up (MaxGrowth: the fraction of greedy's
// bytes of all the module's functions the choice may add). Heads whose size of a function is
// unknown do not allocate it.
struct HeadChoice {
  RegAllocPlan Plan = RegAllocPlan::wholeModule(RegAllocPlan::Greedy);
  double Cost = 0;          // greedy's total with each function at its chosen allocation
  double HeadsOnlyCost = 0; // each function at its cheapest head, greedy excluded, bytes ignored
                            // (functions greedy allocates at no cost count 0: they are
                            // never compiled by a head)
};
HeadChoice chooseHeads(const llvm::StringMap<double> &GreedyPerFunction,
                       const llvm::StringMap<uint64_t> &GreedyBytes, double GreedyTotal,
                       llvm::ArrayRef<const AllocationFigures *> Heads, double MaxGrowth = 0);
HeadChoice chooseHeads(const llvm::StringMap<double> &GreedyPerFunction,
                       const llvm::StringMap<uint64_t> &GreedyBytes, double GreedyTotal,
                       const std::vector<AllocationFigures> &Heads, double MaxGrowth = 0);

// The bytes MaxGrowth allows over Bytes (rounded down).
int64_t growthAllowance(uint64_t Bytes, double MaxGrowth);

} // namespace smartcc
