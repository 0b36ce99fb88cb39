#include "runtime/compile/LocalCallRegisters.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Target/CGPassBuilderOption.h"

using namespace llvm;

namespace smartcc {

bool hasPatchableEntries(const Module &M) {
  for (const Function &F : M)
    for (StringRef A : {"fentry-call", "patchable-function-entry", "patchable-function",
                        "instrument-function-entry-inlined", "instrument-function-entry"})
      if (F.hasFnAttribute(A))
        return true;
  return false;
}

bool limitIPRAToLocalCalls(Module &M) {
  if (hasPatchableEntries(M) && ipraEnabledInProcess()) {
    // LLVM's option, set as -mllvm would (the code generation reads it when it starts).
    if (!setLLVMOption("enable-ipra", "false"))
      report_fatal_error("smartcc: LLVM has no -enable-ipra");
    return true;
  }
  if (M.getSemanticInterposition())
    return false;
  // (setModuleFlag replaces the flag of -fno-semantic-interposition; its behaviour stays
  // Error, as clang writes it.)
  M.setModuleFlag(Module::Error, "SemanticInterposition", uint32_t(1));
  return true;
}

bool enablesIPRA(ArrayRef<std::string> LLVMArgs) {
  bool On = false;
  for (StringRef A : LLVMArgs) {
    A = A.ltrim('-');
    if (!A.consume_front("enable-ipra"))
      continue;
    if (A.empty())
      On = true;
    else if (A.consume_front("="))
      On = A == "1" || A.equals_insensitive("true");
  }
  return On;
}

bool ipraEnabledInProcess() {
  // LLVM's own reading of its -enable-ipra option (unset: the target's default, off on the
  // targets smartcc builds for).
  return getCGPassBuilderOption().EnableIPRA.value_or(false);
}

PreservedAnalyses IPRALocalCallsPass::run(Module &M, ModuleAnalysisManager &) {
  // (Only metadata changes: no analysis of the IR is invalidated.)
  limitIPRAToLocalCalls(M);
  return PreservedAnalyses::all();
}

} // namespace smartcc
