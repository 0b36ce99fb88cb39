// The candidate budget: how much candidate work one translation unit may spend, counted in
// compiles of that TU by clang (its middle-end and code generation), and which candidates fit.
//
// Two allowances; the larger applies:
//  - time (`candidate_time`, percent of one compile): the same share of clang's own time for
//    every TU, whatever its size. Candidates cost time in proportion to the TU, so a share
//    bounds the build's CPU ratio while the large TUs, which hold most of a program's bytes,
//    get candidates too (an allowance in IR instructions gave them none).
//  - small TUs (`candidate_budget`, IR instructions): a TU of N instructions may spend
//    candidate_budget / N compiles; small TUs cost little, and there several candidates fit.
//
// A candidate's cost is estimated from its kind, measured on training modules (docs/design.md):
// one that starts from the frontend's module runs a middle-end and a code generation (cost 1);
// one that continues from clang's optimized module runs code generation only (LateCost).
// The estimate, not a clock, decides, so a TU always runs the same candidates whatever the
// machine's load: builds stay deterministic and caches stay valid.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace smartcc {

// Code generation's share of a compile's middle-end + codegen time at -Oz (docs/design.md).
constexpr double LateCost = 0.5;

// Codegens: code generations the candidate runs (allocators chosen by bytes run one per
// allocator and one more, runtime/compile/AllocatorsByBytes.h).
inline double candidateCost(bool AfterClangPipeline, unsigned Codegens = 1) {
  return (AfterClangPipeline ? LateCost : 1.0) + LateCost * (Codegens > 1 ? Codegens - 1 : 0);
}

// Compiles one TU of IRInstructions may spend on candidates.
double budgetAllowance(uint64_t IRBudget, unsigned TimePercent, uint64_t IRInstructions);

// The order the agent's proposals and the library's candidates are considered in, as
// (from the library?, index) pairs. Budget-limited (the allowance cannot pay for every
// proposal), the order follows what each finds per compile on training modules
// (docs/design.md, "Large translation units"): on a large TU (the IR budget affords no
// compile) the library leads; on a smaller one the agent's first proposal, then the library's
// late candidates, the other proposals and the rest of the library. Otherwise proposals first.
struct CandidateSlot {
  bool FromLibrary;
  size_t Index;
};
std::vector<CandidateSlot> candidateOrder(const std::vector<bool> &LibraryLate,
                                          size_t Proposals, bool BudgetLimited, bool LargeTU);

// The candidates that run, in order: candidateOrder's order, each kept if its cost fits in what
// the ones before it left of Allowance (infinity: no budget), at most Cap of them. ProposalLate
// and LibraryLate say which candidates continue from clang's optimized module; LibraryCodegens,
// if given, how many code generations each library candidate runs (1 if not). One rule for the
// compiler (runtime/decide/TUOptimizer.cpp) and smartcc-eval's agent method.
std::vector<CandidateSlot> candidatesWithinBudget(const std::vector<bool> &ProposalLate,
                                                  const std::vector<bool> &LibraryLate,
                                                  double Allowance, bool LargeTU, size_t Cap,
                                                  const std::vector<unsigned> &LibraryCodegens = {});

// Keeps, in order, each item whose cost fits in what the items kept before it left (a cheaper
// later item may fit where an earlier one did not); returns how many were dropped.
template <typename T, typename CostFn>
size_t keepWithinAllowance(std::vector<T> &Items, double Allowance, CostFn Cost) {
  std::vector<T> Kept;
  double Spent = 0;
  for (T &Item : Items) {
    double C = Cost(Item);
    if (Spent + C > Allowance + 1e-9)
      continue;
    Spent += C;
    Kept.push_back(std::move(Item));
  }
  size_t Dropped = Items.size() - Kept.size();
  Items = std::move(Kept);
  return Dropped;
}

} // namespace smartcc
