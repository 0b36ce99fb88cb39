// smartcc's pass plugin for link-time optimization. lld loads it (--load-pass-plugin) for the
// link candidates whose LTO pipeline names one of its passes (driver/LTOLink.cpp adds the
// option), so that what smartcc does per translation unit can be done to the whole program
// inside the linker, where only lld's own passes and -mllvm options reach otherwise.
//
//   smartcc-function-attr<KEY=VALUE>   adds the string attribute KEY=VALUE to every function
//                                      definition (e.g. no-jump-tables=true: what
//                                      -fno-jump-tables would have emitted at compile time)
//   smartcc-macro<NAME> / <NAME;Os>    one of the agent's macro actions (runtime/compile/MacroPipelines.h:
//                                      simplification, optimization, inliner, ...) built by lld's
//                                      own PassBuilder (its target machine) at -Oz (or -Os): how
//                                      the agent's sequences run on the whole program
//   smartcc-ml-inliner / <PATH>        from here on, the link's inliners (lto<O2>'s, a macro's)
//                                      are advised by smartcc's ML inliner: the model built in
//                                      for the module's target (policies/models/inliner), or
//                                      the model file PATH ("heuristic": LLVM's own answers
//                                      through the same advisor); an error fails the link
//   smartcc-replay-optimized<PATH>     replaces the merged module by the optimized one in PATH
//                                      (saved by this plugin in the same link run with lld's
//                                      --lto-emit-llvm, below), so that only what follows it
//                                      runs again
//                                      (runtime/link/plugin/OptimizedModuleReplay.h)
//   smartcc-allocators<A;B;...>        register allocators chosen per function by bytes
//   smartcc-allocators<predicted>      ... or by the built-in allocator-choice model
//   smartcc-allocators<proposed>       ... or the built-in proposals, checked by bytes
//                                      (runtime/link/plugin/LinkAllocators.h)
//   smartcc-ipra-local-calls           interprocedural register allocation (-enable-ipra, in the
//                                      candidate's llvm_args) only across calls that bind
//                                      locally (runtime/compile/LocalCallRegisters.h)
//   smartcc-size-block-placement       machine block placement off for the code generation
//                                      unless the module has landing pads
//                                      (runtime/compile/SizeCodegen.h)
//   smartcc-shared-unwind              the frameless functions (decided on their machine code,
//                                      the machine outliner's included) share one unwind entry
//                                      (runtime/compile/SharedUnwind.h, SharedUnwindCodegen.h);
//   smartcc-shared-unwind<PATH>        the same for the functions named in PATH, trusted (tests)
//   smartcc-shared-unwind<unchecked-thunks>  tests only: the outliner's thunks join the run
//                                      even where functions with landing pads call them
//                                      (what the output check must refuse)
//
// With SMARTCC_LTO_SAVE_OPTIMIZED=PATH in its environment, the plugin also saves the module at
// the end of LTO's default pipeline to PATH (what replay reads).
//
// It links libLLVM (the same shared library lld uses) and the ML inliner's and the allocator
// plan's sources, compiled into it (runtime/CMakeLists.txt), nothing else of smartcc.
#include "policies/inliner/MLInlineAdvisor.h"
#include "runtime/compile/MacroPipelines.h"
#include "runtime/link/plugin/LinkAllocators.h"
#include "runtime/link/plugin/OptimizedModuleReplay.h"
#include "runtime/compile/SharedUnwind.h"
#include "runtime/compile/EpiloguePops.h"
#include "runtime/compile/UnwindAwareConstants.h"
#include "runtime/compile/LocalCallRegisters.h"
#include "runtime/compile/SizeCodegen.h"
#include "runtime/compile/SharedUnwindCodegen.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h" // LLVM 22 moved it from llvm/Passes
#include "llvm/Support/ErrorHandling.h"
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

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

// Installs the ML inline advisor in the analysis manager of the pipeline it runs in (LLVM's
// inliner asks PluginInlineAdvisorAnalysis when it is registered). It must come before the
// first inliner: the advisor is created once per pipeline. ThinLTO backends run on several
// threads, each its own pipeline: the advisor scope is per thread.
struct InstallMLInliner : PassInfoMixin<InstallMLInliner> {
  std::string Path; // empty: the built-in model for the module's target
  explicit InstallMLInliner(StringRef P) : Path(P) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    static std::mutex Lock;
    static std::map<std::string, std::unique_ptr<smartcc::InlinePolicy>> Policies;
    const smartcc::InlinePolicy *Policy;
    {
      std::lock_guard<std::mutex> G(Lock);
      std::string Key = Path.empty() ? "builtin:" + M.getTargetTriple().str() : Path;
      std::unique_ptr<smartcc::InlinePolicy> &P = Policies[Key];
      if (!P) {
        Expected<smartcc::InlinePolicy> Loaded = [&]() -> Expected<smartcc::InlinePolicy> {
          if (Path == "heuristic") // LLVM's own answers through the same advisor (a check)
            return smartcc::InlinePolicy::heuristic();
          if (!Path.empty())
            return smartcc::InlinePolicy::load(Path);
          auto B = smartcc::InlinePolicy::builtinFor(M.getTargetTriple().str());
          if (!B)
            return createStringError(inconvertibleErrorCode(),
                                     "no built-in inliner model for " +
                                         M.getTargetTriple().str());
          return std::move(*B);
        }();
        if (!Loaded)
          report_fatal_error(Twine("smartcc-ml-inliner: ") + toString(Loaded.takeError()),
                             /*gen_crash_diag=*/false);
        P = std::make_unique<smartcc::InlinePolicy>(std::move(*Loaded));
      }
      Policy = P.get();
    }
    static thread_local std::unique_ptr<smartcc::ScopedMLInliner> Scope;
    Scope.reset();
    Scope = std::make_unique<smartcc::ScopedMLInliner>(MAM, *Policy);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

bool parseMLInliner(StringRef Name, ModulePassManager &MPM) {
  if (Name == "smartcc-ml-inliner") {
    MPM.addPass(InstallMLInliner(""));
    return true;
  }
  if (!Name.consume_front("smartcc-ml-inliner<") || !Name.consume_back(">") || Name.empty())
    return false;
  MPM.addPass(InstallMLInliner(Name));
  return true;
}

bool parseFunctionAttr(StringRef Name, ModulePassManager &MPM) {
  if (!Name.consume_front("smartcc-function-attr<") || !Name.consume_back(">"))
    return false;
  auto [Key, Value] = Name.split('=');
  if (Key.empty())
    return false;
  MPM.addPass(AddFunctionAttr(Key, Value));
  // Attributes that ask for a code-generation pass of smartcc's bring it into the link's
  // code generation.
  if (Key == smartcc::UnwindConstantsAttr)
    smartcc::registerUnwindAwareConstants();
  if (Key == smartcc::EpiloguePopsAttr)
    smartcc::registerEpiloguePops();
  return true;
}

bool parseMacro(PassBuilder &PB, StringRef Name, ModulePassManager &MPM) {
  if (!Name.consume_front("smartcc-macro<") || !Name.consume_back(">"))
    return false;
  auto [Macro, LevelName] = Name.split(';');
  // Size levels only: the link's functions carry clang's minsize/optsize marks.
  OptimizationLevel Level = OptimizationLevel::Oz;
  if (LevelName == "Os")
    Level = OptimizationLevel::Os;
  else if (!LevelName.empty() && LevelName != "Oz")
    return false;
  return smartcc::addMacroPipeline(PB, Macro, Level, MPM);
}

bool parseReplay(StringRef Name, ModulePassManager &MPM) {
  if (!Name.consume_front("smartcc-replay-optimized<") || !Name.consume_back(">") ||
      Name.empty())
    return false;
  MPM.addPass(smartcc::ReplayOptimizedModulePass(Name));
  return true;
}

bool parseAllocators(StringRef Name, ModulePassManager &MPM) {
  if (!Name.consume_front("smartcc-allocators<") || !Name.consume_back(">") || Name.empty())
    return false;
  return smartcc::addLinkAllocatorsPass(Name, MPM);
}

bool parseIPRALocalCalls(StringRef Name, ModulePassManager &MPM) {
  if (Name != smartcc::IPRALocalCallsPassName)
    return false;
  MPM.addPass(smartcc::IPRALocalCallsPass());
  return true;
}

bool parseSizeBlockPlacement(StringRef Name, ModulePassManager &MPM) {
  if (Name != smartcc::SizeBlockPlacementPassName)
    return false;
  MPM.addPass(smartcc::SizeBlockPlacementPass());
  return true;
}

bool parseSharedUnwind(StringRef Name, ModulePassManager &MPM) {
  if (Name != "smartcc-shared-unwind" &&
      (!Name.consume_front("smartcc-shared-unwind<") || !Name.consume_back(">") || Name.empty()))
    return false;
  if (Name == "unchecked-thunks")
    MPM.addPass(smartcc::SharedUnwindPass("", /*UncheckedThunks=*/true));
  else
    MPM.addPass(smartcc::SharedUnwindPass(Name == "smartcc-shared-unwind" ? "" : Name));
  // Its code generation half (which functions the run holds): only links that share unwind
  // entries get the extra passes in their code generation pipelines.
  smartcc::registerSharedUnwindCodegenPasses();
  return true;
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "smartcc-lto", "1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [&PB](StringRef Name, ModulePassManager &MPM,
                      ArrayRef<PassBuilder::PipelineElement>) {
                  return parseFunctionAttr(Name, MPM) || parseMacro(PB, Name, MPM) ||
                         parseMLInliner(Name, MPM) || parseReplay(Name, MPM) ||
                         parseSharedUnwind(Name, MPM) || parseAllocators(Name, MPM) ||
                         parseIPRALocalCalls(Name, MPM) || parseSizeBlockPlacement(Name, MPM);
                });
            if (const char *Save = std::getenv(smartcc::SaveOptimizedEnv); Save && *Save) {
              std::string Path = Save;
              PB.registerFullLinkTimeOptimizationLastEPCallback(
                  [Path](ModulePassManager &MPM, OptimizationLevel) {
                    MPM.addPass(smartcc::SaveOptimizedModulePass(Path));
                  });
            }
          }};
}
