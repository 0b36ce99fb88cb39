// Autophase features (see AutophaseFeatures.h; every definition and every LLVM 22 decision is
// documented in docs/features.md).
#include "policies/AutophaseFeatures.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace smartcc {
namespace {

using AF = AutophaseFeatures;

static_assert(AF::NumIndices == AF::Count, "index enum and feature count disagree");

// Integer-constant statistics of one value used by an instruction.
void countIntConstant(const Value *V, AutophaseVector &Out) {
  const auto *CI = dyn_cast<ConstantInt>(V);
  // Scalars only: LLVM 10 had no vector-typed ConstantInt, and LLVM 22 makes splats ConstantInts
  // only under an off-by-default option; a splat must not count either way.
  if (!CI || !CI->getType()->isIntegerTy())
    return;
  const APInt &Val = CI->getValue();
  if (Val.getBitWidth() == 32)
    ++Out[AF::const32Bit];
  else if (Val.getBitWidth() == 64)
    ++Out[AF::const64Bit];
  if (Val.isOne()) // i1 true counts as a one
    ++Out[AF::numConstOnes];
  else if (Val.isZero())
    ++Out[AF::numConstZeroes];
}

// The "unary" instructions of CompilerGym's testUnary, i.e. LLVM 10's UnaryInstruction class: fneg,
// alloca, load, va_arg, extractvalue and every cast. LLVM 22's UnaryInstruction also covers
// freeze, which LLVM 10's did not, so freeze is excluded to keep the LLVM 10 meaning.
bool isLLVM10Unary(const Instruction &I) {
  return isa<UnaryInstruction>(I) && !isa<FreezeInst>(I);
}

} // namespace

const std::array<const char *, AutophaseFeatures::Count> &AutophaseFeatures::names() {
  static const std::array<const char *, Count> Names = {{
      "BBNumArgsHi",   "BBNumArgsLo",    "onePred",         "onePredOneSuc",
      "onePredTwoSuc", "oneSuccessor",   "twoPred",         "twoPredOneSuc",
      "twoEach",       "twoSuccessor",   "morePreds",       "BB03Phi",
      "BBHiPhi",       "BBNoPhi",        "BeginPhi",        "BranchCount",
      "returnInt",     "CriticalCount",  "NumEdges",        "const32Bit",
      "const64Bit",    "numConstZeroes", "numConstOnes",    "UncondBranches",
      "binaryConstArg", "NumAShrInst",   "NumAddInst",      "NumAllocaInst",
      "NumAndInst",    "BlockMid",       "BlockLow",        "NumBitCastInst",
      "NumBrInst",     "NumCallInst",    "NumGetElementPtrInst", "NumICmpInst",
      "NumLShrInst",   "NumLoadInst",    "NumMulInst",      "NumOrInst",
      "NumPHIInst",    "NumRetInst",     "NumSExtInst",     "NumSelectInst",
      "NumShlInst",    "NumStoreInst",   "NumSubInst",      "NumTruncInst",
      "NumXorInst",    "NumZExtInst",    "TotalBlocks",     "TotalInsts",
      "TotalMemInst",  "TotalFuncs",     "ArgsPhi",         "testUnary",
  }};
  return Names;
}

AutophaseVector computeAutophase(const Module &M) {
  AutophaseVector Out{};
  std::array<int64_t, Instruction::OtherOpsEnd> PerOpcode{};
  DenseMap<const BasicBlock *, unsigned> PredCount;

  for (const Function &F : M) {
    ++Out[AF::TotalFuncs]; // every function, declarations included (CompilerGym's behaviour)
    if (F.empty())
      continue;

    // Predecessor counts, one edge per terminator use (a switch with two cases to the same block
    // contributes two), as llvm::pred_iterator and llvm::isCriticalEdge count them.
    PredCount.clear();
    for (const BasicBlock &BB : F)
      PredCount[&BB] = pred_size(&BB);

    for (const BasicBlock &BB : F) {
      ++Out[AF::TotalBlocks];

      // Control-flow shape of the block.
      const Instruction *Term = BB.getTerminator();
      const unsigned NumSucc = Term ? Term->getNumSuccessors() : 0;
      const unsigned NumPred = PredCount.lookup(&BB);
      Out[AF::NumEdges] += NumSucc;
      if (NumSucc > 1) {
        for (unsigned S = 0; S < NumSucc; ++S)
          if (PredCount.lookup(Term->getSuccessor(S)) > 1)
            ++Out[AF::CriticalCount];
      }
      if (NumSucc == 1)
        ++Out[AF::oneSuccessor];
      else if (NumSucc == 2)
        ++Out[AF::twoSuccessor];
      if (NumPred == 1)
        ++Out[AF::onePred];
      else if (NumPred == 2)
        ++Out[AF::twoPred];
      else if (NumPred > 2)
        ++Out[AF::morePreds];
      if (NumPred == 1 && NumSucc == 1)
        ++Out[AF::onePredOneSuc];
      else if (NumPred == 2 && NumSucc == 1)
        ++Out[AF::twoPredOneSuc];
      else if (NumPred == 1 && NumSucc == 2)
        ++Out[AF::onePredTwoSuc];
      else if (NumPred == 2 && NumSucc == 2)
        ++Out[AF::twoEach];

      // Instructions of the block.
      int64_t NumInsts = 0, NumPhis = 0, PhiArgs = 0;
      for (const Instruction &I : BB) {
        const bool IsFirst = NumInsts == 0;
        ++NumInsts;
        ++PerOpcode[I.getOpcode()];

        if (const auto *Br = dyn_cast<BranchInst>(&I)) {
          ++Out[AF::BranchCount];
          if (Br->isUnconditional())
            ++Out[AF::UncondBranches];
        }

        for (const Use &Op : I.operands())
          countIntConstant(Op.get(), Out);
        // LLVM 10 kept switch case values among the operands; LLVM 22 stores them apart.
        if (const auto *SI = dyn_cast<SwitchInst>(&I))
          for (const auto &Case : SI->cases())
            countIntConstant(Case.getCaseValue(), Out);

        if (const auto *Call = dyn_cast<CallInst>(&I))
          if (const Function *Callee = Call->getCalledFunction())
            if (Callee->getReturnType()->isIntegerTy())
              ++Out[AF::returnInt];

        if (isLLVM10Unary(I))
          ++Out[AF::testUnary];

        if (isa<BinaryOperator>(I) &&
            (isa<Constant>(I.getOperand(0)) || isa<Constant>(I.getOperand(1))))
          ++Out[AF::binaryConstArg];

        if (const auto *Phi = dyn_cast<PHINode>(&I)) {
          if (IsFirst)
            ++Out[AF::BeginPhi];
          ++NumPhis;
          PhiArgs += Phi->getNumIncomingValues();
        }
      }

      Out[AF::TotalInsts] += NumInsts;
      Out[AF::ArgsPhi] += PhiArgs;
      if (NumPhis == 0)
        ++Out[AF::BBNoPhi];
      else if (NumPhis <= 3)
        ++Out[AF::BB03Phi];
      else
        ++Out[AF::BBHiPhi];
      if (PhiArgs > 5)
        ++Out[AF::BBNumArgsHi];
      else if (PhiArgs >= 1)
        ++Out[AF::BBNumArgsLo];
      if (NumInsts < 15)
        ++Out[AF::BlockLow];
      else if (NumInsts <= 500)
        ++Out[AF::BlockMid];
    }
  }

  auto Count = [&](unsigned Opcode) { return PerOpcode[Opcode]; };
  Out[AF::NumAShrInst] = Count(Instruction::AShr);
  Out[AF::NumAddInst] = Count(Instruction::Add);
  Out[AF::NumAllocaInst] = Count(Instruction::Alloca);
  Out[AF::NumAndInst] = Count(Instruction::And);
  Out[AF::NumBitCastInst] = Count(Instruction::BitCast);
  Out[AF::NumBrInst] = Count(Instruction::Br);
  Out[AF::NumCallInst] = Count(Instruction::Call);
  Out[AF::NumGetElementPtrInst] = Count(Instruction::GetElementPtr);
  Out[AF::NumICmpInst] = Count(Instruction::ICmp);
  Out[AF::NumLShrInst] = Count(Instruction::LShr);
  Out[AF::NumLoadInst] = Count(Instruction::Load);
  Out[AF::NumMulInst] = Count(Instruction::Mul);
  Out[AF::NumOrInst] = Count(Instruction::Or);
  Out[AF::NumPHIInst] = Count(Instruction::PHI);
  Out[AF::NumRetInst] = Count(Instruction::Ret);
  Out[AF::NumSExtInst] = Count(Instruction::SExt);
  Out[AF::NumSelectInst] = Count(Instruction::Select);
  Out[AF::NumShlInst] = Count(Instruction::Shl);
  Out[AF::NumStoreInst] = Count(Instruction::Store);
  Out[AF::NumSubInst] = Count(Instruction::Sub);
  Out[AF::NumTruncInst] = Count(Instruction::Trunc);
  Out[AF::NumXorInst] = Count(Instruction::Xor);
  Out[AF::NumZExtInst] = Count(Instruction::ZExt);
  Out[AF::TotalMemInst] = Count(Instruction::GetElementPtr) + Count(Instruction::Load) +
                          Count(Instruction::Store) + Count(Instruction::Call) +
                          Count(Instruction::Invoke) + Count(Instruction::Alloca);
  return Out;
}

} // namespace smartcc
