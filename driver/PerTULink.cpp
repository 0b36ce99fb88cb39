#include "driver/PerTULink.h"
#include "driver/LTOLinkCommand.h"
#include "driver/OwnedLTOLink.h"
#include "driver/WholeProgramLink.h"
#include "runtime/link/InlineSymbols.h"
#include "runtime/link/LinkInputs.h"
#include "runtime/link/LoaderView.h"
#include "runtime/measure/SizeMeasurer.h"
#include "runtime/observe/SideOutputs.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Tool.h"
#include "clang/Options/Options.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <map>

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

namespace {

// The link job this applies to (an executable or a shared library, linked alone at a size
// level), or null with why not ("" when not worth counting).
const Command *eligibleLink(const Compilation &C, const Config &Cfg, std::string &Reason) {
  const opt::ArgList &Args = C.getArgs();
  if (Args.hasArg(clang::options::OPT__HASH_HASH_HASH) ||
      Args.hasArg(clang::options::OPT_fdriver_only) || C.getJobs().size() != 1)
    return nullptr;
  const Command &Job = *C.getJobs().begin();
  if (!Job.getCreator().isLinkJob())
    return nullptr;
  const std::string Level = commandLevel(Args);
  if (!Level.empty() && Level != "Oz" && Level != "Os")
    return nullptr;
  const opt::ArgStringList &LinkArgs = Job.getArguments();
  if (!Level.empty() && !Cfg.takesOver(Level)) {
    Reason = "level_not_enabled";
    return nullptr;
  }
  if (relocatable(LinkArgs))
    return nullptr; // its output is an input of another link
  std::string Output = linkOutput(LinkArgs);
  if (Output.empty() || Output == "-")
    return nullptr;
  for (StringRef A : LinkArgs)
    if (writesSideOutput(A)) {
      Reason = "link_side_output";
      return nullptr;
    }
  return &Job;
}

void count(const Config &Cfg, const std::string &What) {
  addCounters(Cfg, {{"link.per_tu." + What, 1}});
}

// The image size of a linked file by the configured metric, or None.
std::optional<uint64_t> sizeOf(MemoryBufferRef File, const Config &Cfg) {
  Expected<FileSize> Size = measureFile(File);
  if (!Size) {
    consumeError(Size.takeError());
    return std::nullopt;
  }
  return metricValue(Size->Size, 0, Cfg.SizeMetric);
}

// A name beside Output for a link's image, unpredictable as the owned links' are
// (driver/LTOLink.cpp): a source tree cannot plant a link there that a linker would follow.
std::string tempBeside(StringRef Output, StringRef Tag) {
  SmallString<256> Temp;
  sys::fs::createUniquePath(Output + "-smartcc-" + Tag + "-%%%%%%%%.tmp", Temp, false);
  return std::string(Temp);
}

// One link of the program (the objects' copies where functions are hidden).
struct Relink {
  const char *Name; // as counted: won.NAME
  std::vector<std::string> Cmd;
  std::string Temp;
  sys::ProcessInfo PI;
  std::optional<uint64_t> Size;
  std::string Note; // why it cannot ship, "" if it can
};

} // namespace

void relinkPerTU(const Compilation &C, const Config &Cfg, ArrayRef<const char *> Argv,
                 double BaselineMillis, const LoaderView *UserView) {
  if (!Cfg.PerTULinks)
    return;
  std::string Reason;
  const Command *Link = eligibleLink(C, Cfg, Reason);
  if (!Link) {
    if (!Reason.empty())
      count(Cfg, "passthrough." + Reason);
    return;
  }
  const bool Verbose = C.getArgs().hasArg(clang::options::OPT_v);
  const opt::ArgStringList &LinkArgs = Link->getArguments();
  const std::string Output = linkOutput(LinkArgs);
  const std::vector<std::string> Inputs = linkInputFiles(C, *Link);
  // A size-level build's link: some input is one of smartcc's objects at that level (they
  // carry bitcode). Pure bitcode among the inputs makes the user's link an LTO link, which
  // lld's would not repeat.
  if (!bitcodeInputBytes(Inputs, /*FatSections=*/true))
    return;
  if (bitcodeInputBytes(Inputs)) {
    count(Cfg, "passthrough.bitcode_input");
    return;
  }
  const bool Shared = llvm::is_contained(LinkArgs, StringRef("-shared"));
  InlineSymbolScan Scan;
  if (Shared)
    Scan = scanInlineSymbols(Inputs);
  const bool Hide = !Scan.Names.empty();
  // lld replaces the user's linker unless the user named another (or a path), or the link
  // follows a linker script: GNU ld and lld read scripts differently where no loader would
  // notice (load addresses of initialized data in firmware).
  const opt::ArgList &Args = C.getArgs();
  const bool OtherLinker =
      Args.hasArg(clang::options::OPT_ld_path_EQ) ||
      (Args.hasArg(clang::options::OPT_fuse_ld_EQ) &&
       !StringRef(Args.getLastArgValue(clang::options::OPT_fuse_ld_EQ)).starts_with("lld"));
  const bool Script = llvm::any_of(LinkArgs, [](StringRef A) {
    return A.starts_with("-T") || A.starts_with("--script");
  });
  if (!Hide && (OtherLinker || Script)) {
    count(Cfg, std::string("passthrough.") + (OtherLinker ? "user_linker" : "linker_script"));
    return;
  }

  // Copies of the objects that define them, in a folder of smartcc's own.
  SmallString<128> Dir;
  if (Hide && sys::fs::createUniqueDirectory("smartcc-hidden", Dir)) {
    count(Cfg, "failed");
    return;
  }
  std::map<std::string, std::string, std::less<>> CopyOf;
  unsigned Hidden = 0;
  bool Copied = true;
  for (size_t K = 0; K < Scan.Objects.size() && Copied; ++K) {
    const std::string &Path = Scan.Objects[K];
    SmallString<128> Copy(Dir);
    sys::path::append(Copy, std::to_string(K) + "-" + sys::path::filename(Path).str());
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    Expected<unsigned> N = Buf ? writeWithHiddenSymbols((*Buf)->getMemBufferRef(), Scan.Names, Copy)
                               : Expected<unsigned>(errorCodeToError(Buf.getError()));
    if (!N) {
      consumeError(N.takeError());
      Copied = false;
      break;
    }
    Hidden += *N;
    CopyOf[Path] = std::string(Copy);
  }

  // The links, each into a file beside the output (one file system: the shipped image is
  // renamed over it): the user's command on the copies, and clang's same command linked by
  // lld with identical code folding (--icf=safe: only functions whose address no object marks
  // significant, .llvm_addrsig), on the copies too, where folding reaches the hidden functions
  // (lld folds no exported one: it could be interposed). Template instantiations for types of
  // one layout (deque<T*>'s map functions for three T) compile to one body. lld also lays out
  // a smaller image than GNU ld for many small programs (its .eh_frame, PLT and padding), and
  // at -O2 merges a string into another that ends with it (sections the compiler marked
  // mergeable: libserd's library 48 bytes smaller). It accepts a version script naming
  // symbols the program does not define only with --undefined-version (the whole-program
  // link's rule, driver/WholeProgramLink.cpp).
  std::vector<Relink> Links;
  if (Hide) {
    Links.push_back({"hidden", {Link->getExecutable()}, tempBeside(Output, "hidden"), {}, {},
                     ""});
    for (const char *A : LinkArgs)
      Links[0].Cmd.push_back(A);
  }
  ClangLinkCommand Folded;
  if (!OtherLinker && !Script &&
      clangLinkWith(C, Argv,
                    {"-fuse-ld=lld", "-Wl,--icf=safe", "-Wl,-O2", "-Wl,--undefined-version"},
                    Folded)) {
    Links.push_back({"lld_icf", {Folded.Link->getExecutable()}, tempBeside(Output, "lld"), {},
                     {}, ""});
    for (const char *A : Folded.Link->getArguments())
      Links.back().Cmd.push_back(A);
  }
  if (Links.empty()) {
    count(Cfg, "failed");
    return;
  }
  // Their time together, as an owned link's candidates': link_time percent of the user's link
  // (at least LinkAllowanceFloorMs), or timeout_ms when link_time is 0.
  const double AllowanceMs =
      Cfg.LinkTime ? std::max(LinkAllowanceFloorMs, BaselineMillis * Cfg.LinkTime / 100.0)
                   : static_cast<double>(Cfg.TimeoutMs);
  const auto Start = std::chrono::steady_clock::now();
  for (Relink &L : Links) {
    for (size_t K = 1; K < L.Cmd.size(); ++K) {
      if (L.Cmd[K - 1] == "-o")
        L.Cmd[K] = L.Temp;
      else if (auto It = CopyOf.find(L.Cmd[K]); It != CopyOf.end())
        L.Cmd[K] = It->second;
    }
    if (!Copied)
      continue;
    std::string Err;
    L.PI = spawnQuiet(L.Cmd, std::nullopt, Err);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Base = MemoryBuffer::getFile(Output);
  std::optional<uint64_t> Before = Base ? sizeOf((*Base)->getMemBufferRef(), Cfg) : std::nullopt;
  Expected<LoaderView> BaseView =
      UserView ? Expected<LoaderView>(*UserView)
      : Base   ? readLoaderView((*Base)->getMemBufferRef())
               : Expected<LoaderView>(createStringError("cannot read the output"));
  Relink *Best = nullptr;
  for (Relink &L : Links) {
    if (!Copied) {
      L.Note = "cannot copy the objects";
      continue;
    }
    if (L.PI.Pid == sys::ProcessInfo::InvalidPid) {
      L.Note = "cannot start the link";
      continue;
    }
    std::string Err;
    const double LeftMs = std::max(0.0, AllowanceMs - millisSince(Start));
    // Whole seconds, at least one (sys::Wait's unit; a link that ends sooner returns sooner);
    // when they run out the link is killed.
    sys::ProcessInfo Done =
        sys::Wait(L.PI, std::max(1u, static_cast<unsigned>(std::ceil(LeftMs / 1000.0))), &Err);
    if (Done.Pid != L.PI.Pid) {
      L.Note = "out of link_time";
      continue;
    }
    if (Done.ReturnCode != 0) {
      L.Note = "the link failed";
      continue;
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> Out = MemoryBuffer::getFile(L.Temp);
    if (Out)
      L.Size = sizeOf((*Out)->getMemBufferRef(), Cfg);
    if (!Before || !L.Size) {
      L.Note = "cannot measure the images";
      continue;
    }
    if (*L.Size >= *Before) {
      L.Note = "not smaller";
      continue;
    }
    Expected<LoaderView> View = readLoaderView((*Out)->getMemBufferRef());
    if (!BaseView || !View) {
      L.Note = "cannot read the loader's view";
      if (!View)
        consumeError(View.takeError());
      continue;
    }
    if (std::string D = loaderViewDifference(*BaseView, *View); !D.empty()) {
      L.Note = "loader view: " + D;
      continue;
    }
    if (!Best || *L.Size < *Best->Size)
      Best = &L;
  }
  if (!BaseView)
    consumeError(BaseView.takeError());
  Base = std::make_error_code(std::errc::io_error); // unmapped before the output is replaced
  std::string Outcome = Best ? "won." + std::string(Best->Name) : "kept";
  if (Best && sys::fs::rename(Best->Temp, Output))
    Outcome = "failed", Best = nullptr;
  for (Relink &L : Links)
    sys::fs::remove(L.Temp);
  for (const auto &[Path, Copy] : CopyOf)
    sys::fs::remove(Copy);
  if (Hide)
    sys::fs::remove(Dir);
  count(Cfg, Outcome);
  if (Verbose) {
    errs() << "smartcc: per-TU link: " << Scan.Names.size() << " weak C++ functions hidden in "
           << Scan.Objects.size() << " objects (" << Hidden << " definitions); image "
           << (Before ? std::to_string(*Before) : std::string("?"));
    for (const Relink &L : Links)
      errs() << ", " << L.Name << " "
             << (L.Size ? std::to_string(*L.Size) : std::string("-"))
             << (L.Note.empty() ? "" : " (" + L.Note + ")");
    errs() << "; "
           << (Best       ? std::string("shipped ") + Best->Name
               : UserView ? std::string("kept the output")
                          : std::string("kept the user's"))
           << "\n";
  }
}

} // namespace smartcc
