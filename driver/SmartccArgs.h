// Separates smartcc's own --smartcc-* arguments from the compiler's. Clang never sees ours.
//   commands  (do something and exit): --smartcc-stats, --smartcc-stats-json,
//             --smartcc-zero-stats, --smartcc-version, --smartcc-help, --smartcc-print-config
//   settings  (configuration flags):   everything else spelled --smartcc-KEY[=VALUE]
#pragma once
#include <string>
#include <vector>

namespace smartcc {

struct SplitArgs {
  std::vector<std::string> Commands;
  std::vector<std::string> Settings;
  std::vector<const char *> CompilerArgs; // argv[0] first, then the compiler's arguments
};

SplitArgs splitSmartccArgs(int Argc, const char **Argv);
bool isSmartccCommand(const std::string &Arg);

// Settings given on the command line must also reach the `smartcc-core -cc1` processes the
// driver starts; they travel in this environment variable, one per line.
constexpr const char *ChildSettingsEnv = "SMARTCC_CHILD_SETTINGS";
void exportSettingsToChildren(const std::vector<std::string> &Settings);
std::vector<std::string> settingsFromParent();

} // namespace smartcc
