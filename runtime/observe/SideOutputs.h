// Files smartcc writes besides the compile's own outputs: the decision log, the counters, the
// harvested bitcode and saved candidates. None of them may fail a compile that clang would
// finish, but a path the user named that cannot be written is said (a clang-style warning on
// stderr, once per file per compile) instead of being ignored.
#pragma once
#include "runtime/config/Config.h"
#include "runtime/decide/Decision.h"
#include "runtime/observe/Stats.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace smartcc {

// Replaces Path's content the way clang writes outputs: a temporary file beside it, renamed
// over it, so no reader ever sees a half-written file. On failure (ENOSPC, EACCES) Path is
// untouched and the temporary removed.
llvm::Error replaceFile(llvm::StringRef Path, llvm::StringRef Bytes);

// Appends Line with one write(2) and O_APPEND (lines of parallel compiles never interleave),
// without following a symbolic link (docs/security.md).
llvm::Error appendLine(const std::string &Path, const std::string &Line);

// "smartcc: warning: cannot write WHAT 'PATH': REASON; ..." on stderr.
void warnSideOutput(llvm::StringRef What, llvm::StringRef Path, llvm::Error E);

// Adds Delta to the counters if statistics are on. Failing to update a directory the user
// named is warned about; the default directory fails silently (a build sandbox with an
// unwritable HOME has not asked for counters).
void addCounters(const Config &Cfg, const Counters &Delta);

// What every decision (a TU's, a link's) leaves behind: its line in the log (`log`) and its
// counters (`stats`), plus Extra counters of the caller's.
void recordDecision(const Config &Cfg, const TUDecision &D, const Counters &Extra = {});

} // namespace smartcc
