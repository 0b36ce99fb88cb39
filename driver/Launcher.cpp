// smartcc launcher: the binary users name as CC. It links no LLVM, so a command smartcc has
// nothing to do for (configure probes, -O2 compiles, links, queries) costs one exec, not a
// libLLVM load. It hands the command to smartcc-core only when the core may act on it.
//
// The rule is deliberately conservative: anything that *might* need the core goes there;
// the core then decides exactly (with clang's own argument parser).
#include "runtime/config/BuildProbe.h"
#include "runtime/config/ConfigFiles.h"
#include "runtime/config/StatsDir.h"
#include "driver/ProgramName.h"
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef SMARTCC_REAL_CLANG_PATH
#error "SMARTCC_REAL_CLANG_PATH must be defined by the build"
#endif

namespace {

using smartcc::baseName;
using smartcc::dirName;

bool startsWith(const char *S, const char *Prefix) {
  return std::strncmp(S, Prefix, std::strlen(Prefix)) == 0;
}

const char *realClang() {
  const char *Override = std::getenv("SMARTCC_CLANG");
  return Override && *Override ? Override : SMARTCC_REAL_CLANG_PATH;
}

[[noreturn]] void execOrDie(const std::string &Path, std::vector<char *> &Argv) {
  Argv.push_back(nullptr);
  execv(Path.c_str(), Argv.data());
  std::fprintf(stderr, "smartcc: error: cannot execute '%s': %s\n", Path.c_str(),
               std::strerror(errno));
  std::exit(1);
}

// Real clang, run under our program name (see driver/ProgramName.h).
[[noreturn]] void execClang(int Argc, char **Argv) {
  std::string Clang = realClang();
  std::string Argv0 = smartcc::clangArgv0(Clang, Argv[0]);
  std::vector<char *> Args{const_cast<char *>(Argv0.c_str())};
  for (int I = 1; I < Argc; ++I)
    Args.push_back(Argv[I]);
  execOrDie(Clang, Args);
}

std::string selfDir() {
  char Buf[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0)
    return ".";
  Buf[N] = 0;
  return dirName(Buf);
}

// smartcc-core sits beside the launcher in the build tree and in <prefix>/bin when installed.
[[noreturn]] void execCore(int Argc, char **Argv) {
  std::string Core = selfDir() + "/smartcc-core";
  std::vector<char *> Args(Argv, Argv + Argc);
  execOrDie(Core, Args);
}

bool isSizeLevel(const char *A) {
  return !std::strcmp(A, "-Oz") || !std::strcmp(A, "-Os") || startsWith(A, "--optimize");
}

bool environmentNeedsCore() {
  for (char **E = environ; *E; ++E)
    if (startsWith(*E, "SMARTCC_") && !startsWith(*E, "SMARTCC_CLANG="))
      return true;
  return std::getenv("CCC_OVERRIDE_OPTIONS") != nullptr;
}

// A build-system probe (runtime/config/BuildProbe.h): one of the command's inputs is a probe source,
// or the command runs where only probes run.
bool isProbeCommand(int Argc, char **Argv) {
  char Cwd[PATH_MAX];
  std::string_view Dir = getcwd(Cwd, sizeof(Cwd)) ? Cwd : "";
  for (int I = 1; I < Argc; ++I)
    if (Argv[I][0] != '-' && smartcc::isBuildProbe(Argv[I], Dir))
      return true;
  return false;
}

// Counts a probe passed straight to clang: one byte appended to the stats directory's probe
// file, which the counters read as passthrough.build_probe. The launcher reads no TOML, so it
// follows SMARTCC_STATS_DIR / SMARTCC_STATS and the default directory; best effort, silent.
void countProbe() {
  const char *Enabled = std::getenv("SMARTCC_STATS");
  if (Enabled && (!std::strcmp(Enabled, "0") || !strcasecmp(Enabled, "false") ||
                  !strcasecmp(Enabled, "no") || !strcasecmp(Enabled, "off")))
    return;
  const char *Named = std::getenv("SMARTCC_STATS_DIR");
  std::string Dir = Named && *Named ? Named : smartcc::defaultStatsDirFromEnvironment();
  if (Dir.empty())
    return;
  std::string Path = Dir + "/" + smartcc::BuildProbeCountFile;
  int Fd = open(Path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (Fd < 0 && errno == ENOENT && mkdir(Dir.c_str(), 0755) == 0)
    Fd = open(Path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (Fd < 0)
    return;
  (void)!write(Fd, "p", 1);
  close(Fd);
}

// Whether a configuration file asks for what -O1..-O3 compiles get from the core: ML register
// allocation (it takes those levels over) or harvesting (every level is harvested).
bool configFileNeedsCore() {
  std::vector<std::string> Files = {smartcc::SystemConfigFile,
                                    smartcc::userConfigFile(std::getenv("XDG_CONFIG_HOME"),
                                                            std::getenv("HOME"))};
  char Cwd[PATH_MAX];
  if (getcwd(Cwd, sizeof(Cwd)))
    Files.push_back(smartcc::nearestProjectFile(Cwd));
  for (const std::string &File : Files)
    if (!File.empty() && smartcc::fileMentionsKey(File, {"regalloc", "harvest"}))
      return true;
  return false;
}

bool isSmartccProgram(const char *A) {
  std::string Base = baseName(A);
  return Base == "smartcc" || Base == "smartc++" || Base == "smartcc-core";
}

} // namespace

int main(int Argc, char **Argv) {
  // `smartcc smartcc ...` (a build system prefixing the compiler twice) would otherwise hand
  // "smartcc" to clang as an input file.
  if (Argc > 1 && isSmartccProgram(Argv[1])) {
    std::fprintf(stderr, "smartcc: error: '%s' names smartcc itself; call smartcc with the "
                         "compiler's arguments directly\n", Argv[1]);
    return 1;
  }

  bool OwnOption = false, SizeLevel = false;
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    OwnOption |= startsWith(A, "--smartcc") || (I == 1 && startsWith(A, "-cc1"));
    // Response files may hold a size level; the core expands them.
    SizeLevel |= isSizeLevel(A) || A[0] == '@';
  }
  // Our own options must reach the core even when disabled: it strips them before clang.
  if (OwnOption)
    execCore(Argc, Argv);
  if (const char *Disable = std::getenv("SMARTCC_DISABLE"); Disable && !std::strcmp(Disable, "1"))
    execClang(Argc, Argv);
  // A probe is clang's whatever the configuration says (the core would pass it through after
  // loading LLVM): configure runs hundreds of them.
  if (SizeLevel && isProbeCommand(Argc, Argv)) {
    countProbe();
    execClang(Argc, Argv);
  }
  if (SizeLevel || environmentNeedsCore() || configFileNeedsCore())
    execCore(Argc, Argv);
  execClang(Argc, Argv);
}
