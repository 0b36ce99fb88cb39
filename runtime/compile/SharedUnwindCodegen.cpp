#include "runtime/compile/SharedUnwindCodegen.h"
#include "runtime/compile/FramelessRegisters.h"
#include "runtime/compile/SharedUnwind.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/Passes.h"
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

// The registers of FramelessRegisters.h in MF's target (the stack pointer first); empty if
// one of them is missing from its names (then nothing is taken for frameless).
std::vector<MCRegister> preservedRegisters(const MachineFunction &MF) {
  return framelessPreservedRegisters(*MF.getSubtarget().getRegisterInfo(),
                                     MF.getTarget().getTargetTriple().getArch());
}

// Whether MF keeps the caller's frame at each of its instructions.
bool frameless(const MachineFunction &MF, ArrayRef<MCRegister> Preserved) {
  if (Preserved.empty())
    return false;
  const bool X86 = MF.getTarget().getTargetTriple().getArch() == Triple::x86_64;
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

// Whether MF transfers control to code outside itself other than by returning: a call, a
// tail call (the outliner's thunks end in one) or an indirect branch.
bool leavesItself(const MachineFunction &MF) {
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (MI.isCall() || MI.isIndirectBranch())
        return true;
  return false;
}

// The functions that a function with a personality routine refers to (calls, as a rule).
// Such a caller's call-site table lists the calls that may throw and leaves out those whose
// callee is nounwind (EHStreamer::callToNoUnwindFunction): a throw through a call it leaves
// out finds no entry there, and the personality routine calls std::terminate(). A member of
// the run is made nounwind (it must be: a function that may throw gets an entry of its own);
// for one of these callers' callees that is true only if it leaves itself for no other code.
DenseSet<const Function *> calledUnderPersonality(const Module &M, MachineModuleInfo &MMI) {
  DenseSet<const Function *> Callees;
  for (const Function &G : M) {
    if (!G.hasPersonalityFn())
      continue;
    const MachineFunction *MF = MMI.getMachineFunction(G);
    if (!MF)
      continue;
    for (const MachineBasicBlock &MBB : *MF)
      for (const MachineInstr &MI : MBB)
        for (const MachineOperand &MO : MI.operands())
          if (MO.isGlobal())
            if (const auto *Callee = dyn_cast<Function>(MO.getGlobal()))
              Callees.insert(Callee);
  }
  return Callees;
}

// In the run: the shared section, no unwind table entry of its own (which takes nounwind as
// well as no uwtable: AsmPrinter gives a function that may throw an entry whatever its
// uwtable says). The IR pass's members are nounwind already; outlined functions are made so
// only where that is true for every caller that has a call-site table (outlined()).
void joinRun(Function &F) {
  // In its own section a member is left alone by the machine outliner. Kept in the text
  // section it is told so: a member that calls an outlined function would need a frame on
  // AArch64 (the return address), and the outlined function, made with its callers' unwind
  // table kind (none, here), would have no entry.
  if (!F.getParent()->getModuleFlag(SharedUnwindInText))
    F.setSection(SharedUnwindSection);
  else
    F.addFnAttr("nooutline");
  F.setUWTableKind(UWTableKind::None);
  F.addFnAttr(Attribute::NoUnwind);
}

// A run left empty would still cost an FDE: the markers lose their directives and emit nothing
// at all.
void closeIfEmpty(MachineModuleInfo &MMI, Function &Begin, Function &End) {
  if (std::next(Begin.getIterator()) != End.getIterator())
    return;
  for (Function *Marker : {&Begin, &End})
    if (MachineFunction *MF = MMI.getMachineFunction(*Marker))
      for (MachineBasicBlock &MBB : *MF)
        for (MachineInstr &MI : llvm::make_early_inc_range(MBB))
          if (MI.isInlineAsm())
            MI.eraseFromParent();
}

struct SharedUnwindCodegen : ModulePass {
  enum Stage { Members, Outlined };
  static char ID;
  Stage S;
  // Whether this pipeline runs the Outlined stage (set by its doInitialization, which the
  // pass manager calls for every pass before it runs any): without the outliner, Members
  // closes an empty run itself (a per-TU candidate on x86-64 outlines only when asked).
  std::shared_ptr<bool> OutlinedRuns;
  SharedUnwindCodegen(Stage S, std::shared_ptr<bool> OutlinedRuns)
      : ModulePass(ID), S(S), OutlinedRuns(std::move(OutlinedRuns)) {}
  bool doInitialization(Module &) override {
    if (S == Outlined)
      *OutlinedRuns = true;
    return false;
  }
  StringRef getPassName() const override {
    return S == Members ? "smartcc shared unwind: members" : "smartcc shared unwind: outlined";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<MachineModuleInfoWrapperPass>();
    AU.setPreservesAll();
  }

  bool runOnModule(Module &M) override {
    Function *Begin = M.getFunction(SharedUnwindBegin);
    Function *End = M.getFunction(SharedUnwindEnd);
    if (!Begin || !End)
      return false;
    MachineModuleInfo &MMI = getAnalysis<MachineModuleInfoWrapperPass>().getMMI();
    return S == Members ? members(M, MMI, *Begin, *End) : outlined(M, MMI, *Begin, *End);
  }

  bool members(Module &M, MachineModuleInfo &MMI, Function &Begin, Function &End) {
    const bool InText = M.getModuleFlag(SharedUnwindInText);
    std::vector<Function *> Run;
    for (auto I = std::next(Begin.getIterator()); I != End.getIterator(); ++I)
      Run.push_back(&*I);
    std::vector<MCRegister> Preserved;
    for (Function *F : Run) {
      const bool Listed = F->getFnAttribute(SharedUnwindAttr).getValueAsString() == "listed";
      MachineFunction *MF = MMI.getMachineFunction(*F);
      if (MF && Preserved.empty())
        Preserved = preservedRegisters(*MF);
      // (Code generation may give a function a section prefix, .text.unlikely for a cold
      // one: it would leave a run kept in the text section. The run's own section overrides
      // it.)
      if (Listed || (MF && !(InText && F->getSectionPrefix()) && frameless(*MF, Preserved))) {
        joinRun(*F);
      } else {
        // Generated as in clang's link, its own entry and all: out of the run.
        M.getFunctionList().splice(Begin.getIterator(), M.getFunctionList(), F->getIterator());
      }
      F->removeFnAttr(SharedUnwindAttr);
    }
    if (!*OutlinedRuns)
      closeIfEmpty(MMI, Begin, End);
    return true;
  }

  bool outlined(Module &M, MachineModuleInfo &MMI, Function &Begin, Function &End) {
    const bool InText = M.getModuleFlag(SharedUnwindInText);
    std::vector<Function *> Moved;
    std::vector<MCRegister> Preserved;
    const DenseSet<const Function *> UnderPersonality =
        M.getModuleFlag(SharedUnwindUncheckedThunks) ? DenseSet<const Function *>()
                                                     : calledUnderPersonality(M, MMI);
    for (Function &F : M) {
      MachineFunction *MF = MMI.getMachineFunction(F);
      // Only those with an FDE to give up (the outliner gives its functions its callers'
      // unwind table kind: none where they had none).
      if (!MF || !MF->isOutlined() || F.hasSection() || (InText && F.getSectionPrefix()) ||
          F.hasPersonalityFn() || !F.hasUWTable())
        continue;
      if (Preserved.empty())
        Preserved = preservedRegisters(*MF);
      // A thunk (`b callee` at its end) called from a function with landing pads stays out:
      // made nounwind, its callers' call-site tables would drop the call, and an exception
      // the callee throws would end in std::terminate() (C++ code; a C program's callees are
      // nounwind and its functions have no personality). The output check proves the same
      // on the linked file (runtime/link/UnwindSharing.h).
      if (UnderPersonality.contains(&F) && leavesItself(*MF))
        continue;
      if (frameless(*MF, Preserved))
        Moved.push_back(&F);
    }
    for (Function *F : Moved) {
      M.getFunctionList().splice(End.getIterator(), M.getFunctionList(), F->getIterator());
      joinRun(*F);
    }
    closeIfEmpty(MMI, Begin, End);
    return true;
  }

};

char SharedUnwindCodegen::ID = 0;

} // namespace

void registerSharedUnwindCodegenPasses() {
  static std::once_flag Once;
  static std::unique_ptr<RegisterTargetPassConfigCallback> Registration;
  std::call_once(Once, [] {
    Registration = std::make_unique<RegisterTargetPassConfigCallback>(
        [](TargetMachine &, PassManagerBase &, TargetPassConfig *Config) {
          auto OutlinedRuns = std::make_shared<bool>(false);
          // The last pass before the outliner that every pipeline adds; then the outliner,
          // whose pass ID is private to LLVM: its registration names it.
          Config->insertPass(&MachineSanitizerBinaryMetadataID,
                             IdentifyingPassPtr(new SharedUnwindCodegen(
                                 SharedUnwindCodegen::Members, OutlinedRuns)));
          PassRegistry &Registry = *PassRegistry::getPassRegistry();
          initializeMachineOutlinerPass(Registry);
          if (const PassInfo *Outliner = Registry.getPassInfo(StringRef("machine-outliner")))
            Config->insertPass(Outliner->getTypeInfo(),
                               IdentifyingPassPtr(new SharedUnwindCodegen(
                                   SharedUnwindCodegen::Outlined, OutlinedRuns)));
        });
  });
}

} // namespace smartcc
