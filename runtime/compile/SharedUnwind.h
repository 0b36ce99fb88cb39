// One unwind entry for many frameless functions (a link candidate's last IR step).
//
// Every function compiled with unwind tables gets its own FDE in .eh_frame (about 24 bytes)
// and a row in .eh_frame_hdr's search table (8 bytes). For a function that never moves the
// stack pointer and never writes the return-address or a callee-saved register, that FDE has
// no instructions: the CIE's initial rule (AArch64: CFA = SP, return address in LR; x86-64:
// CFA = RSP + 8, return address at CFA - 8) holds at every one of its instructions. Such FDEs
// are interchangeable, and one FDE covering a run of such functions laid out back to back
// describes every instruction of the run exactly as theirs did. Over half the FDEs of C
// libraries are of this kind (libnettle.so on AArch64: 549 of 824), 5-10 % of their images.
//
// The pass puts every function that may turn out frameless and can be covered safely (cannot
// throw, no personality, no comdat or section of its own, no call that is not a tail call) at
// the end of the module, between two naked marker functions whose inline assembly opens the
// shared FDE (.cfi_startproc) before the first and closes it (.cfi_endproc) after the last,
// and marks them; nothing else changes here. Code generation decides on their machine code
// (runtime/compile/SharedUnwindCodegen.h): the frameless ones go into one section, consecutive,
// without an unwind table entry of their own; the others leave the run as clang generated
// them; the machine outliner's frameless functions join. Nothing here depends on clang's link,
// so the candidate starts beside it. Code generation may still decide differently in the
// candidate than in clang's link (the machine outliner does not outline from functions with a
// section of their own, for one): the driver checks the candidate's output instruction by
// instruction before it may ship (runtime/link/UnwindSharing.h), never these passes' assumptions.
#pragma once
#include "llvm/IR/PassManager.h"
#include <string>

namespace smartcc {

// Names of the marker functions (local symbols of the output) and of the shared section.
inline constexpr const char *SharedUnwindBegin = "__smartcc_shared_unwind_begin";
inline constexpr const char *SharedUnwindEnd = "__smartcc_shared_unwind_end";
inline constexpr const char *SharedUnwindSection = ".text.smartcc.shared_unwind";
// The IR pass's mark on the functions it put in the run, for code generation's half
// (runtime/compile/SharedUnwindCodegen.h): "check" (decided there on machine code) or "listed".
inline constexpr const char *SharedUnwindAttr = "smartcc-shared-unwind";
// A module flag for tests only (the pass's `unchecked-thunks` form): code generation's half
// then also takes outlined thunks that functions with landing pads call, as it once did, so
// that the lit tests can show the output check refusing what that makes.
inline constexpr const char *SharedUnwindUncheckedThunks = "smartcc-shared-unwind-unchecked-thunks";
// A module flag: the run stays in the module's text section (a per-TU object without function
// sections, whose functions the linker places as one section in the module's order), instead
// of a section of its own (a link's code generation, where every function has its own section
// and the run must not be taken apart). Code generation's half orders the functions so that
// the run's are back to back (runtime/compile/SharedUnwindCodegen.h). No new section: a linker
// script that places `.text` (a kernel's, a board's) places the run too.
inline constexpr const char *SharedUnwindInText = "smartcc-shared-unwind-in-text";

struct SharedUnwindPass : llvm::PassInfoMixin<SharedUnwindPass> {
  std::string ListPath; // one function name per line; empty: every function that may be frameless
  bool UncheckedThunks = false; // tests only: SharedUnwindUncheckedThunks
  bool InText = false;          // SharedUnwindInText
  explicit SharedUnwindPass(llvm::StringRef P, bool UncheckedThunks = false, bool InText = false)
      : ListPath(P), UncheckedThunks(UncheckedThunks), InText(InText) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smartcc
