// Replaying a saved optimized module into lld's merged one (runtime/link/plugin/OptimizedModuleReplay.h):
// the result is the saved module, in its order, with its comdats, aliases, metadata and
// module assembly; another program's module is refused and leaves the module as it was.
#include "runtime/link/plugin/OptimizedModuleReplay.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;

namespace {

// What the link's middle-end produced: the program after LTO's pipeline.
const char *Optimized = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
module asm ".globl marker"
$shared = comdat any
@counter = internal global i32 0
@table = dso_local constant [2 x ptr] [ptr @helper, ptr @main], comdat($shared)
@alias = alias i32 (), ptr @main
define internal i32 @helper() { ret i32 7 }
define dso_local i32 @main() {
  %v = load i32, ptr @counter
  %r = call i32 @helper()
  %s = add i32 %v, %r
  ret i32 %s
}
!llvm.module.flags = !{!0}
!0 = !{i32 1, !"wchar_size", i32 4}
)IR";

// What lld merged before it: the same exported definitions, other bodies and internals.
const char *Merged = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@counter = internal global i32 5
@table = dso_local constant [2 x ptr] [ptr @unused, ptr @main]
@alias = alias i32 (), ptr @main
define internal i32 @unused() { ret i32 1 }
define internal i32 @helper() { %x = call i32 @unused()
  ret i32 %x }
define dso_local i32 @main() { %r = call i32 @helper()
  ret i32 %r }
!llvm.module.flags = !{!0}
!llvm.ident = !{!1}
!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{!"clang"}
)IR";

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *Text) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, Ctx);
  if (!M)
    Err.print("OptimizedModuleReplayTest", errs());
  return M;
}

// The module's text without its identifier line (the saved one keeps lld's module's name).
std::string body(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return S.substr(S.find('\n') + 1);
}

struct OptimizedModuleReplayTest : ::testing::Test {
  SmallString<128> Path;
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createTemporaryFile("replay-test", "bc", Path));
  }
  void TearDown() override { sys::fs::remove(Path); }
};

TEST_F(OptimizedModuleReplayTest, ReplaysTheSavedModuleInPlace) {
  LLVMContext Ctx;
  std::unique_ptr<Module> Opt = parse(Ctx, Optimized);
  ASSERT_TRUE(Opt);
  ASSERT_FALSE(errorToBool(smartcc::saveOptimizedModule(*Opt, Path)));
  std::unique_ptr<Module> M = parse(Ctx, Merged);
  ASSERT_TRUE(M);
  Module *Same = M.get();
  ASSERT_FALSE(errorToBool(smartcc::replayOptimizedModule(*M, Path)));
  EXPECT_EQ(M.get(), Same); // in place: lld keeps its module
  EXPECT_FALSE(verifyModule(*M, &errs()));
  Opt->setSourceFileName(M->getSourceFileName());
  EXPECT_EQ(body(*M), body(*Opt));
  EXPECT_EQ(M->getFunction("unused"), nullptr);
  EXPECT_EQ(M->getNamedMetadata("llvm.ident"), nullptr);
  ASSERT_TRUE(M->getNamedGlobal("table")->getComdat());
  EXPECT_EQ(M->getNamedGlobal("table")->getComdat(), &M->getComdatSymbolTable().find("shared")->second);
}

TEST_F(OptimizedModuleReplayTest, RefusesAnotherProgram) {
  LLVMContext Ctx;
  std::unique_ptr<Module> Opt = parse(Ctx, Optimized);
  ASSERT_TRUE(Opt);
  ASSERT_FALSE(errorToBool(smartcc::saveOptimizedModule(*Opt, Path)));
  // An exported definition the saved module lacks.
  std::unique_ptr<Module> M = parse(Ctx, (std::string(Merged) + "define i32 @extra() { ret i32 0 }\n").c_str());
  ASSERT_TRUE(M);
  std::string Before = body(*M);
  Error E = smartcc::replayOptimizedModule(*M, Path);
  ASSERT_TRUE(bool(E));
  std::string Msg = toString(std::move(E));
  EXPECT_NE(Msg.find("smartcc-replay-optimized: " + Path.str().str() +
                     ": not this link's program: no definition of extra"),
            std::string::npos)
      << Msg;
  EXPECT_EQ(body(*M), Before);
  // Another target.
  std::unique_ptr<Module> A = parse(Ctx, Merged);
  A->setTargetTriple(Triple("aarch64-unknown-linux-gnu"));
  E = smartcc::replayOptimizedModule(*A, Path);
  ASSERT_TRUE(bool(E));
  Msg = toString(std::move(E));
  EXPECT_NE(Msg.find("target x86_64-pc-linux-gnu, the link's is aarch64-unknown-linux-gnu"),
            std::string::npos)
      << Msg;
  // No file.
  E = smartcc::replayOptimizedModule(*A, Path.str().str() + ".none");
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("No such file"), std::string::npos);
}

} // namespace
