// What an object file asks of the link, read once per object. A candidate that asks more than
// clang's object does would ship a link clang's build never had to make:
//  - symbols it needs from elsewhere: a call clang's pipeline proved dead may name a function
//    nobody defines (code that relies on dead-code elimination, as GCC's torture test
//    20010119-1 and BUILD_BUG_ON-style checks do), and a new library call (memset, a
//    compiler-rt helper) adds bytes the object's size does not show;
//  - in shared-library code, its own exported symbols reached through the PLT or GOT.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <set>
#include <string>

namespace smartcc {

struct LinkReferences {
  std::set<std::string> Undefined; // the symbols the object needs from elsewhere
  // The functions and data of the object itself that a shared library reaches through its PLT
  // or GOT: global or weak symbols of default visibility, defined here, named by a call or GOT
  // relocation (x86-64 PLT32 and GOTPCREL*, AArch64 CALL26/JUMP26 and the GOT page
  // relocations). In code compiled for a shared library (-fPIC, not -fPIE) each one is
  // preemptible, so linking -shared gives it a PLT entry (16 bytes of .plt, 8 of writable
  // .got.plt, 24 of .rela.plt) or a GOT slot: bytes and RAM the object's size does not show. A
  // candidate that calls its own `init` where clang's pipeline had inlined it (nettle's md4.c,
  // sha512.c) adds one. In an executable the linker binds them directly, so they are read only
  // when SharedLibraryCode asks (empty otherwise).
  std::set<std::string> Interposable;
};

llvm::Expected<LinkReferences> linkReferences(llvm::MemoryBufferRef Object,
                                              bool SharedLibraryCode);

// The first symbol (in name order) of Candidate that Baseline lacks, or "".
std::string firstNewSymbol(const std::set<std::string> &Candidate,
                              const std::set<std::string> &Baseline);

} // namespace smartcc
