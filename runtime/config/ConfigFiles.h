// Where smartcc's configuration files are, header-only: the LLVM-free launcher must find them
// too. A -O1..-O3 compile is clang's unless a file asks for ML register allocation or
// harvesting, and the launcher decides that without loading the core (runtime/config/Config.cpp
// reads the same files, in this order, when SMARTCC_CONFIG/--smartcc-config name none).
#pragma once
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

namespace smartcc {

inline constexpr const char *SystemConfigFile = "/etc/smartcc/config.toml";

inline bool regularFileExists(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

// ${XDG_CONFIG_HOME}/smartcc/config.toml (an empty or relative XDG_CONFIG_HOME is ignored, as
// the XDG spec says), else ${HOME}/.config/smartcc/config.toml; "" when neither is set.
inline std::string userConfigFile(const char *XdgConfigHome, const char *Home) {
  if (XdgConfigHome && XdgConfigHome[0] == '/')
    return std::string(XdgConfigHome) + "/smartcc/config.toml";
  if (Home && *Home)
    return std::string(Home) + "/.config/smartcc/config.toml";
  return "";
}

// The nearest .smartcc.toml from the absolute folder Dir up to the root, like .clang-format.
inline std::string nearestProjectFile(std::string Dir) {
  while (!Dir.empty()) {
    std::string File = Dir + (Dir.back() == '/' ? "" : "/") + ".smartcc.toml";
    if (regularFileExists(File))
      return File;
    size_t Slash = Dir.find_last_of('/');
    if (Slash == std::string::npos || Dir == "/")
      break;
    Dir = Slash == 0 ? "/" : Dir.substr(0, Slash);
  }
  return "";
}

// Whether a line of the TOML file starts with one of Keys (after blanks), in any table: a
// deliberately loose test (a commented-out key does not count), so that the launcher errs
// towards the core, which then reads the file properly.
inline bool fileMentionsKey(const std::string &Path, const std::vector<std::string_view> &Keys) {
  std::ifstream In(Path);
  std::string Line;
  while (std::getline(In, Line)) {
    std::string_view L(Line);
    while (!L.empty() && (L.front() == ' ' || L.front() == '\t'))
      L.remove_prefix(1);
    for (std::string_view K : Keys)
      if (L.substr(0, K.size()) == K)
        return true;
  }
  return false;
}

} // namespace smartcc
