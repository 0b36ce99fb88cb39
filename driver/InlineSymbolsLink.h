// Shared libraries linked from smartcc's objects without a whole-program link (setting
// `local_inline_symbols`): after the user's link, the same command links copies of the
// objects in which the weak C++ functions no other module needs are hidden
// (runtime/link/InlineSymbols.h), once with the user's linker and once with lld folding
// identical functions, and the smaller image replaces the user's only if it is strictly
// smaller and the loader sees the same library but for those weak exports
// (runtime/link/LoaderView.h: the rule whole-program links ship by, where LLVM's LTO hides
// the same functions).
//
// It runs where the library's link is not owned: whole_program off, or a link the
// whole-program rule leaves as asked (wp_partial_bitcode, wp_user_no_lto, ...). An owned link's
// LTO decides these symbols itself.
#pragma once
#include "runtime/config/Config.h"
#include "clang/Driver/Compilation.h"
#include "llvm/ADT/ArrayRef.h"

namespace smartcc {

// After C's jobs succeeded, when smartcc did not own its link (Argv: the command line C was
// built from).
void localizeInlineSymbols(const clang::driver::Compilation &C, const Config &Cfg,
                           llvm::ArrayRef<const char *> Argv);

} // namespace smartcc
