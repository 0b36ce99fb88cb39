// smartcc's own commands: --smartcc-stats[-json], --smartcc-zero-stats, --smartcc-version,
// --smartcc-help, --smartcc-print-config. They never run the compiler.
#pragma once
#include "driver/SmartccArgs.h"
#include "runtime/config/Config.h"

namespace smartcc {
int runSmartccCommands(const SplitArgs &Args, const Config &Cfg);
}
