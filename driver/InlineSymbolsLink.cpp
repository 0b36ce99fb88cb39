#include "driver/InlineSymbolsLink.h"
#include "driver/LTOLinkCommand.h"
#include "driver/OwnedLTOLink.h"
#include "driver/WholeProgramLink.h"
#include "runtime/link/InlineSymbols.h"
#include "runtime/link/LoaderView.h"
#include "runtime/measure/SizeMeasurer.h"
#include "runtime/observe/SideOutputs.h"
#include "clang/Driver/InputInfo.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Tool.h"
#include "clang/Options/Options.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

namespace {

// A link that takes this long is not a library's link of its own objects: stopped.
constexpr unsigned LinkSeconds = 300;

// The link job this applies to (a shared library, linked alone at a size level), or null
// with why not ("" when not worth counting).
const Command *eligibleLink(const Compilation &C, const Config &Cfg, std::string &Reason) {
  const opt::ArgList &Args = C.getArgs();
  if (Args.hasArg(clang::options::OPT__HASH_HASH_HASH) ||
      Args.hasArg(clang::options::OPT_fdriver_only) || C.getJobs().size() != 1)
    return nullptr;
  const Command &Job = *C.getJobs().begin();
  if (!Job.getCreator().isLinkJob())
    return nullptr;
  const opt::Arg *O = Args.getLastArg(clang::options::OPT_O_Group);
  std::string Level = O && O->getOption().matches(clang::options::OPT_O)
                          ? std::string("O") + O->getValue()
                          : "";
  if (O && Level != "Oz" && Level != "Os")
    return nullptr;
  const opt::ArgStringList &LinkArgs = Job.getArguments();
  if (!llvm::is_contained(LinkArgs, StringRef("-shared")))
    return nullptr; // an executable exports none of them
  if (!Level.empty() && !Cfg.takesOver(Level)) {
    Reason = "level_not_enabled";
    return nullptr;
  }
  if (relocatable(LinkArgs))
    return nullptr;
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
  addCounters(Cfg, {{"link.inline_symbols." + What, 1}});
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

} // namespace

void localizeInlineSymbols(const Compilation &C, const Config &Cfg) {
  if (!Cfg.LocalInlineSymbols)
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
  std::vector<std::string> Inputs;
  for (const InputInfo &I : Link->getInputInfos())
    if (I.isFilename())
      Inputs.push_back(I.getFilename());
  for (std::string &Library : userLibraries(C))
    Inputs.push_back(std::move(Library));
  InlineSymbolScan Scan = scanInlineSymbols(Inputs);
  if (Scan.Names.empty()) {
    count(Cfg, "passthrough." + Scan.Refusal);
    return;
  }

  // Copies of the objects that define them, in a folder of smartcc's own.
  SmallString<128> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("smartcc-inline", Dir)) {
    count(Cfg, "failed");
    return;
  }
  std::map<std::string, std::string> CopyOf;
  unsigned Hidden = 0;
  bool Failed = false;
  for (size_t K = 0; K < Scan.Objects.size() && !Failed; ++K) {
    const std::string &Path = Scan.Objects[K];
    SmallString<128> Copy(Dir);
    sys::path::append(Copy, std::to_string(K) + "-" + sys::path::filename(Path).str());
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      Failed = true;
      break;
    }
    Expected<unsigned> N = writeWithHiddenSymbols((*Buf)->getMemBufferRef(), Scan.Names, Copy);
    if (!N) {
      consumeError(N.takeError());
      Failed = true;
      break;
    }
    Hidden += *N;
    CopyOf[Path] = std::string(Copy);
  }

  // The same command, its objects' copies in, its output beside the user's (one file system:
  // the shipped image is renamed over it).
  const std::string Temp = Output + ".smartcc-inline";
  std::vector<std::string> Cmd{Link->getExecutable()};
  for (size_t K = 0; K < LinkArgs.size(); ++K) {
    StringRef A = LinkArgs[K];
    auto It = CopyOf.find(A.str());
    if (K > 0 && StringRef(LinkArgs[K - 1]) == "-o")
      Cmd.push_back(Temp);
    else
      Cmd.push_back(It == CopyOf.end() ? A.str() : It->second);
  }
  std::string Outcome = "failed", Note;
  std::optional<uint64_t> Before, After;
  if (!Failed) {
    std::string Err;
    sys::ProcessInfo PI = spawnQuiet(Cmd, std::nullopt, Err);
    int Status = -1;
    if (PI.Pid != sys::ProcessInfo::InvalidPid) {
      sys::ProcessInfo Done = sys::Wait(PI, LinkSeconds, &Err);
      Status = Done.ReturnCode;
      if (Done.Pid == 0) { // still running
        sys::Wait(PI, 0);
        Status = -1;
      }
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> Base = MemoryBuffer::getFile(Output);
    ErrorOr<std::unique_ptr<MemoryBuffer>> Cand =
        Status == 0 ? MemoryBuffer::getFile(Temp) : std::make_error_code(std::errc::io_error);
    if (Base)
      Before = sizeOf((*Base)->getMemBufferRef(), Cfg);
    if (Cand)
      After = sizeOf((*Cand)->getMemBufferRef(), Cfg);
    if (Status != 0) {
      Note = "the link failed";
    } else if (!Before || !After) {
      Note = "cannot measure the images";
    } else if (*After >= *Before) {
      Outcome = "kept", Note = "not smaller";
    } else {
      Expected<LoaderView> BaseView = readLoaderView((*Base)->getMemBufferRef());
      Expected<LoaderView> CandView = readLoaderView((*Cand)->getMemBufferRef());
      if (!BaseView || !CandView) {
        Note = "cannot read the loader's view";
        if (!BaseView)
          consumeError(BaseView.takeError());
        if (!CandView)
          consumeError(CandView.takeError());
      } else if (std::string D = loaderViewDifference(*BaseView, *CandView); !D.empty()) {
        Outcome = "refused", Note = "loader view: " + D;
      } else {
        Base->reset(); // the file is replaced under it
        Cand->reset();
        if (sys::fs::rename(Temp, Output))
          Note = "cannot replace the output";
        else
          Outcome = "won";
      }
    }
  } else {
    Note = "cannot copy the objects";
  }
  sys::fs::remove(Temp);
  for (const auto &[Path, Copy] : CopyOf)
    sys::fs::remove(Copy);
  sys::fs::remove(Dir);
  count(Cfg, Outcome);
  if (Verbose) {
    errs() << "smartcc: inline symbols: " << Scan.Names.size() << " weak C++ functions in "
           << Scan.Objects.size() << " objects hidden (" << Hidden << " definitions); ";
    if (Before && After)
      errs() << "image " << *Before << " -> " << *After << " bytes; ";
    errs() << (Outcome == "won" ? "shipped" : Outcome + (Note.empty() ? "" : ": " + Note))
           << "\n";
  }
}

} // namespace smartcc
