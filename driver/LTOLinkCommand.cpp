#include "driver/LTOLinkCommand.h"
#include "runtime/compile/LocalCallRegisters.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Tool.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

// Linker arguments that write files besides the output or print to stdout: a repeated link
// would write them again (a map file of a candidate that does not ship) or print twice.
// Options are matched whole (alone or with "="), so that --version-script is not --version;
// the fragments match any spelling (-plugin-opt=obj-path=, --lto-obj-path=, ...).
bool writesSideOutput(StringRef A) {
  for (StringRef Option : {"-Map", "--Map", "-M", "--print-map", "--why-extract",
                           "--dependency-file", "--reproduce", "--trace", "-t", "--version",
                           "-v", "--verbose", "--out-implib", "--print-archive-stats",
                           "--print-symbol-order", "--print-gc-sections", "--print-icf-sections",
                           "--print-memory-usage", "--cref"})
    if (A == Option || A.starts_with((Option + "=").str()))
      return true;
  for (StringRef Fragment : {"obj-path", "save-temps", "emit-asm", "emit-llvm",
                             "thinlto-index-only", "thinlto-emit", "time-trace", "remarks"})
    if (A.contains(Fragment))
      return true;
  return false;
}

// -Map FILE, -Map=FILE, --Map FILE, --Map=FILE: the map file of the link.
static bool isMapOption(StringRef A) { return A == "-Map" || A == "--Map"; }
static bool isJoinedMap(StringRef A) {
  return A.starts_with("-Map=") || A.starts_with("--Map=");
}

std::string mapFileOf(const opt::ArgStringList &Args) {
  std::string Path;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (isMapOption(A) && I + 1 < Args.size())
      Path = Args[++I]; // lld takes the last
    else if (isJoinedMap(A))
      Path = A.substr(A.find('=') + 1).str();
  }
  return Path;
}

void redirectMapFile(std::vector<std::string> &Cmd, StringRef Path) {
  for (size_t I = 0; I < Cmd.size(); ++I) {
    StringRef A = Cmd[I];
    if (isMapOption(A) && I + 1 < Cmd.size())
      Cmd[++I] = Path.str();
    else if (isJoinedMap(A))
      Cmd[I] = (A.substr(0, A.find('=') + 1) + Path).str();
  }
}

std::string sideOutputBesidesMap(const opt::ArgStringList &Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (isMapOption(A)) {
      ++I; // its file, which could be named like an option
      continue;
    }
    if (isJoinedMap(A))
      continue;
    if (writesSideOutput(A))
      return A.str();
  }
  return "";
}

std::string commandLevel(const opt::ArgList &Args) {
  const opt::Arg *O = Args.getLastArg(clang::options::OPT_O_Group);
  if (!O)
    return "";
  if (O->getOption().matches(clang::options::OPT_O))
    return std::string("O") + O->getValue();
  return O->getOption().getName().str();
}

// The lld link job of an -flto compilation at a size level, or null (with the reason).
const Command *ownedLink(const Compilation &C, const Config &Cfg, std::string &Reason,
                         std::string &Level) {
  const Driver &D = C.getDriver();
  if (D.getLTOMode() == LTOK_None) {
    Reason = "not_lto";
    return nullptr;
  }
  Level = commandLevel(C.getArgs());
  if (Level != "Oz" && Level != "Os") {
    Reason = "not_size_level";
    return nullptr;
  }
  if (!Cfg.takesOver(Level)) {
    Reason = "level_not_enabled";
    return nullptr;
  }
  const Command *Link = nullptr;
  for (const Command &Job : C.getJobs())
    if (Job.getCreator().isLinkJob())
      Link = &Job;
  if (!Link) {
    Reason = "no_link";
    return nullptr;
  }
  if (!sys::path::filename(Link->getExecutable()).starts_with("ld.lld")) {
    Reason = "lto_link_not_lld"; // GNU ld / gold with LLVMgold.so: clang's link, as is
    return nullptr;
  }
  // A map file is owned with the link (each candidate writes its own; the shipped image's
  // replaces the user's): firmware builds nearly always ask for one.
  if (!sideOutputBesidesMap(Link->getArguments()).empty()) {
    Reason = "link_side_output";
    return nullptr;
  }
  for (const char *A : Link->getArguments()) {
    // The user chose LTO's pipeline (-Wl,--lto-newpm-passes=...): candidates would replace it
    // (lld keeps the last one), and no default pipeline runs for replay to save.
    if (StringRef(A).contains("lto-newpm-passes")) {
      Reason = "user_lto_pipeline";
      return nullptr;
    }
  }
  return Link;
}

// The value following "-o" in the linker's arguments.
std::string linkOutput(const llvm::opt::ArgStringList &Args) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (StringRef(Args[I]) == "-o")
      return Args[I + 1];
  return "";
}

// smartcc's LTO pass plugin (runtime/link/plugin/LTOPassPlugin.cpp): <bin>/../lib/smartcc, in the
// build tree as when installed.
std::string ltoPluginPath() {
  std::string Self = sys::fs::getMainExecutable(nullptr, (void *)&ltoPluginPath);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Self)));
  sys::path::append(P, "lib", "smartcc", "smartcc-lto-plugin.so");
  return std::string(P);
}

bool usesUnwindConstants(const LinkCandidateSpec &S) {
  return llvm::any_of(S.Pipeline, [](const std::string &St) {
    return StringRef(St).contains("smartcc-function-attr<smartcc-unwind-constants=");
  });
}

bool usesPlugin(const LinkCandidateSpec &S) {
  // (-enable-ipra brings the plugin's guard, extraLinkerArgs below.)
  return enablesIPRA(S.LLVMArgs) || llvm::any_of(S.Pipeline, [](const std::string &St) {
           return StringRef(St).contains("smartcc-");
         });
}

// The LTO optimization level of clang's link (-plugin-opt=O2 from clang's driver at -Oz/-Os;
// lld's --lto-O), 2 when none is given: LTO's own pipeline is then lto<ON>.
unsigned ltoLevel(const llvm::opt::ArgStringList &Args) {
  unsigned Level = 2;
  for (StringRef A : Args)
    for (StringRef Prefix : {"-plugin-opt=O", "--plugin-opt=O", "--lto-O", "-lto-O"}) {
      StringRef Value = A;
      if (Value.consume_front(Prefix) && Value.size() == 1 && Value[0] >= '0' &&
          Value[0] <= '3') {
        Level = unsigned(Value[0] - '0');
        break;
      }
    }
  return Level;
}

// Paths inside a pass pipeline's text cannot hold the pipeline's own punctuation.
bool fitsInPipeline(StringRef Path) { return Path.find_first_of(",<>()\"") == StringRef::npos; }

// What a candidate adds to clang's linker command. An after_lto_pipeline candidate gets LTO's
// own pipeline in front of its own, or, replaying (Replay: the optimized program's file), the
// replay pass instead.
std::vector<std::string> extraLinkerArgs(const LinkCandidateSpec &S, bool Thin, unsigned Level,
                                         StringRef Replay) {
  std::vector<std::string> Out;
  std::vector<std::string> Pipeline = S.Pipeline;
  // IPRA only across calls that bind locally (runtime/compile/LocalCallRegisters.h). The guard
  // comes after the candidate's optimization (it would keep the inliner from what LLVM deems
  // interposable) and before the allocators' planning code generations (so that they measure
  // what lld's will make); after lld's own pipeline where the candidate has none.
  if (enablesIPRA(S.LLVMArgs) &&
      !llvm::is_contained(Pipeline, std::string(IPRALocalCallsPassName))) {
    if (Pipeline.empty() && !S.AfterLTOPipeline)
      Pipeline.push_back("lto<O" + std::to_string(Level) + ">");
    auto Planning = llvm::find_if(Pipeline, [](StringRef St) {
      return St.starts_with("smartcc-allocators<");
    });
    Pipeline.insert(Planning, IPRALocalCallsPassName);
  }
  if (S.AfterLTOPipeline && !Replay.empty())
    Pipeline.insert(Pipeline.begin(), ("smartcc-replay-optimized<" + Replay + ">").str());
  else if (S.AfterLTOPipeline && !Pipeline.empty()) // empty: lld's own pipeline, as clang's
    Pipeline.insert(Pipeline.begin(), "lto<O" + std::to_string(Level) + ">");
  if (!Replay.empty() || usesPlugin(S))
    Out.push_back("--load-pass-plugin=" + ltoPluginPath());
  if (!Pipeline.empty()) {
    std::string Passes;
    for (const std::string &Stage : Pipeline) {
      std::string St = Stage;
      // lto<...> is the full-LTO post-link pipeline; a ThinLTO backend's is thinlto<...>.
      if (Thin && StringRef(St).starts_with("lto<"))
        St = "thin" + St;
      Passes += (Passes.empty() ? "" : ",") + St;
    }
    Out.push_back("--lto-newpm-passes=" + Passes);
  }
  for (const std::string &A : S.LLVMArgs)
    Out.push_back("-mllvm=" + A);
  Out.insert(Out.end(), S.LinkerArgs.begin(), S.LinkerArgs.end());
  return Out;
}

// Why the shared-unwind candidates cannot run on a link with these arguments; empty if they
// can.
std::string sharedUnwindRefusal(const llvm::opt::ArgStringList &Args) {
  // A linker script may place a function by its section's name (a reset handler at the
  // vector table): the pass moves functions into a section of its own, so not there.
  if (llvm::any_of(Args, [](const char *A) {
        return StringRef(A).starts_with("-T") || StringRef(A).starts_with("--script");
      }))
    return "the link has a linker script (functions may be placed by section)";
  // The output check finds the runs and the functions by their symbols: a link that keeps no
  // symbol table (-s) or drops the local symbols (-x: the run's markers and the outliner's
  // functions are local) would leave it nothing to read.
  if (llvm::any_of(Args, [](const char *A) {
        StringRef S(A);
        if (!S.consume_front("-"))
          return false;
        S.consume_front("-");
        return S == "s" || S == "strip-all" || S == "x" || S == "discard-all" ||
               S.starts_with("retain-symbols-file");
      }))
    return "the link drops symbols (-s, -x), which the output check reads";
  return "";
}

} // namespace smartcc
