#include "runtime/compile/SizeCodegen.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace smartcc {

bool hasLandingPads(const Module &M) {
  return any_of(M, [](const Function &F) { return F.hasPersonalityFn(); });
}

PreservedAnalyses SizeBlockPlacementPass::run(Module &M, ModuleAnalysisManager &) {
  if (hasLandingPads(M))
    return PreservedAnalyses::all();
  // LLVM's option (TargetPassConfig.cpp), set as -mllvm would: one occurrence, value true.
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("disable-block-placement");
  if (It == Options.end() ||
      It->second->addOccurrence(0, "disable-block-placement", "true"))
    report_fatal_error("smartcc-size-block-placement: LLVM has no -disable-block-placement");
  // (Only an option changes: the IR and its analyses are untouched.)
  return PreservedAnalyses::all();
}

} // namespace smartcc
