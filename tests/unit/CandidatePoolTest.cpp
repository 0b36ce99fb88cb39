// The candidate process machinery, end to end, without running clang's frontend: a real
// CompilerInstance built from cc1 arguments supplies the options and diagnostics candidates
// read, a parsed IR module stands in for the frontend's output, and CandidatePool forks the
// launcher and the candidates exactly as a compile does. Misbehaving test passes prove that a
// crash, a hang or a fatal error stays inside its process, reports the right outcome, and
// leaves the test process (standing in for the compiler) alive and silent.
#include "runtime/candidates/CandidatePool.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/compile/PipelineBuilder.h"
#include "runtime/measure/SizeMeasurer.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "runtime/support/LLVMTargets.h"
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <mutex>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace smartcc;

namespace {

// Something the default -Oz pipeline has work to do on (inlining, folding), with a loop.
const char *ModuleIR = R"IR(
define internal i32 @helper(i32 %x) {
  %y = mul i32 %x, 3
  %z = add i32 %y, 1
  ret i32 %z
}

define i32 @sum(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %idx = sext i32 %i to i64
  %addr = getelementptr i32, ptr %p, i64 %idx
  %v = load i32, ptr %addr
  %h = call i32 @helper(i32 %v)
  %acc.next = add i32 %acc, %h
  %i.next = add i32 %i, 1
  %done = icmp sge i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %acc.next
}
)IR";

CandidateSpec spec(const std::string &Name, std::vector<std::string> Pipeline) {
  CandidateSpec S;
  S.Name = Name;
  S.Pipeline = std::move(Pipeline);
  return S;
}

class CandidatePoolTest : public ::testing::Test {
protected:
  void SetUp() override {
    initializeLLVMTargetsOnce();
    makeInstance("-emit-obj");
    if (HasFatalFailure())
      return;
    parseModule();
  }

  // A CompilerInstance configured as for `clang -Oz -c x.c` on x86-64 Linux: what the
  // candidates read their options, target and diagnostics from.
  void makeInstance(const char *Action) {
    clang::DiagnosticOptions DiagOpts;
    auto *Buffer = new clang::TextDiagnosticBuffer();
    clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts, Buffer);
    auto Inv = std::make_shared<clang::CompilerInvocation>();
    const char *Args[] = {"-triple", "x86_64-pc-linux-gnu", "-Oz", Action, "-o", "x.o",
                          "-x",      "c",                   "x.c"};
    ASSERT_TRUE(clang::CompilerInvocation::CreateFromArgs(*Inv, Args, Diags));
    ASSERT_EQ(Buffer->err_begin(), Buffer->err_end());
    CI = std::make_unique<clang::CompilerInstance>(Inv);
    CI->createVirtualFileSystem();
    CI->createDiagnostics();
    ASSERT_TRUE(CI->createTarget());
  }

  void parseModule() {
    SMDiagnostic Err;
    M = parseAssemblyString(ModuleIR, Err, Ctx);
    ASSERT_NE(M, nullptr) << Err.getMessage().str();
    // The module must look like the frontend's: clang's triple and data layout.
    Expected<std::unique_ptr<TargetMachine>> TM = createClangLikeTargetMachine(*CI);
    ASSERT_TRUE(bool(TM)) << toString(TM.takeError());
    M->setTargetTriple(Triple(CI->getTargetOpts().Triple));
    M->setDataLayout((*TM)->createDataLayout());
    ASSERT_FALSE(verifyModule(*M, &errs()));
  }

  CandidateContext context(bool EmitAssembly = false, double MaxGrowth = 8.0) {
    CandidateContext C;
    C.CI = CI.get();
    C.EmitAssembly = EmitAssembly;
    C.MaxGrowth = MaxGrowth;
    return C;
  }

  std::unique_ptr<CandidatePool> launch(std::vector<CandidateSpec> Specs,
                                        const CandidateContext &C, unsigned Jobs,
                                        unsigned TimeoutMs) {
    Expected<std::unique_ptr<CandidatePool>> P =
        CandidatePool::launch(*M, std::move(Specs), C, Jobs, TimeoutMs);
    if (!P) {
      ADD_FAILURE() << toString(P.takeError());
      return nullptr;
    }
    return std::move(*P);
  }

  // The object a successful candidate handed back must be a real, measurable object whose
  // measurement agrees with what the candidate reported.
  void expectValidObject(const CandidatePool &Pool, size_t I) {
    const CandidateResult &R = Pool.result(I);
    ASSERT_EQ(R.Result, Outcome::Ok) << R.Message;
    EXPECT_GT(R.ObjectBytes, 0u);
    Expected<std::string> Bytes = Pool.objectBytes(I);
    ASSERT_TRUE(bool(Bytes)) << toString(Bytes.takeError());
    EXPECT_EQ(Bytes->size(), R.ObjectBytes);
    EXPECT_EQ(Bytes->substr(0, 4), "\x7f"
                                   "ELF");
    Expected<ObjectSize> Size = measureObject(MemoryBufferRef(*Bytes, "candidate.o"));
    ASSERT_TRUE(bool(Size)) << toString(Size.takeError());
    EXPECT_EQ(Size->FileBytes, R.Object.FileBytes);
    EXPECT_EQ(Size->AllocBytes, R.Object.AllocBytes);
    EXPECT_EQ(Size->TextBytes, R.Object.TextBytes);
    EXPECT_GT(Size->TextBytes, 0u);
  }

  LLVMContext Ctx;
  std::unique_ptr<clang::CompilerInstance> CI;
  std::unique_ptr<Module> M;
};

TEST_F(CandidatePoolTest, MisbehavingCandidatesAreContained) {
  std::vector<CandidateSpec> Specs{
      spec("crash", {"smartcc-test-crash"}),
      spec("hang", {"smartcc-test-hang"}),
      spec("fatal", {"smartcc-test-fatal"}),
      spec("badpipe", {"function(no-such-pass)"}),
      spec("invalid", {"smartcc-test-invalid"}),
      spec("default", {"default"}),
  };
  CandidateSpec BadOption = spec("badopt", {"default"});
  BadOption.LLVMArgs = {"-smartcc-no-such-llvm-option=1"};
  Specs.push_back(BadOption);
  uint64_t InstructionsBefore = countIRInstructions(*M);

  // The compiler's stdout and stderr are the build's: candidates must never write to them.
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  auto Start = std::chrono::steady_clock::now();
  std::unique_ptr<CandidatePool> Pool = launch(Specs, context(), /*Jobs=*/8, /*TimeoutMs=*/1000);
  if (Pool)
    Pool->wait();
  double Elapsed =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  std::string Out = testing::internal::GetCapturedStdout();
  std::string Err = testing::internal::GetCapturedStderr();
  ASSERT_NE(Pool, nullptr);

  EXPECT_EQ(Out, "");
  EXPECT_EQ(Err, "");
  ASSERT_EQ(Pool->size(), Specs.size());
  for (size_t I = 0; I < Specs.size(); ++I)
    EXPECT_EQ(Pool->spec(I).Name, Specs[I].Name);

  const CandidateResult &Crash = Pool->result(0);
  EXPECT_EQ(Crash.Result, Outcome::Crashed) << outcomeName(Crash.Result) << ": " << Crash.Message;
  EXPECT_EQ(Crash.Signal, SIGSEGV);
  EXPECT_STREQ(Crash.Message, strsignal(SIGSEGV));

  const CandidateResult &Hang = Pool->result(1);
  EXPECT_EQ(Hang.Result, Outcome::Timeout) << outcomeName(Hang.Result) << ": " << Hang.Message;
  EXPECT_GE(Hang.Millis, 1000.0);
  // Killed by the launcher at its timeout, not by the candidate's own alarm() backstop
  // (timeout + 2 s), which would also read as a timeout.
  EXPECT_LT(Hang.Millis, 2500.0);

  const CandidateResult &Fatal = Pool->result(2);
  EXPECT_EQ(Fatal.Result, Outcome::FatalError) << outcomeName(Fatal.Result);
  EXPECT_NE(std::strstr(Fatal.Message, "deliberate"), nullptr) << Fatal.Message;

  const CandidateResult &BadPipe = Pool->result(3);
  EXPECT_EQ(BadPipe.Result, Outcome::BadPipeline) << outcomeName(BadPipe.Result);
  EXPECT_NE(std::strstr(BadPipe.Message, "no-such-pass"), nullptr) << BadPipe.Message;

  const CandidateResult &Invalid = Pool->result(4);
  EXPECT_EQ(Invalid.Result, Outcome::VerifierFailed) << outcomeName(Invalid.Result);
  EXPECT_NE(Invalid.Message[0], 0);

  expectValidObject(*Pool, 5);
  const CandidateResult &Default = Pool->result(5);
  EXPECT_EQ(Default.IRBefore, InstructionsBefore);
  EXPECT_GT(Default.IRAfter, 0u);
  EXPECT_EQ(Default.AsmBytes, 0u);
  EXPECT_EQ(Default.Message[0], 0);

  const CandidateResult &BadOpt = Pool->result(6);
  EXPECT_EQ(BadOpt.Result, Outcome::BadPipeline) << outcomeName(BadOpt.Result);
  EXPECT_NE(std::strstr(BadOpt.Message, "smartcc-no-such-llvm-option"), nullptr)
      << BadOpt.Message;

  // All in parallel: the hang's timeout dominates, nothing waited for the launcher's backstop.
  EXPECT_LT(Elapsed, 8000.0);

  // The compiler's module is untouched by what the candidates did to their copies.
  EXPECT_EQ(countIRInstructions(*M), InstructionsBefore);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  EXPECT_NE(M->getFunction("helper"), nullptr);

  // Every process the pool started has been reaped.
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST_F(CandidatePoolTest, OneJobRunsCandidatesInTurn) {
  std::vector<CandidateSpec> Specs{spec("crash", {"smartcc-test-crash"}),
                                   spec("default", {"default"}),
                                   spec("simplify", {"function(simplifycfg,instcombine)"})};
  std::unique_ptr<CandidatePool> Pool = launch(Specs, context(), /*Jobs=*/1, /*TimeoutMs=*/5000);
  ASSERT_NE(Pool, nullptr);
  Pool->wait();
  EXPECT_EQ(Pool->result(0).Result, Outcome::Crashed);
  expectValidObject(*Pool, 1);
  expectValidObject(*Pool, 2);
  // Without inlining, @helper survives: the two pipelines really produced different code.
  Expected<std::string> A = Pool->objectBytes(1);
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  Expected<std::string> B = Pool->objectBytes(2);
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  EXPECT_NE(*A, *B);
}

TEST_F(CandidatePoolTest, GrowthIsDiscarded) {
  // smartcc-test-bloat makes 64 copies of every function: far past a growth factor of 2.
  std::vector<CandidateSpec> Specs{spec("bloat", {"smartcc-test-bloat"})};
  std::unique_ptr<CandidatePool> Pool =
      launch(Specs, context(/*EmitAssembly=*/false, /*MaxGrowth=*/2.0), 1, 5000);
  ASSERT_NE(Pool, nullptr);
  Pool->wait();
  const CandidateResult &R = Pool->result(0);
  EXPECT_EQ(R.Result, Outcome::Growth) << outcomeName(R.Result) << ": " << R.Message;
  EXPECT_EQ(R.IRBefore, countIRInstructions(*M));
  EXPECT_GT(R.IRAfter, 2 * 64u);
  EXPECT_NE(std::strstr(R.Message, "IR grew from"), nullptr) << R.Message;
}

TEST_F(CandidatePoolTest, AssemblyFollowsTheObject) {
  std::vector<CandidateSpec> Specs{spec("default", {"default"})};
  std::unique_ptr<CandidatePool> Pool = launch(Specs, context(/*EmitAssembly=*/true), 1, 5000);
  ASSERT_NE(Pool, nullptr);
  Pool->wait();
  expectValidObject(*Pool, 0);
  const CandidateResult &R = Pool->result(0);
  EXPECT_GT(R.AsmBytes, 0u);
  Expected<std::string> Asm = Pool->assemblyBytes(0);
  ASSERT_TRUE(bool(Asm)) << toString(Asm.takeError());
  EXPECT_EQ(Asm->size(), R.AsmBytes);
  EXPECT_NE(Asm->find("sum:"), std::string::npos) << *Asm;
  EXPECT_EQ(Asm->find("\x7f"
                      "ELF"),
            std::string::npos);
}

TEST_F(CandidatePoolTest, CancelKillsTheLauncherAndItsCandidates) {
  // As a child subreaper this process inherits the candidate orphaned by cancel(), so it can
  // see that the candidate really died (killed by its PDEATHSIG) instead of hanging on.
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  std::vector<CandidateSpec> Specs{spec("hang", {"smartcc-test-hang"})};
  std::unique_ptr<CandidatePool> Pool = launch(Specs, context(), 1, /*TimeoutMs=*/60000);
  if (!Pool) {
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    FAIL();
  }
  // Let the candidate start and reach its loop (it sets PDEATHSIG right after its fork).
  usleep(300 * 1000);
  auto Start = std::chrono::steady_clock::now();
  Pool->cancel();
  Pool->wait(); // nothing left to wait for
  auto Since = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
        .count();
  };
  EXPECT_LT(Since(), 2000.0);
  // The launcher died before it could record anything.
  EXPECT_EQ(Pool->result(0).Result, Outcome::NotRun);

  std::vector<int> Orphans;
  while (Since() < 3000) {
    int Status = 0;
    pid_t Pid = waitpid(-1, &Status, WNOHANG);
    if (Pid > 0) {
      Orphans.push_back(Status);
      continue;
    }
    if (Pid < 0)
      break; // ECHILD: nothing left
    usleep(1000);
  }
  prctl(PR_SET_CHILD_SUBREAPER, 0);
  ASSERT_EQ(Orphans.size(), 1u) << "the hung candidate was not killed with its launcher";
  EXPECT_TRUE(WIFSIGNALED(Orphans[0]));
  EXPECT_EQ(WTERMSIG(Orphans[0]), SIGKILL);
}

TEST_F(CandidatePoolTest, NoCandidates) {
  std::unique_ptr<CandidatePool> Pool = launch({}, context(), 4, 1000);
  ASSERT_NE(Pool, nullptr);
  Pool->wait();
  EXPECT_EQ(Pool->size(), 0u);
}

} // namespace
