// Which -flto link smartcc owns, and the linker commands of its candidates: clang's link
// job's arguments with what each candidate adds (driver/LTOLink.h runs them and decides).
#pragma once
#include "runtime/config/Config.h"
#include "clang/Driver/Compilation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/ArgList.h"
#include <string>
#include <vector>

namespace smartcc {

// The lld link job of an -flto compilation at a size level (Level: "Oz" or "Os"), or null,
// with the reason (a passthrough counter's name).
const clang::driver::Command *ownedLink(const clang::driver::Compilation &C, const Config &Cfg,
                                        std::string &Reason, std::string &Level);

// The -O level of a command as the option's name without its dash ("Oz", "O2", "O0",
// "Ofast"), "" when it has none.
std::string commandLevel(const llvm::opt::ArgList &Args);

// Whether a linker argument writes files besides the output or prints to stdout (a map file,
// save-temps, --version, ...): a repeated link would write or print it again.
bool writesSideOutput(llvm::StringRef A);

// The map file a linker command writes (-Map FILE, -Map=FILE, --Map...), empty if none: the
// side output an owned link takes over (each candidate writes its own, the shipped image's
// map replaces the user's).
std::string mapFileOf(const llvm::opt::ArgStringList &Args);

// Points a command's map file options (as mapFileOf reads them) at Path.
void redirectMapFile(std::vector<std::string> &Cmd, llvm::StringRef Path);

// The first argument that writes a side output other than the map file, empty if none.
std::string sideOutputBesidesMap(const llvm::opt::ArgStringList &Args);

// The value following "-o" in the linker's arguments.
std::string linkOutput(const llvm::opt::ArgStringList &Args);

// smartcc's LTO pass plugin (runtime/link/plugin/LTOPassPlugin.cpp): <bin>/../lib/smartcc.
std::string ltoPluginPath();

// Whether the candidate asks for the unwind-aware constants (UnwindAwareConstants.h) in its
// code generation, whose added code bytes it then reports.
bool usesUnwindConstants(const LinkCandidateSpec &S);

// Whether the candidate needs the plugin: its pipeline names a pass of it, or it turns IPRA on
// (whose guard is the plugin's smartcc-ipra-local-calls).
bool usesPlugin(const LinkCandidateSpec &S);

// The LTO optimization level of clang's link, 2 when none is given.
unsigned ltoLevel(const llvm::opt::ArgStringList &Args);

// Whether Path can stand inside a pass pipeline's text.
bool fitsInPipeline(llvm::StringRef Path);

// What a candidate adds to clang's linker command (Replay: the optimized program's file, for
// a candidate that replays it).
std::vector<std::string> extraLinkerArgs(const LinkCandidateSpec &S, bool Thin, unsigned Level,
                                         llvm::StringRef Replay = "");

// Why the shared-unwind candidates cannot run on a link with these arguments; empty if they
// can.
std::string sharedUnwindRefusal(const llvm::opt::ArgStringList &Args);

} // namespace smartcc
