// Code generation options for size that clang's -Oz leaves at LLVM's defaults (x86-64, AArch64).
//
// - no machine block placement: its layout for branch probabilities breaks fall-throughs into
//   jumps; the IR's order is smaller more often;
// - no loop strength reduction: it trades address arithmetic for more induction variables,
//   live across the loop, and longer addressing;
// - greedy's spill splitting in its size mode;
// - tail merging from two common instructions (three by default);
// - no machine loop-invariant code motion: hoisting an invariant out of a loop saves no byte
//   and keeps its register live across the loop, where it may be spilled;
// - no splitting of critical edges for PHI elimination (the copies go into the predecessor
//   instead of a new block and its jump);
// - interprocedural register allocation, only across calls that bind locally and not where
//   function entries are patched (the candidate process sets the guard:
//   runtime/compile/LocalCallRegisters.h);
// - on x86-64, epilogues that free the stack's alignment slot by a pop into a dead register
//   (a function attribute, not an option: runtime/compile/EpiloguePops.h).
//
// Measured on 300 x86-64 TUs of the training packages (`smartcc-eval --objective shipped`,
// 2026-11-29): the late outliner without jump tables ships 1.0244 never-worse geomean against
// clang -Oz with them (181 TUs smaller, 38 larger), 1.0053 without; before the last two
// options 1.0157. On 300 AArch64 training TUs clang's optimized module code-generated with
// them ships 1.0167 (177 smaller, 40 larger; without IPRA 1.0143). At links the same options lead
// x86-64's link list and AArch64's (policies/candidates.toml). A candidate still ships only when
// strictly smaller.
#pragma once
#include "llvm/IR/PassManager.h"
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace smartcc {

// Whether M has landing pads (a function with a personality: C++ exceptions), where machine
// block placement stays on (below).
bool hasLandingPads(const llvm::Module &M);

// The options, as -mllvm settings. KeepBlockPlacement: for a module with landing pads (C++
// exceptions), where block placement moves the pads and their cold paths out of the way:
// without it jsoncpp's json_value.cpp, json_writer.cpp and jsontest.cpp were 0.4-0.8 % larger
// (the late outliner without jump tables; the other options left them equal or smaller).
inline std::vector<std::string> sizeCodegenLLVMArgs(bool KeepBlockPlacement) {
  std::vector<std::string> Args = {"-disable-lsr",          "-split-spill-mode=size",
                                   "-tail-merge-size=2",    "-enable-ipra",
                                   "-disable-machine-licm", "-disable-phi-elim-edge-splitting"};
  if (!KeepBlockPlacement)
    Args.insert(Args.begin(), "-disable-block-placement");
  return Args;
}

// The link plugin's smartcc-size-block-placement: machine block placement off for the link's
// code generation unless the merged module has landing pads (what -disable-block-placement
// in a link candidate's llvm_args would do for every program). It sets LLVM's option in lld's
// process, where the code generation that follows the LTO pipeline reads it (and the
// allocators' planning code generations after it in the pipeline); on jsoncpp's shared library
// the first link candidate was 498 bytes smaller with placement kept.
inline constexpr const char *SizeBlockPlacementPassName = "smartcc-size-block-placement";
struct SizeBlockPlacementPass : llvm::PassInfoMixin<SizeBlockPlacementPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace smartcc
