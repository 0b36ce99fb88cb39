// The machine outliner's functions in the shared unwind run (code generation's half of
// runtime/lto/SharedUnwind.h).
//
// The machine outliner makes its functions during code generation, after every IR pass: the
// IR pass cannot name them, and they land after the run's end marker, each with an FDE of its
// own. On AArch64 they are 50-75 % of the frameless FDEs of an LTO link at -Oz (the outliner
// is on there by default), so most of what the shared entry could save was left.
//
// This pass runs right after the machine outliner (lld loads the plugin; the plugin asks every
// code generation pipeline of the process to insert it, llvm/Target/
// RegisterTargetPassConfigCallback.h). In a module that has a shared run (its two markers), it
// moves every outlined function that is frameless by its machine instructions (no CFI, no write
// to the stack pointer, the return-address register or a callee-saved register; x86-64's calls
// and returns put RSP back) into the run: into the shared section, before the end marker in the
// module's list (code generation emits functions in that order), without an unwind table entry
// of its own. Its instructions are then described by the shared entry, as the CIE's rule in its
// own entry described them before. Outlined functions with a frame keep their entry. As for the
// IR pass, the driver's check of the linked output (runtime/UnwindSharing.h) decides, not this
// pass's reading of the machine code.
#pragma once

namespace llvm {
class ModulePass;
}

namespace smartcc {

// The pass, for a code generation pipeline (legacy pass manager: LLVM 22's code generation).
llvm::ModulePass *createSharedUnwindOutlinedPass();

// Asks every code generation pipeline created from now on in this process to run the pass
// right after the machine outliner (pipelines without the outliner do not get it). Once.
void registerSharedUnwindOutlinedPass();

} // namespace smartcc
