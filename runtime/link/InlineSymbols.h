// C++ inline functions a shared library need not export, found in its link's machine-code
// objects, and copies of those objects that hide them.
//
// Why: a shared library exports every weak C++ definition its objects carry (inline functions
// and template instantiations that were not inlined everywhere), and each export costs the
// image a dynamic symbol, its mangled name (tens of bytes each in C++), a hash and version
// entry, and, since another module could interpose it, a PLT slot and a relocation for every
// function the library calls. No other module needs these: every module that uses an inline
// function has its own copy (ODR). LLVM's LTO already hides such a definition
// (canBeOmittedFromSymbolTable: linkonce_odr, and no translation unit took its address);
// jsoncpp linked per TU by clang-22 -Oz exports 685 symbols where its -flto link exports 510.
// The fat objects' bitcode (runtime/compile/FatObject.h) still says which weak definitions are
// linkonce_odr ones whose address nobody compares, which the machine code alone cannot tell
// (an explicit instantiation, `template class X<int>;`, is weak too, and another library's
// `extern template` declaration needs it exported).
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <string>
#include <vector>

namespace smartcc {

struct InlineSymbolScan {
  // Weak C++ functions every definition of which among the inputs is one that LLVM's LTO would
  // leave out of the symbol table (the defining object's own bitcode says so), defined in
  // objects given as files (not archive members, which a link cannot be handed a copy of) and
  // referenced by no input without being defined there.
  llvm::StringSet<> Names;
  // The input files that define any of them, as named among Inputs.
  std::vector<std::string> Objects;
  // Why Names is empty, as a counter's name ("" when it is not).
  std::string Refusal;
};

// Reads Inputs (the link's files: objects, archives, whose every member counts, shared
// libraries, which do not: they are other modules).
InlineSymbolScan scanInlineSymbols(llvm::ArrayRef<std::string> Inputs);

// Writes to Path a copy of the ELF relocatable object File in which every default-visibility
// definition named in Names is hidden (STV_HIDDEN); returns how many were. Nothing else in the
// object changes.
llvm::Expected<unsigned> writeWithHiddenSymbols(llvm::MemoryBufferRef File,
                                                const llvm::StringSet<> &Names,
                                                llvm::StringRef Path);

} // namespace smartcc
