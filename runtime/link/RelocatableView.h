// What a later link sees of a relocatable link's output (`ld -r`, such as a kernel's
// vmlinux.o): the symbols it defines and the symbols it needs. The ship rule of owned
// relocatable links (driver/LinkerFront.h): a candidate changes the code inside the object,
// never what the next link resolves against it.
//
// A candidate must define every global and weak symbol the baseline defines, with the same
// binding and type, define no other, and need no symbol the baseline does not (it may need
// fewer: the code that needed one is gone). Local symbols are the candidate's own business
// (LTO names its internal functions as it pleases), and so are section names.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <map>
#include <set>
#include <string>

namespace smartcc {

struct RelocatableView {
  // Defined global and weak symbols: "binding/type" (ELF's numbers).
  std::map<std::string, std::string> Defined;
  std::set<std::string> Undefined;
};

// Reads the view of an ELF relocatable object.
llvm::Expected<RelocatableView> readRelocatableView(llvm::MemoryBufferRef Object);

// The first way in which Candidate's view is not Baseline's, in words; empty if none.
std::string relocatableViewDifference(const RelocatableView &Baseline,
                                      const RelocatableView &Candidate);

} // namespace smartcc
