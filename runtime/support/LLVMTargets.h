// Registers every LLVM target, MC layer, asm printer and parser once per process (clang's cc1
// does the same before compiling; smartcc needs them wherever it creates a target machine).
#pragma once

namespace smartcc {
void initializeLLVMTargetsOnce();
}
