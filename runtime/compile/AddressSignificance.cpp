#include "runtime/compile/AddressSignificance.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/GlobalStatus.h"

using namespace llvm;

namespace smartcc {

unsigned markUncomparedFunctions(Module &M) {
  unsigned Marked = 0;
  for (Function &F : M) {
    if (F.hasAtLeastLocalUnnamedAddr() || F.isIntrinsic() || F.getName().starts_with("llvm."))
      continue;
    GlobalStatus GS;
    // true: a use it cannot follow (the address stored, passed, converted): left as it is.
    if (GlobalStatus::analyzeGlobal(&F, GS) || GS.IsCompared)
      continue;
    F.setUnnamedAddr(GlobalValue::UnnamedAddr::Local);
    ++Marked;
  }
  return Marked;
}

} // namespace smartcc
