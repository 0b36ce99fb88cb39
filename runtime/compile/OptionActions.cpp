#include "runtime/compile/OptionActions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smartcc {

void addFunctionAttributes(Module &M, const FunctionAttrList &Attrs) {
  if (Attrs.empty())
    return;
  for (Function &F : M)
    if (!F.isDeclaration())
      for (const auto &[Key, Value] : Attrs)
        F.addFnAttr(Key, Value);
}

Error applyLLVMOptions(const std::vector<std::string> &UserArgs,
                       const std::vector<std::string> &Extra, const std::string &Who) {
  if (Extra.empty())
    return Error::success();
  cl::ResetAllOptionOccurrences();
  std::vector<const char *> Argv{"smartcc (candidate options)"};
  for (const std::vector<std::string> *List : {&UserArgs, &Extra})
    for (const std::string &A : *List)
      Argv.push_back(A.c_str());
  std::string Errors;
  raw_string_ostream OS(Errors);
  if (!cl::ParseCommandLineOptions(int(Argv.size()), Argv.data(), "", &OS))
    return createStringError(inconvertibleErrorCode(), "%s%s", Who.c_str(), Errors.c_str());
  return Error::success();
}

} // namespace smartcc
