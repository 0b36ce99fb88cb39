// smartcc's cc1: one compile job, run in this process the way clang's cc1_main runs it, with
// the TU optimizer wrapped around it when the job is eligible. Jobs that are not eligible go
// to the real clang's cc1, so their behaviour is clang's by construction.
#pragma once
#include "runtime/config/ToolPaths.h"
#include "runtime/config/Config.h"
#include "llvm/ADT/ArrayRef.h"

namespace smartcc {

enum class CC1Mode {
  InProcess,  // called by the driver inside the smartcc process: spawn clang for passthrough
  OwnProcess, // smartcc-core -cc1 ...: exec clang for passthrough
};

// Args are the cc1 arguments after "-cc1".
int runCC1(llvm::ArrayRef<const char *> Args, const Config &Cfg, CC1Mode Mode);

// Whether a cc1 job with these arguments would be optimized (used by the driver to route
// jobs), and the stats reason when it would not.
bool isEligibleCC1(llvm::ArrayRef<const char *> Args, const Config &Cfg, std::string &Reason);

// Runs real clang with "-cc1" and Args; returns its exit status (or does not return).
int runRealClangCC1(llvm::ArrayRef<const char *> Args, CC1Mode Mode);
// Runs real clang with exactly these arguments (e.g. "-cc1as", ...); returns its exit status.
int runRealClangTool(llvm::ArrayRef<const char *> Args);

} // namespace smartcc
