#include "runtime/CandidateBudget.h"
#include <algorithm>

namespace smartcc {

double budgetAllowance(uint64_t IRBudget, unsigned TimePercent, uint64_t IRInstructions) {
  // Whole candidates for small TUs, as the IR budget always counted them.
  double Small = double(IRBudget / std::max<uint64_t>(1, IRInstructions));
  return std::max(Small, double(TimePercent) / 100.0);
}

} // namespace smartcc
