// classifyCompile on real cc1 invocations. The arguments are spelled exactly as the clang-22
// driver spells them for `clang -### -Oz <flag> -c x.c`, so these tests break if the driver's
// spelling and the options smartcc reads ever drift apart. The input file need not exist:
// CreateFromArgs only parses.
#include "driver/Eligibility.h"
#include "runtime/config/BuildProbe.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace smartcc;

namespace {

// Parses cc1 arguments; any parse error fails the test (a misspelled flag would otherwise be
// silently dropped and the test would check nothing).
Eligibility classify(std::vector<const char *> Args, const Config &Cfg = Config()) {
  clang::DiagnosticOptions DiagOpts;
  auto *Buffer = new clang::TextDiagnosticBuffer();
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts, Buffer);
  clang::CompilerInvocation Inv;
  bool Parsed = clang::CompilerInvocation::CreateFromArgs(Inv, Args, Diags);
  std::string Errors;
  for (auto It = Buffer->err_begin(); It != Buffer->err_end(); ++It)
    Errors += It->second + "\n";
  EXPECT_TRUE(Parsed) << Errors;
  EXPECT_EQ(Errors, "");
  return classifyCompile(Inv, Cfg);
}

// `-triple ... <Level> <Extra...> -o x.o -x c x.c`, the shape of a `clang -c x.c` job.
std::vector<const char *> cc1(const char *Level, std::vector<const char *> Extra = {},
                              const char *Action = "-emit-obj") {
  std::vector<const char *> A{"-triple", "x86_64-pc-linux-gnu", Level, Action};
  A.insert(A.end(), Extra.begin(), Extra.end());
  for (const char *S : {"-o", "x.o", "-x", "c", "x.c"})
    A.push_back(S);
  return A;
}

void expectEligible(const Eligibility &E, const char *Level) {
  EXPECT_TRUE(E.Eligible) << "reason: " << E.Reason;
  EXPECT_EQ(E.Reason, "");
  EXPECT_EQ(E.Level, Level);
}

void expectPassthrough(const Eligibility &E, const char *Reason) {
  EXPECT_FALSE(E.Eligible);
  EXPECT_EQ(E.Reason, Reason);
}

TEST(EligibilityTest, DefaultConfigTakesOverOzAndOs) {
  Config Cfg;
  EXPECT_EQ(Cfg.Levels, (std::vector<std::string>{"Oz", "Os"}));
}

TEST(EligibilityTest, OzIsEligible) { expectEligible(classify(cc1("-Oz")), "Oz"); }

TEST(EligibilityTest, OsIsEligible) { expectEligible(classify(cc1("-Os")), "Os"); }

// Build-system probes run no candidate: nobody ships them, and a configure runs hundreds.
TEST(EligibilityTest, BuildProbesArePassedThrough) {
  std::vector<const char *> A = cc1("-Oz");
  A.back() = "conftest.c";
  expectPassthrough(classify(A), "build_probe");
  A = cc1("-Oz", {"-working-directory", "/b/CMakeFiles/CMakeScratch/TryCompile-abc"});
  expectPassthrough(classify(A), "build_probe");
}

TEST(EligibilityTest, BuildProbeNames) {
  EXPECT_TRUE(isBuildProbe("conftest.c", "/src/xz"));
  EXPECT_TRUE(isBuildProbe("conftest.cpp", "/src/xz"));
  EXPECT_TRUE(isBuildProbe("/b/CMakeFiles/3.25.1/CompilerIdC/CMakeCCompilerId.c", "/b"));
  EXPECT_TRUE(isBuildProbe("src.c", "/b/CMakeFiles/CMakeScratch/TryCompile-x1"));
  EXPECT_TRUE(isBuildProbe("/b/CMakeFiles/CMakeTmp/CheckFunctionExists.c", "/b"));
  EXPECT_TRUE(isBuildProbe("testfile.c", "/b/meson-private/tmpa1b2c3"));
  EXPECT_TRUE(isBuildProbe("/b/meson-private/sanitycheckc.c", "/b"));
  EXPECT_TRUE(isBuildProbe("ztest12345.c", "/src/zlib"));
  EXPECT_FALSE(isBuildProbe("ztest.c", "/src/zlib"));
  EXPECT_FALSE(isBuildProbe("ztestx.c", "/src/zlib"));
  // Real code: a CMake build compiles from the build tree into CMakeFiles/TARGET.dir.
  EXPECT_FALSE(isBuildProbe("/src/zlib/deflate.c", "/b"));
  EXPECT_FALSE(isBuildProbe("/src/lib/conftestable.c", "/b")); // only conftest.* is autoconf's
  EXPECT_FALSE(isBuildProbe("x.c", "/home/u/conftest"));
}

TEST(EligibilityTest, AssemblyOutputIsEligible) {
  expectEligible(classify(cc1("-Oz", {}, "-S")), "Oz");
}

TEST(EligibilityTest, CxxIsEligible) {
  expectEligible(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj", "-o", "x.o",
                           "-x", "c++", "x.cpp"}),
                 "Oz");
}

TEST(EligibilityTest, Aarch64IsEligible) {
  expectEligible(classify({"-triple", "aarch64-unknown-linux-gnu", "-Os", "-emit-obj", "-o",
                           "x.o", "-x", "c", "x.c"}),
                 "Os");
}

TEST(EligibilityTest, SpeedLevelsAreNotSizeLevels) {
  for (const char *Level : {"-O0", "-O1", "-O2", "-O3"}) {
    SCOPED_TRACE(Level);
    expectPassthrough(classify(cc1(Level)), "not_size_level");
  }
}

TEST(EligibilityTest, Preprocess) { expectPassthrough(classify(cc1("-Oz", {}, "-E")), "preprocess"); }

TEST(EligibilityTest, SyntaxOnly) {
  // The driver passes no -o for -fsyntax-only.
  expectPassthrough(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-fsyntax-only", "-x",
                              "c", "x.c"}),
                    "syntax_only");
}

TEST(EligibilityTest, EmitLLVM) {
  expectPassthrough(classify(cc1("-Oz", {"-emit-llvm-uselists"}, "-emit-llvm-bc")), "emit_llvm");
  expectPassthrough(classify(cc1("-Oz", {}, "-emit-llvm")), "emit_llvm");
}

TEST(EligibilityTest, LtoObject) {
  // `clang -flto -ffat-lto-objects -c` keeps -emit-obj: only the LTO check can catch it.
  expectPassthrough(
      classify(cc1("-Oz", {"-flto=full", "-flto-unit", "-ffat-lto-objects"})), "lto");
  expectPassthrough(classify(cc1("-Oz", {"-flto=thin", "-flto-unit"})), "lto");
}

TEST(EligibilityTest, LtoBitcodeIsPassedThrough) {
  // Plain `clang -flto -c` is an -emit-llvm-bc compile too; LTO is checked first so the
  // statistics name the real reason.
  Eligibility E = classify(cc1("-Oz", {"-flto=full", "-flto-unit"}, "-emit-llvm-bc"));
  EXPECT_FALSE(E.Eligible);
  EXPECT_EQ(E.Reason, "lto");
}

TEST(EligibilityTest, SeveralInputs) {
  expectPassthrough(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj", "-o",
                              "x.o", "-x", "c", "x.c", "y.c"}),
                    "several_inputs");
}

TEST(EligibilityTest, PreprocessedCIsEligible) {
  // `clang -Oz -c x.i` (and ccache's preprocessed mode) compile cpp-output: still C.
  expectEligible(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj", "-o", "x.o",
                           "-x", "cpp-output", "x.i"}),
                 "Oz");
}

TEST(EligibilityTest, Sanitizer) {
  expectPassthrough(classify(cc1("-Oz", {"-fsanitize=address"})), "sanitizer");
}

TEST(EligibilityTest, StdoutOutput) {
  expectPassthrough(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj", "-o", "-",
                              "-x", "c", "x.c"}),
                    "stdout_output");
}

TEST(EligibilityTest, IRInput) {
  expectPassthrough(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj", "-o",
                              "x.o", "-x", "ir", "x.ll"}),
                    "ir_input");
}

TEST(EligibilityTest, LLVMPassesDisabled) {
  expectPassthrough(classify(cc1("-Oz", {"-disable-llvm-passes"})), "llvm_passes_disabled");
}

TEST(EligibilityTest, SplitDwarf) {
  expectPassthrough(classify(cc1("-Oz", {"-debug-info-kind=constructor", "-dwarf-version=5",
                                         "-split-dwarf-file", "x.dwo", "-split-dwarf-output",
                                         "x.dwo"})),
                    "split_dwarf");
}

TEST(EligibilityTest, StackUsage) {
  // -fstack-usage is taken over: each candidate writes its own lines (CandidateRunner.cpp).
  expectEligible(classify(cc1("-Oz", {"-stack-usage-file", "x.su"})), "Oz");
  // -Wframe-larger-than too: candidates ship only with clang's warnings (StackSizeWarnings.h).
  expectEligible(classify(cc1("-Oz", {"-fwarn-stack-size=100"})), "Oz");
}

// The remaining passthrough reasons the user guide promises, in the driver's cc1 spelling.
struct ReasonCase {
  const char *Driver; // what the user wrote, for the failure message
  std::vector<const char *> Cc1;
  const char *Reason;
};

TEST(EligibilityTest, DocumentedPassthroughReasons) {
  const ReasonCase Cases[] = {
      {"-fsanitize=undefined", {"-fsanitize=alignment,null,return"}, "sanitizer"},
      {"-fsanitize-coverage=trace-pc",
       {"-fsanitize-coverage-type=3", "-fsanitize-coverage-trace-pc"},
       "sanitizer"},
      {"--coverage",
       {"-coverage-notes-file=x.gcno", "-coverage-data-file=x.gcda"},
       "coverage"},
      {"-fprofile-instr-generate", {"-fprofile-instrument=clang"}, "profile"},
      // Source-based coverage is instrumentation too; the coverage check comes first.
      {"-fprofile-instr-generate -fcoverage-mapping",
       {"-fprofile-instrument=clang", "-fcoverage-mapping"},
       "coverage"},
      {"-fprofile-generate", {"-fprofile-instrument=llvm"}, "profile"},
      {"-fpseudo-probe-for-profiling", {"-fpseudo-probe-for-profiling"}, "profile"},
      {"-fdebug-info-for-profiling", {"-fdebug-info-for-profiling"}, "profile"},
      {"-fmemory-profile", {"-fmemory-profile"}, "profile"},
      {"-finstrument-functions", {"-finstrument-functions"}, "instrument_functions"},
      {"-finstrument-function-entry-bare",
       {"-finstrument-function-entry-bare"},
       "instrument_functions"},
      {"-pg", {"-pg"}, "instrument_functions"},
      {"-fpass-plugin=foo.so", {"-fpass-plugin=foo.so"}, "plugin"},
      {"-fplugin=foo.so", {"-load", "foo.so"}, "plugin"},
      {"-fembed-bitcode=marker", {"-fembed-bitcode=marker"}, "embed_bitcode"},
      {"-fembed-bitcode (second job)", {"-fembed-bitcode=all"}, "embed_bitcode"},
      {"-Rpass=inline", {"-Rpass=inline"}, "remarks"},
      {"-fsave-optimization-record",
       {"-opt-record-file", "x.opt.yaml", "-opt-record-format", "yaml"},
       "remarks"},
      {"-ftime-trace", {"-ftime-trace=x.json"}, "timing"},
      {"-ftime-report", {"-ftime-report"}, "timing"},
  };
  for (const ReasonCase &C : Cases) {
    SCOPED_TRACE(C.Driver);
    expectPassthrough(classify(cc1("-Oz", C.Cc1)), C.Reason);
  }
}

TEST(EligibilityTest, ObjectiveCArc) {
  // The default gcc runtime on Linux rejects ARC; GNUstep 2 supports it.
  expectPassthrough(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj",
                              "-fobjc-runtime=gnustep-2.0", "-fobjc-arc", "-o", "x.o", "-x",
                              "objective-c", "x.m"}),
                    "objc_arc");
}

TEST(EligibilityTest, ObjectiveCWithoutArcIsEligible) {
  expectEligible(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj",
                           "-fobjc-runtime=gcc", "-o", "x.o", "-x", "objective-c", "x.m"}),
                 "Oz");
}

TEST(EligibilityTest, NotCFamily) {
  expectPassthrough(classify({"-triple", "x86_64-pc-linux-gnu", "-Oz", "-emit-obj", "-o",
                              "x.o", "-x", "assembler-with-cpp", "x.S"}),
                    "not_c_family");
}

TEST(EligibilityTest, PlainDebugInfoIsEligible) {
  // -g alone writes nothing on the side; only -gsplit-dwarf does.
  expectEligible(classify(cc1("-Oz", {"-debug-info-kind=constructor", "-dwarf-version=5"})),
                 "Oz");
}

TEST(EligibilityTest, PassthroughReasonWinsOverLevel) {
  // An -O2 sanitizer build is a sanitizer passthrough, not a level one: reasons about the
  // compile's shape come before the level.
  expectPassthrough(classify(cc1("-O2", {"-fsanitize=address"})), "sanitizer");
}

TEST(EligibilityTest, LevelNotEnabled) {
  Config Cfg;
  Cfg.Levels = {"Oz"};
  expectPassthrough(classify(cc1("-Os"), Cfg), "level_not_enabled");
  expectEligible(classify(cc1("-Oz"), Cfg), "Oz");
}

TEST(EligibilityTest, NoLevelsEnabled) {
  Config Cfg;
  Cfg.Levels.clear();
  expectPassthrough(classify(cc1("-Oz"), Cfg), "level_not_enabled");
}

} // namespace
