// What the shared-unwind link candidate reads and checks in linked ELF files (its IR side is
// runtime/compile/SharedUnwind.h, which says why one FDE may cover many frameless functions).
//
// Before: which functions of clang's own link have an FDE without instructions (the CIE's
// rule everywhere) and no LSDA: whether a shared entry can gain anything there (and
// smartcc-size --frameless's list).
// After: the candidate's output may ship only if, by its own bytes,
//   - for each run (one per module that made one: a ThinLTO link may have several), one FDE
//     without instructions or LSDA begins at the begin marker and covers the whole run up to
//     the end marker, and no other FDE overlaps the run;
//   - no instruction of the run writes the stack pointer, the return-address register or a
//     callee-saved register (x86-64: calls and returns move RSP and put it back), so the CIE's
//     rule is true at every instruction of it;
//   - every function that had an FDE in clang's link (by name), and every machine-outlined
//     function, is still covered by one;
//   - every call into a run from a function with a C++ call-site table (its FDE's LSDA) is
//     listed in that table, or reaches a machine-outlined function that leaves itself only by
//     returning: members of a run are nounwind, which drops their calls from the tables, and
//     an exception thrown through a call the table leaves out ends in std::terminate();
//   - the output has function symbols (a stripped one could not show its runs).
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace smartcc {

struct UnwindSummary {
  unsigned FDEs = 0;
  // Functions (symbol names, each defined once) whose FDE has no instructions and no LSDA;
  // not the machine outliner's, which no IR pass can name.
  std::vector<std::string> Frameless;
  // The machine outliner's functions with such an FDE: code generation's half of the pass
  // (runtime/compile/SharedUnwindCodegen.h) moves them into the run.
  unsigned FramelessOutlined = 0;
  // Functions covered by some FDE (symbol names).
  std::set<std::string> Covered;
  // Every machine-outlined function has an FDE (true when there is none): the outliner gives
  // its functions its callers' unwind table kind, so a build without unwind tables has
  // outlined functions without entries, and only where all had one must a candidate's too.
  bool OutlinedCovered = true;
  // The file has .debug_info: its program had debug information, with which code generation
  // gives every function a frame of its own (runtime/compile/SharedUnwind.h).
  bool DebugInfo = false;
};

// Reads .eh_frame and the symbol table of a linked ELF file.
llvm::Expected<UnwindSummary> summarizeUnwind(llvm::MemoryBufferRef ELF);

struct SharedUnwindCheck {
  unsigned Functions = 0;    // functions inside the shared runs
  uint64_t RunBytes = 0;     // bytes of code the shared FDEs cover
  unsigned Instructions = 0; // instructions checked
};

// Checks a candidate's output against clang's link's summary (Baseline); an error says what
// failed.
llvm::Expected<SharedUnwindCheck> checkSharedUnwind(llvm::MemoryBufferRef Candidate,
                                                     const UnwindSummary &Baseline);

} // namespace smartcc
