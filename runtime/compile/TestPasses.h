// Deliberately misbehaving passes, so tests can prove that a candidate which crashes, hangs,
// corrupts the IR, bloats the module or hits a fatal error is contained and the build still
// ships clang's object. Usable in any candidate pipeline string by these names:
//   smartcc-test-crash    raises SIGSEGV          smartcc-test-hang     loops forever
//   smartcc-test-invalid  breaks the IR           smartcc-test-bloat    copies every function 64x
//   smartcc-test-fatal    calls report_fatal_error
//   smartcc-test-kill     raises SIGKILL (the OOM killer)
//   smartcc-test-exhaust  allocates until a memory limit (ulimit -v) refuses
#pragma once

namespace llvm {
class PassBuilder;
}

namespace smartcc {
void registerTestPasses(llvm::PassBuilder &PB);
}
