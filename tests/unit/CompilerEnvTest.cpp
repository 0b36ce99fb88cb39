// The environment on a real harvested module: smartcc itself harvests a test program, then
// the environment reproduces clang-22 -Oz exactly (IR and object bytes), rewards sum as the
// papers define them, the state cache avoids pass runs, and replay restores evicted states.
#include "policies/env/CompilerEnv.h"
#include "policies/env/ContainedEvaluation.h"
#include "policies/env/EnvWorker.h"
#include "policies/env/Search.h"
#include "runtime/decide/Decision.h"
#include "runtime/measure/SizeMeasurer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "HarvestForTest.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <csignal>
#include <unistd.h>

using namespace llvm;
using namespace smartcc;

namespace {

std::string TempDir;

// The image metric of an object file (runtime/measure/SizeMeasurer.h), the unit of the byte reward.
uint64_t imageBytesOfFile(const std::string &Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  Expected<ObjectSize> S = measureObject((*Buf)->getMemBufferRef());
  return S ? S->linkedImageBytes() : 0;
}

class CompilerEnvTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    SmallString<128> Dir;
    ASSERT_FALSE(sys::fs::createUniqueDirectory("smartcc-env-test", Dir));
    TempDir = Dir.str().str();
    Interp = new Benchmark(smartcc::testing::harvestForTest(
        std::string(SMARTCC_TEST_SOURCE_DIR) + "/lit/Inputs/interp.c", TempDir,
        TempDir + "/interp-clang.o"));
    // -Os's and -Oz's pipelines give this program the same instructions; only the attributes
    // differ (optsize, minsize), and with them the code (x86-64: `push 1; pop rax` is minsize's).
    std::string Same = TempDir + "/same-ir.c";
    {
      std::error_code EC;
      raw_fd_ostream OS(Same, EC);
      OS << "long one(void) { return 1; }\n"
            "long minus(void) { return -1; }\n"
            "int main(void) { return (int)(one() + minus()); }\n";
    }
    SameIR = new Benchmark(
        smartcc::testing::harvestForTest(Same, TempDir, TempDir + "/same-ir-clang.o"));
    // Small helpers that -Os's pipeline compiles into a smaller image with more code (the
    // unwind entries shrink while the code grows), which the compiler's ship rule
    // code_for_unwind refuses.
    UnwindTrade = new Benchmark(smartcc::testing::harvestForTest(
        std::string(SMARTCC_TEST_SOURCE_DIR) + "/lit/Inputs/unwind-trade.c", TempDir));
  }
  static void TearDownTestSuite() {
    sys::fs::remove_directories(TempDir);
    delete Interp;
    delete SameIR;
    delete UnwindTrade;
  }
  static CompilerEnv makeEnv(EnvOptions Opts = EnvOptions()) {
    Expected<ActionSpace> Space = loadActionSpaces("macro+options");
    EXPECT_TRUE(bool(Space)) << toString(Space.takeError());
    return CompilerEnv(std::move(*Space), Opts);
  }
  static Benchmark *Interp;
  static Benchmark *SameIR;
  static Benchmark *UnwindTrade;
};
Benchmark *CompilerEnvTest::Interp = nullptr;
Benchmark *CompilerEnvTest::SameIR = nullptr;
Benchmark *CompilerEnvTest::UnwindTrade = nullptr;

TEST_F(CompilerEnvTest, ClangDefaultMacroReachesClangsIRAndRewardOne) {
  CompilerEnv Env = makeEnv();
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  EXPECT_GT(Env.initialIR(), Env.clangIR());
  EXPECT_EQ(Env.irInstructions(), Env.initialIR());
  StepResult R = Env.step(Env.actions().indexOf("clang-default"));
  ASSERT_FALSE(R.Failed) << R.Error;
  EXPECT_EQ(Env.irInstructions(), Env.clangIR());
  EXPECT_NEAR(R.Reward, 1.0, 1e-9); // (C0 - Coz) / (C0 - Coz)
}

TEST_F(CompilerEnvTest, ObjectBytesEqualRealClangOz) {
  CompilerEnv Env = makeEnv();
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  Expected<uint64_t> Clang = Env.clangObjectBytes();
  ASSERT_TRUE(bool(Clang)) << toString(Clang.takeError());
  EXPECT_EQ(*Clang, imageBytesOfFile(TempDir + "/interp-clang.o"));
  Env.step(Env.actions().indexOf("clang-default"));
  Expected<uint64_t> Now = Env.objectBytes();
  ASSERT_TRUE(bool(Now));
  EXPECT_EQ(*Now, *Clang);
}

TEST_F(CompilerEnvTest, OptionActionsChangeCodegen) {
  CompilerEnv Env = makeEnv();
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  Env.step(Env.actions().indexOf("no-jump-tables"));
  Env.step(Env.actions().indexOf("clang-default"));
  Expected<uint64_t> NoJT = Env.objectBytes();
  Expected<uint64_t> Clang = Env.clangObjectBytes();
  ASSERT_TRUE(NoJT && Clang);
  EXPECT_NE(*NoJT, *Clang); // interp.c's dispatch switch is a jump table under clang -Oz
}

TEST_F(CompilerEnvTest, RepeatedEpisodesHitTheCache) {
  CompilerEnv Env = makeEnv();
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  size_t Inl = Env.actions().indexOf("clang-inliner");
  size_t Opt = Env.actions().indexOf("clang-optimization");
  Env.step(Inl);
  Env.step(Opt);
  uint64_t FirstIR = Env.irInstructions();
  uint64_t Runs = Env.stats().PassRuns;
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  EXPECT_TRUE(Env.step(Inl).CacheHit);
  EXPECT_TRUE(Env.step(Opt).CacheHit);
  EXPECT_EQ(Env.irInstructions(), FirstIR);
  EXPECT_EQ(Env.stats().PassRuns, Runs);
}

TEST_F(CompilerEnvTest, EvictedStatesAreReplayed) {
  EnvOptions Tiny;
  Tiny.BitcodeCacheBytes = 1; // keep at most one state's bitcode
  CompilerEnv Env = makeEnv(Tiny);
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  size_t Inl = Env.actions().indexOf("clang-inliner");
  size_t Simp = Env.actions().indexOf("clang-function-simplification");
  Env.step(Inl);
  Env.step(Simp);
  uint64_t Expected1 = Env.irInstructions();
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  Env.step(Inl);  // cache hit: the module is not materialized
  Env.step(Simp); // cache hit again
  size_t Opt = Env.actions().indexOf("clang-optimization");
  StepResult R = Env.step(Opt); // a miss: the state must be rebuilt by replay
  ASSERT_FALSE(R.Failed) << R.Error;
  EXPECT_EQ(Env.history().size(), 3u);
  EXPECT_GE(Env.stats().Materializations, 1u);
  EXPECT_LE(Env.irInstructions(), Expected1 + Expected1 / 2);
}

TEST_F(CompilerEnvTest, ObservationHasFeaturesAndHistogram) {
  CompilerEnv Env = makeEnv();
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  Env.step(0);
  std::vector<float> Obs = Env.observation();
  ASSERT_EQ(Obs.size(), AutophaseFeatures::Count + Env.actions().size());
  EXPECT_FLOAT_EQ(Obs[AutophaseFeatures::Count + 0], 1.0f / float(Env.maxSteps()));
}

TEST_F(CompilerEnvTest, BadPipelineActionFailsTheStepOnly) {
  Expected<ActionSpace> Space = parseActionSpace(
      "name = \"t\"\n[[action]]\nname = \"bad\"\npipeline = \"function(no-such-pass)\"\n"
      "[[action]]\nname = \"good\"\nmacro = \"clang-default\"\n", "t");
  ASSERT_TRUE(bool(Space));
  CompilerEnv Env(std::move(*Space), EnvOptions());
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  StepResult Bad = Env.step(0);
  EXPECT_TRUE(Bad.Failed);
  EXPECT_NE(Bad.Error.find("no-such-pass"), std::string::npos);
  EXPECT_EQ(Env.irInstructions(), Env.initialIR()); // the state did not change
  StepResult Good = Env.step(1);
  EXPECT_FALSE(Good.Failed);
  EXPECT_EQ(Env.irInstructions(), Env.clangIR());
}

TEST(CompilerEnvErrors, ActionSpaceErrorsNameLineAndKey) {
  Expected<ActionSpace> S = parseActionSpace(
      "name = \"t\"\n[[action]]\nname = \"a\"\nmacro = \"nope\"\n", "space.toml");
  ASSERT_FALSE(bool(S));
  EXPECT_NE(toString(S.takeError()).find("space.toml:2:"), std::string::npos);
  Expected<ActionSpace> U = parseActionSpace(
      "name = \"t\"\n[[action]]\nname = \"a\"\npipeline = \"adce\"\nfrob = 1\n", "space.toml");
  ASSERT_FALSE(bool(U));
  EXPECT_NE(toString(U.takeError()).find("unknown key 'frob'"), std::string::npos);
}

} // namespace

namespace {

// The worker process contains what would kill a training run: a crashing pass and a hanging
// pass are recorded with their sequences, penalized, and the episode goes on from the state
// before them.
TEST_F(CompilerEnvTest, WorkerSurvivesCrashAndHang) {
  Expected<ActionSpace> Space = parseActionSpace(
      "name = \"t\"\n"
      "[[action]]\nname = \"inline\"\nmacro = \"inliner\"\n"
      "[[action]]\nname = \"crash\"\npipeline = \"smartcc-test-crash\"\n"
      "[[action]]\nname = \"hang\"\npipeline = \"smartcc-test-hang\"\n"
      "[[action]]\nname = \"fatal\"\npipeline = \"smartcc-test-fatal\"\n",
      "t");
  ASSERT_TRUE(bool(Space));
  Expected<std::unique_ptr<EnvWorker>> W = EnvWorker::spawn(std::move(*Space), EnvOptions(), 3000);
  ASSERT_TRUE(bool(W));
  EnvWorker &Env = **W;
  ASSERT_FALSE(bool(Env.reset(*Interp)));
  StepResult First = Env.step(0);
  ASSERT_FALSE(First.Failed) << First.Error;
  uint64_t AfterInline = Env.irInstructions();
  for (size_t Bad : {1u, 2u, 3u}) {
    StepResult R = Env.step(Bad, 0.5);
    EXPECT_TRUE(R.Failed);
    EXPECT_DOUBLE_EQ(R.Reward, -0.5);
    EXPECT_EQ(Env.irInstructions(), AfterInline); // the state before the bad action
  }
  ASSERT_EQ(Env.crashes().size(), 3u);
  EXPECT_EQ(Env.crashes()[0].What, "signal 11");
  EXPECT_EQ(Env.crashes()[1].What, "timeout");
  EXPECT_EQ(Env.crashes()[2].What, "exit 3");
  EXPECT_EQ(Env.crashes()[0].Actions, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(Env.crashes()[2].Actions, (std::vector<size_t>{0, 3})); // not 0 1 2 3: failures do not replay
  EXPECT_EQ(Env.history().size(), 4u);
  Expected<uint64_t> Bytes = Env.objectBytes();
  ASSERT_TRUE(bool(Bytes));
  EXPECT_GT(*Bytes, 0u);
  // Clang -Oz's object, which byte-reward validation compares with, comes from the worker too.
  Expected<uint64_t> Clang = Env.clangObjectBytes();
  ASSERT_TRUE(bool(Clang)) << toString(Clang.takeError());
  EXPECT_EQ(*Clang, imageBytesOfFile(TempDir + "/interp-clang.o"));
}

} // namespace

namespace {

// Greedy search over the macro space can always take clang's whole pipeline, so it ends at
// or below clang's IR count; random search is reproducible from its seed.
TEST_F(CompilerEnvTest, SearchBaselines) {
  CompilerEnv Env = makeEnv();
  Expected<SearchResult> G = greedySearch(Env, *Interp, 4, Objective::IRInstructions);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  EXPECT_LE(G->BestValue, G->ClangValue);
  EXPECT_FALSE(G->Best.empty());
  Expected<SearchResult> R1 = randomSearch(Env, *Interp, 6, 5, 42, Objective::IRInstructions);
  Expected<SearchResult> R2 = randomSearch(Env, *Interp, 6, 5, 42, Objective::IRInstructions);
  ASSERT_TRUE(R1 && R2);
  EXPECT_EQ(R1->Best, R2->Best);
  EXPECT_EQ(R1->BestValue, R2->BestValue);
  EXPECT_EQ(R1->Evaluations, 6u);
  Expected<SearchResult> Bytes = bestOf(
      Env, *Interp, {{size_t(Env.actions().indexOf("clang-default"))}}, Objective::ObjectBytes);
  ASSERT_TRUE(bool(Bytes));
  EXPECT_EQ(Bytes->BestValue, Bytes->ClangValue); // clang's pipeline reproduces clang's bytes
}

// A sequence measures the same whatever ran before it in the environment. States whose
// instructions agree but whose function attributes differ (-Os's pipeline on -Oz's output
// gives optsize where -Oz has minsize) once shared cached transitions and bitcode, so after
// some episodes `clang-default-os` was measured on -Oz's module (a core-set table measured
// before commit 4ebe3ad had 98 of 500 rows wrong). Here every sequence played in one environment, in one order and
// then reversed, must equal the same sequence measured alone in a fresh one.
TEST_F(CompilerEnvTest, SequencesMeasureTheSameWhateverRanBefore) {
  const std::vector<std::vector<std::string>> Named = {
      {"clang-default"},
      {"clang-default", "clang-default-os"},
      {"clang-default", "clang-default"},
      {"clang-default-os"},
      {"clang-default-os", "clang-default"},
      {"clang-default", "no-jump-tables", "clang-default-os"},
      {"clang-default", "no-jump-tables"},
      {"clang-optimization", "clang-default-os"},
      {"clang-optimization", "clang-default"},
      {"clang-default-os", "no-jump-tables"},
      {"clang-default-os"},
  };
  auto Indices = [](const CompilerEnv &Env, const std::vector<std::string> &Names) {
    std::vector<size_t> Seq;
    for (const std::string &N : Names)
      Seq.push_back(size_t(Env.actions().indexOf(N)));
    return Seq;
  };
  for (const Benchmark *B : {SameIR, Interp}) {
  std::vector<uint64_t> Alone;
  for (const std::vector<std::string> &Names : Named) {
    CompilerEnv Fresh = makeEnv();
    ASSERT_FALSE(bool(Fresh.reset(*B)));
    for (size_t A : Indices(Fresh, Names))
      ASSERT_FALSE(Fresh.step(A).Failed);
    Expected<uint64_t> B = Fresh.objectBytes();
    ASSERT_TRUE(bool(B)) << toString(B.takeError());
    Alone.push_back(*B);
  }
  for (bool Reversed : {false, true}) {
    CompilerEnv Env = makeEnv();
    std::vector<std::vector<size_t>> Seqs;
    for (const std::vector<std::string> &Names : Named)
      Seqs.push_back(Indices(Env, Names));
    if (Reversed)
      std::reverse(Seqs.begin(), Seqs.end());
    Expected<SearchResult> R = bestOf(Env, *B, Seqs, Objective::ObjectBytes);
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    for (size_t I = 0; I < Named.size(); ++I) {
      size_t J = Reversed ? Named.size() - 1 - I : I;
      ASSERT_TRUE(R->Values[J].has_value());
      EXPECT_EQ(*R->Values[J], Alone[I])
          << B->Name << ": " << join(Named[I], " ") << (Reversed ? " (reversed)" : "");
    }
  }
  }
}

// The shipped objective: a result smaller than clang's that breaks the compiler's ship rules
// counts as clang's (the compiler would ship clang's object); any other result as itself.
TEST_F(CompilerEnvTest, ShippedBytesFollowTheCompilersShipRules) {
  CompilerEnv Env = makeEnv();
  ASSERT_FALSE(bool(Env.reset(*UnwindTrade)));
  ASSERT_FALSE(Env.step(size_t(Env.actions().indexOf("clang-default-os"))).Failed);
  Expected<ObjectSize> Os = Env.objectSize();
  Expected<ObjectSize> Oz = Env.clangObjectSize();
  ASSERT_TRUE(Os && Oz);
  // -Os inlined the helpers: a smaller image, bought with code.
  ASSERT_LT(Os->linkedImageBytes(), Oz->linkedImageBytes());
  ASSERT_GT(Os->CodeBytes, Oz->CodeBytes);
  ASSERT_LT(Os->UnwindBytes + 8 * Os->FDEs, Oz->UnwindBytes + 8 * Oz->FDEs);
  Expected<uint64_t> Shipped = Env.shippedBytes();
  ASSERT_TRUE(bool(Shipped));
  EXPECT_EQ(*Shipped, Oz->linkedImageBytes());
  Expected<uint64_t> Raw = Env.objectBytes();
  ASSERT_TRUE(bool(Raw));
  EXPECT_EQ(*Raw, Os->linkedImageBytes());
  // Through the searches' objective, in a contained evaluation: the same.
  const std::vector<std::vector<size_t>> Seqs = {
      {size_t(Env.actions().indexOf("clang-default-os"))},
      {size_t(Env.actions().indexOf("clang-default"))}};
  Expected<SearchResult> R = bestOf(Env, *UnwindTrade, Seqs, Objective::ShippedBytes);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_TRUE(R->Values[0] && R->Values[1]);
  EXPECT_EQ(*R->Values[0], Oz->linkedImageBytes());
  EXPECT_EQ(R->ClangValue, Oz->linkedImageBytes());
  Expected<SearchResult> Bytes = bestOf(Env, *UnwindTrade, Seqs, Objective::ObjectBytes);
  ASSERT_TRUE(bool(Bytes));
  EXPECT_EQ(*Bytes->Values[0], Os->linkedImageBytes());
  // Where nothing is traded, shipped bytes are the result's own, larger or smaller.
  for (const char *Name : {"clang-default", "clang-optimization", "clang-default-os"}) {
    ASSERT_FALSE(bool(Env.reset(*Interp)));
    ASSERT_FALSE(Env.step(size_t(Env.actions().indexOf(Name))).Failed);
    Expected<ObjectSize> Own = Env.objectSize(), Clang = Env.clangObjectSize();
    Expected<uint64_t> S = Env.shippedBytes();
    ASSERT_TRUE(Own && Clang && S);
    const bool Refused = Own->linkedImageBytes() < Clang->linkedImageBytes() &&
                         brokenShipRule(*Own, *Clang, ShipRules{});
    EXPECT_EQ(*S, Refused ? Clang->linkedImageBytes() : Own->linkedImageBytes()) << Name;
  }
  EXPECT_TRUE(bool(parseObjective("shipped")));
  Expected<Objective> Bad = parseObjective("smaller");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(toString(Bad.takeError()), "unknown objective 'smaller' (ir, bytes or shipped)");
}

// Guided search: clang's output is the free start, the proposer is asked at the start and again
// on the best state, the evaluation cap holds, and what it finds is never above clang.
TEST_F(CompilerEnvTest, GuidedSearchContinuesTheBestState) {
  CompilerEnv Env = makeEnv();
  std::vector<bool> Asked; // AtStart of each call
  auto EverySingleAction = [&](const Module &, bool AtStart)
      -> Expected<std::vector<std::vector<size_t>>> {
    Asked.push_back(AtStart);
    std::vector<std::vector<size_t>> Seqs;
    for (size_t A = 0; A < Env.actions().size(); ++A)
      Seqs.push_back({A});
    return Seqs;
  };
  GuidedOptions G;
  G.MaxEvaluations = 8;
  G.PerRound = 3;
  G.ClangAction = Env.actions().indexOf("clang-default");
  ASSERT_GE(G.ClangAction, 0);
  Expected<SearchResult> S =
      guidedSearch(Env, *Interp, EverySingleAction, G, Objective::IRInstructions);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ(S->Evaluations, 8u);
  EXPECT_EQ(S->Rounds, 3u); // 3 + 3 + 2
  EXPECT_LE(S->BestValue, S->ClangValue);
  ASSERT_GE(Asked.size(), 2u);
  EXPECT_TRUE(Asked[0]);
  EXPECT_FALSE(Asked[1]); // the next proposals continue a state past the start
  // After the start's round the anchor is a non-empty best (clang's output at least), so any
  // later improvement is a composition of two or more actions.
  if (S->Composed)
    EXPECT_GE(S->Best.size(), 2u);
  Asked.clear();
  Expected<SearchResult> Again =
      guidedSearch(Env, *Interp, EverySingleAction, G, Objective::IRInstructions);
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(Again->Best, S->Best);
  // Greedy capped at the same compile count stops there.
  Expected<SearchResult> Capped =
      greedySearch(Env, *Interp, 3, Objective::IRInstructions, {}, 8, 7);
  ASSERT_TRUE(bool(Capped));
  EXPECT_EQ(Capped->Evaluations, 8u);
}

} // namespace

namespace {

// A crash, an error and a hang each fail only their own item; the items after them are still
// evaluated (by a fresh child), in order.
TEST(ContainedEvaluationTest, FailuresStayWithTheirItem) {
  std::vector<ContainedResult> R = evaluateContained(
      6,
      [](size_t I) -> Expected<uint64_t> {
        if (I == 1)
          raise(SIGSEGV);
        if (I == 2)
          return createStringError(inconvertibleErrorCode(), "no luck\non two lines");
        if (I == 3)
          sleep(30);
        if (I == 4)
          _exit(7);
        return I * 10;
      },
      1000);
  ASSERT_EQ(R.size(), 6u);
  EXPECT_EQ(R[0].Value, std::optional<uint64_t>(0));
  EXPECT_FALSE(R[1].Value);
  EXPECT_EQ(R[1].Error, "signal 11");
  EXPECT_FALSE(R[2].Value);
  EXPECT_EQ(R[2].Error, "no luck on two lines");
  EXPECT_FALSE(R[3].Value);
  EXPECT_EQ(R[3].Error, "timed out after 1 s");
  EXPECT_FALSE(R[4].Value);
  EXPECT_EQ(R[4].Error, "exit 7");
  EXPECT_EQ(R[5].Value, std::optional<uint64_t>(50));
}

// A search whose every sequence fails (here: no time at all) rejects them all, says which,
// and ends at its starting point instead of failing.
TEST_F(CompilerEnvTest, SearchRejectsFailedSequences) {
  CompilerEnv Env = makeEnv();
  SearchOptions NoTime;
  NoTime.TimeoutMs = 0;
  Expected<SearchResult> R =
      randomSearch(Env, *Interp, 3, 4, 42, Objective::IRInstructions, NoTime);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(R->Rejected, 3u);
  EXPECT_TRUE(R->Best.empty());
  EXPECT_NE(R->FirstRejection.find("timed out"), std::string::npos) << R->FirstRejection;
  Expected<SearchResult> Fine = randomSearch(Env, *Interp, 3, 4, 42, Objective::IRInstructions);
  ASSERT_TRUE(bool(Fine));
  EXPECT_EQ(Fine->Rejected, 0u);
}

} // namespace
