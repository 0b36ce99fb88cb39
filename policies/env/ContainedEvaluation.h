// Objective evaluations in forked children, for searches (random, greedy, core set).
//
// Why: a search plays thousands of pass orders nobody has tried, and some of them crash LLVM
// (a fatal "does not preserve MemorySSA", a segfault in the register coalescer on the IR they
// leave) or never finish. In-process, one such sequence killed the whole module's evaluation,
// and a resumed study retried it forever. Here the bad sequence is rejected, and the search
// goes on.
//
// Why batches: forking costs milliseconds of page-table copying, more than a small module's
// pass and codegen. So one child evaluates a whole batch (a random search's trials, a greedy
// step's actions) in order, streaming each value back, with the environment's state cache
// warm across the batch. Only when a child dies or hangs is a new one forked, for the rest of
// the batch after the item that killed it. The child starts from the parent's memory as it
// was at the fork; what it learns (cached states) is lost with it.
#pragma once
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smartcc {

struct ContainedResult {
  std::optional<uint64_t> Value; // absent: the item failed
  std::string Error;             // then how: "signal 11", "timed out after 120 s", "exit 1",
                                 // or the item's own error message
};

// Evaluates Work(0) .. Work(N - 1) in child processes, at most TimeoutMs per item. The
// children's stderr is silenced: LLVM's crash reports for rejected items would bury the
// progress output, and the result says what happened.
std::vector<ContainedResult>
evaluateContained(size_t N, llvm::function_ref<llvm::Expected<uint64_t>(size_t)> Work,
                  unsigned TimeoutMs);

// One piece of work whose result is a line of text (a JSON row, say), in a child process by
// the same mechanism. Died tells a child that died or hung ("signal 11", "exit 1", "timed out
// after N s") from the work's own error. Newlines in the text come back as spaces.
struct ContainedText {
  std::optional<std::string> Text;
  std::string Error;
  bool Died = false;
};
ContainedText runContained(llvm::function_ref<llvm::Expected<std::string>()> Work,
                           unsigned TimeoutMs, bool SilenceStderr);

} // namespace smartcc
