// The static cost of a register allocation, as LLVM's greedy allocator itself reports it: its
// "SpillReloadCopies" remark per function (RegAllocGreedy::reportStats) gives the spills,
// reloads and copies it inserted, each weighted by its block's frequency relative to the
// function's entry. smartcc enables just that remark, sums it over the module, and weighs
// copies by 0.2 as MLGO's register-allocation reward does (a copy is usually cheap). Asking for
// the remark changes no code: it is computed after allocation, from the allocated function.
#pragma once
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DiagnosticHandler.h"
#include <memory>

namespace llvm {
class DiagnosticInfo;
class LLVMContext;
}

namespace smartcc {

struct RegAllocCost {
  double Spills = 0, Reloads = 0, Copies = 0; // frequency-weighted, folded ones included
  unsigned NumSpills = 0, NumReloads = 0, NumCopies = 0;
  unsigned Functions = 0; // functions that reported (those with something to report)
  // The weighted cost of each function that reported, by name: a function that spills,
  // reloads and copies nothing does not report, and costs 0 (see costOf).
  llvm::StringMap<double> PerFunction;
  static constexpr double CopyWeight = 0.2;
  double weighted() const { return Spills + Reloads + CopyWeight * Copies; }
  // Cost as a multiple of Baseline, one spill-equivalent in the entry block added to both, so
  // that the ratios of near-zero costs do not dominate a geomean over modules (the trainer's
  // reward and smartcc-eval's figures both use it).
  static double ratio(double Cost, double Baseline) { return (Cost + 1.0) / (Baseline + 1.0); }
  double costOf(llvm::StringRef Function) const { return PerFunction.lookup(Function); }
  // Folds the remark in if DI is one; returns whether it was.
  bool add(const llvm::DiagnosticInfo &DI);
};

// Enables the allocator's remark, folds each into Cost and passes every other diagnostic on to
// Next (which decides what the context prints or records).
class RegAllocCostHandler : public llvm::DiagnosticHandler {
public:
  RegAllocCostHandler(std::unique_ptr<llvm::DiagnosticHandler> Next, RegAllocCost &Cost)
      : Next(std::move(Next)), Cost(Cost) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo &DI) override;
  bool isAnalysisRemarkEnabled(llvm::StringRef PassName) const override;
  bool isMissedOptRemarkEnabled(llvm::StringRef PassName) const override;
  bool isPassedOptRemarkEnabled(llvm::StringRef PassName) const override;
  bool isAnyRemarkEnabled() const override { return true; }
  std::unique_ptr<llvm::DiagnosticHandler> takeNext() { return std::move(Next); }

private:
  std::unique_ptr<llvm::DiagnosticHandler> Next;
  RegAllocCost &Cost;
};

// Installs a RegAllocCostHandler on Ctx in front of its current handler while alive.
class ScopedRegAllocCost {
public:
  ScopedRegAllocCost(llvm::LLVMContext &Ctx, RegAllocCost &Cost);
  ~ScopedRegAllocCost();

private:
  llvm::LLVMContext &Ctx;
};

} // namespace smartcc
