// Separation of smartcc's own --smartcc-* arguments from the compiler's, and the hand-over of
// command-line settings to the cc1 child processes through the environment.
#include "driver/SmartccArgs.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace smartcc;

namespace {

SplitArgs split(const std::vector<const char *> &Argv) {
  return splitSmartccArgs(int(Argv.size()), const_cast<const char **>(Argv.data()));
}

std::vector<std::string> strings(const std::vector<const char *> &V) {
  return std::vector<std::string>(V.begin(), V.end());
}

TEST(SmartccArgsSplit, SeparatesCommandsSettingsAndCompilerArgs) {
  std::vector<const char *> Argv{"smartcc",
                                 "-Oz",
                                 "--smartcc-explain",
                                 "-c",
                                 "--smartcc-stats",
                                 "a.c",
                                 "--smartcc-metric=text_bytes",
                                 "-o",
                                 "a.o",
                                 "--smartcc-version",
                                 "--smartcc-jobs=3",
                                 "-DX=1"};
  SplitArgs S = split(Argv);
  EXPECT_EQ(strings(S.CompilerArgs),
            (std::vector<std::string>{"smartcc", "-Oz", "-c", "a.c", "-o", "a.o", "-DX=1"}));
  EXPECT_EQ(S.Commands, (std::vector<std::string>{"--smartcc-stats", "--smartcc-version"}));
  EXPECT_EQ(S.Settings, (std::vector<std::string>{"--smartcc-explain", "--smartcc-metric=text_bytes",
                                                  "--smartcc-jobs=3"}));
}

TEST(SmartccArgsSplit, CompilerArgsPointIntoArgv) {
  // The compiler's arguments are handed on as they came: same pointers, nothing copied.
  std::vector<const char *> Argv{"/usr/bin/smartcc", "-c", "--smartcc-explain", "x.c"};
  SplitArgs S = split(Argv);
  ASSERT_EQ(S.CompilerArgs.size(), 3u);
  EXPECT_EQ(S.CompilerArgs[0], Argv[0]);
  EXPECT_EQ(S.CompilerArgs[1], Argv[1]);
  EXPECT_EQ(S.CompilerArgs[2], Argv[3]);
}

TEST(SmartccArgsSplit, OnlyArgv0) {
  std::vector<const char *> Argv{"smartcc"};
  SplitArgs S = split(Argv);
  EXPECT_EQ(strings(S.CompilerArgs), (std::vector<std::string>{"smartcc"}));
  EXPECT_TRUE(S.Commands.empty());
  EXPECT_TRUE(S.Settings.empty());
}

TEST(SmartccArgsSplit, Argv0IsNeverTakenAsASetting) {
  std::vector<const char *> Argv{"--smartcc-odd-name", "--smartcc-help"};
  SplitArgs S = split(Argv);
  EXPECT_EQ(strings(S.CompilerArgs), (std::vector<std::string>{"--smartcc-odd-name"}));
  EXPECT_EQ(S.Commands, (std::vector<std::string>{"--smartcc-help"}));
  EXPECT_TRUE(S.Settings.empty());
}

TEST(SmartccArgsSplit, LookalikesStayWithTheCompiler) {
  // Only the exact "--smartcc-" prefix is ours; anything else is the compiler's business.
  std::vector<const char *> Argv{"smartcc", "-smartcc-explain", "--smartcc", "-Wl,--smartcc-x",
                                 "--SMARTCC-explain"};
  SplitArgs S = split(Argv);
  EXPECT_EQ(strings(S.CompilerArgs), strings(Argv));
  EXPECT_TRUE(S.Commands.empty());
  EXPECT_TRUE(S.Settings.empty());
}

TEST(SmartccArgsSplit, CommandWithValueIsASetting) {
  // Commands take no value; "--smartcc-stats=x" is not the stats command.
  std::vector<const char *> Argv{"smartcc", "--smartcc-stats=x", "--smartcc-stats-dir=/tmp/s"};
  SplitArgs S = split(Argv);
  EXPECT_TRUE(S.Commands.empty());
  EXPECT_EQ(S.Settings,
            (std::vector<std::string>{"--smartcc-stats=x", "--smartcc-stats-dir=/tmp/s"}));
}

TEST(SmartccArgsCommand, Recognised) {
  for (const char *C : {"--smartcc-stats", "--smartcc-stats-json", "--smartcc-zero-stats",
                        "--smartcc-version", "--smartcc-help", "--smartcc-print-config"})
    EXPECT_TRUE(isSmartccCommand(C)) << C;
}

TEST(SmartccArgsCommand, NotCommands) {
  for (const char *C : {"--smartcc-explain", "--smartcc-stats=1", "--smartcc-stat",
                        "--smartcc-version=", "-smartcc-help", "--smartcc-", "", "-c",
                        "--smartcc-print-config-x"})
    EXPECT_FALSE(isSmartccCommand(C)) << C;
}

// Saves and restores the variable so these tests leave the test process as they found it.
class SmartccArgsChildSettings : public ::testing::Test {
protected:
  void SetUp() override {
    if (const char *V = std::getenv(ChildSettingsEnv))
      Saved = V;
    unsetenv(ChildSettingsEnv);
  }
  void TearDown() override {
    if (Saved)
      setenv(ChildSettingsEnv, Saved->c_str(), 1);
    else
      unsetenv(ChildSettingsEnv);
  }
  std::optional<std::string> Saved;
};

TEST_F(SmartccArgsChildSettings, RoundTrip) {
  std::vector<std::string> Settings{"--smartcc-explain", "--smartcc-metric=file_bytes",
                                    "--smartcc-log=/tmp/with space/log.jsonl",
                                    "--smartcc-candidates=a,b"};
  exportSettingsToChildren(Settings);
  const char *Raw = std::getenv(ChildSettingsEnv);
  ASSERT_NE(Raw, nullptr);
  EXPECT_STREQ(Raw, "--smartcc-explain\n--smartcc-metric=file_bytes\n"
                    "--smartcc-log=/tmp/with space/log.jsonl\n--smartcc-candidates=a,b\n");
  EXPECT_EQ(settingsFromParent(), Settings);
}

TEST_F(SmartccArgsChildSettings, EmptyListUnsets) {
  exportSettingsToChildren({"--smartcc-explain"});
  ASSERT_NE(std::getenv(ChildSettingsEnv), nullptr);
  exportSettingsToChildren({});
  EXPECT_EQ(std::getenv(ChildSettingsEnv), nullptr);
  EXPECT_TRUE(settingsFromParent().empty());
}

TEST_F(SmartccArgsChildSettings, UnsetMeansNone) {
  EXPECT_TRUE(settingsFromParent().empty());
}

TEST_F(SmartccArgsChildSettings, BlankLinesAreSkipped) {
  setenv(ChildSettingsEnv, "\n--smartcc-a\n\n--smartcc-b=1", 1);
  EXPECT_EQ(settingsFromParent(), (std::vector<std::string>{"--smartcc-a", "--smartcc-b=1"}));
}

TEST_F(SmartccArgsChildSettings, ReachesAChildProcess) {
  // The point of the variable: a process started afterwards sees the settings.
  exportSettingsToChildren({"--smartcc-explain", "--smartcc-jobs=2"});
  // $(...) strips trailing newlines, hence the sentinel: compare against the value plus "_".
  std::string Cmd = std::string("test \"${") + ChildSettingsEnv + "}_\" = \"$(printf -- " +
        "'--smartcc-explain\\n--smartcc-jobs=2\\n_')\"";
  EXPECT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
}

} // namespace
