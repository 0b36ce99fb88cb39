// Tests for runtime/observe/Stats: file format, locking under concurrent processes, and both printers.
#include "runtime/observe/Stats.h"
#include "runtime/config/BuildProbe.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <ctime>
#include <sys/wait.h>
#include <unistd.h>

using namespace smartcc;

namespace {

// A fresh directory per test, removed afterwards so runs do not see each other's counters.
class StatsTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> P;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("smartcc-stats-test", P));
    Root = std::string(P);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  // Store in a not yet existing subdirectory, so add() must create it.
  std::string storeDir() const { return Root + "/a/b"; }

  static void writeFile(const std::string &Path, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  static std::string slurp(const std::string &Path) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    return Buf ? (*Buf)->getBuffer().str() : std::string("<missing>");
  }

  static Counters readOk(const StatsStore &S) {
    llvm::Expected<Counters> C = S.read();
    if (!C) {
      ADD_FAILURE() << llvm::toString(C.takeError());
      return {};
    }
    return *C;
  }

  std::string Root;
};

std::string render(const Counters &C) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printStats(C, "/tmp/x/stats", OS);
  return Out;
}

} // namespace

TEST_F(StatsTest, FilePathIsDirSlashStats) {
  EXPECT_EQ(StatsStore("/some/dir").filePath(), "/some/dir/stats");
  EXPECT_EQ(StatsStore("/some/dir").dir(), "/some/dir");
}

TEST_F(StatsTest, MissingFileReadsAsEmpty) {
  StatsStore S(storeDir());
  llvm::Expected<Counters> C = S.read();
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_TRUE(C->empty());
}

TEST_F(StatsTest, AddThenReadRoundTripsAndWritesSortedLines) {
  StatsStore S(storeDir());
  ASSERT_FALSE(bool(S.add({{"tu.optimized", 3}, {"bytes.saved", -7}, {"error.io", 1}})));
  Counters Expected{{"bytes.saved", -7}, {"error.io", 1}, {"tu.optimized", 3}};
  EXPECT_EQ(readOk(S), Expected);
  EXPECT_EQ(slurp(S.filePath()), "bytes.saved -7\nerror.io 1\ntu.optimized 3\n");
  // The scratch file was renamed away, not left behind.
  EXPECT_FALSE(llvm::sys::fs::exists(storeDir() + "/stats.tmp"));
  EXPECT_TRUE(llvm::sys::fs::exists(storeDir() + "/stats.lock"));
}

// Probes the launcher passed to clang are one byte each in the probe file; they count as
// passthrough.build_probe beside the ones the core passed through, and zeroing clears both.
TEST_F(StatsTest, LauncherProbesCountAsBuildProbes) {
  StatsStore S(storeDir());
  ASSERT_FALSE(bool(S.add({{"passthrough.build_probe", 2}})));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(storeDir() + "/" + BuildProbeCountFile, EC);
    ASSERT_FALSE(EC);
    OS << "ppp";
  }
  EXPECT_EQ(readOk(S).at("passthrough.build_probe"), 5);
  ASSERT_FALSE(bool(S.zero()));
  EXPECT_EQ(readOk(S).count("passthrough.build_probe"), 0u);
}

TEST_F(StatsTest, AddAccumulates) {
  StatsStore S(storeDir());
  ASSERT_FALSE(bool(S.add({{"tu.optimized", 1}, {"tu.won", 1}})));
  ASSERT_FALSE(bool(S.add({{"tu.optimized", 2}, {"tu.kept.no_candidate_smaller", 1}})));
  ASSERT_FALSE(bool(S.add({})));
  Counters Expected{{"tu.optimized", 3}, {"tu.won", 1}, {"tu.kept.no_candidate_smaller", 1}};
  EXPECT_EQ(readOk(S), Expected);
}

TEST_F(StatsTest, AddSaturatesInsteadOfWrapping) {
  StatsStore S(storeDir());
  ASSERT_FALSE(bool(S.add({{"bytes.baseline", INT64_MAX - 1}})));
  ASSERT_FALSE(bool(S.add({{"bytes.baseline", 5}})));
  EXPECT_EQ(readOk(S).at("bytes.baseline"), INT64_MAX);
}

TEST_F(StatsTest, ZeroClearsCountersAndRecordsTime) {
  StatsStore S(storeDir());
  ASSERT_FALSE(bool(S.add({{"tu.optimized", 5}, {"candidate.evaluated", 9}})));
  int64_t Before = std::time(nullptr);
  ASSERT_FALSE(bool(S.zero()));
  int64_t After = std::time(nullptr);
  Counters C = readOk(S);
  ASSERT_EQ(C.size(), 1u);
  ASSERT_EQ(C.count("zeroed_at"), 1u);
  EXPECT_GE(C["zeroed_at"], Before);
  EXPECT_LE(C["zeroed_at"], After);
  EXPECT_EQ(slurp(S.filePath()), "zeroed_at " + std::to_string(C["zeroed_at"]) + "\n");
  // Counting resumes from zero and the zeroing time is kept.
  ASSERT_FALSE(bool(S.add({{"tu.optimized", 2}})));
  Counters After2 = readOk(S);
  EXPECT_EQ(After2.at("tu.optimized"), 2);
  EXPECT_EQ(After2.at("zeroed_at"), C["zeroed_at"]);
}

TEST_F(StatsTest, ZeroCreatesDirectory) {
  StatsStore S(storeDir());
  ASSERT_FALSE(bool(S.zero()));
  EXPECT_TRUE(llvm::sys::fs::exists(S.filePath()));
}

TEST_F(StatsTest, DamagedLinesAreSkipped) {
  StatsStore S(Root);
  writeFile(S.filePath(), "tu.optimized 4\n"
                          "garbage\n"
                          "tu.won x12\n"
                          "tu.kept.timeout 1 2\n"
                          "bytes.saved 99999999999999999999999\n"
                          "\n"
                          "   \n"
                          "candidate.evaluated   7  \n"
                          "error.io 2"); // no final newline: truncated write
  Counters Expected{{"tu.optimized", 4}, {"candidate.evaluated", 7}, {"error.io", 2}};
  EXPECT_EQ(readOk(S), Expected);
  // add() keeps the good lines, and rewrites the file clean.
  ASSERT_FALSE(bool(S.add({{"tu.optimized", 1}})));
  EXPECT_EQ(slurp(S.filePath()), "candidate.evaluated 7\nerror.io 2\ntu.optimized 5\n");
}

TEST_F(StatsTest, BinaryGarbageDoesNotCrash) {
  StatsStore S(Root);
  std::string Junk;
  for (int I = 0; I < 4096; ++I)
    Junk += char((I * 37) & 0xff);
  writeFile(S.filePath(), Junk + "\ntu.won 3\n");
  EXPECT_EQ(readOk(S), (Counters{{"tu.won", 3}}));
}

TEST_F(StatsTest, InvalidNameIsAnErrorAndWritesNothing) {
  StatsStore S(storeDir());
  ASSERT_FALSE(bool(S.add({{"tu.optimized", 1}})));
  for (const char *Bad : {"", "has space", "new\nline"}) {
    llvm::Error E = S.add({{"tu.optimized", 1}, {Bad, 1}});
    EXPECT_TRUE(bool(E)) << "name '" << Bad << "'";
    llvm::consumeError(std::move(E));
  }
  EXPECT_EQ(readOk(S), (Counters{{"tu.optimized", 1}}));
}

TEST_F(StatsTest, UnusableDirectoryIsAnErrorNotACrash) {
  std::string File = Root + "/file";
  writeFile(File, "x");
  StatsStore S(File + "/sub"); // a directory cannot be created below a regular file
  llvm::Error E = S.add({{"tu.optimized", 1}});
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  E = S.zero();
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
}

TEST_F(StatsTest, ConcurrentProcessesLoseNoUpdate) {
  constexpr int Children = 8, PerChild = 50;
  StatsStore S(storeDir());
  std::vector<pid_t> Pids;
  for (int I = 0; I < Children; ++I) {
    pid_t Pid = fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      int Failures = 0;
      for (int J = 0; J < PerChild; ++J)
        if (llvm::Error E = S.add({{"tu.optimized", 1}, {"bytes.baseline", 10}})) {
          llvm::consumeError(std::move(E));
          ++Failures;
        }
      _exit(Failures == 0 ? 0 : 1); // no gtest teardown in the child
    }
    Pids.push_back(Pid);
  }
  for (pid_t Pid : Pids) {
    int Status = 0;
    ASSERT_EQ(waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  Counters C = readOk(S);
  EXPECT_EQ(C["tu.optimized"], Children * PerChild);
  EXPECT_EQ(C["bytes.baseline"], 10 * Children * PerChild);
}

TEST(StatsPrintTest, FullTableLayout) {
  Counters C{{"tu.optimized", 12},
             {"tu.won", 5},
             {"tu.kept.no_candidate_smaller", 6},
             {"tu.kept.all_candidates_failed", 1},
             {"bytes.baseline", 123456},
             {"bytes.shipped", 121000},
             {"bytes.saved", 2456},
             {"candidate.evaluated", 36},
             {"candidate.discarded.crash", 1},
             {"candidate.discarded.timeout", 1},
             {"candidate.rejected.ram_growth", 2},
             {"image.code.baseline", 100000},
             {"image.code.shipped", 98000},
             {"image.rodata.baseline", 20000},
             {"image.rodata.shipped", 20100},
             {"image.data.baseline", 1000},
             {"image.data.shipped", 1000},
             {"image.unwind.baseline", 2456},
             {"image.unwind.shipped", 1900},
             {"image.bss.baseline", 512},
             {"image.bss.shipped", 512},
             {"passthrough.build_probe", 120},
             {"passthrough.not_a_size_level", 38},
             {"passthrough.preprocess_only", 2},
             {"zeroed_at", 0}};
  std::string Expected = "Statistics file:              /tmp/x/stats\n"
                         "Stats zeroed:                 1970-01-01 00:00:00 UTC\n"
                         "Translation units optimized:        12\n"
                         "  candidate shipped (won):           5    41.7 %\n"
                         "  clang -Oz kept:                    7    58.3 %\n"
                         "    all candidates failed:           1\n"
                         "    no candidate smaller:            6\n"
                         "Image bytes of optimized TUs (file-backed; saved > 0 = smaller):\n"
                         "                                 clang -Oz     shipped     saved\n"
                         "    code                            100000       98000      2000    2.00 %\n"
                         "    read-only data                   20000       20100      -100   -0.50 %\n"
                         "    writable data                     1000        1000         0    0.00 %\n"
                         "    unwind tables                     2456        1900       556   22.64 %\n"
                         "  image total:                      123456      121000      2456    1.99 %\n"
                         "  RAM-only (.bss, .tbss):              512         512         0    0.00 %\n"
                         "Size (metric units):\n"
                         "  baseline total:               123456\n"
                         "  shipped total:                121000\n"
                         "  saved:                          2456    1.99 %\n"
                         "Candidates evaluated:               36\n"
                         "  discarded:                         2     5.6 %\n"
                         "    crash:                           1\n"
                         "    timeout:                         1\n"
                         "  rejected by ship rules:            2     5.6 %\n"
                         "    ram growth:                      2\n"
                         "Passed through to clang:           160\n"
                         "  build probe:                     120\n"
                         "  not a size level:                 38\n"
                         "  preprocess only:                   2\n"
                         "Errors (fell back to clang):         0\n";
  EXPECT_EQ(render(C), Expected);
}

TEST(StatsPrintTest, EmptyCountersPrintZerosWithoutPercentages) {
  std::string Out = render({});
  EXPECT_NE(Out.find("Translation units optimized:         0\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  saved:                             0\n"), std::string::npos) << Out;
  EXPECT_EQ(Out.find('%'), std::string::npos) << Out; // every denominator is zero
  EXPECT_EQ(Out.find("Stats zeroed"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("Other"), std::string::npos) << Out;
}

TEST(StatsPrintTest, SavedIsDerivedWhenNotStored) {
  std::string Out = render({{"bytes.baseline", 200}, {"bytes.shipped", 150}});
  EXPECT_NE(Out.find("  saved:                            50   25.00 %\n"), std::string::npos)
      << Out;
}

TEST(StatsPrintTest, UnknownCountersAreNotDropped) {
  std::string Out = render({{"error.policy_load_failed", 3},
                            {"tu.mystery", 2},
                            {"candidate.weird.thing_x", 4},
                            {"future.metric", 9},
                            {"tu", 1}});
  EXPECT_NE(Out.find("Errors (fell back to clang):         3\n"
                     "  policy load failed:                3\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  mystery:                           2\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  weird: thing x:                    4\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("Other:\n"
                     "  future.metric                      9\n"
                     "  tu                                 1\n"),
            std::string::npos)
      << Out;
}

TEST(StatsPrintTest, JSONParsesBackWithEveryCounter) {
  Counters C{{"tu.optimized", 12}, {"bytes.saved", -3}, {"zeroed_at", 1700000000}};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printStatsJSON(C, OS);
  ASSERT_FALSE(Out.empty());
  EXPECT_EQ(Out.back(), '\n');
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  ASSERT_NE(Root, nullptr);
  EXPECT_EQ(Root->size(), 1u);
  const llvm::json::Object *Counts = Root->getObject("counters");
  ASSERT_NE(Counts, nullptr);
  EXPECT_EQ(Counts->size(), 3u);
  EXPECT_EQ(Counts->getInteger("tu.optimized"), std::optional<int64_t>(12));
  EXPECT_EQ(Counts->getInteger("bytes.saved"), std::optional<int64_t>(-3));
  EXPECT_EQ(Counts->getInteger("zeroed_at"), std::optional<int64_t>(1700000000));
}

TEST(StatsPrintTest, JSONOfEmptyCountersHasEmptyObject) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printStatsJSON({}, OS);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Counts = V->getAsObject()->getObject("counters");
  ASSERT_NE(Counts, nullptr);
  EXPECT_TRUE(Counts->empty());
}
