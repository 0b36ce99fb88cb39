// Shared libraries linked from smartcc's objects without a whole-program link (setting
// `local_inline_symbols`): after the user's link, the same command links copies of the
// objects in which the weak C++ functions no other module needs are hidden
// (runtime/link/InlineSymbols.h), and that image replaces the user's only if it is strictly
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

namespace smartcc {

// After C's jobs succeeded, when smartcc did not own its link.
void localizeInlineSymbols(const clang::driver::Compilation &C, const Config &Cfg);

} // namespace smartcc
