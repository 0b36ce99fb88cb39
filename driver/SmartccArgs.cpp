#include "driver/SmartccArgs.h"
#include <cstdlib>
#include <cstring>

namespace smartcc {

bool isSmartccCommand(const std::string &Arg) {
  for (const char *C : {"--smartcc-stats", "--smartcc-stats-json", "--smartcc-zero-stats",
                        "--smartcc-version", "--smartcc-help", "--smartcc-print-config",
                        "--smartcc-print-cache-key"})
    if (Arg == C)
      return true;
  return false;
}

SplitArgs splitSmartccArgs(int Argc, const char **Argv) {
  SplitArgs S;
  S.CompilerArgs.push_back(Argv[0]);
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--smartcc-", 0) != 0)
      S.CompilerArgs.push_back(Argv[I]);
    else if (isSmartccCommand(A))
      S.Commands.push_back(A);
    else
      S.Settings.push_back(A);
  }
  return S;
}

void exportSettingsToChildren(const std::vector<std::string> &Settings) {
  std::string Joined;
  for (const std::string &S : Settings)
    Joined += S + "\n";
  if (Joined.empty())
    unsetenv(ChildSettingsEnv);
  else
    setenv(ChildSettingsEnv, Joined.c_str(), 1);
}

std::vector<std::string> settingsFromParent() {
  std::vector<std::string> Out;
  const char *V = std::getenv(ChildSettingsEnv);
  if (!V)
    return Out;
  std::string All = V;
  for (size_t Pos = 0; Pos < All.size();) {
    size_t End = All.find('\n', Pos);
    if (End == std::string::npos)
      End = All.size();
    if (End > Pos)
      Out.push_back(All.substr(Pos, End - Pos));
    Pos = End + 1;
  }
  return Out;
}

} // namespace smartcc
