// Epilogues that free the stack's alignment slot with a pop (x86-64).
//
// A function that calls and saves an odd number of callee-saved registers keeps 8 more bytes
// of stack to align its calls: at -Oz the prologue takes them with `push %rax` (1 byte), but
// the epilogue gives them back with `add $8, %rsp` (4 bytes) whenever callee-saved registers
// are popped after it, because LLVM looks for a dead register to pop into only at the return
// itself (X86FrameLowering's emitSPUpdate, findDeadCallerSavedReg), not at the first of those
// pops. gcc -Os pops into a dead register (`popq %rdx`). This code-generation pass, after
// prologue/epilogue insertion, replaces such an `add $8, %rsp` by a pop into a caller-saved
// register that nothing after it reads: 3 bytes per epilogue, the same stack pointer at every
// instruction, so the unwind entry stays as it was. It runs in functions that carry the
// attribute `smartcc-epilogue-pops` (candidates set it with the code generation options for
// size, runtime/compile/SizeCodegen.h); clang's own output is left as LLVM builds it.
#pragma once

namespace smartcc {

inline constexpr const char *EpiloguePopsAttr = "smartcc-epilogue-pops";

// Adds the pass to every code-generation pipeline this process builds from now on (once; a
// no-op for targets other than x86-64).
void registerEpiloguePops();

} // namespace smartcc
