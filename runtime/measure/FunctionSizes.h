// Bytes of each function in an object file (ELF symbol sizes of defined functions), so that
// decisions can be judged per function and not only per module.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace smartcc {

llvm::Expected<std::map<std::string, uint64_t>> functionSizes(llvm::MemoryBufferRef Object);

// For an object compiled with function sections: each function's .text.F plus .rodata.F (its
// jump tables) plus its unwind entry in .eh_frame, which symbol sizes alone do not show.
// Unwind, if given, receives the unwind entries alone (the part that is not code or data).
llvm::Expected<std::map<std::string, uint64_t>>
functionSectionSizes(llvm::MemoryBufferRef Object,
                     std::map<std::string, uint64_t> *Unwind = nullptr);

// For any object (function sections or not): each function's symbol size plus its unwind
// entry in .eh_frame, and the entries alone in Unwind if given. Jump tables and constants in
// shared sections are not attributed.
llvm::Expected<std::map<std::string, uint64_t>>
functionImageBytes(llvm::MemoryBufferRef Object,
                   std::map<std::string, uint64_t> *Unwind = nullptr);

// The functions of an object that have an unwind entry in .eh_frame (found by the relocation
// of the entry's initial location; aliases of one start all have it), and in Entries, if
// given, how many entries name a function.
llvm::Expected<std::set<std::string>> functionsWithUnwindEntries(llvm::MemoryBufferRef Object,
                                                                 unsigned *Entries = nullptr);

} // namespace smartcc
