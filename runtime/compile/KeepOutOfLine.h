// Static functions called once, kept out of line where they are large.
//
// LLVM's inliner inlines a local function into its only caller whatever its size (the
// last-call bonus, 15,000 on x86-64 and AArch64, which no option sets): the copy it deletes is
// always counted as a saving. In a caller that grows by a large body, register pressure and
// callee-saved registers cost bytes the call did not; gcc -Os keeps such functions out of line
// (docs/results/gcc-study.md: serd's write_node, 2,009 bytes with write_uri_node inlined, against
// gcc's 1,209 + 719). Which way is smaller is measured, per translation unit or per link, like
// every candidate: this pass only makes the other way available.
//
//   smartcc-keep-out-of-line<N>   the one call site of each local function definition with one
//                                 use and at least N instructions gets `noinline` and the mark
//                                 KeptOutOfLineAttr (so a later pipeline can tell it from the
//                                 user's `noinline`)
//   smartcc-release-out-of-line   takes both from every marked call site: the inliner decides
//                                 them as it would have (a whole-program link re-deciding what
//                                 the compile kept)
#pragma once
#include "llvm/IR/PassManager.h"

namespace smartcc {

inline constexpr const char *KeptOutOfLineAttr = "smartcc-kept-out-of-line";

struct KeepOutOfLinePass : llvm::PassInfoMixin<KeepOutOfLinePass> {
  unsigned MinInstructions;
  explicit KeepOutOfLinePass(unsigned N) : MinInstructions(N) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

struct ReleaseOutOfLinePass : llvm::PassInfoMixin<ReleaseOutOfLinePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

// Parses the two pass names above into MPM; false if Name is neither.
bool parseOutOfLinePass(llvm::StringRef Name, llvm::ModulePassManager &MPM);

} // namespace smartcc
