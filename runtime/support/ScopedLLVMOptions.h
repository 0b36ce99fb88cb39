// Sets LLVM command-line options (as -mllvm would) for a scope, and puts exactly those options
// back to their defaults when it ends: for processes that evaluate several candidates in turn
// (cl::opt state is global; the compiler itself gives each candidate its own process instead).
#pragma once
#include <string>
#include <vector>

namespace smartcc {

// Puts the options named in Args ("-name=value" or "-name") back to their defaults, so that a
// following parse of them is not a second occurrence.
void resetLLVMOptionsNamedIn(const std::vector<std::string> &Args);

// Sets one option (as -mllvm -Name=Value would) for the rest of the process: for a pass that
// decides an option of the code generation after it (runtime/compile/SizeCodegen.h,
// LocalCallRegisters.h). False if LLVM has no such option or refuses the value.
bool setLLVMOption(const std::string &Name, const std::string &Value);

class ScopedLLVMOptions {
public:
  explicit ScopedLLVMOptions(const std::vector<std::string> &Args);
  ~ScopedLLVMOptions();
  ScopedLLVMOptions(const ScopedLLVMOptions &) = delete;
  ScopedLLVMOptions &operator=(const ScopedLLVMOptions &) = delete;

private:
  std::vector<std::string> Args;
};

} // namespace smartcc
