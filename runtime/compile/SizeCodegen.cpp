#include "runtime/compile/SizeCodegen.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace smartcc {

bool hasLandingPads(const Module &M) {
  return any_of(M, [](const Function &F) { return F.hasPersonalityFn(); });
}

PreservedAnalyses SizeBlockPlacementPass::run(Module &M, ModuleAnalysisManager &) {
  if (hasLandingPads(M))
    return PreservedAnalyses::all();
  // LLVM's option (TargetPassConfig.cpp), set as -mllvm would.
  if (!setLLVMOption("disable-block-placement", "true"))
    report_fatal_error("smartcc-size-block-placement: LLVM has no -disable-block-placement");
  // (Only an option changes: the IR and its analyses are untouched.)
  return PreservedAnalyses::all();
}

} // namespace smartcc
