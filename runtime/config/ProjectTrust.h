// The trust model of configuration files (docs/security.md). smartcc compiles untrusted source
// trees, and a project's .smartcc.toml is found by walking up from the working directory, so
// a file anybody could have planted must not steer what smartcc writes or runs:
//  - a project file is read only when the user owns it, only the user can write it, and its
//    folder is the user's (or root's) and not writable by others (unless sticky, as /tmp):
//    git's safe.directory rule;
//  - even then it may not set what writes files, runs tools or loads files from elsewhere
//    (paths, harvesting, candidate definitions, model files) unless the user's own config, the
//    environment or a flag sets trust_project_config.
// The system and user files, SMARTCC_CONFIG, the environment and flags are the user's own.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace smartcc {

// Success when Path may be read as a project file; otherwise an error saying why, naming it.
llvm::Error checkProjectFileTrust(llvm::StringRef Path);

// Why a key (a setting's TOML key, or "candidate" for [candidate.NAME] tables) with this
// value may not come from a project file, or null when it may.
const char *projectRestriction(llvm::StringRef Key, llvm::StringRef Value);

} // namespace smartcc
