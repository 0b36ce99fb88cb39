// Configuration loading: defaults, sources and their precedence, error messages, the candidate
// library. Every test runs against a private temporary directory and a fake environment, so
// the developer's own ~/.config/smartcc or /etc/smartcc never leak in.
#include "runtime/config/Config.h"
#include "policies/BuiltinCandidates.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "runtime/candidates/AgentCandidates.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <map>

using namespace smartcc;

namespace {

constexpr const char *Builtin = "<builtin>/candidates.toml";

class ConfigTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("smartcc-config-test", Dir));
    Root = std::string(Dir);
    Home = Root + "/home";
    Work = Root + "/work";
    llvm::sys::fs::create_directories(Home);
    llvm::sys::fs::create_directories(Work);
    Vars["HOME"] = Home;
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  // Writes Text to Root/Rel (creating directories) and returns the absolute path.
  std::string write(const std::string &Rel, const std::string &Text) {
    std::string Path = Root + "/" + Rel;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::ofstream(Path) << Text;
    return Path;
  }
  std::string userFile() const { return Home + "/.config/smartcc/config.toml"; }

  ConfigEnvironment env() {
    ConfigEnvironment E;
    E.GetEnv = [this](const char *Name) -> std::optional<std::string> {
      auto It = Vars.find(Name);
      if (It == Vars.end())
        return std::nullopt;
      return It->second;
    };
    E.WorkingDir = Work;
    E.SystemFile = Root + "/etc/smartcc/config.toml";
    return E;
  }

  llvm::Expected<Config> load(const std::vector<std::string> &Flags = {}) {
    return loadConfig(env(), Flags);
  }

  // The message of a load that must fail.
  std::string loadError(const std::vector<std::string> &Flags = {}) {
    llvm::Expected<Config> C = load(Flags);
    if (C) {
      ADD_FAILURE() << "expected an error";
      return "";
    }
    return llvm::toString(C.takeError());
  }

  std::string Root, Home, Work;
  std::map<std::string, std::string> Vars;
};

#define ASSERT_LOADED(C) ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError())

const std::vector<std::string> DefaultCandidates = {
    "oz-late-outliner-no-jump-tables-allocators",
    "oz-late-outliner-no-jump-tables-allocators-proposed", "oz-late-allocators",
    "oz-late-outliner-no-jump-tables", "oz-late-allocators-predicted", "oz-late-ir-outliner", "oz-late-no-jump-tables",
    "oz-machine-outliner", "oz-no-jump-tables", "oz-merge-functions"};

TEST(MetricTest, NamesRoundTrip) {
  EXPECT_STREQ(metricName(Metric::AllocBytes), "alloc");
  EXPECT_STREQ(metricName(Metric::TextBytes), "text");
  EXPECT_STREQ(metricName(Metric::FileBytes), "file");
  EXPECT_STREQ(metricName(Metric::IRInstructions), "ir");
  EXPECT_STREQ(metricName(Metric::ImageBytes), "image");
  EXPECT_STREQ(metricName(Metric::CodeBytes), "code");
  for (Metric M : {Metric::ImageBytes, Metric::CodeBytes, Metric::AllocBytes, Metric::TextBytes,
                   Metric::FileBytes, Metric::IRInstructions})
    EXPECT_EQ(parseMetric(metricName(M)), M);
  EXPECT_EQ(parseMetric("size"), std::nullopt);
  EXPECT_EQ(parseMetric("Alloc"), std::nullopt);
}

TEST_F(ConfigTest, Defaults) {
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_FALSE(C->Disable);
  EXPECT_EQ(C->Levels, (std::vector<std::string>{"Oz", "Os"}));
  EXPECT_EQ(C->SizeMetric, Metric::ImageBytes);
  EXPECT_EQ(C->Jobs, 0u);
  EXPECT_EQ(C->TimeoutMs, 60000u);
  EXPECT_DOUBLE_EQ(C->MaxGrowth, 8.0);
  EXPECT_FALSE(C->AllowRamGrowth);
  EXPECT_DOUBLE_EQ(C->CodeForUnwind, 0.0);
  EXPECT_EQ(C->LogPath, "");
  EXPECT_EQ(C->StatsDir, "");
  EXPECT_TRUE(C->Stats);
  EXPECT_FALSE(C->Explain);
  EXPECT_EQ(C->HarvestDir, "");
  EXPECT_EQ(C->Candidates, DefaultCandidates);
  EXPECT_TRUE(C->takesOver("Oz"));
  EXPECT_TRUE(C->takesOver("Os"));
  EXPECT_FALSE(C->takesOver("O2"));
  EXPECT_EQ(C->Origin["metric"], "default");
  EXPECT_EQ(C->Origin["jobs"], "default");
  EXPECT_EQ(C->Origin["candidates"], Builtin);
  EXPECT_GE(C->effectiveJobs(), 1u);
}

TEST_F(ConfigTest, BuiltinLibraryParsesAndDefaultsExist) {
  Config C;
  ASSERT_FALSE(bool(applyConfigText(C, builtinCandidatesToml(), Builtin)));
  EXPECT_EQ(C.Candidates, DefaultCandidates);
  for (const std::string &Name : C.Candidates)
    EXPECT_EQ(C.CandidateLibrary.count(Name), 1u) << Name;

  const CandidateSpec &NJT = C.CandidateLibrary.at("oz-no-jump-tables");
  EXPECT_EQ(NJT.Pipeline, (std::vector<std::string>{"default"}));
  ASSERT_EQ(NJT.FunctionAttrs.size(), 1u);
  EXPECT_EQ(NJT.FunctionAttrs[0], std::make_pair(std::string("no-jump-tables"), std::string("true")));

  EXPECT_EQ(C.CandidateLibrary.at("oz-machine-outliner").LLVMArgs,
            (std::vector<std::string>{"-enable-machine-outliner=always"}));
  EXPECT_EQ(C.CandidateLibrary.at("oz-merge-functions").MergeFunctions, true);

  const CandidateSpec &Both = C.CandidateLibrary.at("oz-no-jump-tables-outliner");
  EXPECT_EQ(Both.LLVMArgs, (std::vector<std::string>{"-enable-machine-outliner=always"}));
  EXPECT_EQ(Both.FunctionAttrs.size(), 1u);

  EXPECT_EQ(C.CandidateLibrary.at("oz-then-cleanup").Pipeline,
            (std::vector<std::string>{
                "default", "function(instcombine<no-verify-fixpoint>,simplifycfg),globaldce"}));

  // The byte-for-byte reproduction of clang: nothing but the default pipeline.
  const CandidateSpec &Replica = C.CandidateLibrary.at("baseline-replica");
  EXPECT_EQ(Replica.Name, "baseline-replica");
  EXPECT_EQ(Replica.Pipeline, (std::vector<std::string>{"default"}));
  EXPECT_TRUE(Replica.LLVMArgs.empty());
  EXPECT_TRUE(Replica.FunctionAttrs.empty());
  EXPECT_FALSE(Replica.MergeFunctions || Replica.LoopUnrolling || Replica.SLPVectorization ||
               Replica.LoopVectorization);
  EXPECT_EQ(std::count(C.Candidates.begin(), C.Candidates.end(), "baseline-replica"), 0);
}

TEST_F(ConfigTest, PrecedenceFilesThenEnvThenFlags) {
  write("etc/smartcc/config.toml", "metric = 'text'\njobs = 2\ntimeout_ms = 100\nlog = '/sys.log'\n");
  write("home/.config/smartcc/config.toml", "jobs = 3\nmax_growth = 4\n");
  std::string Project = write("work/.smartcc.toml", "timeout_ms = 200\nexplain = true\n");
  Vars["SMARTCC_JOBS"] = "5";
  Vars["SMARTCC_METRIC"] = "file";
  auto C = load({"--smartcc-metric=ir"});
  ASSERT_LOADED(C);
  EXPECT_EQ(C->SizeMetric, Metric::IRInstructions);
  EXPECT_EQ(C->Origin["metric"], "--smartcc-metric");
  EXPECT_EQ(C->Jobs, 5u);
  EXPECT_EQ(C->Origin["jobs"], "SMARTCC_JOBS");
  EXPECT_EQ(C->TimeoutMs, 200u);
  EXPECT_EQ(C->Origin["timeout_ms"], Project);
  EXPECT_DOUBLE_EQ(C->MaxGrowth, 4.0);
  EXPECT_EQ(C->Origin["max_growth"], userFile());
  EXPECT_EQ(C->LogPath, "/sys.log");
  EXPECT_EQ(C->Origin["log"], Root + "/etc/smartcc/config.toml");
  EXPECT_TRUE(C->Explain);
  EXPECT_EQ(C->Origin["stats"], "default");
}

TEST_F(ConfigTest, RegAllocGrowthIsAPercentage) {
  auto C = load({});
  ASSERT_LOADED(C);
  EXPECT_DOUBLE_EQ(C->RegAllocGrowth, 1.0);
  write("work/.smartcc.toml", "regalloc_growth = 2\n");
  Vars["SMARTCC_REGALLOC_GROWTH"] = "0.5";
  C = load({});
  ASSERT_LOADED(C);
  EXPECT_DOUBLE_EQ(C->RegAllocGrowth, 0.5);
  EXPECT_EQ(C->Origin["regalloc_growth"], "SMARTCC_REGALLOC_GROWTH");
  C = load({"--smartcc-regalloc-growth=1.25"});
  ASSERT_LOADED(C);
  EXPECT_DOUBLE_EQ(C->RegAllocGrowth, 1.25);
  Vars["SMARTCC_REGALLOC_GROWTH"] = "lots";
  EXPECT_EQ(loadError(), "SMARTCC_REGALLOC_GROWTH=lots: expected a percentage from 0 to 100");
}

TEST_F(ConfigTest, XdgConfigHomeReplacesDotConfig) {
  write("home/.config/smartcc/config.toml", "jobs = 3\n");
  std::string Xdg = write("xdg/smartcc/config.toml", "jobs = 4\n");
  Vars["XDG_CONFIG_HOME"] = Root + "/xdg";
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_EQ(C->Jobs, 4u);
  EXPECT_EQ(C->Origin["jobs"], Xdg);
}

TEST_F(ConfigTest, LaterFlagWins) {
  auto C = load({"--smartcc-jobs=2", "--smartcc-jobs=7"});
  ASSERT_LOADED(C);
  EXPECT_EQ(C->Jobs, 7u);
}

TEST_F(ConfigTest, SmartccConfigReplacesFiles) {
  write("etc/smartcc/config.toml", "metric = 'text'\n");
  write("home/.config/smartcc/config.toml", "jobs = 3\n");
  write("work/.smartcc.toml", "timeout_ms = 200\n");
  std::string Only = write("only.toml", "max_growth = 2.5\n");
  Vars["SMARTCC_CONFIG"] = Only;
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_DOUBLE_EQ(C->MaxGrowth, 2.5);
  EXPECT_EQ(C->Origin["max_growth"], Only);
  EXPECT_EQ(C->SizeMetric, Metric::ImageBytes);
  EXPECT_EQ(C->Jobs, 0u);
  EXPECT_EQ(C->TimeoutMs, 60000u);
  // The built-in library still applies.
  EXPECT_EQ(C->Candidates, DefaultCandidates);

  // The flag wins over the variable, and a relative name is taken from the working directory.
  write("work/flag.toml", "jobs = 9\n");
  auto F = load({"--smartcc-config=flag.toml"});
  ASSERT_LOADED(F);
  EXPECT_EQ(F->Jobs, 9u);
  EXPECT_DOUBLE_EQ(F->MaxGrowth, 8.0);
  EXPECT_EQ(F->Origin["jobs"], Work + "/flag.toml");
}

TEST_F(ConfigTest, SmartccConfigMissingFileIsAnError) {
  Vars["SMARTCC_CONFIG"] = Root + "/nope.toml";
  EXPECT_EQ(loadError(), "SMARTCC_CONFIG=" + Root + "/nope.toml: no such file: " + Root +
                             "/nope.toml");
  Vars.erase("SMARTCC_CONFIG");
  EXPECT_EQ(loadError({"--smartcc-config=missing.toml"}),
            "--smartcc-config=missing.toml: no such file: " + Work + "/missing.toml");
}

TEST_F(ConfigTest, SmartccConfigEmptyIsAnError) {
  Vars["SMARTCC_CONFIG"] = "";
  EXPECT_EQ(loadError(),
            "SMARTCC_CONFIG is set but empty: name a configuration file, or unset it");
  EXPECT_EQ(loadError({"--smartcc-config"}),
            "--smartcc-config: expected a file name (--smartcc-config=PATH)");
}

TEST_F(ConfigTest, ProjectFileFoundFromNestedDirectory) {
  std::string Outer = write("work/.smartcc.toml", "jobs = 1\nexplain = true\n");
  std::string Inner = write("work/a/.smartcc.toml", "jobs = 2\n");
  llvm::sys::fs::create_directories(Work + "/a/b/c");
  ConfigEnvironment E = env();
  E.WorkingDir = Work + "/a/b/c";
  auto C = loadConfig(E, {});
  ASSERT_LOADED(C);
  // Only the nearest file is read.
  EXPECT_EQ(C->Jobs, 2u);
  EXPECT_EQ(C->Origin["jobs"], Inner);
  EXPECT_FALSE(C->Explain);

  E.WorkingDir = Work + "/b";
  llvm::sys::fs::create_directories(E.WorkingDir);
  auto D = loadConfig(E, {});
  ASSERT_LOADED(D);
  EXPECT_EQ(D->Jobs, 1u);
  EXPECT_EQ(D->Origin["jobs"], Outer);
}

TEST_F(ConfigTest, UnknownKeyNamesFileAndLine) {
  std::string P = write("work/.smartcc.toml", "jobs = 1\nfrobnicate = 3\n");
  EXPECT_EQ(loadError(), P + ":2:14: unknown key 'frobnicate'");

  std::string U = write("home/.config/smartcc/config.toml",
                        "[candidate.mine]\npipeline = ['default']\nspeed = true\n");
  write("work/.smartcc.toml", "jobs = 1\n");
  EXPECT_EQ(loadError(), U + ":3:9: unknown key 'candidate.mine.speed'");
  llvm::sys::fs::remove(U);

  // Only the shipped library may choose the default list.
  write("work/.smartcc.toml", "default_candidates = []\n");
  EXPECT_EQ(loadError(), P + ":1:22: unknown key 'default_candidates'");
}

TEST_F(ConfigTest, SyntaxErrorNamesFileAndLine) {
  std::string P = write("work/.smartcc.toml", "jobs = 1\n\nmetric = \n");
  std::string Msg = loadError();
  EXPECT_EQ(Msg.rfind(P + ":3:", 0), 0u) << Msg;
}

TEST_F(ConfigTest, WrongTypeNamesKey) {
  std::string P = write("work/.smartcc.toml", "jobs = -1\n");
  EXPECT_EQ(loadError(), P + ":1:8: 'jobs' must be a non-negative integer");
  write("work/.smartcc.toml", "timeout_ms = 0\n");
  EXPECT_EQ(loadError(), P + ":1:14: 'timeout_ms' must be a positive integer");
  write("work/.smartcc.toml", "max_growth = 1.0\n");
  EXPECT_EQ(loadError(), P + ":1:14: 'max_growth' must be a number greater than 1");
  write("work/.smartcc.toml", "regalloc_growth = 101\n");
  EXPECT_EQ(loadError(), P + ":1:19: 'regalloc_growth' must be a percentage from 0 to 100");
  write("work/.smartcc.toml", "regalloc_growth = -0.5\n");
  EXPECT_EQ(loadError(), P + ":1:19: 'regalloc_growth' must be a percentage from 0 to 100");
  write("work/.smartcc.toml", "explain = 'yes'\n");
  EXPECT_EQ(loadError(), P + ":1:11: 'explain' must be a boolean (true or false)");
  write("work/.smartcc.toml", "levels = ['Oz', 'O3']\n");
  EXPECT_EQ(loadError(),
            P + ":1:17: 'levels': 'O3' is not a level smartcc can take over (expected Oz or Os)");
}

TEST_F(ConfigTest, DisableZeroIsRejectedWithHint) {
  Vars["SMARTCC_DISABLE"] = "0";
  EXPECT_EQ(loadError(), "SMARTCC_DISABLE=0 is not accepted: unset SMARTCC_DISABLE to enable "
                         "smartcc, or set SMARTCC_DISABLE=1 to disable it");
  for (const char *False : {"false", "no", "OFF", ""}) {
    Vars["SMARTCC_DISABLE"] = False;
    EXPECT_NE(loadError().find("is not accepted: unset SMARTCC_DISABLE"), std::string::npos)
        << False;
  }
  Vars["SMARTCC_DISABLE"] = "maybe";
  EXPECT_EQ(loadError(),
            "SMARTCC_DISABLE=maybe: expected a boolean (1, true, yes, on, 0, false, no or off)");
}

TEST_F(ConfigTest, DisableOneWorks) {
  Vars["SMARTCC_DISABLE"] = "1";
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_TRUE(C->Disable);
  EXPECT_EQ(C->Origin["disable"], "SMARTCC_DISABLE");

  // In TOML and on the command line, false is unambiguous.
  Vars.erase("SMARTCC_DISABLE");
  write("work/.smartcc.toml", "disable = true\n");
  auto F = load({"--smartcc-disable=0"});
  ASSERT_LOADED(F);
  EXPECT_FALSE(F->Disable);
  write("work/.smartcc.toml", "disable = false\n");
  auto T = load({"--smartcc-disable"});
  ASSERT_LOADED(T);
  EXPECT_TRUE(T->Disable);
}

TEST_F(ConfigTest, BadMetric) {
  Vars["SMARTCC_METRIC"] = "size";
  EXPECT_EQ(loadError(), "SMARTCC_METRIC=size: unknown metric 'size' (expected image, code, text, file, ir or alloc)");
  Vars.erase("SMARTCC_METRIC");
  EXPECT_EQ(loadError({"--smartcc-metric=bytes"}),
            "--smartcc-metric=bytes: unknown metric 'bytes' (expected image, code, text, file, ir or alloc)");
  std::string P = write("work/.smartcc.toml", "metric = 'txt'\n");
  EXPECT_EQ(loadError(),
            P + ":1:10: 'metric': unknown metric 'txt' (expected image, code, text, file, ir or alloc)");
}

TEST_F(ConfigTest, AgentAndEffort) {
  auto C = load({});
  ASSERT_LOADED(C);
  EXPECT_EQ(C->Agent, "builtin");
  EXPECT_EQ(C->Effort, 1u);
  EXPECT_TRUE(C->candidatesAreDefault());
  Vars["SMARTCC_EFFORT"] = "3";
  EXPECT_EQ(loadError(), "SMARTCC_EFFORT=3: expected 0, 1 or 2");
  Vars["SMARTCC_EFFORT"] = "0";
  Vars["SMARTCC_AGENT"] = "off";
  C = load({});
  ASSERT_LOADED(C);
  EXPECT_EQ(C->Effort, 0u);
  EXPECT_EQ(C->Agent, "off");
  // A model path is checked when the configuration is read, and named in the error.
  std::string Bad = write("bad.smm", "SMARTCC-MODEL 1\n{\"input_size\": 2}\n");
  Vars["SMARTCC_AGENT"] = Bad;
  std::string E = loadError();
  EXPECT_EQ(E.rfind("SMARTCC_AGENT=" + Bad + ": " + Bad, 0), 0u) << E;
  Vars.erase("SMARTCC_AGENT");
  Vars.erase("SMARTCC_EFFORT");
  std::string File = write("work/.smartcc.toml", "effort = 5\n");
  EXPECT_EQ(loadError(), File + ":1:10: 'effort' must be 0, 1 or 2");
  write("work/.smartcc.toml", "candidates = ['oz-no-jump-tables']\n");
  C = load({});
  ASSERT_LOADED(C);
  EXPECT_FALSE(C->candidatesAreDefault()); // configured candidates run beside the agent
}

// Unset, the function mix follows the effort (at 2 only); set, it is what it was set to, from
// any source, at any effort.
TEST_F(ConfigTest, FunctionMixFollowsTheEffortUnlessSet) {
  auto C = load({});
  ASSERT_LOADED(C);
  EXPECT_FALSE(C->FunctionMix);
  C = load({"--smartcc-effort=2"});
  ASSERT_LOADED(C);
  EXPECT_TRUE(C->FunctionMix);
  C = load({"--smartcc-function-mix"});
  ASSERT_LOADED(C);
  EXPECT_TRUE(C->FunctionMix);
  EXPECT_EQ(C->Effort, 1u);
  Vars["SMARTCC_FUNCTION_MIX"] = "off";
  C = load({"--smartcc-effort=2"});
  ASSERT_LOADED(C);
  EXPECT_FALSE(C->FunctionMix);
  Vars.erase("SMARTCC_FUNCTION_MIX");
  write("work/.smartcc.toml", "function_mix = true\neffort = 0\n");
  C = load({});
  ASSERT_LOADED(C);
  EXPECT_TRUE(C->FunctionMix);
}

TEST_F(ConfigTest, WhenTheAgentServes) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Err;
  std::unique_ptr<llvm::Module> M =
      llvm::parseAssemblyString("define i32 @f(i32 %x) {\n  ret i32 %x\n}\n", Err, Ctx);
  ASSERT_TRUE(M);
  auto Serves = [&](const std::vector<std::string> &Flags, llvm::StringRef Triple) {
    auto C = load(Flags);
    EXPECT_TRUE(bool(C));
    if (!C) {
      llvm::consumeError(C.takeError());
      return false;
    }
    return agentCandidates(*M, *C, Triple).Active;
  };
  // The shipped models serve their targets by default; other targets keep the candidate list.
  EXPECT_TRUE(Serves({}, "x86_64-pc-linux-gnu"));
  EXPECT_TRUE(Serves({}, "aarch64-unknown-linux-gnu"));
  EXPECT_FALSE(Serves({}, "riscv64-unknown-linux-gnu"));
  EXPECT_FALSE(Serves({"--smartcc-agent=off"}, "x86_64-pc-linux-gnu"));
  // A configured candidate list is what runs, unless the agent is asked for too.
  EXPECT_FALSE(Serves({"--smartcc-candidates=none"}, "x86_64-pc-linux-gnu"));
  EXPECT_TRUE(Serves({"--smartcc-candidates=none", "--smartcc-agent=builtin"},
                     "x86_64-pc-linux-gnu"));
  // Effort 0 proposes one sequence, effort 2 the whole core set.
  auto C0 = load({"--smartcc-effort=0"});
  ASSERT_LOADED(C0);
  auto C2 = load({"--smartcc-effort=2"});
  ASSERT_LOADED(C2);
  AgentChoice A0 = agentCandidates(*M, *C0, "x86_64-pc-linux-gnu");
  AgentChoice A2 = agentCandidates(*M, *C2, "x86_64-pc-linux-gnu");
  EXPECT_EQ(A0.Specs.size() + A0.Skipped.size(), 1u);
  EXPECT_GT(A2.Specs.size() + A2.Skipped.size(), 10u);
}

TEST_F(ConfigTest, BadNumbersFromEnvAndFlags) {
  Vars["SMARTCC_JOBS"] = "abc";
  EXPECT_EQ(loadError(), "SMARTCC_JOBS=abc: expected a non-negative integer");
  Vars["SMARTCC_JOBS"] = "-2";
  EXPECT_EQ(loadError(), "SMARTCC_JOBS=-2: expected a non-negative integer");
  Vars.erase("SMARTCC_JOBS");
  EXPECT_EQ(loadError({"--smartcc-jobs=abc"}), "--smartcc-jobs=abc: expected a non-negative integer");
  EXPECT_EQ(loadError({"--smartcc-jobs"}),
            "--smartcc-jobs: missing value (expected a non-negative integer)");
  EXPECT_EQ(loadError({"--smartcc-timeout-ms=0"}), "--smartcc-timeout-ms=0: expected a positive integer");
  EXPECT_EQ(loadError({"--smartcc-max-growth=0.5"}),
            "--smartcc-max-growth=0.5: expected a number greater than 1");
  auto C = load({"--smartcc-max-growth=1.5", "--smartcc-timeout-ms=250", "--smartcc-jobs=0"});
  ASSERT_LOADED(C);
  EXPECT_DOUBLE_EQ(C->MaxGrowth, 1.5);
  EXPECT_EQ(C->TimeoutMs, 250u);
}

TEST_F(ConfigTest, UnknownFlag) {
  EXPECT_EQ(loadError({"--smartcc-frobnicate"}),
            "unknown option '--smartcc-frobnicate' (see smartcc --smartcc-help)");
  EXPECT_EQ(loadError({"--smartcc-frobnicate=3"}),
            "unknown option '--smartcc-frobnicate' (see smartcc --smartcc-help)");
  // --smartcc-stats is a command; the setting's flag is --smartcc-stats-enabled.
  EXPECT_EQ(loadError({"--smartcc-stats"}),
            "unknown option '--smartcc-stats' (see smartcc --smartcc-help)");
  auto C = load({"--smartcc-stats-enabled=off"});
  ASSERT_LOADED(C);
  EXPECT_FALSE(C->Stats);
  EXPECT_EQ(C->Origin["stats"], "--smartcc-stats-enabled");
}

TEST_F(ConfigTest, BareBooleanFlag) {
  auto C = load({"--smartcc-explain"});
  ASSERT_LOADED(C);
  EXPECT_TRUE(C->Explain);
  EXPECT_EQ(C->Origin["explain"], "--smartcc-explain");
  auto D = load({"--smartcc-explain", "--smartcc-explain=no"});
  ASSERT_LOADED(D);
  EXPECT_FALSE(D->Explain);
  EXPECT_EQ(loadError({"--smartcc-explain=2"}),
            "--smartcc-explain=2: expected a boolean (1, true, yes, on, 0, false, no or off)");
}

TEST_F(ConfigTest, Levels) {
  Vars["SMARTCC_LEVELS"] = "Oz";
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_EQ(C->Levels, std::vector<std::string>{"Oz"});
  EXPECT_TRUE(C->takesOver("Oz"));
  EXPECT_FALSE(C->takesOver("Os"));
  auto D = load({"--smartcc-levels=Os, Oz"});
  ASSERT_LOADED(D);
  EXPECT_EQ(D->Levels, (std::vector<std::string>{"Os", "Oz"}));
  EXPECT_EQ(loadError({"--smartcc-levels=Oz,O2"}),
            "--smartcc-levels=Oz,O2: 'O2' is not a level smartcc can take over (expected Oz or Os)");
}

TEST_F(ConfigTest, UnknownCandidateNamesSource) {
  Vars["SMARTCC_CANDIDATES"] = "oz-merge-functions,nope";
  std::string Msg = loadError();
  EXPECT_EQ(Msg.rfind("SMARTCC_CANDIDATES=oz-merge-functions,nope: unknown candidate 'nope' "
                      "(defined: ",
                      0),
            0u)
      << Msg;
  EXPECT_NE(Msg.find("oz-machine-outliner"), std::string::npos) << Msg;

  Vars.erase("SMARTCC_CANDIDATES");
  std::string P = write("work/.smartcc.toml", "candidates = [\n  'oz-merge-functions',\n  'gone',\n]\n");
  Msg = loadError();
  EXPECT_EQ(Msg.rfind(P + ":3:3: unknown candidate 'gone'", 0), 0u) << Msg;

  EXPECT_EQ(loadError({"--smartcc-candidates=a b"}),
            "--smartcc-candidates=a b: 'a b' is not a valid candidate name (letters, digits, "
            "'_', '.' and '-')");
}

TEST_F(ConfigTest, LinkCandidates) {
  // The built-in library's defaults are defined and enabled.
  auto C = load();
  ASSERT_LOADED(C);
  ASSERT_FALSE(C->LinkCandidates.empty());
  for (const std::string &N : C->LinkCandidates)
    EXPECT_TRUE(C->LinkCandidateLibrary.count(N)) << N;
  EXPECT_EQ(C->LinkCandidateLibrary.at("lto-oz-pipeline").Pipeline,
            std::vector<std::string>{"default<Oz>"});
  // Candidates that continue from LTO's pipeline say so (and leave lto<O2> out): in a
  // full-LTO link they replay the program optimized once.
  EXPECT_FALSE(C->LinkCandidateLibrary.at("lto-oz-pipeline").AfterLTOPipeline);
  EXPECT_TRUE(C->LinkCandidateLibrary.at("lto-icf-outliner").AfterLTOPipeline);
  EXPECT_EQ(C->LinkCandidateLibrary.at("lto-merge-functions").Pipeline,
            std::vector<std::string>{"mergefunc"});
  EXPECT_TRUE(C->LinkCandidateLibrary.at("lto-merge-functions").AfterLTOPipeline);
  EXPECT_TRUE(C->LinkReplay);

  // A user's own, with every key; an unknown name is named with its source.
  Vars["XDG_CONFIG_HOME"] = Root + "/xdg";
  write("xdg/smartcc/config.toml",
                        "link_candidates = ['mine']\n[link_candidate.mine]\n"
                        "description = 'd'\npipeline = ['default<Os>']\n"
                        "llvm_args = ['-enable-merge-functions']\nlinker_args = ['--icf=all']\n"
                        "skip_targets = ['aarch64']\n");
  C = load();
  ASSERT_LOADED(C);
  const LinkCandidateSpec &M = C->LinkCandidateLibrary.at("mine");
  EXPECT_EQ(M.LLVMArgs, std::vector<std::string>{"-enable-merge-functions"});
  EXPECT_EQ(M.LinkerArgs, std::vector<std::string>{"--icf=all"});
  EXPECT_EQ(M.SkipTargets, std::vector<std::string>{"aarch64"});
  EXPECT_EQ(C->LinkCandidates, std::vector<std::string>{"mine"});
  Vars["SMARTCC_LINK_CANDIDATES"] = "mine,nope";
  std::string Msg = loadError();
  EXPECT_EQ(Msg.rfind("SMARTCC_LINK_CANDIDATES=mine,nope: unknown link candidate 'nope'", 0), 0u)
      << Msg;
  Vars.erase("SMARTCC_LINK_CANDIDATES");
  write("xdg/smartcc/config.toml", "[link_candidate.bad]\nlinker_args = ['icf']\n");
  Msg = loadError();
  EXPECT_NE(Msg.find("'link_candidate.bad.linker_args': 'icf' must start with '-'"),
            std::string::npos)
      << Msg;
  write("xdg/smartcc/config.toml", "[link_candidate.bad]\nwhat = 1\n");
  Msg = loadError();
  EXPECT_NE(Msg.find("unknown key 'link_candidate.bad.what'"), std::string::npos) << Msg;
  // after_lto_pipeline: a boolean; what runs after LTO's pipeline cannot hold it again (the
  // pipeline's line is named).
  write("xdg/smartcc/config.toml", "[link_candidate.late]\nafter_lto_pipeline = true\n"
                                   "pipeline = ['mergefunc']\n");
  C = load();
  ASSERT_LOADED(C);
  EXPECT_TRUE(C->LinkCandidateLibrary.at("late").AfterLTOPipeline);
  write("xdg/smartcc/config.toml", "[link_candidate.bad]\nafter_lto_pipeline = 'yes'\n");
  Msg = loadError();
  EXPECT_NE(Msg.find("'link_candidate.bad.after_lto_pipeline' must be a boolean"),
            std::string::npos)
      << Msg;
  write("xdg/smartcc/config.toml", "[link_candidate.bad]\nafter_lto_pipeline = true\n"
                                   "pipeline = ['lto<O2>', 'mergefunc']\n");
  Msg = loadError();
  EXPECT_NE(Msg.find("config.toml:3:"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("'link_candidate.bad.pipeline' runs after LTO's pipeline "
                     "(after_lto_pipeline): leave 'lto<O2>' out"),
            std::string::npos)
      << Msg;
  // The environment turns replay off.
  write("xdg/smartcc/config.toml", "");
  Vars["SMARTCC_LINK_REPLAY"] = "0";
  C = load();
  ASSERT_LOADED(C);
  EXPECT_FALSE(C->LinkReplay);
  Vars.erase("SMARTCC_LINK_REPLAY");
}

TEST_F(ConfigTest, CandidateTableParsing) {
  Config C;
  llvm::Error E = applyConfigText(C, R"TOML(
[candidate.my-cand_1]
description = "everything"
pipeline = ["default", "function(simplifycfg)"]
llvm_args = ["-enable-machine-outliner=always", "-x86-foo=1"]
function_attrs = { "no-jump-tables" = "true", "target-features" = "+sse2" }
merge_functions = true
loop_unrolling = false
slp_vectorization = false
loop_vectorization = true

[candidate.plain]
)TOML",
                                  "mine.toml");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_EQ(C.CandidateLibrary.size(), 2u);
  const CandidateSpec &S = C.CandidateLibrary.at("my-cand_1");
  EXPECT_EQ(S.Name, "my-cand_1");
  EXPECT_EQ(S.Description, "everything");
  EXPECT_EQ(S.Pipeline, (std::vector<std::string>{"default", "function(simplifycfg)"}));
  EXPECT_EQ(S.LLVMArgs, (std::vector<std::string>{"-enable-machine-outliner=always", "-x86-foo=1"}));
  ASSERT_EQ(S.FunctionAttrs.size(), 2u);
  EXPECT_EQ(S.FunctionAttrs[0].first, "no-jump-tables");
  EXPECT_EQ(S.FunctionAttrs[0].second, "true");
  EXPECT_EQ(S.FunctionAttrs[1].first, "target-features");
  EXPECT_EQ(S.FunctionAttrs[1].second, "+sse2");
  EXPECT_EQ(S.MergeFunctions, true);
  EXPECT_EQ(S.LoopUnrolling, false);
  EXPECT_EQ(S.SLPVectorization, false);
  EXPECT_EQ(S.LoopVectorization, true);
  EXPECT_EQ(C.Origin["candidate.my-cand_1"], "mine.toml");

  // Defaults of an empty table.
  const CandidateSpec &P = C.CandidateLibrary.at("plain");
  EXPECT_EQ(P.Pipeline, std::vector<std::string>{"default"});
  EXPECT_FALSE(P.MergeFunctions.has_value());

  // Redefinition replaces the whole candidate.
  ASSERT_FALSE(bool(applyConfigText(C, "[candidate.my-cand_1]\nllvm_args = ['-a']\n", "b.toml")));
  const CandidateSpec &R = C.CandidateLibrary.at("my-cand_1");
  EXPECT_EQ(R.LLVMArgs, std::vector<std::string>{"-a"});
  EXPECT_TRUE(R.FunctionAttrs.empty());
  EXPECT_FALSE(R.MergeFunctions.has_value());
  EXPECT_EQ(R.Description, "");

  // Field errors.
  auto Err = [&](const char *Text) {
    Config D;
    return llvm::toString(applyConfigText(D, Text, "e.toml"));
  };
  EXPECT_EQ(Err("[candidate.x]\nllvm_args = ['enable-machine-outliner']\n"),
            "e.toml:2:14: 'candidate.x.llvm_args': 'enable-machine-outliner' must start with "
            "'-', as in \"-enable-machine-outliner=always\"");
  EXPECT_EQ(Err("[candidate.x]\nmerge_functions = 1\n"),
            "e.toml:2:19: 'candidate.x.merge_functions' must be a boolean (true or false)");
  EXPECT_EQ(Err("[candidate.x]\nafter_clang_pipeline = 'yes'\n"),
            "e.toml:2:24: 'candidate.x.after_clang_pipeline' must be a boolean (true or false)");
  {
    // Continuing from clang's optimized module, a candidate runs no pipeline unless given one.
    Config D;
    ASSERT_FALSE(bool(applyConfigText(
        D, "[candidate.c]\nafter_clang_pipeline = true\n[candidate.d]\n"
           "after_clang_pipeline = true\npipeline = ['globaldce']\n", "c.toml")));
    EXPECT_TRUE(D.CandidateLibrary["c"].AfterClangPipeline);
    EXPECT_TRUE(D.CandidateLibrary["c"].Pipeline.empty());
    EXPECT_EQ(D.CandidateLibrary["d"].Pipeline, std::vector<std::string>{"globaldce"});
  }
  EXPECT_EQ(Err("[candidate.x]\nfunction_attrs = { a = 1 }\n"),
            "e.toml:2:24: 'candidate.x.function_attrs.a' must be a string");
  EXPECT_EQ(Err("[candidate.x]\npipeline = 'default'\n"),
            "e.toml:2:12: 'candidate.x.pipeline' must be an array of strings");
  // skip_levels: the levels at which skip_targets applies, only the size levels.
  EXPECT_EQ(Err("[candidate.x]\nskip_levels = ['O2']\n"),
            "e.toml:2:15: 'candidate.x.skip_levels' may hold only \"Oz\" and \"Os\"");
  {
    Config D;
    ASSERT_FALSE(bool(applyConfigText(
        D, "[candidate.c]\nskip_targets = ['aarch64']\nskip_levels = ['Oz']\n", "c.toml")));
    const CandidateSpec &C = D.CandidateLibrary["c"];
    EXPECT_TRUE(skipsTargetAt(C.SkipTargets, C.SkipLevels, "aarch64-unknown-linux-gnu", "Oz"));
    EXPECT_FALSE(skipsTargetAt(C.SkipTargets, C.SkipLevels, "aarch64-unknown-linux-gnu", "Os"));
    EXPECT_FALSE(skipsTargetAt(C.SkipTargets, C.SkipLevels, "x86_64-pc-linux-gnu", "Oz"));
  }
  EXPECT_EQ(Err("[candidate.'a b']\n"),
            "e.toml:1:1: 'a b' is not a valid candidate name (letters, digits, '_', '.' and '-')");
  EXPECT_EQ(Err("candidate = 3\n"),
            "e.toml:1:13: 'candidate' must be a table of [candidate.NAME] tables");
}

TEST_F(ConfigTest, UserCandidateEnabledFromEnv) {
  std::string P = write("home/.config/smartcc/config.toml",
                        "[candidate.mine]\nllvm_args = ['-enable-machine-outliner=always']\n");
  Vars["SMARTCC_CANDIDATES"] = "mine, oz-merge-functions";
  auto C = load();
  ASSERT_LOADED(C);
  std::vector<CandidateSpec> Enabled = C->enabledCandidates();
  ASSERT_EQ(Enabled.size(), 2u);
  EXPECT_EQ(Enabled[0].Name, "mine");
  EXPECT_EQ(Enabled[1].Name, "oz-merge-functions");
  EXPECT_EQ(C->Origin["candidates"], "SMARTCC_CANDIDATES");
  EXPECT_EQ(C->Origin["candidate.mine"], P);
  EXPECT_EQ(C->Origin["candidate.oz-merge-functions"], Builtin);
}

TEST_F(ConfigTest, NoneCandidates) {
  Vars["SMARTCC_CANDIDATES"] = "none";
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_TRUE(C->Candidates.empty());
  EXPECT_TRUE(C->enabledCandidates().empty());
  auto F = load({"--smartcc-candidates=baseline-replica"});
  ASSERT_LOADED(F);
  EXPECT_EQ(F->Candidates, std::vector<std::string>{"baseline-replica"});
  EXPECT_EQ(F->Origin["candidates"], "--smartcc-candidates");
  Vars.erase("SMARTCC_CANDIDATES");
  write("work/.smartcc.toml", "candidates = []\n");
  auto T = load();
  ASSERT_LOADED(T);
  EXPECT_TRUE(T->Candidates.empty());
}

TEST_F(ConfigTest, PathsAndOrigins) {
  std::string U = write("home/.config/smartcc/config.toml",
                        "stats_dir = '/var/stats'\nharvest = '/h'\n");
  Vars["SMARTCC_LOG"] = "/tmp/x.jsonl";
  auto C = load({"--smartcc-harvest=/flag-h"});
  ASSERT_LOADED(C);
  EXPECT_EQ(C->StatsDir, "/var/stats");
  EXPECT_EQ(C->effectiveStatsDir(), "/var/stats");
  EXPECT_EQ(C->LogPath, "/tmp/x.jsonl");
  EXPECT_EQ(C->Origin["log"], "SMARTCC_LOG");
  EXPECT_EQ(C->HarvestDir, "/flag-h");
  EXPECT_EQ(C->Origin["harvest"], "--smartcc-harvest");
  EXPECT_EQ(C->Origin["stats_dir"], U);
}

// The trust model (runtime/config/ProjectTrust.h, docs/security.md): a project file found above the
// working directory may not name what smartcc writes or runs, unless the user says so.
TEST_F(ConfigTest, ProjectFileMayNotSetWhatWritesOrRuns) {
  struct Case {
    const char *Text, *Key;
  } Cases[] = {{"log = '/home/victim/.bashrc'\n", "log"},
               {"stats_dir = '/tmp/s'\n", "stats_dir"},
               {"harvest = '/tmp/h'\n", "harvest"},
               {"harvest_gcc = true\n", "harvest_gcc"},
               {"save_candidates = '/tmp/c'\n", "save_candidates"},
               {"agent = '/tmp/model.smm'\n", "agent"},
               {"trust_project_config = true\n", "trust_project_config"},
               {"[candidate.x]\npipeline = ['default']\n", "candidate"},
               {"[link_candidate.x]\nlinker_args = ['--load-pass-plugin=/tmp/x.so']\n",
                "link_candidate"}};
  for (const Case &C : Cases) {
    std::string P = write("work/.smartcc.toml", std::string("jobs = 1\n") + C.Text);
    std::string E = loadError();
    EXPECT_EQ(E.rfind(P + ":2:", 0), 0u) << E;
    EXPECT_NE(E.find(std::string("'") + C.Key + "' is not allowed in a project file"),
              std::string::npos)
        << E;
  }
  // What only tunes the optimization stays allowed.
  write("work/.smartcc.toml", "agent = 'off'\nregalloc = 'ml'\ncandidates = ['oz-merge-functions']\n"
                              "metric = 'code'\nexplain = true\n");
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_EQ(C->SizeMetric, Metric::CodeBytes);
}

TEST_F(ConfigTest, TrustProjectConfigIsTheUsersSay) {
  std::string P = write("work/.smartcc.toml", "log = 'build.jsonl'\n");
  write("home/.config/smartcc/config.toml", "trust_project_config = true\n");
  auto C = load();
  ASSERT_LOADED(C);
  EXPECT_EQ(C->Origin["log"], P);
  llvm::sys::fs::remove(userFile());
  EXPECT_NE(loadError().find("'log' is not allowed"), std::string::npos);
  Vars["SMARTCC_TRUST_PROJECT_CONFIG"] = "1";
  ASSERT_LOADED(load());
  Vars.erase("SMARTCC_TRUST_PROJECT_CONFIG");
  ASSERT_LOADED(load({"--smartcc-trust-project-config"}));
  EXPECT_NE(loadError({"--smartcc-trust-project-config=0"}).find("'log' is not allowed"),
            std::string::npos);
}

TEST_F(ConfigTest, ProjectFileOthersMayChangeIsNotRead) {
  std::string P = write("work/.smartcc.toml", "jobs = 1\n");
  ASSERT_EQ(::chmod(P.c_str(), 0664), 0);
  std::string E = loadError();
  EXPECT_EQ(E.rfind(P + ": not read: others may write it", 0), 0u) << E;
  ASSERT_EQ(::chmod(P.c_str(), 0644), 0);
  ASSERT_LOADED(load());
  // A folder others may write (and not sticky): they could replace the file.
  ASSERT_EQ(::chmod(Work.c_str(), 0777), 0);
  E = loadError();
  EXPECT_NE(E.find("not read: others may replace it: its folder"), std::string::npos) << E;
  ASSERT_EQ(::chmod(Work.c_str(), 01777), 0); // sticky, as /tmp: only the owner may replace it
  ASSERT_LOADED(load());
  ASSERT_EQ(::chmod(Work.c_str(), 0755), 0);
}

TEST_F(ConfigTest, ProjectFileOfAnotherUserIsNotRead) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "giving a file to another user needs root";
  std::string P = write("work/.smartcc.toml", "jobs = 1\n");
  ASSERT_EQ(::chown(P.c_str(), 65534, (gid_t)-1), 0);
  std::string E = loadError();
  EXPECT_EQ(E, P + ": not read: it is owned by uid 65534, not by you (uid 0); a project file is "
                   "trusted only when it is yours and only you can change it (docs/security.md)");
  // SMARTCC_CONFIG names a file explicitly: the user's own choice, read as such.
  Vars["SMARTCC_CONFIG"] = P;
  ASSERT_LOADED(load());
}

TEST(ConfigEffective, StatsDirFromXdgOrHome) {
  // effectiveStatsDir reads the real environment at call time.
  auto Save = [](const char *N) -> std::optional<std::string> {
    const char *V = ::getenv(N);
    return V ? std::optional<std::string>(V) : std::nullopt;
  };
  std::optional<std::string> Xdg = Save("XDG_CACHE_HOME"), Home = Save("HOME");
  Config C;
  ::setenv("XDG_CACHE_HOME", "/xdg-cache", 1);
  EXPECT_EQ(C.effectiveStatsDir(), "/xdg-cache/smartcc");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(C.effectiveStatsDir(), "/home/someone/.cache/smartcc");
  for (auto &[N, V] : {std::make_pair("XDG_CACHE_HOME", Xdg), std::make_pair("HOME", Home)}) {
    if (V)
      ::setenv(N, V->c_str(), 1);
    else
      ::unsetenv(N);
  }
}

TEST(ConfigEffective, Jobs) {
  Config C;
  C.Jobs = 3;
  EXPECT_EQ(C.effectiveJobs(), 3u);
  C.Jobs = 0;
  EXPECT_GE(C.effectiveJobs(), 1u);
}

TEST_F(ConfigTest, PrintConfig) {
  Vars["SMARTCC_METRIC"] = "text";
  auto C = load({"--smartcc-levels=Oz"});
  ASSERT_LOADED(C);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printConfig(*C, OS);
  OS.flush();
  EXPECT_NE(Out.find("(SMARTCC_METRIC) metric = \"text\"\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("(--smartcc-levels) levels = [\"Oz\"]\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("(default) max_growth = 8.0\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("(default) disable = false\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("(<builtin>/candidates.toml) candidates = [\"oz-late-outliner-no-jump-"
                     "tables-allocators\", \"oz-late-outliner-no-jump-tables-allocators-proposed\", "
                     "\"oz-late-allocators\", \"oz-late-outliner-no-jump-"
                     "tables\", \"oz-late-allocators-predicted\", \"oz-late-ir-outliner\", \"oz-late-no-jump-tables\", "
                     "\"oz-machine-outliner\", "
                     "\"oz-no-jump-tables\", \"oz-merge-functions\"]\n"),
            std::string::npos)
      << Out;
  // Every field a candidate may have is shown, late candidates and skipped targets included.
  EXPECT_NE(Out.find("candidate.oz-machine-outliner = { description = \"outline repeated "
                     "machine-code sequences into shared functions\", pipeline = [], llvm_args = "
                     "[\"-enable-machine-outliner=always\"], after_clang_pipeline = true, "
                     "skip_targets = [\"aarch64\"], skip_levels = [\"Oz\"] }"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("(<builtin>/candidates.toml) candidate.oz-merge-functions = {"),
            std::string::npos)
      << Out;
}

TEST(ConfigHelp, ListsEverySetting) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printConfigHelp(OS);
  OS.flush();
  for (const char *S :
       {"SMARTCC_DISABLE", "SMARTCC_LEVELS", "SMARTCC_METRIC", "SMARTCC_JOBS", "SMARTCC_TIMEOUT_MS",
        "SMARTCC_MAX_GROWTH", "SMARTCC_LOG", "SMARTCC_STATS_DIR", "SMARTCC_STATS", "SMARTCC_EXPLAIN",
        "SMARTCC_HARVEST", "SMARTCC_CANDIDATES", "SMARTCC_CONFIG", "--smartcc-stats-enabled",
        "--smartcc-timeout-ms", "timeout_ms", "max_growth", "60000", "\"oz-no-jump-tables\"",
        "SMARTCC_REGALLOC_GROWTH", "--smartcc-regalloc-growth=PERCENT"})
    EXPECT_NE(Out.find(S), std::string::npos) << S;
  // function_mix unset follows the effort: the default column says so, not `true`.
  size_t Mix = Out.find("  function_mix ");
  ASSERT_NE(Mix, std::string::npos) << Out;
  std::string Line = Out.substr(Mix, Out.find('\n', Mix) - Mix);
  EXPECT_NE(Line.find("effort 2 only"), std::string::npos) << Line;
}

} // namespace
