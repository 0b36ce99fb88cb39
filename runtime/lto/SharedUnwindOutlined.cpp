#include "runtime/lto/SharedUnwindOutlined.h"
#include "runtime/FramelessRegisters.h"
#include "runtime/lto/SharedUnwind.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include <memory>
#include <mutex>

using namespace llvm;

namespace smartcc {

namespace {

// Whether MF keeps the caller's frame at each of its instructions (FramelessRegisters.h).
bool frameless(const MachineFunction &MF, ArrayRef<MCRegister> Preserved, bool X86) {
  const TargetRegisterInfo *TRI = MF.getSubtarget().getRegisterInfo();
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB) {
      if (MI.isCFIInstruction())
        return false; // it describes a frame of its own
      if (MI.isDebugInstr())
        continue;
      const bool Balanced = X86 && (MI.isCall() || MI.isReturn());
      for (const MachineOperand &MO : MI.operands()) {
        if (!MO.isReg() || !MO.isDef() || !MO.getReg().isPhysical())
          continue;
        for (MCRegister P : Preserved)
          if (TRI->regsOverlap(MO.getReg(), P) && !(Balanced && P == Preserved.front()))
            return false;
      }
    }
  return true;
}

struct SharedUnwindOutlined : ModulePass {
  static char ID;
  SharedUnwindOutlined() : ModulePass(ID) {}
  StringRef getPassName() const override { return "smartcc shared unwind: outlined functions"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<MachineModuleInfoWrapperPass>();
    AU.addPreserved<MachineModuleInfoWrapperPass>();
    AU.setPreservesAll();
  }

  bool runOnModule(Module &M) override {
    Function *Begin = M.getFunction(SharedUnwindBegin);
    Function *End = M.getFunction(SharedUnwindEnd);
    if (!Begin || !End)
      return false;
    MachineModuleInfo &MMI = getAnalysis<MachineModuleInfoWrapperPass>().getMMI();
    std::vector<MCRegister> Preserved;
    bool X86 = false;
    std::vector<Function *> Moved;
    for (Function &F : M) {
      MachineFunction *MF = MMI.getMachineFunction(F);
      if (!MF || !MF->isOutlined() || F.hasSection() || F.hasPersonalityFn())
        continue;
      if (Preserved.empty()) {
        const Triple &T = MF->getTarget().getTargetTriple();
        X86 = T.getArch() == Triple::x86_64;
        const TargetRegisterInfo *TRI = MF->getSubtarget().getRegisterInfo();
        for (StringRef N : framelessPreservedRegisters(T.getArch()))
          for (unsigned R = 1; R < TRI->getNumRegs(); ++R)
            if (N == TRI->getName(R)) {
              Preserved.push_back(R);
              break;
            }
        // A register missing from the target's names: move nothing rather than guess.
        if (Preserved.size() != framelessPreservedRegisters(T.getArch()).size())
          return false;
      }
      if (frameless(*MF, Preserved, X86))
        Moved.push_back(&F);
    }
    for (Function *F : Moved) {
      M.getFunctionList().splice(End->getIterator(), M.getFunctionList(), F->getIterator());
      F->setSection(SharedUnwindSection);
      F->setUWTableKind(UWTableKind::None);
      F->addFnAttr(Attribute::NoUnwind);
    }
    // A run left empty (nothing the IR pass could cover, nothing outlined without a frame)
    // would still cost an FDE: the markers lose their directives and emit nothing at all.
    if (std::next(Begin->getIterator()) == End->getIterator()) {
      for (Function *Marker : {Begin, End})
        if (MachineFunction *MF = MMI.getMachineFunction(*Marker))
          for (MachineBasicBlock &MBB : *MF)
            for (MachineInstr &MI : llvm::make_early_inc_range(MBB))
              if (MI.isInlineAsm())
                MI.eraseFromParent();
      return true;
    }
    return !Moved.empty();
  }
};

char SharedUnwindOutlined::ID = 0;

} // namespace

ModulePass *createSharedUnwindOutlinedPass() { return new SharedUnwindOutlined(); }

void registerSharedUnwindOutlinedPass() {
  static std::once_flag Once;
  static std::unique_ptr<RegisterTargetPassConfigCallback> Registration;
  std::call_once(Once, [] {
    Registration = std::make_unique<RegisterTargetPassConfigCallback>(
        [](TargetMachine &, PassManagerBase &, TargetPassConfig *Config) {
          // The outliner's pass ID is private to LLVM; its registration names it.
          PassRegistry &Registry = *PassRegistry::getPassRegistry();
          initializeMachineOutlinerPass(Registry);
          const PassInfo *Outliner = Registry.getPassInfo(StringRef("machine-outliner"));
          if (Outliner)
            Config->insertPass(Outliner->getTypeInfo(),
                               IdentifyingPassPtr(createSharedUnwindOutlinedPass()));
        });
  });
}

} // namespace smartcc
