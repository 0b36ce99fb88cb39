// InstCount features (see InstCountFeatures.h and docs/features.md).
#include "policies/InstCountFeatures.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

namespace smartcc {
namespace {

// The opcode slots in CompilerGym's order (LLVM 10's Instruction.def, by opcode name). Every name
// must also be an llvm::Instruction opcode of the LLVM we build against, which the switch in
// slotFor() checks at compile time.
#define SMARTCC_INSTCOUNT_OPCODES(X)                                                               \
  X(Ret) X(Br) X(Switch) X(IndirectBr) X(Invoke) X(Resume) X(Unreachable) X(CleanupRet)            \
  X(CatchRet) X(CatchSwitch) X(CallBr) X(FNeg) X(Add) X(FAdd) X(Sub) X(FSub) X(Mul) X(FMul)        \
  X(UDiv) X(SDiv) X(FDiv) X(URem) X(SRem) X(FRem) X(Shl) X(LShr) X(AShr) X(And) X(Or) X(Xor)       \
  X(Alloca) X(Load) X(Store) X(GetElementPtr) X(Fence) X(AtomicCmpXchg) X(AtomicRMW) X(Trunc)      \
  X(ZExt) X(SExt) X(FPToUI) X(FPToSI) X(UIToFP) X(SIToFP) X(FPTrunc) X(FPExt) X(PtrToInt)          \
  X(IntToPtr) X(BitCast) X(AddrSpaceCast) X(CleanupPad) X(CatchPad) X(ICmp) X(FCmp) X(PHI)         \
  X(Call) X(Select) X(UserOp1) X(UserOp2) X(VAArg) X(ExtractElement) X(InsertElement)              \
  X(ShuffleVector) X(ExtractValue) X(InsertValue) X(LandingPad) X(Freeze)

enum Slot : size_t {
  SlotFirstOpcodeMinusOne = InstCountFeatures::FirstOpcode - 1,
#define SMARTCC_SLOT(OPC) Slot##OPC,
  SMARTCC_INSTCOUNT_OPCODES(SMARTCC_SLOT)
#undef SMARTCC_SLOT
  SlotEnd
};
static_assert(SlotEnd == InstCountFeatures::Count, "InstCount must have 3 totals + 67 opcodes");

constexpr size_t NoSlot = InstCountFeatures::Count;

constexpr size_t slotFor(unsigned Opcode) {
  switch (Opcode) {
#define SMARTCC_CASE(OPC)                                                                          \
  case llvm::Instruction::OPC:                                                                     \
    return Slot##OPC;
    SMARTCC_INSTCOUNT_OPCODES(SMARTCC_CASE)
#undef SMARTCC_CASE
  // LLVM 22 opcodes that did not exist in LLVM 10, folded into their closest LLVM 10 slot.
  case llvm::Instruction::PtrToAddr: // ptrtoint without capturing provenance
    return SlotPtrToInt;
  default:
    return NoSlot;
  }
}

// Every opcode of the Instruction.def we compile against needs a slot: a new opcode in a future
// LLVM must be decided on (fold or append) before this file compiles again.
#define HANDLE_INST(NUM, OPC, CLASS)                                                               \
  static_assert(slotFor(llvm::Instruction::OPC) != NoSlot,                                         \
                "LLVM opcode " #OPC " has no InstCount slot: fold it or append one");
#include "llvm/IR/Instruction.def"

} // namespace

const std::array<const char *, InstCountFeatures::Count> &InstCountFeatures::names() {
  static const std::array<const char *, Count> Names = {{
      "TotalInstsCount",
      "TotalBlocksCount",
      "TotalFuncsCount",
#define SMARTCC_NAME(OPC) #OPC "Count",
      SMARTCC_INSTCOUNT_OPCODES(SMARTCC_NAME)
#undef SMARTCC_NAME
  }};
  return Names;
}

size_t InstCountFeatures::slotOf(unsigned Opcode) { return slotFor(Opcode); }

InstCountVector computeInstCount(const llvm::Module &M) {
  InstCountVector V{};
  for (const llvm::Function &F : M) {
    ++V[InstCountFeatures::TotalFuncsIndex]; // declarations too, as CompilerGym counts them
    for (const llvm::BasicBlock &BB : F) {
      ++V[InstCountFeatures::TotalBlocksIndex];
      for (const llvm::Instruction &I : BB) {
        ++V[InstCountFeatures::TotalInstsIndex];
        size_t S = slotFor(I.getOpcode());
        if (S != NoSlot)
          ++V[S];
      }
    }
  }
  return V;
}

} // namespace smartcc
