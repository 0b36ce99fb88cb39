// The agent's macro actions (policies/actions/macro.toml) as PassBuilder calls, in one place
// for the two builders that need them: the compiler's middle-end (runtime/compile/PipelineBuilder.cpp)
// and smartcc's LTO pass plugin inside lld (runtime/link/plugin/LTOPassPlugin.cpp), which links only
// libLLVM, hence header-only. clang-default and clang-default-os are not here: they are whole
// pipelines each builder spells its own way (per module in a compile, lld's lto<> at a link).
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Passes/PassBuilder.h"

namespace smartcc {

// Adds macro Name's pipeline at Level to MPM; false for a name that is not one of these.
inline bool addMacroPipeline(llvm::PassBuilder &PB, llvm::StringRef Name,
                             llvm::OptimizationLevel Level, llvm::ModulePassManager &MPM) {
  using namespace llvm;
  const ThinOrFullLTOPhase None = ThinOrFullLTOPhase::None;
  if (Name == "simplification")
    MPM.addPass(PB.buildModuleSimplificationPipeline(Level, None));
  else if (Name == "optimization")
    MPM.addPass(PB.buildModuleOptimizationPipeline(Level, None));
  else if (Name == "function-simplification")
    MPM.addPass(createModuleToFunctionPassAdaptor(PB.buildFunctionSimplificationPipeline(Level, None)));
  else if (Name == "inliner")
    MPM.addPass(PB.buildInlinerPipeline(Level, None));
  else if (Name == "module-inliner")
    MPM.addPass(PB.buildModuleInlinerPipeline(Level, None));
  else
    return false;
  return true;
}

} // namespace smartcc
