// Greedy allocator options a register-allocation head may carry, set for the functions that
// head allocates. A policy's priorities change the order in which the greedy allocator takes
// live ranges; these options change how it splits them, and per function the two kinds find
// different savings (docs/ml-regalloc.md has the measurements that chose them).
//
// They are LLVM command-line options (cl::opt), so process-wide state, and the allocator reads
// them while it allocates. smartcc sets them in its priority advisor, which the allocator builds
// after reading its other options and destroys when the function is done; so only options read
// after that point qualify (the allow-list below), and an advisor holds a process-wide lock for
// its function so that two threads allocating at once (the trainer, smartcc-eval) cannot see
// each other's settings. An option the user set (-mllvm) is the user's: smartcc leaves it alone.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <mutex>
#include <string>
#include <vector>

namespace smartcc {

// The options a head may set ("-name=value"), by name.
const std::vector<std::string> &allocatorOptionNames();

// The option sets regalloc-es tries (--option-heads): each alone, on LLVM's priorities and on
// the best drawn heads.
const std::vector<std::vector<std::string>> &allocatorOptionSets();

// Checks one "-name=value": an allowed name and a value the option accepts.
llvm::Error checkAllocatorOption(llvm::StringRef Arg);

// Sets Args for the allocation of one function, and puts them back to their defaults when it
// ends. Every allocation smartcc's advisor runs takes one (with no options at all, it only
// keeps other threads' options out).
class FunctionAllocatorOptions {
public:
  explicit FunctionAllocatorOptions(llvm::ArrayRef<std::string> Args);
  ~FunctionAllocatorOptions();
  FunctionAllocatorOptions(const FunctionAllocatorOptions &) = delete;
  FunctionAllocatorOptions &operator=(const FunctionAllocatorOptions &) = delete;

private:
  std::unique_lock<std::recursive_mutex> Lock;
  std::vector<std::string> Set; // the names set here, to reset
};

} // namespace smartcc
