#include "runtime/candidates/CandidateBudget.h"
#include <algorithm>

namespace smartcc {

double budgetAllowance(uint64_t IRBudget, unsigned TimePercent, uint64_t IRInstructions) {
  // Whole candidates for small TUs, as the IR budget always counted them.
  double Small = double(IRBudget / std::max<uint64_t>(1, IRInstructions));
  return std::max(Small, double(TimePercent) / 100.0);
}

std::vector<CandidateSlot> candidateOrder(const std::vector<bool> &LibraryLate,
                                          size_t Proposals, bool BudgetLimited, bool LargeTU) {
  std::vector<CandidateSlot> Out;
  auto AddProposals = [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < std::min(End, Proposals); ++I)
      Out.push_back({false, I});
  };
  auto AddLibrary = [&](int Which) { // 0: all, 1: late ones, 2: the others
    for (size_t I = 0; I < LibraryLate.size(); ++I)
      if (Which == 0 || LibraryLate[I] == (Which == 1))
        Out.push_back({true, I});
  };
  if (!BudgetLimited) {
    AddProposals(0, Proposals);
    AddLibrary(0);
  } else if (LargeTU) {
    AddLibrary(0);
    AddProposals(0, Proposals);
  } else {
    AddProposals(0, 1);
    AddLibrary(1);
    AddProposals(1, Proposals);
    AddLibrary(2);
  }
  return Out;
}

std::vector<CandidateSlot> candidatesWithinBudget(const std::vector<bool> &ProposalLate,
                                                  const std::vector<bool> &LibraryLate,
                                                  double Allowance, bool LargeTU, size_t Cap,
                                                  const std::vector<unsigned> &LibraryCodegens) {
  double ProposalCost = 0;
  for (bool Late : ProposalLate)
    ProposalCost += candidateCost(Late);
  std::vector<CandidateSlot> Slots =
      candidateOrder(LibraryLate, ProposalLate.size(), Allowance < ProposalCost, LargeTU);
  keepWithinAllowance(Slots, Allowance, [&](const CandidateSlot &S) {
    if (!S.FromLibrary)
      return candidateCost(ProposalLate[S.Index]);
    return candidateCost(LibraryLate[S.Index],
                         S.Index < LibraryCodegens.size() ? LibraryCodegens[S.Index] : 1);
  });
  if (Slots.size() > Cap)
    Slots.resize(Cap);
  return Slots;
}

} // namespace smartcc
