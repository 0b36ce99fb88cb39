#include "runtime/measure/RegAllocCost.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace smartcc {

bool RegAllocCost::add(const DiagnosticInfo &DI) {
  const auto *R = dyn_cast<DiagnosticInfoOptimizationBase>(&DI);
  if (!R || R->getPassName() != "regalloc" || R->getRemarkName() != "SpillReloadCopies")
    return false;
  ++Functions;
  double FunctionCost = 0;
  for (const DiagnosticInfoOptimizationBase::Argument &A : R->getArgs()) {
    double V = 0;
    if (StringRef(A.Val).getAsDouble(V))
      continue;
    StringRef K = A.Key;
    if (K == "TotalSpillsCost" || K == "TotalFoldedSpillsCost")
      Spills += V, FunctionCost += V;
    else if (K == "TotalReloadsCost" || K == "TotalFoldedReloadsCost")
      Reloads += V, FunctionCost += V;
    else if (K == "TotalCopiesCost")
      Copies += V, FunctionCost += CopyWeight * V;
    else if (K == "NumSpills" || K == "NumFoldedSpills")
      NumSpills += unsigned(V);
    else if (K == "NumReloads" || K == "NumFoldedReloads")
      NumReloads += unsigned(V);
    else if (K == "NumVRCopies")
      NumCopies += unsigned(V);
  }
  PerFunction[R->getFunction().getName()] += FunctionCost;
  return true;
}

bool RegAllocCostHandler::handleDiagnostics(const DiagnosticInfo &DI) {
  if (Cost.add(DI))
    return true;
  // A remark of another kind: only what the next handler asked for goes on (the loop-level
  // variant of ours, for one, is ours to drop).
  if (const auto *R = dyn_cast<DiagnosticInfoOptimizationBase>(&DI))
    if (R->getPassName() == "regalloc" && !Next->isAnyRemarkEnabled(R->getPassName()))
      return true;
  return Next->handleDiagnostics(DI);
}

bool RegAllocCostHandler::isAnalysisRemarkEnabled(StringRef PassName) const {
  return Next->isAnalysisRemarkEnabled(PassName);
}
bool RegAllocCostHandler::isMissedOptRemarkEnabled(StringRef PassName) const {
  return PassName == "regalloc" || Next->isMissedOptRemarkEnabled(PassName);
}
bool RegAllocCostHandler::isPassedOptRemarkEnabled(StringRef PassName) const {
  return Next->isPassedOptRemarkEnabled(PassName);
}

ScopedRegAllocCost::ScopedRegAllocCost(LLVMContext &Ctx, RegAllocCost &Cost) : Ctx(Ctx) {
  Ctx.setDiagnosticHandler(std::make_unique<RegAllocCostHandler>(Ctx.getDiagnosticHandler(), Cost));
}

ScopedRegAllocCost::~ScopedRegAllocCost() {
  // Puts the previous handler back (the one this scope wrapped).
  std::unique_ptr<DiagnosticHandler> Ours = Ctx.getDiagnosticHandler();
  Ctx.setDiagnosticHandler(std::move(static_cast<RegAllocCostHandler &>(*Ours).takeNext()));
}

} // namespace smartcc
