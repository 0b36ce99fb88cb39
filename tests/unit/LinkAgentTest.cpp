// How the agent's action sequences become link candidates (runtime/link/LinkAgent.h): macros run
// through smartcc's LTO plugin at the link's level, clang's whole pipeline is lld's own
// lto<O2>, options become function attributes or -mllvm settings, and what a link cannot
// express is refused by name. Also: a link without bitcode gets no agent candidates.
#include "runtime/link/LinkAgent.h"
#include "policies/ActionSpace.h"
#include "policies/SequenceAgent.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace llvm;
using namespace smartcc;

namespace {

ActionSpace space() {
  Expected<ActionSpace> S = loadActionSpaces("macro+options");
  if (!S) {
    ADD_FAILURE() << toString(S.takeError());
    return ActionSpace();
  }
  return std::move(*S);
}

TEST(LinkAgentTest, MacrosRunInThePluginAtTheLinksLevel) {
  ActionSpace S = space();
  Expected<LinkCandidateSpec> C =
      linkCandidateForSequence({"clang-optimization", "clang-inliner"}, S, "Oz");
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  EXPECT_EQ(C->Pipeline, (std::vector<std::string>{"smartcc-macro<optimization;Oz>",
                                                   "smartcc-macro<inliner;Oz>"}));
  EXPECT_TRUE(C->LLVMArgs.empty());
  Expected<LinkCandidateSpec> Os = linkCandidateForSequence({"clang-simplification"}, S, "Os");
  ASSERT_TRUE(bool(Os)) << toString(Os.takeError());
  EXPECT_EQ(Os->Pipeline, std::vector<std::string>{"smartcc-macro<simplification;Os>"});
}

TEST(LinkAgentTest, ClangsPipelineIsLldsOwnAndOptionsKeepTheirPlace) {
  ActionSpace S = space();
  Expected<LinkCandidateSpec> C =
      linkCandidateForSequence({"no-jump-tables", "clang-default", "machine-outliner"}, S, "Oz");
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  EXPECT_EQ(C->Pipeline, (std::vector<std::string>{
                             "smartcc-function-attr<no-jump-tables=true>", "lto<O2>"}));
  EXPECT_EQ(C->LLVMArgs, std::vector<std::string>{"-enable-machine-outliner=always"});
}

TEST(LinkAgentTest, OptionsAloneStillGetLTOsMiddleEnd) {
  ActionSpace S = space();
  Expected<LinkCandidateSpec> C = linkCandidateForSequence({"no-jump-tables"}, S, "Oz");
  ASSERT_TRUE(bool(C)) << toString(C.takeError());
  EXPECT_EQ(C->Pipeline, (std::vector<std::string>{
                             "smartcc-function-attr<no-jump-tables=true>", "lto<O2>"}));
  // A repeated option's arguments are given once.
  Expected<LinkCandidateSpec> Twice =
      linkCandidateForSequence({"machine-outliner", "machine-outliner"}, S, "Oz");
  ASSERT_TRUE(bool(Twice)) << toString(Twice.takeError());
  EXPECT_EQ(Twice->LLVMArgs, std::vector<std::string>{"-enable-machine-outliner=always"});
  EXPECT_EQ(Twice->Pipeline, std::vector<std::string>{"lto<O2>"});
}

TEST(LinkAgentTest, WhatALinkCannotExpressIsNamed) {
  ActionSpace S = space();
  Expected<LinkCandidateSpec> Os = linkCandidateForSequence({"clang-default-os"}, S, "Oz");
  ASSERT_FALSE(bool(Os));
  EXPECT_NE(toString(Os.takeError()).find("'clang-default-os' has no link-time form"),
            std::string::npos);
  Expected<LinkCandidateSpec> Unknown = linkCandidateForSequence({"no-such-action"}, S, "Oz");
  ASSERT_FALSE(bool(Unknown));
  EXPECT_NE(toString(Unknown.takeError()).find("unknown action 'no-such-action'"),
            std::string::npos);
}

TEST(LinkAgentTest, OffOrNoBitcodeMeansNoAgentCandidates) {
  Config Cfg;
  Cfg.LinkAgent = "off";
  LinkAgentChoice Off = linkAgentCandidates({"/nonexistent.o"}, Cfg, "x86_64-pc-linux-gnu", "Oz");
  EXPECT_FALSE(Off.Active);
  EXPECT_TRUE(Off.Specs.empty());

  // A plain text file among the inputs is not bitcode: the agent says so and proposes nothing.
  SmallString<128> Path;
  ASSERT_FALSE(sys::fs::createTemporaryFile("link-agent", "o", Path));
  {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS << "not an object\n";
  }
  Cfg.LinkAgent = SMARTCC_TEST_SOURCE_DIR "/../policies/models/x86_64.smm"; // per-TU model
  LinkAgentChoice C = linkAgentCandidates({std::string(Path)}, Cfg, "x86_64-pc-linux-gnu", "Oz");
  sys::fs::remove(Path);
  EXPECT_FALSE(C.Active);
  EXPECT_TRUE(C.Specs.empty());
  EXPECT_NE(C.Note.find("no bitcode"), std::string::npos) << C.Note;
}

} // namespace

namespace {

// The shipped link model serves: its columns are sequences of its space or candidates of the
// built-in link candidate library (a library rename would otherwise silently drop them).
TEST(LinkAgentTest, TheShippedLinkModelNamesWhatExists) {
  std::optional<Expected<SequenceAgent>> A =
      SequenceAgent::builtinFor("x86_64-pc-linux-gnu", "link-value");
  ASSERT_TRUE(A.has_value()) << "no built-in x86_64 link model";
  ASSERT_TRUE(bool(*A)) << toString(A->takeError());
  EXPECT_TRUE((*A)->isLinkModel());
  // The built-in configuration alone: no environment, no files.
  ConfigEnvironment Env;
  Env.GetEnv = [](const char *) -> std::optional<std::string> { return std::nullopt; };
  Env.WorkingDir = "/";
  Env.SystemFile = "/nonexistent/smartcc/config.toml";
  Expected<Config> Builtin = loadConfig(Env, {});
  ASSERT_TRUE(bool(Builtin)) << toString(Builtin.takeError());
  AutophaseVector Features{};
  unsigned Library = 0, Sequences = 0;
  for (const SequenceProposal &P : (*A)->rank(Features)) {
    if (!P.LinkCandidate.empty()) {
      ++Library;
      EXPECT_TRUE(Builtin->LinkCandidateLibrary.count(P.LinkCandidate)) << P.LinkCandidate;
    } else {
      ++Sequences;
      EXPECT_FALSE(P.Actions.empty());
    }
  }
  EXPECT_GT(Library, 0u);
  EXPECT_GT(Sequences, 0u);
  // No per-TU agent is mistaken for it, and no AArch64 link model exists yet.
  EXPECT_FALSE(SequenceAgent::builtinFor("aarch64-unknown-linux-gnu", "link-value").has_value());
}

} // namespace
