#include "driver/CoreDriver.h"

int main(int Argc, const char **Argv) { return smartcc::coreMain(Argc, Argv); }
