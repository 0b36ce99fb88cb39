// The global symbols a linked image defines (its .symtab): a link candidate may define none
// that the reference link (clang's LTO link; for a whole-program link, lld's whole-program
// link of the same command) does not.
//
// Why: a candidate's pipeline can call a library function the program did not call before.
// -Oz's module pipeline over a whole firmware program (lto-oz-pipeline) turned printf calls
// into puts and putchar; in the merged program newlib's own puts was internalized or gone, so
// the new calls were resolved from libc.a's member, as machine code, with its own references
// to the C library's state, which the program's copy had internalized: Mbed TLS's self-test
// crashed at its first line. Such a candidate defines the library functions it pulled in.
// (Functions the candidates add themselves, the outliners', are local.)
//
// Runtime library calls (memcpy, __stack_chk_guard, ...) are left out: an LTO link fetches
// the archive members defining them whether or not the program calls them. So are weak C++
// definitions (inline functions, template instantiations): they come from the program's own
// bitcode, where a pipeline that inlines less than the per-TU code did emits them, and the
// ODR makes every definition the same. Without this the rule refused every whole-program link
// of jsoncpp (std::string's _M_construct<char*>).
//
// An image without .symtab (linked with -s) shows nothing: the check cannot refuse on it.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <set>
#include <string>

namespace smartcc {

// The names of the global and weak symbols Image defines in its .symtab, but the weak C++
// ones (HasSymtab false when it has none).
struct LinkedSymbols {
  bool HasSymtab = false;
  std::set<std::string> Defined;
};
llvm::Expected<LinkedSymbols> readLinkedSymbols(llvm::MemoryBufferRef Image);

// The first symbol Candidate defines that Reference does not ("defines NAME"); empty if none
// (or if either has no .symtab).
std::string newDefinitions(const LinkedSymbols &Reference, const LinkedSymbols &Candidate);

} // namespace smartcc
