// The register-allocation advisor and cost on real modules: LLVM's default priorities asked
// through smartcc's advisor give clang's exact object; the allocator's own cost remark is read
// (and asking for it changes no byte); a policy really changes the allocation; compiles outside
// a scope, on this thread or another, stay LLVM's; models are checked on load; the per-function
// choice among greedy and a policy's heads is measured, never costlier than greedy, mixes heads
// across functions, and a function's cost does not depend on the others' bodies; a head's
// allocator options hold for its functions only, and never override the user's; eviction
// heads (LLVM's ML eviction advisor served in-process) decide for their functions only, on
// several threads at once, and are checked on load.
#include "policies/regalloc/AllocatorOptions.h"
#include "policies/regalloc/MLRegAllocAdvisor.h"
#include "policies/regalloc/RegAllocPolicy.h"
#include "runtime/config/CandidateSpec.h"
#include "runtime/compile/CodegenContext.h"
#include "runtime/measure/RegAllocCost.h"
#include "runtime/compile/RegAllocPortfolio.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "runtime/measure/SizeMeasurer.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "HarvestForTest.h"
#include "OptimizedForTest.h"
#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace smartcc;

namespace {

std::string TempDir;
std::vector<Benchmark> Modules; // interp.c at -O2 and -Oz, a register-pressure kernel at -O2

struct Compiled {
  std::string Object;
  RegAllocCost Cost;
  RegAllocLog Log;
};

Compiled compile(const Benchmark &B, const RegAllocPolicy *Policy, bool MeasureCost = true) {
  Compiled Out;
  Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(B.CC1Args);
  EXPECT_TRUE(bool(CG));
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M = loadBitcodeFile(B.BitcodePath, Ctx);
  EXPECT_TRUE(bool(M));
  Error E = (*CG)->optimize(**M, CandidateSpec());
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  SmallVector<char, 0> Obj;
  RegAllocRequest R{Policy, &Out.Log, MeasureCost ? &Out.Cost : nullptr};
  Expected<ObjectSize> Size = (*CG)->emitObject(**M, Obj, R);
  EXPECT_TRUE(bool(Size)) << (Size ? "" : toString(Size.takeError()));
  Out.Object.assign(Obj.begin(), Obj.end());
  return Out;
}

// A linear model, one head per map: output = sum of Weights[feature] * feature (+ Bias).
// HeadOptions, if given: the "head_options" metadata.
Expected<RegAllocPolicy> tryLinearHeads(const std::vector<std::map<std::string, float>> &Heads,
                                        float Bias = 0.f,
                                        std::optional<json::Array> HeadOptions = std::nullopt,
                                        std::optional<json::Array> HeadEvictions = std::nullopt) {
  size_t N = regAllocFeatureCount(), K = Heads.size();
  json::Array Layers{json::Object{{"kind", "linear"}, {"in", int64_t(N)}, {"out", int64_t(K)},
                                  {"offset", 0}}};
  json::Object Meta{{"kind", "regalloc"}, {"input_size", int64_t(N)}, {"layers", std::move(Layers)}};
  if (HeadOptions)
    Meta["head_options"] = std::move(*HeadOptions);
  if (HeadEvictions)
    Meta["head_evictions"] = std::move(*HeadEvictions);
  std::vector<float> W(K * (N + 1), 0.f);
  for (size_t H = 0; H < K; ++H) {
    for (size_t I = 0; I < N; ++I)
      if (auto It = Heads[H].find(regAllocFeatureNames()[I]); It != Heads[H].end())
        W[H * N + I] = It->second;
    W[K * N + H] = Bias;
  }
  Expected<ExportedModel> M = ExportedModel::parse(ExportedModel::serialize(Meta, W), "test");
  EXPECT_TRUE(bool(M));
  return RegAllocPolicy::fromModel(std::move(*M), "test.smm");
}

RegAllocPolicy linearHeads(const std::vector<std::map<std::string, float>> &Heads,
                           float Bias = 0.f,
                           std::optional<json::Array> HeadOptions = std::nullopt) {
  Expected<RegAllocPolicy> P = tryLinearHeads(Heads, Bias, std::move(HeadOptions));
  EXPECT_TRUE(bool(P)) << (P ? "" : toString(P.takeError()));
  return std::move(*P);
}

RegAllocPolicy linearPolicy(std::map<std::string, float> Weights, float Bias) {
  return linearHeads({std::move(Weights)}, Bias);
}

using smartcc::testing::Optimized;
using smartcc::testing::optimized;

// Short ranges first, and light ranges first: each worse than LLVM on some functions.
RegAllocPolicy twoHeads() {
  return linearHeads({{{"log_size_instrs", -3.f}}, {{"log_spill_weight", -4.f}, {"crosses_call", 2.f}}});
}

class MLRegAllocTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    SmallString<128> Dir;
    ASSERT_FALSE(sys::fs::createUniqueDirectory("smartcc-regalloc-test", Dir));
    TempDir = Dir.str().str();
    std::string Interp = std::string(SMARTCC_TEST_SOURCE_DIR) + "/lit/Inputs/interp.c";
    // Twelve values live across a call in a loop: more than x86-64's callee-saved registers.
    std::string Kernel = TempDir + "/pressure.c";
    {
      std::error_code EC;
      raw_fd_ostream OS(Kernel, EC);
      OS << "void use(long, long);\n"
            "long kernel(long *p, long n) {\n"
            "  long a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6],\n"
            "       h = p[7], i = p[8], j = p[9], k = p[10], l = p[11];\n"
            "  for (long x = 0; x < n; x++) {\n"
            "    a += b * x; b ^= c + x; c -= d; d += e * a; e ^= f; f += g * b; g -= h;\n"
            "    h += i * c; i ^= j; j += k * d; k -= l; l += a * e; use(a + l, x);\n"
            "  }\n"
            "  return a + b + c + d + e + f + g + h + i + j + k + l;\n"
            "}\n";
    }
    std::string Lz = std::string(SMARTCC_TEST_SOURCE_DIR) + "/lit/Inputs/lz.c";
    for (auto [Source, Level] : {std::pair<std::string, std::string>{Interp, "-O2"},
                                 {Interp, "-Oz"},
                                 {Kernel, "-O2"},
                                 {Lz, "-O2"}})
      Modules.push_back(smartcc::testing::harvestForTest(Source, TempDir, "", Level));
  }
  static void TearDownTestSuite() { sys::fs::remove_directories(TempDir); }
};

TEST_F(MLRegAllocTest, DefaultPrioritiesThroughTheAdvisorAreClangsObject) {
  RegAllocPolicy Greedy = RegAllocPolicy::greedy();
  for (const Benchmark &B : Modules) {
    Compiled Plain = compile(B, nullptr, /*MeasureCost=*/false);
    Compiled Through = compile(B, &Greedy);
    EXPECT_GT(Through.Log.Ranges, 10u) << B.Name << ": the advisor was not asked";
    EXPECT_EQ(Through.Log.Changed, 0u);
    EXPECT_TRUE(Plain.Object == Through.Object) << B.Name;
  }
}

TEST_F(MLRegAllocTest, CostComesFromTheAllocatorAndChangesNothing) {
  const Benchmark &Kernel = Modules[2];
  Compiled Without = compile(Kernel, nullptr, /*MeasureCost=*/false);
  Compiled With = compile(Kernel, nullptr);
  EXPECT_TRUE(Without.Object == With.Object);
  EXPECT_EQ(Without.Cost.Functions, 0u);
  EXPECT_EQ(With.Cost.Functions, 1u); // kernel spills; nothing else is in the module
  EXPECT_GT(With.Cost.NumSpills + With.Cost.NumReloads, 0u);
  // Inside the loop, a reload is weighted by the loop's frequency (> 1 per execution).
  EXPECT_GT(With.Cost.Reloads, double(With.Cost.NumReloads) * 0.99);
  EXPECT_GT(With.Cost.weighted(), 0.0);
}

TEST_F(MLRegAllocTest, APolicyChangesTheAllocation) {
  // Short ranges first instead of long ones: the opposite of LLVM's global order.
  RegAllocPolicy Reverse = linearPolicy({{"log_size_instrs", -3.f}}, 0.f);
  unsigned Differ = 0;
  for (const Benchmark &B : Modules) {
    Compiled Greedy = compile(B, nullptr);
    Compiled Ml = compile(B, &Reverse);
    EXPECT_GT(Ml.Log.Changed, 0u) << B.Name;
    Differ += Greedy.Object != Ml.Object;
  }
  EXPECT_GT(Differ, 0u);
}

TEST_F(MLRegAllocTest, CompilesOutsideAScopeStayLLVMs) {
  const Benchmark &B = Modules[2];
  Compiled Before = compile(B, nullptr);
  RegAllocPolicy Reverse = linearPolicy({{"log_size_instrs", -3.f}}, 0.f);
  RegAllocLog Log;
  ScopedMLRegAlloc Scope(Reverse, &Log); // on this thread only
  Compiled Other;
  std::thread T([&] { Other = compile(B, nullptr); });
  T.join();
  EXPECT_TRUE(Before.Object == Other.Object);
  EXPECT_EQ(Log.Ranges, 0u);
}

TEST_F(MLRegAllocTest, ModelsAreChecked) {
  RegAllocPolicy Ok = linearPolicy({}, 0.f);
  EXPECT_FALSE(Ok.isGreedy());
  size_t N = regAllocFeatureCount();
  json::Object Meta{{"kind", "inliner"},
                    {"input_size", int64_t(N)},
                    {"layers", json::Array{json::Object{
                                   {"kind", "linear"}, {"in", int64_t(N)}, {"out", 1}, {"offset", 0}}}}};
  Expected<ExportedModel> M =
      ExportedModel::parse(ExportedModel::serialize(Meta, std::vector<float>(N + 1)), "m");
  ASSERT_TRUE(bool(M));
  Expected<RegAllocPolicy> P = RegAllocPolicy::fromModel(std::move(*M), "wrong.smm");
  ASSERT_FALSE(bool(P));
  EXPECT_NE(toString(P.takeError()).find("wrong.smm: not a register-allocation model"),
            std::string::npos);
  // The zero model is the default order exactly; a constant one keeps the order too.
  EXPECT_EQ(Ok.adjust(std::vector<float>(N, 1.f), 1234), 1234u);
  RegAllocPolicy Big = linearPolicy({}, 20.f);
  EXPECT_EQ(Big.adjust(std::vector<float>(N, 0.f), 10000), (1u << 24) - 1);
  // Heads are outputs; a head the model lacks leaves the order alone.
  RegAllocPolicy Two = linearHeads({{}, {}}, 1.f);
  EXPECT_EQ(Two.heads(), 2u);
  EXPECT_GT(Two.adjust(std::vector<float>(N, 0.f), 1000, 1), 1000u);
  EXPECT_EQ(Two.adjust(std::vector<float>(N, 0.f), 1000, 5), 1000u);
}

TEST_F(MLRegAllocTest, PerFunctionChoiceIsMeasuredAndNeverCostlier) {
  // The two reorderings, and LLVM's priorities with each other split spill mode: heads of
  // both kinds, mixed across functions.
  RegAllocPolicy Heads = linearHeads(
      {{{"log_size_instrs", -3.f}}, {{"log_spill_weight", -4.f}, {"crosses_call", 2.f}}, {}, {}},
      0.f,
      json::Array{json::Array{}, json::Array{}, json::Array{"-split-spill-mode=default"},
                  json::Array{"-split-spill-mode=size"}});
  unsigned Mixed = 0;
  for (const Benchmark &B : Modules) {
    Compiled Greedy = compile(B, nullptr);
    Optimized O = optimized(B);
    Expected<PortfolioAllocation> P = O.CG->emitObjectPerFunction(*O.M, Heads);
    ASSERT_TRUE(bool(P)) << toString(P.takeError());
    EXPECT_DOUBLE_EQ(P->GreedyCost, Greedy.Cost.weighted()) << B.Name;
    EXPECT_LE(P->Cost.weighted(), Greedy.Cost.weighted()) << B.Name;
    if (P->FunctionsChanged == 0) {
      // Nothing gained: LLVM's allocation, byte for byte.
      EXPECT_TRUE(std::string(P->Object.str()) == Greedy.Object) << B.Name;
      continue;
    }
    ++Mixed;
    EXPECT_LT(P->Cost.weighted(), Greedy.Cost.weighted()) << B.Name;
    // The mix costs what the per-function figures add up to: each function's cost depends on
    // its own allocation only.
    std::vector<AllocationFigures> PerHead;
    for (int H = 0; H < int(Heads.heads()); ++H) {
      RegAllocPlan Whole = RegAllocPlan::wholeModule(H);
      Optimized W = optimized(B);
      SmallVector<char, 0> Obj;
      RegAllocCost C;
      ASSERT_TRUE(bool(W.CG->emitObject(*W.M, Obj, {&Heads, nullptr, &C, &Whole})));
      Expected<StringMap<uint64_t>> Bytes = functionBytes(StringRef(Obj.data(), Obj.size()));
      ASSERT_TRUE(bool(Bytes));
      PerHead.push_back({std::move(C), std::move(*Bytes)});
    }
    Expected<StringMap<uint64_t>> GreedyBytes = functionBytes(Greedy.Object);
    ASSERT_TRUE(bool(GreedyBytes));
    HeadChoice Choice =
        chooseHeads(Greedy.Cost.PerFunction, *GreedyBytes, Greedy.Cost.weighted(), PerHead);
    EXPECT_NEAR(P->Cost.weighted(), Choice.Cost, 1e-6 * Choice.Cost) << B.Name;
    EXPECT_EQ(P->FunctionsChanged, unsigned(Choice.Plan.Heads.size())) << B.Name;
    // The functions did not grow in all (one may grow if others shrink more), nor did the
    // object.
    Expected<StringMap<uint64_t>> MixBytes = functionBytes(P->Object);
    ASSERT_TRUE(bool(MixBytes));
    uint64_t MixSum = 0, GreedySum = 0;
    for (const auto &F : *GreedyBytes) {
      GreedySum += F.getValue();
      MixSum += MixBytes->lookup(F.getKey());
    }
    EXPECT_LE(MixSum, GreedySum) << B.Name;
    EXPECT_LE(P->Object.size(), Greedy.Object.size()) << B.Name;
  }
  EXPECT_GT(Mixed, 0u) << "no module mixed heads: the test proves nothing";
}

// With an allowance (`regalloc_growth` at a speed level) the mix may be larger than greedy's
// allocation by at most that much, and is never costlier than without it.
TEST_F(MLRegAllocTest, GrowthAllowanceBoundsTheMix) {
  RegAllocPolicy Heads = linearHeads(
      {{{"log_size_instrs", -3.f}}, {{"log_spill_weight", -4.f}, {"crosses_call", 2.f}}, {}},
      0.f, json::Array{json::Array{}, json::Array{}, json::Array{"-split-spill-mode=speed"}});
  const double Growth = 0.03;
  unsigned Grown = 0;
  for (const Benchmark &B : Modules) {
    Compiled Greedy = compile(B, nullptr);
    Optimized O = optimized(B), OG = optimized(B);
    Expected<PortfolioAllocation> Strict = O.CG->emitObjectPerFunction(*O.M, Heads);
    Expected<PortfolioAllocation> Loose = OG.CG->emitObjectPerFunction(*OG.M, Heads, Growth);
    ASSERT_TRUE(bool(Strict)) << toString(Strict.takeError());
    ASSERT_TRUE(bool(Loose)) << toString(Loose.takeError());
    EXPECT_LE(Loose->Cost.weighted(), Greedy.Cost.weighted()) << B.Name;
    Expected<ObjectSize> GreedySize =
        measureObject(MemoryBufferRef(Greedy.Object, "greedy"));
    Expected<ObjectSize> LooseSize = measureObject(MemoryBufferRef(Loose->Object, "loose"));
    ASSERT_TRUE(GreedySize && LooseSize);
    EXPECT_LE(int64_t(LooseSize->AllocBytes),
              int64_t(GreedySize->AllocBytes) +
                  growthAllowance(GreedySize->AllocBytes, Growth))
        << B.Name;
    // The mixes that ship (a mix more costly than greedy's, or too large, is not one).
    if (Strict->FunctionsChanged && Loose->FunctionsChanged)
      EXPECT_LE(Loose->Cost.weighted(), Strict->Cost.weighted() * (1 + 1e-9)) << B.Name;
    if (Loose->Cost.weighted() < Strict->Cost.weighted() &&
        LooseSize->AllocBytes > GreedySize->AllocBytes)
      ++Grown;
  }
  // The third head (split spill mode "speed") is cheaper and larger somewhere.
  EXPECT_GT(Grown, 0u) << "no mix used the allowance: the test proves nothing";
}

TEST_F(MLRegAllocTest, HeadCostsWithoutTheFreeFunctionsMatchWholeModules) {
  RegAllocPolicy Heads = twoHeads();
  const Benchmark &Lz = Modules[3];
  Compiled Greedy = compile(Lz, nullptr);
  StringSet<> Costly = costlyFunctions(Greedy.Cost.PerFunction);
  ASSERT_GT(Costly.size(), 0u);
  Optimized O = optimized(Lz);
  Expected<std::vector<AllocationFigures>> Stripped =
      headCosts(*O.M, Heads, Costly, [&](Module &M, SmallVectorImpl<char> &Obj) {
        return O.CG->emit(M, Obj);
      });
  ASSERT_TRUE(bool(Stripped)) << toString(Stripped.takeError());
  ASSERT_EQ(Stripped->size(), 2u);
  for (int H = 0; H < 2; ++H) {
    RegAllocPlan Whole = RegAllocPlan::wholeModule(H);
    Optimized W = optimized(Lz);
    SmallVector<char, 0> Obj;
    RegAllocCost C;
    ASSERT_TRUE(bool(W.CG->emitObject(*W.M, Obj, {&Heads, nullptr, &C, &Whole})));
    Expected<StringMap<uint64_t>> Bytes = functionBytes(StringRef(Obj.data(), Obj.size()));
    ASSERT_TRUE(bool(Bytes));
    for (const auto &F : Costly) {
      EXPECT_DOUBLE_EQ((*Stripped)[H].Cost.costOf(F.getKey()), C.costOf(F.getKey()))
          << F.getKey().str() << ", head " << H;
      // Bytes too: a function's code does not depend on the others' bodies.
      EXPECT_EQ((*Stripped)[H].Bytes.lookup(F.getKey()), Bytes->lookup(F.getKey()))
          << F.getKey().str() << ", head " << H;
    }
  }
}

TEST_F(MLRegAllocTest, AllGreedyPlanIsClangsObject) {
  RegAllocPolicy Heads = twoHeads();
  RegAllocPlan Plan = RegAllocPlan::wholeModule(RegAllocPlan::Greedy);
  for (const Benchmark &B : Modules) {
    Compiled Plain = compile(B, nullptr, /*MeasureCost=*/false);
    Optimized O = optimized(B);
    SmallVector<char, 0> Obj;
    RegAllocLog Log;
    ASSERT_TRUE(bool(O.CG->emitObject(*O.M, Obj, {&Heads, &Log, nullptr, &Plan})));
    EXPECT_EQ(Log.Changed, 0u);
    EXPECT_TRUE(std::string(Obj.begin(), Obj.end()) == Plain.Object) << B.Name;
  }
}

// LLVM's priorities with -split-spill-mode=default (x86-64's default mode is speed).
RegAllocPolicy optionHead() {
  return linearHeads({{}}, 0.f, json::Array{json::Array{"-split-spill-mode=default"}});
}

Compiled compileWithPlan(const Benchmark &B, const RegAllocPolicy &Policy,
                         const RegAllocPlan &Plan) {
  Optimized O = optimized(B);
  SmallVector<char, 0> Obj;
  Compiled Out;
  EXPECT_TRUE(bool(O.CG->emitObject(*O.M, Obj, {&Policy, &Out.Log, &Out.Cost, &Plan})));
  Out.Object.assign(Obj.begin(), Obj.end());
  return Out;
}

TEST_F(MLRegAllocTest, HeadOptionsHoldForTheirFunctionsOnly) {
  RegAllocPolicy Head = optionHead();
  ASSERT_EQ(Head.headOptions(0).size(), 1u);
  unsigned Differ = 0;
  for (const Benchmark &B : Modules) {
    Compiled Greedy = compile(B, nullptr);
    Compiled WithHead = compileWithPlan(B, Head, RegAllocPlan::wholeModule(0));
    Compiled WithOption;
    {
      ScopedLLVMOptions Set({"-split-spill-mode=default"});
      WithOption = compile(B, nullptr);
    }
    // The head is greedy with the option, byte for byte, and the option is gone afterwards.
    EXPECT_TRUE(WithHead.Object == WithOption.Object) << B.Name;
    EXPECT_TRUE(compile(B, nullptr).Object == Greedy.Object) << B.Name;
    if (WithHead.Object == Greedy.Object)
      continue;
    ++Differ;
    // Per function: the head's functions cost what they cost with the option everywhere, the
    // others what greedy's cost.
    RegAllocPlan Half = RegAllocPlan::wholeModule(RegAllocPlan::Greedy);
    bool Odd = false;
    for (const auto &F : Greedy.Cost.PerFunction)
      if ((Odd = !Odd))
        Half.Heads[F.getKey()] = 0;
    Compiled Mixed = compileWithPlan(B, Head, Half);
    for (const auto &F : Greedy.Cost.PerFunction) {
      bool ByHead = Half.Heads.count(F.getKey());
      EXPECT_DOUBLE_EQ(Mixed.Cost.costOf(F.getKey()),
                       (ByHead ? WithOption : Greedy).Cost.costOf(F.getKey()))
          << B.Name << " " << F.getKey().str();
    }
  }
  EXPECT_GT(Differ, 0u) << "the option changed no module: the test proves nothing";
}

TEST_F(MLRegAllocTest, HeadOptionsNeverOverrideTheUsers) {
  RegAllocPolicy Head = optionHead();
  ScopedLLVMOptions User({"-split-spill-mode=size"});
  for (const Benchmark &B : Modules)
    EXPECT_TRUE(compileWithPlan(B, Head, RegAllocPlan::wholeModule(0)).Object ==
                compile(B, nullptr).Object)
        << B.Name;
}

// Bytes are a budget over the module's functions: growth in one may be paid by another; when
// it is not, the trades that cost least per byte saved are given up.
TEST(RegAllocChoice, BytesAreABudgetOverTheModule) {
  StringMap<double> GreedyCost{{"f", 10.0}, {"g", 10.0}, {"free", 0.0}};
  StringMap<uint64_t> GreedyBytes{{"f", 100}, {"g", 100}, {"free", 40}};
  auto Head = [](std::initializer_list<std::tuple<const char *, double, uint64_t>> Fs) {
    AllocationFigures A;
    for (auto [Name, Cost, Bytes] : Fs) {
      A.Cost.PerFunction[Name] = Cost;
      A.Bytes[Name] = Bytes;
    }
    return A;
  };
  // f is cheapest under head 0 but 10 bytes larger; g under head 1, 4 bytes larger; head 0
  // also has g 5 bytes smaller at a little more cost. Head 1's f is smaller but costlier than
  // greedy's: never chosen, not even to save bytes.
  std::vector<AllocationFigures> Heads = {Head({{"f", 5, 110}, {"g", 9, 95}}),
                                          Head({{"f", 11, 90}, {"g", 8, 104}})};
  HeadChoice C = chooseHeads(GreedyCost, GreedyBytes, 20.0, Heads);
  // Cheapest: f by 0, g by 1, 14 bytes larger. Giving up g's head 1 for head 0 saves 9 bytes
  // for 1 cost (the cheapest trade), then f goes back to greedy's (10 bytes for 5).
  EXPECT_EQ(C.Plan.Heads.size(), 1u);
  EXPECT_EQ(C.Plan.headFor("g"), 0);
  EXPECT_EQ(C.Plan.headFor("f"), RegAllocPlan::Greedy);
  EXPECT_DOUBLE_EQ(C.Cost, 19.0);
  EXPECT_DOUBLE_EQ(C.HeadsOnlyCost, 13.0); // each function at its cheapest head, bytes aside
  // When g's cheapest allocation is small enough, it pays for f's growth.
  Heads[1] = Head({{"f", 11, 90}, {"g", 8, 88}});
  C = chooseHeads(GreedyCost, GreedyBytes, 20.0, Heads);
  EXPECT_EQ(C.Plan.headFor("f"), 0);
  EXPECT_EQ(C.Plan.headFor("g"), 1);
  EXPECT_DOUBLE_EQ(C.Cost, 13.0);
  // A head whose size of a function is unknown does not allocate it.
  Heads = {Head({{"g", 1, 50}})};
  Heads[0].Cost.PerFunction["f"] = 1;
  C = chooseHeads(GreedyCost, GreedyBytes, 20.0, Heads);
  EXPECT_EQ(C.Plan.headFor("f"), RegAllocPlan::Greedy);
  EXPECT_EQ(C.Plan.headFor("g"), 0);
}

// `regalloc_growth`: the choice may add a fraction of the module's bytes (all its functions,
// costly or not) to be cheaper; past it, the cheapest trades per byte go first, as above.
TEST(RegAllocChoice, GrowthAllowanceIsAFractionOfTheModulesBytes) {
  StringMap<double> GreedyCost{{"f", 10.0}, {"g", 10.0}, {"free", 0.0}};
  StringMap<uint64_t> GreedyBytes{{"f", 100}, {"g", 100}, {"free", 40}}; // 240 bytes
  std::vector<AllocationFigures> Heads(2);
  Heads[0].Cost.PerFunction = {{"f", 5.0}, {"g", 9.0}};
  Heads[0].Bytes = {{"f", 110}, {"g", 95}};
  Heads[1].Cost.PerFunction = {{"f", 11.0}, {"g", 8.0}};
  Heads[1].Bytes = {{"f", 90}, {"g", 104}};
  // The cheapest choice (f by 0, g by 1) adds 14 bytes: 5 % of 240 allows 12, so g's trade
  // for head 0 (9 bytes for 1 cost) is given up, and no more.
  HeadChoice C = chooseHeads(GreedyCost, GreedyBytes, 20.0, Heads, 0.05);
  EXPECT_EQ(C.Plan.headFor("f"), 0);
  EXPECT_EQ(C.Plan.headFor("g"), 0);
  EXPECT_DOUBLE_EQ(C.Cost, 14.0);
  // 6 % allows 14: the cheapest choice stands.
  C = chooseHeads(GreedyCost, GreedyBytes, 20.0, Heads, 0.06);
  EXPECT_EQ(C.Plan.headFor("g"), 1);
  EXPECT_DOUBLE_EQ(C.Cost, 13.0);
  // No allowance: as in BytesAreABudgetOverTheModule.
  C = chooseHeads(GreedyCost, GreedyBytes, 20.0, Heads, 0.0);
  EXPECT_DOUBLE_EQ(C.Cost, 19.0);
  EXPECT_EQ(growthAllowance(240, 0.05), 12);
  EXPECT_EQ(growthAllowance(240, 0.0), 0);
}

// A fork while another thread allocates with a head's options waits for that allocation: the
// child starts with the options lock free and the options at their defaults.
TEST(RegAllocChoice, ForkWaitsForAnAllocationsOptions) {
  cl::Option *Mode = cl::getRegisteredOptions().lookup("split-spill-mode");
  ASSERT_NE(Mode, nullptr);
  std::atomic<bool> Holding{false};
  std::thread T([&] {
    FunctionAllocatorOptions Set({"-split-spill-mode=size"});
    Holding = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  });
  while (!Holding)
    std::this_thread::yield();
  pid_t Pid = fork();
  if (Pid == 0) {
    alarm(10); // a deadlock ends the child instead of the test run
    int Occurrences = Mode->getNumOccurrences();
    { FunctionAllocatorOptions Again({"-split-spill-mode=default"}); }
    _exit(Occurrences == 0 && Mode->getNumOccurrences() == 0 ? 0 : 1);
  }
  T.join();
  int Status = 0;
  ASSERT_EQ(waitpid(Pid, &Status, 0), Pid);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << Status;
  EXPECT_EQ(Mode->getNumOccurrences(), 0);
}

TEST_F(MLRegAllocTest, HeadOptionsAreChecked) {
  auto ErrorOf = [](json::Array Options, size_t Heads = 1) {
    Expected<RegAllocPolicy> P =
        tryLinearHeads(std::vector<std::map<std::string, float>>(Heads), 0.f, std::move(Options));
    return P ? std::string() : toString(P.takeError());
  };
  EXPECT_EQ(ErrorOf(json::Array{json::Array{"-split-threshold-for-reg-with-hint=100"}}), "");
  EXPECT_NE(ErrorOf(json::Array{json::Array{"-greedy-reverse-local-assignment=1"}})
                .find("test.smm: head_options: head 0: '-greedy-reverse-local-assignment=1' is "
                      "not a per-function allocator option"),
            std::string::npos);
  EXPECT_NE(ErrorOf(json::Array{json::Array{"-split-spill-mode=fastest"}}).find("fastest"),
            std::string::npos);
  EXPECT_NE(ErrorOf(json::Array{json::Array{}}, 2).find("one array of options per head (2)"),
            std::string::npos);
  EXPECT_NE(ErrorOf(json::Array{json::Array{1}}).find("not a string"), std::string::npos);
  // Checking a value leaves the option at its default.
  RegAllocPolicy Head = optionHead();
  const Benchmark &B = Modules[2];
  EXPECT_TRUE(compile(B, nullptr).Object ==
              compileWithPlan(B, Head, RegAllocPlan::wholeModule(RegAllocPlan::Greedy)).Object);
}

// Eviction heads: LLVM's own ML eviction advisor, served by smartcc in-process.
// Head 0 imitates LLVM's rule; head 1 never evicts (the live range is split or spilled
// instead): deliberately different from LLVM, to prove the decisions reach the allocator.
RegAllocPolicy evictionHeads() {
  json::Array Evictions{
      json::Object{{"use_def_density", -1.0}, {"nr_broken_hints", -2.0}, {"is_free", 4.0}},
      json::Object{{"evict_nothing", 100.0}}};
  Expected<RegAllocPolicy> P = tryLinearHeads({{}, {}}, 0.f, std::nullopt, std::move(Evictions));
  EXPECT_TRUE(bool(P)) << (P ? "" : toString(P.takeError()));
  return std::move(*P);
}

TEST_F(MLRegAllocTest, EvictionHeadsDecideForTheirFunctionsOnly) {
  RegAllocPolicy Heads = evictionHeads();
  ASSERT_TRUE(Heads.evicts(0) && Heads.evicts(1));
  unsigned Decided = 0, Differ = 0;
  for (const Benchmark &B : Modules) {
    Compiled Greedy = compile(B, nullptr);
    for (int Head : {0, 1}) {
      Compiled Whole = compileWithPlan(B, Heads, RegAllocPlan::wholeModule(Head));
      Decided += Whole.Log.Evictions;
      Differ += Whole.Object != Greedy.Object;
      // Half the functions by the head, the others by LLVM: those cost exactly greedy's, and
      // the head's cost what they cost when the head allocates the whole module.
      RegAllocPlan Half = RegAllocPlan::wholeModule(RegAllocPlan::Greedy);
      bool Odd = false;
      for (const auto &F : Greedy.Cost.PerFunction)
        if ((Odd = !Odd))
          Half.Heads[F.getKey()] = Head;
      Compiled Mixed = compileWithPlan(B, Heads, Half);
      for (const auto &F : Greedy.Cost.PerFunction)
        EXPECT_DOUBLE_EQ(Mixed.Cost.costOf(F.getKey()),
                         (Half.Heads.count(F.getKey()) ? Whole : Greedy).Cost.costOf(F.getKey()))
            << B.Name << " head " << Head << " " << F.getKey().str();
    }
    // A plan that gives no function to an eviction head is clang's object.
    EXPECT_TRUE(compileWithPlan(B, Heads, RegAllocPlan::wholeModule(RegAllocPlan::Greedy)).Object ==
                Greedy.Object)
        << B.Name;
  }
  EXPECT_GT(Decided, 0u) << "no eviction decision reached the policy";
  EXPECT_GT(Differ, 0u) << "the eviction heads changed no object: the test proves nothing";
}

// The eviction channels' temporary directories (smartcc-evict-*) in the system's temporary
// directory.
unsigned evictionChannelDirs() {
  SmallString<128> Tmp;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Tmp);
  unsigned N = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Tmp, EC), End; It != End && !EC; It.increment(EC))
    N += sys::path::filename(It->path()).starts_with("smartcc-evict");
  return N;
}

TEST_F(MLRegAllocTest, EvictionHeadsOnManyThreadsAndOutsideAScope) {
  RegAllocPolicy Heads = evictionHeads();
  const Benchmark &B = Modules[2];
  const unsigned DirsBefore = evictionChannelDirs();
  Compiled Greedy = compile(B, nullptr);
  Compiled Alone = compileWithPlan(B, Heads, RegAllocPlan::wholeModule(1));
  ASSERT_GT(Alone.Log.Evictions, 0u);
  // Two threads with channels of their own at once, and one outside any scope.
  Compiled A, C, Outside;
  std::thread T1([&] { A = compileWithPlan(B, Heads, RegAllocPlan::wholeModule(1)); });
  std::thread T2([&] { C = compileWithPlan(B, Heads, RegAllocPlan::wholeModule(1)); });
  std::thread T3([&] { Outside = compile(B, nullptr); });
  T1.join(), T2.join(), T3.join();
  EXPECT_TRUE(A.Object == Alone.Object);
  EXPECT_TRUE(C.Object == Alone.Object);
  EXPECT_TRUE(Outside.Object == Greedy.Object);
  // Every channel removed its FIFOs and their directory.
  EXPECT_EQ(evictionChannelDirs(), DirsBefore);
}

TEST_F(MLRegAllocTest, EvictionHeadsAreChecked) {
  auto ErrorOf = [](json::Array Evictions, size_t Heads = 1) {
    Expected<RegAllocPolicy> P = tryLinearHeads(std::vector<std::map<std::string, float>>(Heads),
                                                0.f, std::nullopt, std::move(Evictions));
    return P ? std::string() : toString(P.takeError());
  };
  EXPECT_EQ(ErrorOf(json::Array{json::Object{{"liverange_size", 1.0}}}), "");
  EXPECT_EQ(ErrorOf(json::Array{nullptr}), "");
  EXPECT_NE(ErrorOf(json::Array{json::Object{{"mask", 1.0}}})
                .find("test.smm: head_evictions: head 0: 'mask' is not an eviction feature"),
            std::string::npos);
  EXPECT_NE(ErrorOf(json::Array{json::Object{{"is_free", "x"}}}).find("not a number"),
            std::string::npos);
  EXPECT_NE(ErrorOf(json::Array{nullptr}, 2).find("one entry per head (2)"), std::string::npos);
  EXPECT_NE(ErrorOf(json::Array{json::Object{}}).find("no weights"), std::string::npos);
}

} // namespace
