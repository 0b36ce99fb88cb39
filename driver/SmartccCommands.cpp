#include "driver/SmartccCommands.h"
#include "driver/CC1Entry.h"
#include "policies/BuiltinCandidates.h"
#include "runtime/config/BuildInfo.h"
#include "runtime/observe/Stats.h"
#include "clang/Basic/Version.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/ADT/StringExtras.h"
#include <dlfcn.h>

using namespace llvm;

namespace smartcc {

namespace {

// Identifies everything that decides smartcc's output besides clang itself, so that caches
// layered on top (ccache keys on the compiler binary) can key on it too.
std::string policyHash() {
  std::array<uint8_t, 32> H = SHA256::hash(arrayRefFromStringRef(builtinCandidatesToml()));
  return toHex(ArrayRef<uint8_t>(H).take_front(8), /*LowerCase=*/true);
}

std::string sharedObjectOf(void *Symbol) {
  Dl_info Info;
  return dladdr(Symbol, &Info) && Info.dli_fname ? Info.dli_fname : "unknown";
}

// A program's identity as ccache's default compiler_check sees it (size and modification
// time): cheap, and it changes whenever the binary is rebuilt or upgraded.
void printBinaryIdentity(StringRef Role, const std::string &Path, raw_ostream &OS) {
  sys::fs::file_status St;
  OS << Role << " = " << Path;
  if (!sys::fs::status(Path, St))
    OS << " size=" << St.getSize() << " mtime="
       << St.getLastModificationTime().time_since_epoch().count();
  OS << "\n";
}

// `--smartcc-print-cache-key`: everything besides the command line and the sources that decides
// smartcc's output, for ccache's compiler_check and sccache's cache buster
// (docs/user-guide.md, "Compiler caches"). It is read in the compile's own environment and
// folder, so a changed SMARTCC_ variable, config file or model changes it.
void printCacheKey(const Config &Cfg, raw_ostream &OS) {
  OS << "smartcc-cache-key 1\n"
     << "version = " SMARTCC_VERSION "\n"
     << "policy = builtin-candidates-" << policyHash() << "\n";
  printBinaryIdentity("core", sys::fs::getMainExecutable(nullptr, (void *)&printCacheKey), OS);
  printBinaryIdentity("clang", realClangPath(), OS);
  // The compile runs in-process in these libraries: a package upgrade keeps their sonames.
  printBinaryIdentity("libLLVM", sharedObjectOf((void *)&llvm::outs), OS);
  printBinaryIdentity("libclang-cpp", sharedObjectOf((void *)&clang::getClangFullVersion), OS);
  printCacheKeySettings(Cfg, OS);
}

void printHelp(raw_ostream &OS) {
  OS << "OVERVIEW: smartcc " SMARTCC_VERSION
        " - clang-22 with learned size optimization for -Oz/-Os\n\n"
        "USAGE: smartcc [clang options] [--smartcc-KEY=VALUE ...] files...\n"
        "       smartcc --smartcc-COMMAND\n\n"
        "Every clang option works as with clang-22. smartcc's own options:\n\n"
        "COMMANDS:\n"
        "  --smartcc-stats          show statistics (like ccache -s)\n"
        "  --smartcc-stats-json     show statistics as JSON\n"
        "  --smartcc-zero-stats     reset statistics\n"
        "  --smartcc-print-config   show every setting, its value and where it came from\n"
        "  --smartcc-version        show smartcc's version, clang and policy identity\n"
        "  --smartcc-print-cache-key  print what decides smartcc's output besides the command\n"
        "                           (for ccache's compiler_check, sccache's cache buster)\n"
        "  --smartcc-help           show this help\n\n"
        "SETTINGS (config.toml key / environment variable / flag):\n";
  printConfigHelp(OS);
}

} // namespace

int runSmartccCommands(const SplitArgs &Args, const Config &Cfg) {
  if (Args.CompilerArgs.size() > 1) {
    errs() << "smartcc: error: " << Args.Commands.front()
           << " cannot be combined with compiler arguments\n";
    return 1;
  }
  StatsStore Store(Cfg.effectiveStatsDir());
  for (const std::string &Cmd : Args.Commands) {
    if (Cmd == "--smartcc-stats" || Cmd == "--smartcc-stats-json") {
      Expected<Counters> C = Store.read();
      if (!C) {
        errs() << "smartcc: error: " << Store.filePath() << ": " << toString(C.takeError())
               << "\n";
        return 1;
      }
      if (Cmd == "--smartcc-stats")
        printStats(*C, Store.filePath(), outs());
      else
        printStatsJSON(*C, outs());
    } else if (Cmd == "--smartcc-zero-stats") {
      if (Error E = Store.zero()) {
        errs() << "smartcc: error: " << Store.filePath() << ": " << toString(std::move(E))
               << "\n";
        return 1;
      }
      outs() << "Statistics zeroed\n";
    } else if (Cmd == "--smartcc-version") {
      outs() << "smartcc " SMARTCC_VERSION "\n"
             << "clang: " << realClangPath() << " (LLVM " SMARTCC_LLVM_VERSION ")\n"
             << "policy: builtin-candidates-" << policyHash() << "\n";
    } else if (Cmd == "--smartcc-help") {
      printHelp(outs());
    } else if (Cmd == "--smartcc-print-config") {
      printConfig(Cfg, outs());
    } else if (Cmd == "--smartcc-print-cache-key") {
      printCacheKey(Cfg, outs());
    }
  }
  return 0;
}

} // namespace smartcc
