// smartcc's own -flto links. When clang's driver links with lld and LTO at a size level
// (-Oz/-Os on the link command, lto_links on), clang's link runs first, unchanged: it is the
// baseline, byte for byte clang-22's. Then the link is repeated once per link candidate
// (config `link_candidates`, tables [link_candidate.NAME]: an LTO pipeline for lld's
// --lto-newpm-passes, -mllvm options, linker arguments), each a real link into a temporary
// file beside the output, in parallel; the smallest linked image that breaks no ship rule
// replaces clang's output. Any failure, timeout or tie keeps clang's link.
//
// Why lld's own options rather than LLVM's LTO library in-process: the candidates must be
// exactly the link clang would run with one thing changed (same inputs, archives, scripts,
// symbol resolution, ThinLTO caching), and lld is the only place that link exists; re-creating
// it in-process would be a second linker to keep byte-identical (docs/design.md, "LTO links").
#pragma once
#include "runtime/Config.h"
#include "clang/Driver/Compilation.h"
#include "llvm/ADT/StringRef.h"

namespace smartcc {

// Repeats clang's link of C with the link candidates when smartcc owns it (see above), after
// clang's link succeeded; BaselineMillis is how long that link took. Returns without doing
// anything for a link smartcc does not own.
void optimizeLTOLink(const clang::driver::Compilation &C, const Config &Cfg,
                     double BaselineMillis);

} // namespace smartcc
