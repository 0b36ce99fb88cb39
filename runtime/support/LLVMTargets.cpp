#include "runtime/support/LLVMTargets.h"
#include "llvm/Support/TargetSelect.h"

void smartcc::initializeLLVMTargetsOnce() {
  static bool Done = [] {
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
    return true;
  }();
  (void)Done;
}
