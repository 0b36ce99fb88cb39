#include "runtime/compile/TestPasses.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <csignal>

using namespace llvm;

namespace smartcc {
namespace {

enum class Misbehaviour { Crash, Hang, Invalid, Bloat, Fatal, Kill, Exhaust };

struct MisbehavingPass : PassInfoMixin<MisbehavingPass> {
  Misbehaviour Kind;
  explicit MisbehavingPass(Misbehaviour K) : Kind(K) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    switch (Kind) {
    case Misbehaviour::Crash:
      std::raise(SIGSEGV);
      break;
    case Misbehaviour::Hang:
      for (volatile bool Forever = true; Forever;)
        ;
      break;
    case Misbehaviour::Kill: // what the kernel's OOM killer does
      std::raise(SIGKILL);
      break;
    case Misbehaviour::Exhaust: // what a memory limit (ulimit -v, RLIMIT_AS) does to LLVM
      // Claims address space without touching it, through LLVM's allocator, until the limit
      // refuses; capped so that a run without a limit ends too (the candidate then ends as an
      // LLVM fatal error, as under the limit).
      for (size_t Total = 0; Total < (size_t(1) << 40); Total += size_t(1) << 28)
        (void)safe_malloc(size_t(1) << 28);
      report_fatal_error("smartcc-test-exhaust: no memory limit refused 1 TiB");
    case Misbehaviour::Fatal:
      report_fatal_error("smartcc-test-fatal: deliberate fatal error");
    case Misbehaviour::Invalid:
      // A block without its terminator is rejected by the verifier.
      for (Function &F : M)
        if (!F.isDeclaration()) {
          F.getEntryBlock().getTerminator()->eraseFromParent();
          break;
        }
      break;
    case Misbehaviour::Bloat: {
      std::vector<Function *> Defined;
      for (Function &F : M)
        if (!F.isDeclaration())
          Defined.push_back(&F);
      std::vector<GlobalValue *> Keep;
      for (Function *F : Defined)
        for (int Copy = 0; Copy < 64; ++Copy) {
          ValueToValueMapTy Map;
          Function *Clone = CloneFunction(F, Map);
          Clone->setLinkage(GlobalValue::InternalLinkage);
          Keep.push_back(Clone);
        }
      appendToCompilerUsed(M, Keep); // so that no later pass deletes the copies
      break;
    }
    }
    return PreservedAnalyses::none();
  }
};

} // namespace

void registerTestPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        std::optional<Misbehaviour> Kind = StringSwitch<std::optional<Misbehaviour>>(Name)
                                               .Case("smartcc-test-crash", Misbehaviour::Crash)
                                               .Case("smartcc-test-hang", Misbehaviour::Hang)
                                               .Case("smartcc-test-invalid", Misbehaviour::Invalid)
                                               .Case("smartcc-test-bloat", Misbehaviour::Bloat)
                                               .Case("smartcc-test-fatal", Misbehaviour::Fatal)
                                               .Case("smartcc-test-kill", Misbehaviour::Kill)
                                               .Case("smartcc-test-exhaust", Misbehaviour::Exhaust)
                                               .Default(std::nullopt);
        if (!Kind)
          return false;
        MPM.addPass(MisbehavingPass(*Kind));
        return true;
      });
}

} // namespace smartcc
