#include "runtime/compile/CompileLevel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smartcc {

std::vector<std::string> cc1ArgsAtLevel(std::vector<std::string> Args, StringRef Level) {
  for (std::string &A : Args)
    if (StringRef(A).starts_with("-O") && A.size() <= 3)
      A = ("-" + Level).str();
  const bool Loops = Level == "O2" || Level == "O3" || Level == "Os";
  const bool SLP = Loops || Level == "Oz";
  for (auto [Flag, On] : {std::pair<StringRef, bool>{"-vectorize-loops", Loops},
                          std::pair<StringRef, bool>{"-vectorize-slp", SLP}}) {
    llvm::erase(Args, Flag.str());
    if (On)
      Args.push_back(Flag.str());
  }
  return Args;
}

void setSizeAttributesForLevel(Module &M, StringRef Level) {
  const bool MinSize = Level == "Oz", OptSize = MinSize || Level == "Os";
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (MinSize)
      F.addFnAttr(Attribute::MinSize);
    else
      F.removeFnAttr(Attribute::MinSize);
    if (OptSize)
      F.addFnAttr(Attribute::OptimizeForSize);
    else
      F.removeFnAttr(Attribute::OptimizeForSize);
  }
}

} // namespace smartcc
