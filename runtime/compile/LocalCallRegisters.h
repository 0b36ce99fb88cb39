// Interprocedural register allocation limited to calls that bind locally.
//
// With LLVM's -enable-ipra a function's code generation records which registers its machine
// code clobbers, and a caller code-generated after it keeps values across the call in the
// registers the callee leaves alone (and a static function not taking its address saves no
// callee-saved registers its callers do not need). Fewer saves, restores and spills: serd's
// shared library was 0.46 % smaller at the link.
//
// But LLVM applies a callee's registers at every direct call to a definition it deems exact,
// and without -fsemantic-interposition it deems every strong definition exact, including a
// default-visibility function of a shared library called through its PLT. There the call may
// reach another definition (ELF interposition: an earlier library or LD_PRELOAD defines the
// symbol too), or the lazy-binding resolver first, which on x86-64 clobbers %r10 and %r11: a
// caller that kept a value there across the call breaks. (clang-22 -Oz -fPIC -mllvm
// -enable-ipra keeps values in %r10/%r11 across `callq g@PLT`.)
//
// So where smartcc turns IPRA on it first sets the module's "SemanticInterposition" flag: LLVM
// then deems interposable every definition that neither has local linkage nor is dso_local
// (what binds locally: a static function, any function of an executable, a hidden one), and
// leaves calls to those to the calling convention. It is set after the module's optimization,
// just before code generation, where IPRA's propagation is the flag's one reader: without
// -enable-ipra the objects are byte for byte the same (tested).
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace llvm {
class Module;
}

namespace smartcc {

// The pass's name in the link plugin's pipelines (runtime/link/plugin/LTOPassPlugin.cpp).
inline constexpr const char *IPRALocalCallsPassName = "smartcc-ipra-local-calls";

// Whether M's functions have entries that are patched or called into behind the compiler's
// back: -pg/-mfentry (mcount, __fentry__: ftrace), -fpatchable-function-entry (arm64's ftrace,
// live patching). Such a call may clobber what IPRA saw the function leave alone; gcc turns
// its -fipa-ra off under -pg for the same reason.
bool hasPatchableEntries(const llvm::Module &M);

// Sets M's "SemanticInterposition" module flag to 1 (replacing a 0 from
// -fno-semantic-interposition), and turns IPRA off in this process when M has patchable
// entries (above). Returns whether it changed anything.
bool limitIPRAToLocalCalls(llvm::Module &M);

// Whether these -mllvm settings leave IPRA on (-enable-ipra, -enable-ipra=true; the last
// setting wins): a link candidate's llvm_args, which lld's process reads.
bool enablesIPRA(llvm::ArrayRef<std::string> LLVMArgs);

// Whether this process's code generation will run IPRA: -enable-ipra as set by every -mllvm
// source so far (the user's, a candidate's). A candidate process asks before its code
// generation.
bool ipraEnabledInProcess();

// The same as a pass (the link plugin's smartcc-ipra-local-calls).
struct IPRALocalCallsPass : llvm::PassInfoMixin<IPRALocalCallsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace smartcc
