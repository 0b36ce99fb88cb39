#include "driver/HarvestTargets.h"
#include "driver/CC1Entry.h"
#include "driver/SmartccArgs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/ToolChain.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Host.h"
#include <cstdlib>

extern char **environ;

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

namespace {

// Commands whose second compile would have visible effects: printing (-v, queries such as
// -print-prog-name, whose answers configure scripts capture from stdout) or side files.
bool unsafeToRepeat(ArrayRef<const char *> Args) {
  for (const char *A : Args.drop_front()) {
    StringRef S(A);
    if (S == "-v" || S == "-###" || S.starts_with("-MJ") || S.starts_with("-save-temps") ||
        S == "-E" || S == "-M" || S == "-MM" || S.starts_with("-ftime-trace") ||
        S.starts_with("-print") || S.starts_with("--print") || S.starts_with("-dump") ||
        S == "--version" || S == "-help" || S == "--help")
      return true;
  }
  return false;
}

// The child's environment: ours, with candidates off and statistics untouched, so the extra
// compile only harvests.
std::vector<std::string> childEnvironment() {
  std::vector<std::string> Env;
  std::string Settings;
  for (char **E = environ; *E; ++E) {
    StringRef V(*E);
    if (V.starts_with(ChildSettingsEnv + std::string("=")))
      Settings = V.split('=').second.str();
    else
      Env.push_back(V.str());
  }
  Settings += "--smartcc-candidates=none\n--smartcc-stats-enabled=false\n";
  Env.push_back(std::string(ChildSettingsEnv) + "=" + Settings);
  return Env;
}

void compileQuietly(const std::string &Self, std::vector<std::string> CC1Args,
                    const std::vector<std::string> &Env) {
  SmallString<128> Temp;
  if (sys::fs::createTemporaryFile("smartcc-harvest", "o", Temp))
    return;
  for (size_t I = 0; I + 1 < CC1Args.size(); ++I) {
    if (CC1Args[I] == "-o")
      CC1Args[I + 1] = Temp.str().str();
    if (CC1Args[I] == "-dependency-file") // the real compile wrote the .d file
      CC1Args.erase(CC1Args.begin() + I, CC1Args.begin() + I + 2), --I;
  }
  std::vector<StringRef> Argv{Self, "-cc1"};
  for (const std::string &A : CC1Args)
    Argv.push_back(A);
  std::vector<StringRef> EnvRefs(Env.begin(), Env.end());
  std::optional<StringRef> Null = StringRef("/dev/null");
  sys::ExecuteAndWait(Self, Argv, EnvRefs, {Null, Null, Null});
  sys::fs::remove(Temp);
}

} // namespace

void harvestForOtherTargets(ArrayRef<const char *> Args, const Compilation &Done,
                            const Config &Cfg) {
  if (Cfg.HarvestDir.empty() || (Cfg.HarvestTargets.empty() && !Cfg.HarvestO0) ||
      unsafeToRepeat(Args))
    return;
  // Only commands that compiled something are repeated; queries never build jobs.
  bool Compiled = false;
  for (const Command &Job : Done.getJobs())
    Compiled |= !Job.getArguments().empty() && StringRef(Job.getArguments()[0]) == "-cc1";
  if (!Compiled)
    return;
  std::string Self = sys::fs::getMainExecutable(nullptr, (void *)&harvestForOtherTargets);
  std::vector<std::string> Env = childEnvironment();
  // Each variant appends arguments (the last --target or -O wins): other targets, and the
  // CompilerGym-style -O0 module (noinline, no optnone, no size attributes).
  std::vector<std::vector<std::string>> Variants;
  for (const std::string &Target : Cfg.HarvestTargets)
    Variants.push_back({"--target=" + Target});
  if (Cfg.HarvestO0)
    Variants.push_back({"-O0", "-Xclang", "-disable-O0-optnone"});
  for (const std::vector<std::string> &Extra : Variants) {
    BumpPtrAllocator A;
    StringSaver Saver(A);
    SmallVector<const char *, 256> Retargeted(Args.begin(), Args.end());
    for (const std::string &X : Extra)
      Retargeted.push_back(Saver.save(X).data());
    clang::DiagnosticOptions DiagOpts;
    clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts,
                                   new clang::IgnoringDiagConsumer());
    Driver D(realClangPath(), sys::getDefaultTargetTriple(), Diags);
    D.setTargetAndMode(ToolChain::getTargetAndModeFromProgramName(Args[0]));
    std::unique_ptr<Compilation> C(D.BuildCompilation(Retargeted));
    if (!C || C->containsError())
      continue;
    for (const Command &Job : C->getJobs()) {
      const auto &JobArgs = Job.getArguments();
      if (JobArgs.empty() || StringRef(JobArgs[0]) != "-cc1")
        continue;
      std::string Reason;
      if (isEligibleCC1(ArrayRef(JobArgs).slice(1), Cfg, Reason))
        compileQuietly(Self, std::vector<std::string>(JobArgs.begin() + 1, JobArgs.end()), Env);
    }
  }
}

} // namespace smartcc
