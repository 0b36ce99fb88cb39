// The symbols an object file needs from elsewhere. A candidate that needs one clang's object
// does not would ship a link clang's build never had to make: a call clang's pipeline proved
// dead may name a function nobody defines (code that relies on dead-code elimination, as
// GCC's torture test 20010119-1 and BUILD_BUG_ON-style checks do), and a new library call
// (memset, a compiler-rt helper) adds bytes the object's size does not show.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <set>
#include <string>

namespace smartcc {

llvm::Expected<std::set<std::string>> undefinedSymbols(llvm::MemoryBufferRef Object);

// The first symbol (in name order) Candidate needs that Baseline does not, or "".
std::string firstNewUndefined(const std::set<std::string> &Candidate,
                              const std::set<std::string> &Baseline);

} // namespace smartcc
