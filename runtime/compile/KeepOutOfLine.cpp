#include "runtime/compile/KeepOutOfLine.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smartcc {

namespace {

unsigned instructionCount(const Function &F) {
  unsigned N = 0;
  for (const BasicBlock &BB : F)
    N += BB.sizeWithoutDebug();
  return N;
}

// The direct call that is F's only use, if that is what F has.
CallBase *onlyCall(Function &F) {
  if (!F.hasOneUse())
    return nullptr;
  auto *Call = dyn_cast<CallBase>(F.use_begin()->getUser());
  if (!Call || Call->getCalledOperand() != &F)
    return nullptr;
  return Call;
}

} // namespace

PreservedAnalyses KeepOutOfLinePass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasLocalLinkage() || F.hasFnAttribute(Attribute::AlwaysInline) ||
        F.hasFnAttribute(Attribute::NoInline))
      continue;
    CallBase *Call = onlyCall(F);
    if (!Call || Call->isNoInline() || Call->getFunction() == &F)
      continue;
    if (instructionCount(F) < MinInstructions)
      continue;
    Call->addFnAttr(Attribute::NoInline);
    Call->addFnAttr(Attribute::get(M.getContext(), KeptOutOfLineAttr));
    Changed = true;
  }
  // Call-site attributes change no analysis result.
  (void)Changed;
  return PreservedAnalyses::all();
}

PreservedAnalyses ReleaseOutOfLinePass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        if (!Call || !Call->hasFnAttr(KeptOutOfLineAttr))
          continue;
        Call->removeFnAttr(KeptOutOfLineAttr);
        Call->removeFnAttr(Attribute::NoInline);
      }
  return PreservedAnalyses::all();
}

bool parseOutOfLinePass(StringRef Name, ModulePassManager &MPM) {
  if (Name == "smartcc-release-out-of-line") {
    MPM.addPass(ReleaseOutOfLinePass());
    return true;
  }
  if (!Name.consume_front("smartcc-keep-out-of-line<") || !Name.consume_back(">"))
    return false;
  unsigned N;
  if (Name.getAsInteger(10, N))
    return false;
  MPM.addPass(KeepOutOfLinePass(N));
  return true;
}

} // namespace smartcc
