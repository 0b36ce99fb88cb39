// Whole-program links without -flto (setting `whole_program`). A size-level build's objects
// carry their bitcode (fat objects, runtime/compile/FatObject.h); when smartcc drives a plain
// link of an executable or shared library whose inputs carry it, the link the user asked for
// runs unchanged (the baseline, with the user's linker: GNU ld by default), and the same
// command with `-flto -fuse-ld=lld -Wl,--fat-lto-objects`, as clang's driver builds it, is
// the first candidate: lld links the program whole from the bitcode, inputs without bitcode
// (assembly, prebuilt objects and libraries) as machine code. The LTO link candidates follow
// as they do for -flto links (driver/LTOLink.h); one ships only if strictly smaller, breaking
// no ship rule, and if the loader sees the same program (runtime/link/LoaderView.h).
//
// Why clang's driver builds the command rather than smartcc rewriting the user's: it is then
// exactly clang-22's own -flto link of that command (crt files, libraries, plugin options),
// which the rest of the owned link already knows how to repeat and measure.
#pragma once
#include "runtime/config/Config.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <string>

namespace smartcc {

// A link command as clang's driver builds it from the user's with more arguments (the -flto
// form of a plain link, ...), kept alive while its link job is used.
struct ClangLinkCommand {
  std::unique_ptr<clang::DiagnosticOptions> DiagOpts;
  std::unique_ptr<clang::DiagnosticsEngine> Diags;
  std::unique_ptr<clang::driver::Driver> TheDriver;
  std::unique_ptr<clang::driver::Compilation> C;
  const clang::driver::Command *Link = nullptr;
};

// clang's driver run again on Argv (the command line it parsed into C) with Extra appended:
// the same command but for Extra, so crt files, libraries and search paths are clang's own for
// it. True when that makes exactly one job, a link, then Out.Link.
bool clangLinkWith(const clang::driver::Compilation &C, llvm::ArrayRef<const char *> Argv,
                   llvm::ArrayRef<const char *> Extra, ClangLinkCommand &Out);

// The files Link (C's link job) reads: its inputs, and the static libraries the user names
// with -l that -L folders of C's command hold (the project's own libraries; a shared library
// found first in a folder is the one the linker takes). System folders are not searched:
// their libraries are not the build's.
std::vector<std::string> linkInputFiles(const clang::driver::Compilation &C,
                                        const clang::driver::Command &Link);

// Whether linker arguments ask for a relocatable link (-r and its spellings).
bool relocatable(const llvm::opt::ArgStringList &Args);

// The user's link job of C (a command that only links), when smartcc makes it whole-program;
// otherwise null, with the reason (a passthrough counter's name, "" when not worth counting).
// Argv: the command line clang's driver parsed into C. Level: the -O level of the link
// command ("" when it has none: the objects' own levels apply, as in any LTO link).
const clang::driver::Command *wholeProgramLink(const clang::driver::Compilation &C,
                                               const Config &Cfg,
                                               llvm::ArrayRef<const char *> Argv,
                                               ClangLinkCommand &WP, std::string &Reason,
                                               std::string &Level);

} // namespace smartcc
