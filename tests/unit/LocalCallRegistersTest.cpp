// Interprocedural register allocation only across calls that bind locally
// (runtime/compile/LocalCallRegisters.h): the -mllvm settings that turn it on, the module flag
// the guard sets, and where a link candidate's pipeline gets the guard (driver/LTOLinkCommand.h).
// The code it makes is tested end to end in tests/lit/lto/ipra-local-calls.test.
#include "driver/LTOLinkCommand.h"
#include "runtime/compile/LocalCallRegisters.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include <gtest/gtest.h>

using namespace smartcc;
using namespace llvm;

TEST(LocalCallRegisters, SettingsThatEnableIPRA) {
  EXPECT_FALSE(enablesIPRA({}));
  EXPECT_FALSE(enablesIPRA({"-enable-machine-outliner=always"}));
  EXPECT_TRUE(enablesIPRA({"-enable-ipra"}));
  EXPECT_TRUE(enablesIPRA({"--enable-ipra=true"}));
  EXPECT_TRUE(enablesIPRA({"-enable-ipra=1"}));
  EXPECT_FALSE(enablesIPRA({"-enable-ipra", "-enable-ipra=false"})); // the last one wins
  EXPECT_FALSE(enablesIPRA({"-enable-ipra-extra"}));
}

TEST(LocalCallRegisters, GuardSetsSemanticInterposition) {
  LLVMContext Ctx;
  Module M("m", Ctx);
  EXPECT_FALSE(M.getSemanticInterposition());
  EXPECT_TRUE(limitIPRAToLocalCalls(M));
  EXPECT_TRUE(M.getSemanticInterposition());
  EXPECT_FALSE(limitIPRAToLocalCalls(M)); // already set
  // -fno-semantic-interposition's 0 is replaced.
  Module N("n", Ctx);
  N.setSemanticInterposition(false);
  EXPECT_TRUE(limitIPRAToLocalCalls(N));
  EXPECT_TRUE(N.getSemanticInterposition());
}

// Patched entries (-pg, -mfentry, -fpatchable-function-entry): IPRA is turned off instead.
TEST(LocalCallRegisters, PatchableEntriesTurnIPRAOff) {
  LLVMContext Ctx;
  Module M("m", Ctx);
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                 GlobalValue::ExternalLinkage, "f", M);
  EXPECT_FALSE(hasPatchableEntries(M));
  F->addFnAttr("fentry-call", "true");
  EXPECT_TRUE(hasPatchableEntries(M));
  ASSERT_TRUE(setLLVMOption("enable-ipra", "true"));
  EXPECT_TRUE(ipraEnabledInProcess());
  EXPECT_TRUE(limitIPRAToLocalCalls(M));
  EXPECT_FALSE(ipraEnabledInProcess());
  resetLLVMOptionsNamedIn({"-enable-ipra"});
  EXPECT_FALSE(setLLVMOption("no-such-option-anywhere", "1"));
}

namespace {
std::string passesOf(const std::vector<std::string> &Args) {
  for (StringRef A : Args)
    if (A.consume_front("--lto-newpm-passes="))
      return A.str();
  return "";
}
bool loadsPlugin(const std::vector<std::string> &Args) {
  for (StringRef A : Args)
    if (A.starts_with("--load-pass-plugin="))
      return true;
  return false;
}
} // namespace

TEST(LocalCallRegisters, LinkCandidatesGetTheGuard) {
  LinkCandidateSpec S;
  S.Name = "t";
  // lld's own pipeline: the guard after it, through the plugin.
  S.LLVMArgs = {"-enable-ipra"};
  std::vector<std::string> Args = extraLinkerArgs(S, /*Thin=*/false, 2, "");
  EXPECT_EQ(passesOf(Args), "lto<O2>,smartcc-ipra-local-calls");
  EXPECT_TRUE(loadsPlugin(Args));
  EXPECT_TRUE(usesPlugin(S)); // (so a link without the plugin does not run it)
  // After the candidate's optimization, before the allocators' planning.
  S.AfterLTOPipeline = true;
  S.Pipeline = {"smartcc-function-attr<no-jump-tables=true>", "smartcc-allocators<proposed>"};
  EXPECT_EQ(passesOf(extraLinkerArgs(S, false, 2, "/tmp/o.bc")),
            "smartcc-replay-optimized</tmp/o.bc>,smartcc-function-attr<no-jump-tables=true>,"
            "smartcc-ipra-local-calls,smartcc-allocators<proposed>");
  // Named by the candidate: not twice.
  S.Pipeline = {"smartcc-ipra-local-calls"};
  EXPECT_EQ(passesOf(extraLinkerArgs(S, false, 2, "")), "lto<O2>,smartcc-ipra-local-calls");
  // Without IPRA nothing is added.
  S.LLVMArgs = {"-enable-ipra=false"};
  S.Pipeline.clear();
  S.AfterLTOPipeline = false;
  Args = extraLinkerArgs(S, false, 2, "");
  EXPECT_EQ(passesOf(Args), "");
  EXPECT_FALSE(loadsPlugin(Args));
  EXPECT_FALSE(usesPlugin(S));
}
