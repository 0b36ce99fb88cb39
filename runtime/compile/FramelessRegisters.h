// The registers a frameless function leaves alone, by their LLVM names: as long as the stack
// pointer, the return-address register and the callee-saved registers hold what they held at
// the function's entry, the CIE's initial rule describes its caller's frame at every one of
// its instructions. One list for the two places that decide it: the output check
// (runtime/link/UnwindSharing.cpp, on machine code decoded from the linked file) and the code
// generation pass that moves machine-outlined functions into the shared run
// (runtime/compile/SharedUnwindCodegen.cpp, on machine instructions). The stack pointer comes first.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/TargetParser/Triple.h"
#include <string>
#include <vector>

namespace smartcc {

inline std::vector<llvm::StringRef> framelessPreservedRegisters(llvm::Triple::ArchType Arch) {
  if (Arch == llvm::Triple::aarch64)
    return {"SP", "LR", "FP", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26",
            "X27", "X28", "D8", "D9", "D10", "D11", "D12", "D13", "D14", "D15"};
  if (Arch == llvm::Triple::x86_64)
    return {"RSP", "RBX", "RBP", "R12", "R13", "R14", "R15"};
  return {};
}

// The same registers as numbers of MRI (a target's register info; TargetRegisterInfo is one),
// in the same order; empty, with the first name MRI lacks in Missing, if one is not there.
inline std::vector<llvm::MCRegister>
framelessPreservedRegisters(const llvm::MCRegisterInfo &MRI, llvm::Triple::ArchType Arch,
                            std::string *Missing = nullptr) {
  std::vector<llvm::MCRegister> Regs;
  for (llvm::StringRef N : framelessPreservedRegisters(Arch)) {
    unsigned R = 1;
    while (R < MRI.getNumRegs() && N != MRI.getName(R))
      ++R;
    if (R == MRI.getNumRegs()) {
      if (Missing)
        *Missing = N.str();
      return {};
    }
    Regs.push_back(R);
  }
  return Regs;
}

} // namespace smartcc
