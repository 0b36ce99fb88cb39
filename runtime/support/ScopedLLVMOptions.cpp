#include "runtime/support/ScopedLLVMOptions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smartcc {

void resetLLVMOptionsNamedIn(const std::vector<std::string> &Args) {
  auto &Registered = cl::getRegisteredOptions(); // a reference: no copy of the table
  for (const std::string &A : Args)
    if (cl::Option *O = Registered.lookup(StringRef(A).ltrim('-').split('=').first))
      O->reset();
}

bool setLLVMOption(const std::string &Name, const std::string &Value) {
  cl::Option *O = cl::getRegisteredOptions().lookup(Name);
  return O && !O->addOccurrence(0, Name, Value);
}

ScopedLLVMOptions::ScopedLLVMOptions(const std::vector<std::string> &Args) : Args(Args) {
  if (Args.empty())
    return;
  std::vector<const char *> Argv{"smartcc (scoped options)"};
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  resetLLVMOptionsNamedIn(Args); // an option given before must not count twice
  cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &nulls());
}

ScopedLLVMOptions::~ScopedLLVMOptions() { resetLLVMOptionsNamedIn(Args); }

} // namespace smartcc
