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

// The functions and data of the object itself that a shared library reaches through its PLT or
// GOT: global or weak symbols of default visibility, defined here, named by a call or GOT
// relocation (x86-64 PLT32 and GOTPCREL*, AArch64 CALL26/JUMP26 and the GOT page relocations).
// In code compiled for a shared library (-fPIC, not -fPIE) each one is preemptible, so linking
// -shared gives it a PLT entry (16 bytes of .plt, 8 of writable .got.plt, 24 of .rela.plt) or a
// GOT slot: bytes and RAM the object's size does not show. A candidate that calls its own
// `init` where clang's pipeline had inlined it (nettle's md4.c, sha512.c) adds one. In an
// executable the linker binds them directly, so only shared-library code asks.
llvm::Expected<std::set<std::string>> interposableReferences(llvm::MemoryBufferRef Object);

// The first symbol (in name order) of Candidate that Baseline lacks, or "".
std::string firstNewUndefined(const std::set<std::string> &Candidate,
                              const std::set<std::string> &Baseline);

} // namespace smartcc
