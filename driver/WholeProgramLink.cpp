#include "driver/WholeProgramLink.h"
#include "driver/LTOLinkCommand.h"
#include "runtime/link/LinkInputs.h"
#include "clang/Driver/InputInfo.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Tool.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Options/Options.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

namespace {

std::vector<std::string> userLibraries(const Compilation &C) {
  std::vector<std::string> Found;
  std::vector<std::string> Dirs = C.getArgs().getAllArgValues(clang::options::OPT_L);
  const bool Static = C.getArgs().hasArg(clang::options::OPT_static);
  for (const std::string &Name : C.getArgs().getAllArgValues(clang::options::OPT_l)) {
    for (const std::string &Dir : Dirs) {
      SmallString<256> Path(Dir);
      if (StringRef(Name).starts_with(":")) {
        sys::path::append(Path, StringRef(Name).drop_front());
        if (sys::fs::exists(Path)) {
          Found.push_back(std::string(Path));
          break;
        }
        continue;
      }
      SmallString<256> Shared(Dir);
      sys::path::append(Shared, "lib" + Name + ".so");
      if (!Static && sys::fs::exists(Shared))
        break;
      sys::path::append(Path, "lib" + Name + ".a");
      if (sys::fs::exists(Path)) {
        Found.push_back(std::string(Path));
        break;
      }
    }
  }
  return Found;
}

} // namespace

std::vector<std::string> linkInputFiles(const Compilation &C, const Command &Link) {
  std::vector<std::string> Inputs;
  for (const InputInfo &I : Link.getInputInfos())
    if (I.isFilename())
      Inputs.push_back(I.getFilename());
  for (std::string &Library : userLibraries(C))
    Inputs.push_back(std::move(Library));
  return Inputs;
}

bool clangLinkWith(const Compilation &C, ArrayRef<const char *> Argv,
                   ArrayRef<const char *> Extra, ClangLinkCommand &Out) {
  std::vector<const char *> All(Argv.begin(), Argv.end());
  All.insert(All.end(), Extra.begin(), Extra.end());
  const Driver &D = C.getDriver();
  Out.DiagOpts = std::make_unique<clang::DiagnosticOptions>();
  Out.Diags = std::make_unique<clang::DiagnosticsEngine>(
      clang::DiagnosticIDs::create(), *Out.DiagOpts, new clang::IgnoringDiagConsumer());
  Out.TheDriver = std::make_unique<Driver>(D.ClangExecutable, D.getTargetTriple(), *Out.Diags,
                                           "clang LLVM compiler", vfs::getRealFileSystem());
  Out.TheDriver->setTargetAndMode(ToolChain::getTargetAndModeFromProgramName(Argv[0]));
  Out.C.reset(Out.TheDriver->BuildCompilation(All));
  if (!Out.C || Out.C->containsError() || Out.Diags->hasErrorOccurred() ||
      Out.C->getJobs().size() != 1 || !Out.C->getJobs().begin()->getCreator().isLinkJob())
    return false;
  Out.Link = &*Out.C->getJobs().begin();
  return true;
}

bool relocatable(const opt::ArgStringList &Args) {
  for (StringRef A : Args)
    if (A == "-r" || A == "--relocatable" || A == "-i" || A == "-Ur")
      return true;
  return false;
}

const Command *wholeProgramLink(const Compilation &C, const Config &Cfg,
                                ArrayRef<const char *> Argv, ClangLinkCommand &WP,
                                std::string &Reason, std::string &Level) {
  Reason.clear();
  if (!Cfg.WholeProgram)
    return nullptr;
  const opt::ArgList &Args = C.getArgs();
  Level = commandLevel(Args);
  // A link command at another level (-O2 ...) is not a size build's, and -O0 not an
  // optimized one: not counted, as compiles at those levels are not.
  if (!Level.empty() && Level != "Oz" && Level != "Os")
    return nullptr;
  const Command *Link = nullptr;
  for (const Command &Job : C.getJobs())
    if (Job.getCreator().isLinkJob())
      Link = &Job;
  if (!Link)
    return nullptr; // compiles only
  if (!Level.empty() && !Cfg.takesOver(Level)) {
    Reason = "level_not_enabled";
    return nullptr;
  }
  // A command that also compiles writes its objects into temporary files the -flto form of
  // the command would compile again: only commands that link what the build compiled.
  if (C.getJobs().size() != 1) {
    Reason = "wp_compiles_too";
    return nullptr;
  }
  if (Args.hasArg(clang::options::OPT_fno_lto)) {
    Reason = "wp_user_no_lto";
    return nullptr;
  }
  // --ld-path outranks -fuse-ld: the -flto form would hand bitcode to the user's linker.
  if (Args.hasArg(clang::options::OPT_ld_path_EQ)) {
    Reason = "wp_user_ld_path";
    return nullptr;
  }
  const opt::ArgStringList &LinkArgs = Link->getArguments();
  std::string Output = linkOutput(LinkArgs);
  if (Output.empty() || Output == "-")
    return nullptr;
  if (relocatable(LinkArgs)) {
    Reason = "wp_relocatable"; // its output is an input of another link
    return nullptr;
  }
  // A map file is owned with the link (LTOLinkCommand.h) when the user's linker is lld: the
  // map of a whole-program image, lld's, would replace another linker's, in another format.
  if (!sideOutputBesidesMap(LinkArgs).empty() ||
      (!mapFileOf(LinkArgs).empty() &&
       !sys::path::filename(Link->getExecutable()).starts_with("ld.lld"))) {
    Reason = "link_side_output";
    return nullptr;
  }
  const std::vector<std::string> Inputs = linkInputFiles(C, *Link);
  if (!bitcodeInputBytes(Inputs, /*FatSections=*/true)) {
    Reason = "wp_no_bitcode";
    return nullptr;
  }
  // lld links a fat object from its bitcode alone: one whose bitcode lacks some of its code
  // (GNU ld -r merged it with assembly) would lose that code.
  if (!fatBitcodeGap(Inputs).empty()) {
    Reason = "wp_partial_bitcode";
    return nullptr;
  }

  // clang's own -flto link of the same command, lld reading the objects' bitcode. A version
  // script may name symbols the program does not define: GNU ld, the baseline's linker,
  // accepts that, lld only with --undefined-version (zlib's zlib.map does).
  if (!clangLinkWith(C, Argv,
                     {"-flto=full", "-fuse-ld=lld", "-Wl,--fat-lto-objects",
                      "-Wl,--undefined-version"},
                     WP) ||
      !sys::path::filename(WP.Link->getExecutable()).starts_with("ld.lld") ||
      linkOutput(WP.Link->getArguments()) != Output) {
    Reason = "wp_driver_error";
    return nullptr;
  }
  return Link;
}

} // namespace smartcc
