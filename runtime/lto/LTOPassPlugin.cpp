// smartcc's pass plugin for link-time optimization. lld loads it (--load-pass-plugin) for the
// link candidates whose LTO pipeline names one of its passes (driver/LTOLink.cpp adds the
// option), so that what smartcc does per translation unit can be done to the whole program
// inside the linker, where only lld's own passes and -mllvm options reach otherwise.
//
//   smartcc-function-attr<KEY=VALUE>   adds the string attribute KEY=VALUE to every function
//                                      definition (e.g. no-jump-tables=true: what
//                                      -fno-jump-tables would have emitted at compile time)
//
// It links only libLLVM (the same shared library lld uses), no smartcc code.
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h" // LLVM 22 moved it from llvm/Passes

using namespace llvm;

namespace {

struct AddFunctionAttr : PassInfoMixin<AddFunctionAttr> {
  std::string Key, Value;
  AddFunctionAttr(StringRef K, StringRef V) : Key(K), Value(V) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    for (Function &F : M)
      if (!F.isDeclaration())
        F.addFnAttr(Key, Value);
    // String attributes change no analysis result the pipeline keeps.
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

bool parsePipelineElement(StringRef Name, ModulePassManager &MPM,
                          ArrayRef<PassBuilder::PipelineElement>) {
  if (!Name.consume_front("smartcc-function-attr<") || !Name.consume_back(">"))
    return false;
  auto [Key, Value] = Name.split('=');
  if (Key.empty())
    return false;
  MPM.addPass(AddFunctionAttr(Key, Value));
  return true;
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "smartcc-lto", "1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(parsePipelineElement);
          }};
}
