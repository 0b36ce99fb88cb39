#include "runtime/config/ProjectTrust.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

namespace {

Error refuse(StringRef Path, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           (Path + ": not read: " + Why +
                            "; a project file is trusted only when it is yours and only you "
                            "can change it (docs/security.md)")
                               .str());
}

} // namespace

Error checkProjectFileTrust(StringRef Path) {
  const uid_t Me = geteuid();
  struct stat File, Dir;
  std::string P = Path.str();
  // lstat: a link is judged as itself (whoever made it), then what it points to.
  if (::lstat(P.c_str(), &File) != 0 || (S_ISLNK(File.st_mode) && File.st_uid != Me))
    return refuse(Path, S_ISLNK(File.st_mode)
                            ? "it is a symbolic link owned by uid " + Twine(File.st_uid)
                            : Twine("it cannot be inspected"));
  if (::stat(P.c_str(), &File) != 0 || !S_ISREG(File.st_mode))
    return refuse(Path, "it is not a regular file");
  if (File.st_uid != Me)
    return refuse(Path, "it is owned by uid " + Twine(File.st_uid) + ", not by you (uid " +
                            Twine(Me) + ")");
  if (File.st_mode & (S_IWGRP | S_IWOTH))
    return refuse(Path, "others may write it (mode " + Twine::utohexstr(File.st_mode & 0777) +
                            " hex)");
  std::string Folder = sys::path::parent_path(P).str();
  if (Folder.empty())
    Folder = ".";
  if (::stat(Folder.c_str(), &Dir) != 0)
    return refuse(Path, "its folder cannot be inspected");
  if (Dir.st_uid != Me && Dir.st_uid != 0)
    return refuse(Path, "its folder " + Folder + " is owned by uid " + Twine(Dir.st_uid));
  if ((Dir.st_mode & (S_IWGRP | S_IWOTH)) && !(Dir.st_mode & S_ISVTX))
    return refuse(Path, "others may replace it: its folder " + Folder + " is writable by them");
  return Error::success();
}

const char *projectRestriction(StringRef Key, StringRef Value) {
  if (Key == "log" || Key == "stats_dir" || Key == "save_candidates")
    return "it names a file or folder smartcc writes";
  if (Key == "harvest" || Key == "harvest_targets" || Key == "harvest_o0")
    return "it makes smartcc write every compile's bitcode";
  if (Key == "harvest_gcc")
    return "it makes smartcc run gcc";
  if (Key == "candidate")
    return "a candidate's pipeline and LLVM options can write files";
  if (Key == "link_candidate")
    return "a link candidate's linker arguments can write files and load plugins";
  if (Key == "trust_project_config")
    return "only your own config may trust project files";
  // Model files: the built-in ones are fine, a path may name a file outside the project.
  if (((Key == "agent" || Key == "link_agent") && Value != "builtin" && Value != "off") ||
      (Key == "inliner" && Value != "heuristic" && Value != "ml") ||
      (Key == "regalloc" && Value != "greedy" && Value != "ml"))
    return "it loads a model file";
  return nullptr;
}

} // namespace smartcc
