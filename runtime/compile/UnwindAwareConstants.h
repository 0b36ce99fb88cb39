// Unwind-aware constants (x86-64): at -Oz, LLVM materializes a small constant as
// `push $imm8; pop %reg` (3-4 bytes instead of mov's 5-7), and in a function without a frame
// pointer whose unwind tables are emitted each such pair needs two CFA adjustments in
// .eh_frame (about 6 bytes: an advance and a def_cfa_offset each). There the pair costs more
// image bytes than the mov it replaces (bzip2's compress.c: 36 such constants, 71 of the
// file's 117 CFI directives). This code-generation pass, after prologue/epilogue insertion and
// before the pseudos are expanded, turns those constants into movs in the functions that
// carry the function attribute `smartcc-unwind-constants` (candidates set it; see
// policies/candidates.toml), and leaves every other function, clang's own output included,
// as LLVM would build it.
#pragma once

namespace smartcc {

// The function attribute that asks for the pass.
inline constexpr const char *UnwindConstantsAttr = "smartcc-unwind-constants";
// The candidate of policies/candidates.toml that is clang's optimized module with the pass.
inline constexpr const char *UnwindConstantsCandidate = "oz-late-unwind-constants";

// The code bytes the pass added in this process since the last call (and resets the count):
// each constant's mov is 2 bytes longer than the push/pop pair (a negative 64-bit one 3-4),
// for 6 bytes of .eh_frame it saves, plus 4 per function it changed for a branch the growth
// may have pushed out of 8-bit reach (an estimate: the pass runs before layout).
unsigned long long takeUnwindConstantsCodeBytes();

// In a link's code generation (lld with smartcc's LTO plugin), the process is lld's: each
// module's added code bytes are appended, one number per line, to the file this variable names
// when it is set, which smartcc does for its own link candidates only (driver/LTOLink.cpp), so
// that the code-for-unwind rule can leave them out of a link's code too.
inline constexpr const char *UnwindTradeFileEnv = "SMARTCC_UNWIND_TRADE_FILE";

// While one lives, the code generations this thread runs report nothing to that file: they are
// not the link's (the link allocators' planning copies, runtime/link/plugin/LinkAllocators.h).
class ScopedUnwindTradeSilence {
public:
  ScopedUnwindTradeSilence();
  ~ScopedUnwindTradeSilence();
};

// Adds the pass to every code-generation pipeline this process builds from now on (once; a
// no-op for targets other than x86).
void registerUnwindAwareConstants();

} // namespace smartcc
