// smartcc's own -flto links. When clang's driver links with lld and LTO at a size level
// (-Oz/-Os on the link command, lto_links on), clang's link runs unchanged: it is the
// baseline, byte for byte clang-22's. The link is repeated once per link candidate
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
#include "runtime/config/Config.h"
#include "runtime/link/LoaderView.h"
#include "clang/Driver/Compilation.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>

namespace smartcc {

struct OwnedLTOLink;

// An owned link in progress: candidates may be running. Destroying it stops them and removes
// their temporary outputs.
struct LTOLinkHandle {
  std::unique_ptr<OwnedLTOLink> L;
  LTOLinkHandle();
  LTOLinkHandle(LTOLinkHandle &&);
  LTOLinkHandle &operator=(LTOLinkHandle &&);
  ~LTOLinkHandle();
};

// Before clang's jobs run: whether smartcc owns C's link (see above, and for plain links
// driver/WholeProgramLink.h; Argv: the command line C was built from); if so, its candidates
// are prepared and, when the command only links, the first ones start beside clang's link.
LTOLinkHandle beginLTOLink(const clang::driver::Compilation &C, const Config &Cfg,
                           llvm::ArrayRef<const char *> Argv);

// What became of C's link.
struct LTOLinkResult {
  bool Owned = false; // smartcc owned it (an -flto link, or a plain link made whole-program)
  // A whole-program link: the loader's view of the user's own link, against which the per-TU
  // links that may still replace the output are judged (driver/PerTULink.h).
  std::optional<LoaderView> UserView;
};

// After clang's jobs: when they succeeded, measures clang's link (BaselineMillis is how long
// the command took), runs the remaining candidates within link_time and ships the smallest;
// when they failed, stops the candidates. Nothing for a link smartcc does not own.
LTOLinkResult finishLTOLink(LTOLinkHandle H, bool Succeeded, double BaselineMillis);

} // namespace smartcc
