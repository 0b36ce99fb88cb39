// Plain links of executables and shared libraries that smartcc does not make whole-program
// (setting `per_tu_links`: whole_program off, or a link that rule leaves as asked,
// wp_partial_bitcode, wp_user_no_lto, ...; an owned -flto link's LTO decides all this itself),
// and plain links it did make whole-program, after that decision (per TU the objects may end
// smaller than the program linked whole from their bitcode).
// After the user's link, up to two links of the same command run in parallel:
// - a shared library's objects copied with the weak C++ functions no other module needs
//   hidden (runtime/link/InlineSymbols.h), linked by the user's linker;
// - the same objects (hidden where that applies) linked by lld with identical code folding.
// The smallest image replaces the user's only if it is strictly smaller and the loader sees
// the same program but for weak C++ exports (runtime/link/LoaderView.h: the rule
// whole-program links ship by, where LLVM's LTO hides the same functions, and whose lld link
// replaces the user's linker the same way).
#pragma once
#include "runtime/config/Config.h"
#include "runtime/link/LoaderView.h"
#include "clang/Driver/Compilation.h"
#include "llvm/ADT/ArrayRef.h"

namespace smartcc {

// After C's jobs succeeded, when smartcc did not own its link (Argv: the command line C was
// built from; BaselineMillis: how long the user's link took). The links have link_time
// percent of that together, as an owned link's candidates do.
// UserView: after a whole-program link, the loader's view of the user's own link (the output
// may be the whole-program link's by then): the links are judged against it, and must be
// smaller than the output as it is.
void relinkPerTU(const clang::driver::Compilation &C, const Config &Cfg,
                 llvm::ArrayRef<const char *> Argv, double BaselineMillis,
                 const LoaderView *UserView = nullptr);

} // namespace smartcc
