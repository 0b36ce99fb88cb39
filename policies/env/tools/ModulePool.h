// Runs one function per module in forked processes, `Jobs` at a time, skipping modules whose
// result file is complete (by default: exists; so long sweeps resume), printing progress with
// an ETA.
// A module whose process crashes costs that module only.
#pragma once
#include "policies/env/Corpus.h"
#include <functional>
#include <string>
#include <vector>

namespace smartcc {

struct PoolSummary {
  size_t Done = 0, Resumed = 0, Crashed = 0;
};

// Work(module, result path) runs in the child and returns its exit status; it must write the
// result file only when complete (write a temporary, then rename).
PoolSummary runPerModule(const std::vector<CorpusModule> &Modules, const std::string &ResultDir,
                         unsigned Jobs,
                         const std::function<int(const CorpusModule &, const std::string &)> &Work,
                         const std::function<bool(const std::string &)> &Complete = nullptr);

std::string resultPath(const std::string &ResultDir, const CorpusModule &C);

} // namespace smartcc
