// InstCount observation features: CompilerGym's "InstCount" observation, a 70-dimensional vector
// of TotalInsts, TotalBlocks, TotalFuncs and one count per instruction opcode of LLVM 10's
// Instruction.def, in that file's order. Names carry CompilerGym's InstCountDict "Count" suffix
// (TotalInstsCount, ..., RetCount, BrCount, ...). The LLVM 22 opcodes are mapped onto those 67
// opcode slots by name; the only LLVM 22 opcode without an LLVM 10 slot, ptrtoaddr, is folded into
// PtrToIntCount so that the dimension stays 70 (see docs/features.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace smartcc {

struct InstCountFeatures {
  // 3 totals + 67 opcode slots (LLVM 10's Instruction.def, UserOp1/UserOp2 included).
  static constexpr size_t Count = 70;
  // Indices of the totals; opcode slots follow from FirstOpcode on.
  static constexpr size_t TotalInstsIndex = 0;
  static constexpr size_t TotalBlocksIndex = 1;
  static constexpr size_t TotalFuncsIndex = 2;
  static constexpr size_t FirstOpcode = 3;

  static const std::array<const char *, Count> &names();

  // The vector slot that counts instructions with this LLVM 22 opcode
  // (llvm::Instruction::getOpcode()), or Count if the opcode has none (cannot happen for an
  // instruction of a valid LLVM 22 module: the mapping is checked exhaustively at compile time).
  static size_t slotOf(unsigned Opcode);
};

using InstCountVector = std::array<int64_t, InstCountFeatures::Count>;

// Counts every instruction, block and function (declarations included) of M.
InstCountVector computeInstCount(const llvm::Module &M);

} // namespace smartcc
