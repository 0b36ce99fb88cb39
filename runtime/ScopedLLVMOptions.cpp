#include "runtime/ScopedLLVMOptions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smartcc {

static void resetOptions(const std::vector<std::string> &Names) {
  auto Registered = cl::getRegisteredOptions();
  for (const std::string &N : Names)
    if (cl::Option *O = Registered.lookup(N))
      O->reset();
}

ScopedLLVMOptions::ScopedLLVMOptions(const std::vector<std::string> &Args) {
  if (Args.empty())
    return;
  std::vector<const char *> Argv{"smartcc (scoped options)"};
  for (const std::string &A : Args) {
    Names.push_back(StringRef(A).ltrim('-').split('=').first.str());
    Argv.push_back(A.c_str());
  }
  resetOptions(Names); // an option given before must not count as a second occurrence
  cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &nulls());
}

ScopedLLVMOptions::~ScopedLLVMOptions() { resetOptions(Names); }

} // namespace smartcc
