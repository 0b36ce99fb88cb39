#include "runtime/compile/EpiloguePops.h"
#include "runtime/compile/AfterFrameLowering.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"
#include <map>

using namespace llvm;

namespace smartcc {

namespace {

// The target's opcodes and registers the pass reads and writes, found by name: X86's enums
// are private to its backend.
struct X86Names {
  unsigned AddRI = 0, AddRI8 = 0, Pop = 0;
  SmallVector<unsigned, 4> Returns; // the return and the tail calls
  MCRegister SP;
  // Caller-saved registers to pop into, those without a REX prefix first (1-byte pops).
  SmallVector<MCRegister, 9> Scratch;
  bool Complete = false;
};

X86Names findNames(const TargetInstrInfo &TII, const TargetRegisterInfo &TRI) {
  X86Names N;
  for (unsigned Opc = 0, E = TII.getNumOpcodes(); Opc < E; ++Opc) {
    StringRef Name = TII.getName(Opc);
    if (Name == "ADD64ri32")
      N.AddRI = Opc;
    else if (Name == "ADD64ri8")
      N.AddRI8 = Opc;
    else if (Name == "POP64r")
      N.Pop = Opc;
    // RET: the return before X86ExpandPseudo makes it RET64, which it is not yet here.
    else if (Name == "RET" || Name == "RET64" || Name == "TCRETURNdi64" ||
             Name == "TCRETURNri64")
      N.Returns.push_back(Opc);
  }
  std::map<std::string, MCRegister> ByName;
  for (unsigned R = 1, E = TRI.getNumRegs(); R < E; ++R)
    ByName[TRI.getName(R)] = MCRegister(R);
  N.SP = ByName["RSP"];
  for (const char *Name : {"RCX", "RDX", "RSI", "RDI", "RAX", "R8", "R9", "R10", "R11"})
    if (MCRegister R = ByName[Name])
      N.Scratch.push_back(R);
  N.Complete = N.AddRI && N.Pop && N.Returns.size() == 4 && N.SP && N.Scratch.size() == 9;
  return N;
}

class EpiloguePops : public MachineFunctionPass {
public:
  static char ID;
  EpiloguePops() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override { return "smartcc epilogue pops"; }

  bool runOnMachineFunction(MachineFunction &MF) override {
    const Triple &T = MF.getTarget().getTargetTriple();
    if (T.getArch() != Triple::x86_64 || T.isOSWindows() ||
        !MF.getFunction().hasFnAttribute(EpiloguePopsAttr))
      return false;
    const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
    const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
    if (NamesOf != &TII)
      Names = findNames(TII, TRI), NamesOf = &TII;
    if (!Names.Complete)
      return false;
    // Registers this function must preserve (its calling convention's: preserve_most,
    // no_caller_saved_registers, interrupt handlers keep more) are never popped into.
    const MCPhysReg *CalleeSaved = TRI.getCalleeSavedRegs(&MF);
    auto Preserved = [&](MCRegister R) {
      for (const MCPhysReg *CSR = CalleeSaved; CSR && *CSR; ++CSR)
        if (TRI.regsOverlap(*CSR, R))
          return true;
      return false;
    };
    bool Changed = false;
    for (MachineBasicBlock &MBB : MF) {
      if (!MBB.succ_empty())
        continue; // a return block
      for (MachineInstr &MI : llvm::make_early_inc_range(MBB)) {
        if ((MI.getOpcode() != Names.AddRI && MI.getOpcode() != Names.AddRI8) ||
            !MI.getFlag(MachineInstr::FrameDestroy) || MI.getNumOperands() < 3 ||
            !MI.getOperand(0).isReg() || MI.getOperand(0).getReg() != Names.SP ||
            !MI.getOperand(2).isImm() || MI.getOperand(2).getImm() != 8)
          continue;
        // Only the epilogue's pops (and its unwind directives) and then the return or tail
        // call may follow; nothing after it may read the register popped into.
        bool Epilogue = true, Returns = false;
        SmallVector<const MachineInstr *, 8> After;
        for (auto It = std::next(MI.getIterator()); It != MBB.end(); ++It) {
          After.push_back(&*It);
          if (It->isCFIInstruction() || It->isDebugInstr())
            continue;
          if (It->getOpcode() == Names.Pop && It->getFlag(MachineInstr::FrameDestroy))
            continue;
          if (llvm::is_contained(Names.Returns, It->getOpcode()) &&
              std::next(It) == MBB.end()) {
            Returns = true;
            continue;
          }
          Epilogue = false;
          break;
        }
        if (!Epilogue || !Returns)
          continue;
        MCRegister Dead;
        for (MCRegister R : Names.Scratch) {
          if (Preserved(R))
            continue;
          bool Used = false;
          for (const MachineInstr *A : After)
            for (const MachineOperand &MO : A->operands())
              if (MO.isReg() && MO.getReg() && MO.getReg().isPhysical() &&
                  TRI.regsOverlap(MO.getReg(), R))
                Used = true;
          // The add's own flags are dead by the rules above; a register mask (a call) would
          // not be here.
          if (!Used) {
            Dead = R;
            break;
          }
        }
        if (!Dead)
          continue;
        BuildMI(MBB, MI, MI.getDebugLoc(), TII.get(Names.Pop), Dead)
            .setMIFlag(MachineInstr::FrameDestroy);
        MI.eraseFromParent();
        Changed = true;
      }
    }
    return Changed;
  }

private:
  X86Names Names;
  const TargetInstrInfo *NamesOf = nullptr;
};

char EpiloguePops::ID = 0;

} // namespace

void registerEpiloguePops() {
  // After frame lowering, which writes the epilogues.
  insertAfterX86FrameLowering([]() -> MachineFunctionPass * { return new EpiloguePops(); });
}

} // namespace smartcc
