// Code generation's half of the shared unwind entry (runtime/compile/SharedUnwind.h): which
// functions the run holds is decided on their machine instructions.
//
// The IR pass puts every function that might be frameless (cannot throw, no call that is not a
// tail call, free to move) between the two marker functions at the end of the module, and
// changes nothing else: each is generated exactly as in clang's link, with its unwind table.
// Two passes of this file then run in each code generation pipeline of a link that names
// `smartcc-shared-unwind` (lld loads the plugin; the plugin asks for them through
// llvm/Target/RegisterTargetPassConfigCallback.h), and of a per-TU candidate with
// CandidateSpec::SharedUnwind (its process asks for them):
//   - Members, after the last machine pass before the machine outliner (in every pipeline):
//     a function of the run whose machine code is frameless (no CFI instruction, no write to
//     the stack pointer, the return-address register or a callee-saved register; x86-64's
//     calls and returns put RSP back; one register list with the output check,
//     runtime/compile/FramelessRegisters.h) stays, goes into the shared section and loses its own
//     unwind table entry; any other moves before the begin marker and keeps its own, as in
//     clang's link. (Given a list, runtime/compile/SharedUnwind.h's <PATH> form, the listed
//     functions stay unread: how the lit tests show the output check refusing a wrong run.)
//   - Outlined, right after the machine outliner where it runs: the machine outliner makes
//     its functions after every IR pass and appends them after the end marker, each with an
//     FDE of its own (on AArch64 50-75 % of an LTO link's frameless FDEs). Each one frameless
//     by the same test moves into the run, except a thunk (it ends in a tail call, so it may
//     throw) that a function with a personality routine calls: a member of the run must be
//     nounwind, and a caller's call-site table leaves out its calls of nounwind functions, so
//     an exception thrown through such a call would end in std::terminate(). A run left
//     empty loses its markers' directives, so that it costs no entry at all; in a pipeline
//     without the outliner (a per-TU candidate on x86-64 outlines only when asked) Members
//     does that.
// Since nothing waits for clang's link to name the frameless functions, a shared-unwind
// candidate starts at once, beside clang's link. The driver's check of the linked output
// (runtime/link/UnwindSharing.h) decides, not these passes' reading of the machine code.
#pragma once

namespace smartcc {

// Asks every code generation pipeline created from now on in this process to run the two
// passes (pipelines without the machine outliner get Members only). Once per process.
void registerSharedUnwindCodegenPasses();

} // namespace smartcc
