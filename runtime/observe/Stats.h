// ccache-style counters, kept in one small file under the stats directory and updated under an
// exclusive lock, so that parallel compiles (make -j) never lose an update.
//
// Counter names are dotted paths; the first component is the group shown by --smartcc-stats:
//   tu.optimized                 translation units smartcc took over
//   tu.won                       ... where a candidate was strictly smaller and shipped
//   tu.kept.<reason>             ... where the baseline (clang's own output) shipped, by reason
//   bytes.baseline / bytes.shipped / bytes.saved   summed over optimized TUs, in the metric's unit
//   candidate.evaluated          candidates measured
//   candidate.discarded.<reason> candidates thrown away (crash, timeout, verifier, growth, ...)
//   passthrough.<reason>         compile jobs left to clang untouched, by reason
//   error.<reason>               smartcc's own failures that fell back to clang
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <map>
#include <string>

namespace smartcc {

using Counters = std::map<std::string, int64_t>;

class StatsStore {
public:
  explicit StatsStore(std::string Dir) : Dir(std::move(Dir)) {}
  // Adds Delta to the stored counters (creating the directory and file as needed).
  llvm::Error add(const Counters &Delta);
  llvm::Expected<Counters> read() const;
  // Sets every counter to zero and records the time of zeroing.
  llvm::Error zero();
  const std::string &dir() const { return Dir; }
  std::string filePath() const; // Dir + "/stats"

private:
  std::string Dir;
};

// Human-readable table, in the spirit of `ccache -s`.
void printStats(const Counters &C, const std::string &StatsFile, llvm::raw_ostream &OS);
// One JSON object with every counter, for scripts.
void printStatsJSON(const Counters &C, llvm::raw_ostream &OS);

} // namespace smartcc
