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
// The pass gets the names of the functions whose FDE was empty in clang's own link of the same
// program (driver/LTOLink.cpp reads them with runtime/UnwindSharing.h), and for those it can
// cover safely (cannot throw, no personality, no comdat or section of their own) it
//   - moves them into one section, consecutive in the module (so in the section),
//   - drops their own unwind table entry (uwtable; they are nounwind already),
//   - brackets them with two naked marker functions whose inline assembly opens the shared
//     FDE (.cfi_startproc) before the first and closes it (.cfi_endproc) after the last.
// The machine outliner's functions, made in code generation, join the run there
// (runtime/lto/SharedUnwindOutlined.h). Code generation may still decide differently in the
// candidate than in clang's link (the machine outliner does not outline from functions with a
// section of their own, for one): the driver checks the candidate's output instruction by
// instruction before it may ship (runtime/UnwindSharing.h), never this pass's assumptions.
#pragma once
#include "llvm/IR/PassManager.h"
#include <string>

namespace smartcc {

// Names of the marker functions (local symbols of the output) and of the shared section.
inline constexpr const char *SharedUnwindBegin = "__smartcc_shared_unwind_begin";
inline constexpr const char *SharedUnwindEnd = "__smartcc_shared_unwind_end";
inline constexpr const char *SharedUnwindSection = ".text.smartcc.shared_unwind";

struct SharedUnwindPass : llvm::PassInfoMixin<SharedUnwindPass> {
  std::string ListPath; // one function name per line
  explicit SharedUnwindPass(llvm::StringRef P) : ListPath(P) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smartcc
