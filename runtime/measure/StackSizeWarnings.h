// -Wframe-larger-than=N (CodeGenOptions::WarnStackSize): the backend warns for each function
// whose stack frame exceeds N bytes, naming the function and its frame size. Clang's compile
// prints its warnings; a candidate's code generation would print others. So that what the
// user reads describes the object that ships, a candidate ships only if its warnings are
// clang's: the same functions with the same frame sizes (usually none: the Linux kernel
// compiles everything with -Wframe-larger-than=2048, and a clean build warns nowhere).
#pragma once
#include "llvm/IR/DiagnosticHandler.h"
#include <cstdint>
#include <memory>

namespace llvm {
class DiagnosticInfo;
class LLVMContext;
} // namespace llvm

namespace smartcc {

// The stack-size warnings of one code generation, as a count and an order-independent digest
// of (function, frame size) pairs: plain data, so a candidate process can hand it back.
struct StackSizeWarnings {
  uint32_t Count = 0;
  uint64_t Digest = 0;
  // Adds DI if it is a stack-size warning (DK_StackSize); returns whether it was one.
  bool add(const llvm::DiagnosticInfo &DI);
  bool operator==(const StackSizeWarnings &O) const {
    return Count == O.Count && Digest == O.Digest;
  }
};

// Records the stack-size warnings of clang's own compile into Warnings from now until the
// context is destroyed (it shares Warnings), passing every diagnostic on to the handler that was installed (clang's,
// which prints them). Ctx's handler must not be replaced afterwards.
void recordStackSizeWarnings(llvm::LLVMContext &Ctx, std::shared_ptr<StackSizeWarnings> Warnings);

} // namespace smartcc
