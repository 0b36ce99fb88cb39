// smartcc-core's entry point (driver/CoreMain.cpp only calls this).
#pragma once

namespace smartcc {
int coreMain(int Argc, const char **Argv);
}
