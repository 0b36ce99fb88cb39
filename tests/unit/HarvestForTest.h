// Test helper: harvests one source file with the built smartcc (a real compile in harvest
// mode) and returns it as a benchmark, read back with the library's own corpus reader.
#pragma once
#include "policies/env/Corpus.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>
#include <string>

namespace smartcc::testing {

// Also compiles Source with real clang-22 -Oz into Reference when one is given.
// Level is the -O flag of both compiles.
inline Benchmark harvestForTest(const std::string &Source, const std::string &WorkDir,
                                const std::string &Reference = "",
                                const std::string &Level = "-Oz") {
  std::string Corpus = WorkDir + "/corpus-" + std::to_string(std::hash<std::string>()(Source + Level));
  std::string Smartcc = std::string(SMARTCC_TEST_BINARY_DIR) + "/bin/smartcc";
  std::string Out = WorkDir + "/harvested.o";
  std::vector<llvm::StringRef> Args{Smartcc, Level, "-c", Source, "-o", Out};
  std::string Harvest = "SMARTCC_HARVEST=" + Corpus;
  std::vector<llvm::StringRef> Env{Harvest, "SMARTCC_CANDIDATES=none", "PATH=/usr/bin:/bin"};
  EXPECT_EQ(llvm::sys::ExecuteAndWait(Smartcc, Args, Env), 0);
  if (!Reference.empty()) {
    std::vector<llvm::StringRef> Ref{"/usr/lib/llvm-22/bin/clang", Level, "-c", Source, "-o",
                                     Reference};
    EXPECT_EQ(llvm::sys::ExecuteAndWait(Ref[0], Ref), 0);
  }
  llvm::Expected<std::vector<CorpusModule>> Modules = readCorpus(Corpus, Level.substr(1));
  if (!Modules || Modules->size() != 1) {
    ADD_FAILURE() << "harvest of " << Source << " did not give one module"
                  << (Modules ? "" : ": " + llvm::toString(Modules.takeError()));
    return Benchmark();
  }
  Benchmark B = (*Modules)[0].Bench;
  B.Name = Source;
  return B;
}

} // namespace smartcc::testing
