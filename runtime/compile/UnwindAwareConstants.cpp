#include "runtime/compile/UnwindAwareConstants.h"
#include "runtime/compile/AfterFrameLowering.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetFrameLowering.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <cstdlib>

using namespace llvm;

namespace smartcc {

namespace {

std::atomic<unsigned long long> AddedCodeBytes{0};
// Set on a thread whose code generations are not the link's (ScopedUnwindTradeSilence).
thread_local bool TradeSilenced = false;

// The target's opcodes the pass reads and writes, found by name: X86's opcode enum is private
// to the X86 backend.
struct X86Opcodes {
  unsigned MovImm32Pseudo = 0, MovImm64Pseudo = 0; // MOV32ImmSExti8, MOV64ImmSExti8
  unsigned Mov32ri = 0, Mov64ri32 = 0;
  const TargetRegisterClass *GR32 = nullptr;
  bool Complete = false;
};

X86Opcodes findOpcodes(const TargetInstrInfo &TII, const TargetRegisterInfo &TRI) {
  X86Opcodes O;
  for (unsigned Opc = 0, E = TII.getNumOpcodes(); Opc < E; ++Opc) {
    StringRef Name = TII.getName(Opc);
    if (Name == "MOV32ImmSExti8")
      O.MovImm32Pseudo = Opc;
    else if (Name == "MOV64ImmSExti8")
      O.MovImm64Pseudo = Opc;
    else if (Name == "MOV32ri")
      O.Mov32ri = Opc;
    else if (Name == "MOV64ri32")
      O.Mov64ri32 = Opc;
  }
  for (const TargetRegisterClass *RC : TRI.regclasses())
    if (StringRef(TRI.getRegClassName(RC)) == "GR32")
      O.GR32 = RC;
  O.Complete = O.MovImm32Pseudo && O.MovImm64Pseudo && O.Mov32ri && O.Mov64ri32 && O.GR32;
  return O;
}

class UnwindAwareConstants : public MachineFunctionPass {
public:
  static char ID;
  UnwindAwareConstants() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override { return "smartcc unwind-aware constants"; }

  bool runOnMachineFunction(MachineFunction &MF) override {
    const Triple &T = MF.getTarget().getTargetTriple();
    if (T.getArch() != Triple::x86_64 || T.isOSWindows() ||
        !MF.getFunction().hasFnAttribute(UnwindConstantsAttr))
      return false;
    // The pair costs CFA adjustments in the image only where the expansion emits them into
    // .eh_frame: an unwind table entry, and the CFA kept by the stack pointer (no frame
    // pointer). With debug information alone they go to .debug_frame, which no image holds.
    const TargetFrameLowering *TFL = MF.getSubtarget().getFrameLowering();
    if (!MF.getFunction().needsUnwindTableEntry() || !MF.needsFrameMoves() || TFL->hasFP(MF))
      return false;
    const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
    const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
    // Looked up once per instruction table, not per function (a walk over every opcode).
    if (OpcodesOf != &TII)
      Opcodes = findOpcodes(TII, TRI), OpcodesOf = &TII;
    const X86Opcodes &O = Opcodes;
    if (!O.Complete)
      return false;
    bool Changed = false;
    for (MachineBasicBlock &MBB : MF)
      for (MachineInstr &MI : llvm::make_early_inc_range(MBB)) {
        const unsigned Opc = MI.getOpcode();
        if (Opc != O.MovImm32Pseudo && Opc != O.MovImm64Pseudo)
          continue;
        const Register Dst = MI.getOperand(0).getReg();
        const int64_t Imm = MI.getOperand(1).getImm();
        const DebugLoc &DL = MI.getDebugLoc();
        // push imm8 (2 bytes) and pop (1, 2 with REX for r8-r15) against mov r32, imm32 (5,
        // 6 with REX) or mov r64, simm32 (7).
        const bool Rex = TRI.getEncodingValue(Dst) >= 8;
        const unsigned PushPop = 3 + Rex;
        const unsigned Mov = Opc == O.MovImm64Pseudo && Imm < 0 ? 7 : 5 + Rex;
        if (Opc == O.MovImm32Pseudo) {
          BuildMI(MBB, MI, DL, TII.get(O.Mov32ri), Dst).addImm(Imm);
        } else if (Imm >= 0) {
          // A 32-bit mov zero-extends into the whole register: 5 bytes instead of 7.
          MCRegister Low;
          for (MCRegister Sub : TRI.subregs(Dst))
            if (O.GR32->contains(Sub))
              Low = Sub;
          if (!Low)
            continue;
          BuildMI(MBB, MI, DL, TII.get(O.Mov32ri), Low)
              .addImm(Imm)
              .addReg(Dst, RegState::ImplicitDefine);
        } else {
          BuildMI(MBB, MI, DL, TII.get(O.Mov64ri32), Dst).addImm(Imm);
        }
        MI.eraseFromParent();
        AddedCodeBytes += Mov - PushPop;
        Changed = true;
      }
    // A function the pass grew may also have a branch that no longer reaches with 8 bits
    // (3-4 bytes more): counted once per function changed, as code the pass brought.
    if (Changed)
      AddedCodeBytes += 4;
    return Changed;
  }

  // A link's code generation (UnwindTradeFileEnv): the module's count goes to the file.
  bool doFinalization(Module &M) override {
    if (TradeSilenced) {
      AddedCodeBytes.exchange(0);
      return MachineFunctionPass::doFinalization(M);
    }
    if (const char *Path = std::getenv(UnwindTradeFileEnv); Path && *Path) {
      std::error_code EC;
      raw_fd_ostream OS(Path, EC, sys::fs::OF_Append | sys::fs::OF_Text);
      if (!EC)
        OS << AddedCodeBytes.exchange(0) << "\n";
    }
    return MachineFunctionPass::doFinalization(M);
  }

private:
  X86Opcodes Opcodes;
  const TargetInstrInfo *OpcodesOf = nullptr;
};

char UnwindAwareConstants::ID = 0;

} // namespace

ScopedUnwindTradeSilence::ScopedUnwindTradeSilence() { TradeSilenced = true; }
ScopedUnwindTradeSilence::~ScopedUnwindTradeSilence() { TradeSilenced = false; }

unsigned long long takeUnwindConstantsCodeBytes() { return AddedCodeBytes.exchange(0); }

void registerUnwindAwareConstants() {
  // After frame lowering (whether the function keeps a frame pointer is known), before the
  // post-RA pseudo expansion that would emit the push/pop pairs.
  insertAfterX86FrameLowering(
      []() -> MachineFunctionPass * { return new UnwindAwareConstants(); });
}

} // namespace smartcc
