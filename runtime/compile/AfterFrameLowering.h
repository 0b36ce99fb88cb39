// smartcc's x86-64 code-generation passes that run right after prologue/epilogue insertion
// (runtime/compile/UnwindAwareConstants.h, EpiloguePops.h): each is added, through LLVM's
// target pass-config callback, to every code-generation pipeline the process builds from then
// on, in the compiler and in lld's process (the LTO plugin).
#pragma once

namespace llvm {
class MachineFunctionPass;
}

namespace smartcc {

// Adds the pass Make builds to every x86-64 code-generation pipeline this process builds from
// now on, after prologue/epilogue insertion; once per Make, whatever the number of calls.
void insertAfterX86FrameLowering(llvm::MachineFunctionPass *(*Make)());

} // namespace smartcc
