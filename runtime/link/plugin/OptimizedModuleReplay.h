// Replaying a full-LTO link's optimized program instead of optimizing it again.
//
// A full-LTO link spends about half its time in LTO's middle-end (brotli's program: 1.3 s of
// 2.7 s) and the rest in code generation. Most link candidates change only what comes after
// the middle-end (code-generation options such as the machine outliner, a pass appended to
// LTO's pipeline, linker options), so each of them would redo the same middle-end. smartcc
// links the program once more as clang does but with lld's --lto-emit-llvm (LTO's own
// pipeline, no code generation), the plugin saving the module at the end of that pipeline
// (SaveOptimizedEnv names the file), and such a candidate's link runs
// `smartcc-replay-optimized<PATH>` as its first pass: the merged module lld built is replaced,
// in place, by the saved one, and only the candidate's own passes and code generation follow.
// Nothing is re-linked: the globals move into lld's module in their order, so replaying with
// nothing after it generates clang's link byte for byte (tested). The plugin writes the file
// itself, not lld's --lto-emit-llvm output, because that one drops the order of use lists,
// which code generation follows: brotli's replayed program came out 64 bytes different.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
}

namespace smartcc {

// The environment variable that makes the plugin save the module at the end of LTO's default
// pipeline (lld's own, as in clang's link), and where.
constexpr const char *SaveOptimizedEnv = "SMARTCC_LTO_SAVE_OPTIMIZED";

// Writes M as bitcode to Path, use-list order kept.
llvm::Error saveOptimizedModule(const llvm::Module &M, llvm::StringRef Path);

struct SaveOptimizedModulePass : llvm::PassInfoMixin<SaveOptimizedModulePass> {
  std::string Path;
  explicit SaveOptimizedModulePass(llvm::StringRef P) : Path(P.str()) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

// Replaces M's contents with the bitcode module in Path (read into M's context). Fails,
// leaving M as it was, when Path is unreadable or holds another program: a different target
// or data layout, or one of M's externally visible definitions missing from it.
llvm::Error replayOptimizedModule(llvm::Module &M, llvm::StringRef Path);

struct ReplayOptimizedModulePass : llvm::PassInfoMixin<ReplayOptimizedModulePass> {
  std::string Path;
  explicit ReplayOptimizedModulePass(llvm::StringRef P) : Path(P.str()) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace smartcc
