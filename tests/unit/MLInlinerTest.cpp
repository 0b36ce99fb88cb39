// The ML inliner on a real harvested module: LLVM's heuristic asked through smartcc's advisor
// reproduces clang -Oz's object, a never-inline model inlines nothing but what must be, an
// always-inline model is stopped by the growth guard, and models are checked on load.
#include "policies/inliner/InlineFeatures.h"
#include "policies/inliner/InlinePolicy.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/compile/CodegenContext.h"
#include "runtime/measure/SizeMeasurer.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "HarvestForTest.h"
#include <gtest/gtest.h>

using namespace llvm;
using namespace smartcc;

namespace {

std::string TempDir;
Benchmark *Interp = nullptr;
Benchmark *Fanout = nullptr; // one mid-sized static function called from 40 places
uint64_t ClangBytes = 0;

struct Compiled {
  uint64_t Bytes = 0;
  uint64_t IR = 0;
  InlineLog Log;
};

Compiled compile(const CandidateSpec &Spec, const Benchmark *B = nullptr) {
  if (!B)
    B = Interp;
  Compiled Out;
  Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(B->CC1Args);
  EXPECT_TRUE(bool(CG));
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M = loadBitcodeFile(B->BitcodePath, Ctx);
  EXPECT_TRUE(bool(M));
  Error E = (*CG)->optimize(**M, Spec, &Out.Log);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  Out.IR = countIRInstructions(**M);
  SmallVector<char, 0> Obj;
  Expected<ObjectSize> Size = (*CG)->emitObject(**M, Obj);
  EXPECT_TRUE(bool(Size));
  Out.Bytes = Size ? Size->AllocBytes : 0;
  return Out;
}

// A one-layer model whose logit is Bias whatever the features.
ExportedModel constantModel(float Bias, StringRef Kind = "inliner", StringRef Decides = "") {
  size_t N = inlineFeatureCount();
  json::Array Layers{json::Object{{"kind", "linear"}, {"in", int64_t(N)}, {"out", 1},
                                  {"offset", 0}}};
  json::Object Meta{{"kind", Kind}, {"input_size", int64_t(N)}, {"layers", std::move(Layers)}};
  if (!Decides.empty())
    Meta["decides"] = Decides;
  std::vector<float> W(N + 1, 0.f);
  W[N] = Bias;
  Expected<ExportedModel> M = ExportedModel::parse(ExportedModel::serialize(Meta, W), "test");
  EXPECT_TRUE(bool(M)) << (M ? "" : toString(M.takeError()));
  return std::move(*M);
}

CandidateSpec withPolicy(InlinePolicy P) {
  CandidateSpec Spec;
  Spec.Inliner = std::make_shared<const InlinePolicy>(std::move(P));
  return Spec;
}

class MLInlinerTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    SmallString<128> Dir;
    ASSERT_FALSE(sys::fs::createUniqueDirectory("smartcc-inliner-test", Dir));
    TempDir = Dir.str().str();
    Interp = new Benchmark(smartcc::testing::harvestForTest(
        std::string(SMARTCC_TEST_SOURCE_DIR) + "/lit/Inputs/interp.c", TempDir));
    ClangBytes = compile(CandidateSpec()).Bytes;
    std::string Source = TempDir + "/fanout.c";
    {
      std::error_code EC;
      raw_fd_ostream OS(Source, EC);
      OS << "static int mix(int x, int y) {\n  int s = 0;\n"
            "  for (int i = 0; i < x; ++i) { s += (y ^ i) * 31 + (s >> 3); if (s > y) s -= x; }\n"
            "  return s * 7 + x - y;\n}\n";
      for (int I = 0; I < 40; ++I)
        OS << "int f" << I << "(int a) { return mix(a, " << I * 3 + 1 << ") + " << I << "; }\n";
    }
    Fanout = new Benchmark(smartcc::testing::harvestForTest(Source, TempDir));
  }
  static void TearDownTestSuite() {
    sys::fs::remove_directories(TempDir);
    delete Interp;
    delete Fanout;
  }
};

TEST_F(MLInlinerTest, FeatureMapIsLLVMs) {
  const std::vector<std::string> &Names = inlineFeatureNames();
  EXPECT_EQ(Names.front(), "sroa_savings");
  EXPECT_NE(std::find(Names.begin(), Names.end(), "callsite_height"), Names.end());
  std::vector<float> T = transformInlineFeatures({0, 9, -9});
  EXPECT_FLOAT_EQ(T[0], 0.f);
  EXPECT_NEAR(T[1], std::log(10.f), 1e-6);
  EXPECT_NEAR(T[2], -std::log(10.f), 1e-6);
}

TEST_F(MLInlinerTest, HeuristicThroughTheAdvisorIsClangsObject) {
  Compiled H = compile(withPolicy(InlinePolicy::heuristic()));
  EXPECT_GT(H.Log.Decisions, 0u);
  EXPECT_GT(H.Log.Inlined, 0u);
  EXPECT_EQ(H.Log.Changed, 0u);
  EXPECT_EQ(H.Bytes, ClangBytes);
}

TEST_F(MLInlinerTest, NeverInlineModelInlinesNothing) {
  Expected<InlinePolicy> Never = InlinePolicy::fromModel(constantModel(-1.f), "never");
  ASSERT_TRUE(bool(Never));
  Compiled N = compile(withPolicy(std::move(*Never)));
  EXPECT_GT(N.Log.Decisions, 0u);
  EXPECT_EQ(N.Log.Inlined, 0u);
  EXPECT_GT(N.Log.Changed, 0u); // the heuristic did inline some of these call sites
  EXPECT_NE(N.Bytes, ClangBytes);
}

TEST_F(MLInlinerTest, AlwaysInlineModelIsBoundedByTheGrowthGuard) {
  Expected<InlinePolicy> Always = InlinePolicy::fromModel(constantModel(1.f), "always");
  ASSERT_TRUE(bool(Always));
  Compiled A = compile(withPolicy(std::move(*Always)), Fanout);
  Compiled H = compile(withPolicy(InlinePolicy::heuristic()), Fanout);
  EXPECT_EQ(H.Log.Inlined, 0u) << "-Oz should keep one copy of mix";
  EXPECT_GT(A.Log.Inlined, 2u);
  // The guard stops inlining once the module doubled: far fewer than 40 copies of mix.
  EXPECT_LT(A.Log.Inlined, 20u);
  EXPECT_GT(A.Bytes, H.Bytes);
}

TEST_F(MLInlinerTest, ModelsAreCheckedOnLoad) {
  Expected<InlinePolicy> Wrong = InlinePolicy::fromModel(constantModel(1.f, "sequence-value"),
                                                         "m.smm");
  ASSERT_FALSE(bool(Wrong));
  EXPECT_NE(toString(Wrong.takeError()).find("m.smm: not an inliner model"), std::string::npos);
}

// A correcting model ("decides": "flip") reverses the heuristic where its logit is positive:
// always positive = the opposite of every heuristic decision, never = exactly clang's object.
TEST_F(MLInlinerTest, FlipModelsCorrectTheHeuristic) {
  Expected<InlinePolicy> Keep = InlinePolicy::fromModel(constantModel(-1.f, "inliner", "flip"),
                                                        "keep");
  Expected<InlinePolicy> Reverse =
      InlinePolicy::fromModel(constantModel(1.f, "inliner", "flip"), "reverse");
  ASSERT_TRUE(Keep && Reverse);
  EXPECT_TRUE(Keep->needsHeuristic());
  std::vector<int64_t> Zeros(inlineFeatureCount(), 0);
  EXPECT_TRUE(Keep->decide(Zeros, true));
  EXPECT_FALSE(Keep->decide(Zeros, false));
  EXPECT_TRUE(Reverse->decide(Zeros, false));
  EXPECT_FALSE(Reverse->decide(Zeros, true));
  Compiled K = compile(withPolicy(std::move(*Keep)));
  EXPECT_EQ(K.Log.Changed, 0u);
  EXPECT_EQ(K.Bytes, ClangBytes);
  // Reversing the first decision changes what follows, so only the first is sure to differ.
  Compiled R = compile(withPolicy(std::move(*Reverse)));
  EXPECT_GT(R.Log.Changed, 0u);
  EXPECT_NE(R.Bytes, ClangBytes);
  Expected<InlinePolicy> Bad = InlinePolicy::fromModel(constantModel(1.f, "inliner", "maybe"),
                                                       "bad.smm");
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("bad.smm: \"decides\" must be"), std::string::npos);
}

// Flipping one decision by its index (the flip study) changes that decision and the object;
// flipping none is the heuristic.
TEST_F(MLInlinerTest, FlipAtReversesOneDecision) {
  Compiled H = compile(withPolicy(InlinePolicy::heuristic()));
  ASSERT_GT(H.Log.Decisions, 1u);
  InlineLog Flip;
  Flip.FlipAt = {0};
  Flip.KeepRecords = true;
  Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(Interp->CC1Args);
  ASSERT_TRUE(bool(CG));
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M = loadBitcodeFile(Interp->BitcodePath, Ctx);
  ASSERT_TRUE(bool(M));
  Error E = (*CG)->optimize(**M, withPolicy(InlinePolicy::heuristic()), &Flip);
  ASSERT_FALSE(bool(E)) << toString(std::move(E));
  ASSERT_FALSE(Flip.Records.empty());
  EXPECT_NE(Flip.Records[0].Chosen, Flip.Records[0].Default);
  EXPECT_GE(Flip.Changed, 1u);
}

} // namespace
