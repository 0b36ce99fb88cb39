// Autophase observation features: 56 integer counts per LLVM module, with the names, order and
// definitions of CompilerGym's "Autophase" observation space (the feature set of AutoPhase:
// Huang et al., FCCM 2019; Haj-Ali et al., MLSys 2020; as used by CodeZero and CompilerDream). This is an
// independent implementation against the LLVM 22 API; docs/features.md lists every feature with
// its definition and the places where LLVM 22 forced (or we chose) a deviation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace smartcc {

struct AutophaseFeatures {
  static constexpr size_t Count = 56;

  // Index of each feature in the vector returned by computeAutophase (CompilerGym order).
  enum Index : size_t {
    BBNumArgsHi,
    BBNumArgsLo,
    onePred,
    onePredOneSuc,
    onePredTwoSuc,
    oneSuccessor,
    twoPred,
    twoPredOneSuc,
    twoEach,
    twoSuccessor,
    morePreds,
    BB03Phi,
    BBHiPhi,
    BBNoPhi,
    BeginPhi,
    BranchCount,
    returnInt,
    CriticalCount,
    NumEdges,
    const32Bit,
    const64Bit,
    numConstZeroes,
    numConstOnes,
    UncondBranches,
    binaryConstArg,
    NumAShrInst,
    NumAddInst,
    NumAllocaInst,
    NumAndInst,
    BlockMid,
    BlockLow,
    NumBitCastInst,
    NumBrInst,
    NumCallInst,
    NumGetElementPtrInst,
    NumICmpInst,
    NumLShrInst,
    NumLoadInst,
    NumMulInst,
    NumOrInst,
    NumPHIInst,
    NumRetInst,
    NumSExtInst,
    NumSelectInst,
    NumShlInst,
    NumStoreInst,
    NumSubInst,
    NumTruncInst,
    NumXorInst,
    NumZExtInst,
    TotalBlocks,
    TotalInsts,
    TotalMemInst,
    TotalFuncs,
    ArgsPhi,
    testUnary,
    NumIndices // == Count
  };

  // Feature names, index-aligned with the vector (identical to CompilerGym's
  // AUTOPHASE_FEATURE_NAMES).
  static const std::array<const char *, Count> &names();
};

using AutophaseVector = std::array<int64_t, AutophaseFeatures::Count>;

// Computes the 56 features of every function (definitions and declarations) of M in one walk over
// the IR. Deterministic: depends only on M's contents and order.
AutophaseVector computeAutophase(const llvm::Module &M);

} // namespace smartcc
