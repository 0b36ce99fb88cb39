// Register allocators per function (policies/regalloc/AllocatorPlan.h) and the choice by bytes
// (runtime/compile/AllocatorsByBytes.h) on real modules: a plan giving every function greedy
// is clang's object byte for byte; a whole-module plan of another allocator is that allocator
// as -regalloc would run it; in a mixed plan every function costs exactly the bytes it costs
// under its allocator alone; other threads keep their allocator while a scope is open; the
// choice never returns a larger object than greedy's and each moved function is smaller.
#include "policies/model/ExportedModel.h"
#include "policies/regalloc/AllocatorFeatures.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/AllocatorPlan.h"
#include "runtime/compile/AllocatorsByBytes.h"
#include "runtime/compile/CodegenContext.h"
#include "runtime/config/CandidateSpec.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/measure/SizeMeasurer.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/RegAllocRegistry.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "HarvestForTest.h"
#include "OptimizedForTest.h"
#include <gtest/gtest.h>
#include <map>
#include <thread>

using namespace llvm;
using namespace smartcc;

namespace {

std::string TempDir;
std::vector<Benchmark> Modules; // interp.c, lz.c and a register-pressure kernel, at -Oz

using smartcc::testing::Optimized;
using smartcc::testing::optimized;

// B's object, with registers allocated as Plan says (none: clang's allocation).
std::string compile(const Benchmark &B, const AllocatorPlan *Plan = nullptr) {
  Optimized O = optimized(B);
  SmallVector<char, 0> Obj;
  std::optional<ScopedAllocatorPlan> Scope;
  if (Plan)
    Scope.emplace(*Plan);
  Error E = O.CG->emit(*O.M, Obj);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
  return std::string(Obj.begin(), Obj.end());
}

std::map<std::string, uint64_t> bytesOf(const std::string &Object) {
  Expected<std::map<std::string, uint64_t>> Sizes =
      functionImageBytes(MemoryBufferRef(Object, "object"));
  EXPECT_TRUE(bool(Sizes));
  return Sizes ? *Sizes : std::map<std::string, uint64_t>();
}

AllocatorChoice choice(StringRef Spec) {
  Expected<AllocatorChoice> C = parseAllocatorChoice(Spec);
  EXPECT_TRUE(bool(C)) << (C ? "" : toString(C.takeError()));
  return C ? *C : AllocatorChoice();
}

AllocatorPlan wholeModule(StringRef Spec) {
  AllocatorPlan P;
  P.Choices = {choice(Spec)};
  return P;
}

class AllocatorPlanTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    SmallString<128> Dir;
    ASSERT_FALSE(sys::fs::createUniqueDirectory("smartcc-allocator-plan-test", Dir));
    TempDir = Dir.str().str();
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
            "}\n"
            "long small(long a, long b) { return a * b + (a ^ b); }\n";
    }
    for (std::string Source : {std::string(SMARTCC_TEST_SOURCE_DIR) + "/lit/Inputs/interp.c",
                               std::string(SMARTCC_TEST_SOURCE_DIR) + "/lit/Inputs/lz.c", Kernel})
      Modules.push_back(smartcc::testing::harvestForTest(Source, TempDir, "", "-Oz"));
  }
  static void TearDownTestSuite() { sys::fs::remove_directories(TempDir); }
};

TEST(AllocatorChoiceSyntax, NamesAndOptionsAreChecked) {
  EXPECT_EQ(choice("greedy").name(), "greedy");
  EXPECT_EQ(choice("basic").Allocator, AllocatorChoice::Kind::Basic);
  EXPECT_EQ(choice("pbqp").Allocator, AllocatorChoice::Kind::PBQP);
  AllocatorChoice G = choice("greedy:-split-spill-mode=default");
  EXPECT_EQ(G.Options, std::vector<std::string>{"-split-spill-mode=default"});
  EXPECT_EQ(G.name(), "greedy:-split-spill-mode=default");
  for (StringRef Bad : {"fast", "", "basic:-split-spill-mode=size", "greedy:-regalloc=basic",
                        "greedy:-split-spill-mode=tiny"}) {
    Expected<AllocatorChoice> C = parseAllocatorChoice(Bad);
    EXPECT_FALSE(bool(C)) << Bad.str();
    if (!C)
      consumeError(C.takeError());
  }
}

TEST_F(AllocatorPlanTest, AllGreedyPlanIsClangsObject) {
  for (const Benchmark &B : Modules) {
    std::string Clang = compile(B);
    AllocatorPlan Greedy = wholeModule("greedy");
    takeAllocatorCounts();
    EXPECT_TRUE(compile(B, &Greedy) == Clang) << B.Name;
    AllocatorCounts C = takeAllocatorCounts();
    EXPECT_GT(C.Greedy, 0u) << "the plan's dispatcher did not run";
    EXPECT_EQ(C.Basic + C.PBQP, 0u);
    // And the scope leaves nothing behind.
    EXPECT_TRUE(compile(B) == Clang) << B.Name;
  }
}

TEST_F(AllocatorPlanTest, WholeModulePlanIsThatAllocator) {
  unsigned Differ = 0;
  for (const Benchmark &B : Modules) {
    std::string Clang = compile(B);
    for (auto [Name, Ctor] : {std::pair<const char *, FunctionPass *(*)()>{
                                  "basic", createBasicRegisterAllocator},
                              {"pbqp", createDefaultPBQPRegisterAllocator}}) {
      // What -mllvm -regalloc=NAME gives (the option says it, the registry's default runs it).
      std::string Reference;
      {
        ScopedLLVMOptions Option({std::string("-regalloc=") + Name});
        RegisterRegAlloc::FunctionPassCtor Saved = RegisterRegAlloc::getDefault();
        RegisterRegAlloc::setDefault(Ctor);
        Reference = compile(B);
        RegisterRegAlloc::setDefault(Saved);
      }
      AllocatorPlan Plan = wholeModule(Name);
      std::string Planned = compile(B, &Plan);
      EXPECT_TRUE(Planned == Reference) << B.Name << " " << Name;
      Differ += Planned != Clang;
    }
  }
  EXPECT_GT(Differ, 0u) << "no allocator changed any object: the test proves nothing";
}

TEST_F(AllocatorPlanTest, MixedPlanGivesEachFunctionItsAllocatorsBytes) {
  unsigned Moved = 0;
  for (const Benchmark &B : Modules) {
    std::map<std::string, uint64_t> Greedy = bytesOf(compile(B));
    AllocatorPlan Basic = wholeModule("basic");
    std::map<std::string, uint64_t> ByBasic = bytesOf(compile(B, &Basic));
    AllocatorPlan Half;
    Half.Choices = {choice("greedy"), choice("basic")};
    bool Odd = false;
    for (const auto &[Name, Bytes] : Greedy)
      if ((Odd = !Odd))
        Half.ByFunction[Name] = 1;
    takeAllocatorCounts();
    std::map<std::string, uint64_t> Mixed = bytesOf(compile(B, &Half));
    AllocatorCounts C = takeAllocatorCounts();
    EXPECT_EQ(C.Basic, Half.ByFunction.size()) << B.Name;
    for (const auto &[Name, Bytes] : Greedy) {
      bool ToBasic = Half.ByFunction.count(Name);
      EXPECT_EQ(Mixed[Name], ToBasic ? ByBasic[Name] : Bytes) << B.Name << " " << Name;
      Moved += ToBasic && ByBasic[Name] != Bytes;
    }
  }
  EXPECT_GT(Moved, 0u) << "basic allocated no function differently: the test proves nothing";
}

TEST_F(AllocatorPlanTest, OtherThreadsKeepTheirAllocator) {
  const Benchmark &B = Modules[0];
  std::string Clang = compile(B);
  AllocatorPlan Basic = wholeModule("basic");
  ScopedAllocatorPlan Scope(Basic);
  std::string Elsewhere;
  std::thread T([&] { Elsewhere = compile(B); });
  T.join();
  EXPECT_TRUE(Elsewhere == Clang);
}

TEST_F(AllocatorPlanTest, ChoiceByBytesIsNeverLargerAndMovesOnlySmallerFunctions) {
  std::vector<AllocatorChoice> Choices{choice("greedy"), choice("basic"), choice("pbqp"),
                                       choice("greedy:-split-spill-mode=default")};
  unsigned Moved = 0;
  for (const Benchmark &B : Modules) {
    std::string Clang = compile(B);
    Expected<ObjectSize> ClangSize = measureObject(MemoryBufferRef(Clang, "clang"));
    ASSERT_TRUE(bool(ClangSize));
    std::map<std::string, uint64_t> Greedy = bytesOf(Clang);
    Optimized O = optimized(B);
    Expected<BytesAllocation> R = allocateByBytes(
        *O.M, Choices, [&](Module &M, SmallVectorImpl<char> &Obj) { return O.CG->emit(M, Obj); });
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    EXPECT_TRUE(R->Failed.empty());
    EXPECT_EQ(R->FirstBytes, ClangSize->linkedImageBytes()) << B.Name;
    EXPECT_LE(R->MixBytes, R->FirstBytes) << B.Name;
    std::string Object(R->Object.begin(), R->Object.end());
    if (R->FunctionsMoved == 0) {
      EXPECT_TRUE(Object == Clang) << B.Name;
      EXPECT_EQ(R->Codegens, Choices.size());
      continue;
    }
    EXPECT_EQ(R->Codegens, Choices.size() + 1);
    EXPECT_LT(R->MixBytes, R->FirstBytes) << B.Name;
    std::map<std::string, uint64_t> Mixed = bytesOf(Object);
    for (const auto &[Name, Bytes] : Greedy) {
      if (R->Plan.ByFunction.count(Name)) {
        ++Moved;
        EXPECT_LT(Mixed[Name], Bytes) << B.Name << " " << Name;
      } else {
        EXPECT_EQ(Mixed[Name], Bytes) << B.Name << " " << Name;
      }
    }
  }
  EXPECT_GT(Moved, 0u) << "no function moved: the test proves nothing";
}

} // namespace

namespace {

// An allocator-choice model over greedy and basic whose scores are constants (the biases):
// basic scores Basic, greedy 0; Margin as given.
std::string constantModel(float Basic, double Margin, size_t Features) {
  json::Array Names;
  for (size_t I = 0; I < Features; ++I)
    Names.push_back(allocatorFeatureNames()[I]);
  json::Object Meta{{"kind", "allocator-choice"},
                    {"input_size", int64_t(Features)},
                    {"features", std::move(Names)},
                    {"allocators", json::Array{"greedy", "basic"}},
                    {"margin", Margin},
                    {"layers", json::Array{json::Object{{"kind", "linear"},
                                                        {"in", int64_t(Features)},
                                                        {"out", 2},
                                                        {"offset", 0}}}}};
  std::vector<float> W(2 * Features + 2, 0.f);
  W[2 * Features + 1] = Basic;
  return ExportedModel::serialize(Meta, W);
}

std::shared_ptr<const AllocatorModel> modelOf(const std::string &Bytes) {
  Expected<ExportedModel> M = ExportedModel::parse(Bytes, "test.smm");
  EXPECT_TRUE(bool(M));
  Expected<AllocatorModel> A = AllocatorModel::fromModel(std::move(*M), "test.smm");
  EXPECT_TRUE(bool(A)) << (A ? "" : toString(A.takeError()));
  return std::make_shared<const AllocatorModel>(std::move(*A));
}

} // namespace

TEST_F(AllocatorPlanTest, ModelPicksEachFunctionsAllocatorDeterministically) {
  const size_t F = allocatorFeatureNames().size();
  unsigned Differ = 0;
  for (const Benchmark &B : Modules) {
    std::string Clang = compile(B);
    AllocatorPlan Basic = wholeModule("basic");
    std::string ByBasic = compile(B, &Basic);
    // Basic scores above greedy by more than the margin everywhere: the basic allocator's object.
    AllocatorPlan Predicted = AllocatorPlan::predicted(modelOf(constantModel(2.f, 1.0, F)));
    takeAllocatorCounts();
    std::string First = compile(B, &Predicted);
    AllocatorCounts C = takeAllocatorCounts();
    EXPECT_TRUE(First == ByBasic) << B.Name;
    EXPECT_EQ(C.Moved, C.Basic);
    EXPECT_GT(C.Basic, 0u);
    EXPECT_TRUE(compile(B, &Predicted) == First) << B.Name; // deterministic
    Differ += First != Clang;
    // Within the margin, every function stays at the reference: clang's object.
    AllocatorPlan Within = AllocatorPlan::predicted(modelOf(constantModel(2.f, 3.0, F)));
    EXPECT_TRUE(compile(B, &Within) == Clang) << B.Name;
  }
  EXPECT_GT(Differ, 0u);
}

TEST(AllocatorModelFile, MismatchesAreRefusedWithThePath) {
  const size_t F = allocatorFeatureNames().size();
  Expected<ExportedModel> Short = ExportedModel::parse(constantModel(1.f, 0, F - 1), "m.smm");
  ASSERT_TRUE(bool(Short));
  Expected<AllocatorModel> A = AllocatorModel::fromModel(std::move(*Short), "dir/m.smm");
  ASSERT_FALSE(bool(A));
  EXPECT_NE(toString(A.takeError()).find("dir/m.smm: its features are not this smartcc's"),
            std::string::npos);
  std::string Text = constantModel(1.f, 0, F);
  size_t At = Text.find("\"basic\"");
  ASSERT_NE(At, std::string::npos);
  Text.replace(At, 7, "\"fast!\"");
  Expected<ExportedModel> Bad = ExportedModel::parse(Text, "m.smm");
  ASSERT_TRUE(bool(Bad));
  Expected<AllocatorModel> B = AllocatorModel::fromModel(std::move(*Bad), "dir/m.smm");
  ASSERT_FALSE(bool(B));
  EXPECT_NE(toString(B.takeError()).find("unknown register allocator 'fast!'"), std::string::npos);
}

namespace {

// A proposal model over greedy, basic and PBQP whose scores are the constants Scores (biases),
// with Gates in its metadata if given.
std::string constantProposalModel(std::vector<float> Scores, StringRef Use = "proposal",
                                  std::optional<json::Value> Gates = std::nullopt) {
  const size_t F = allocatorFeatureNames().size();
  json::Array Names;
  for (size_t I = 0; I < F; ++I)
    Names.push_back(allocatorFeatureNames()[I]);
  json::Object Meta{{"kind", "allocator-choice"},
                    {"use", Use},
                    {"input_size", int64_t(F)},
                    {"features", std::move(Names)},
                    {"allocators", json::Array{"greedy", "basic", "pbqp"}},
                    {"layers", json::Array{json::Object{{"kind", "linear"},
                                                        {"in", int64_t(F)},
                                                        {"out", 3},
                                                        {"offset", 0}}}}};
  if (Gates)
    Meta["gates"] = std::move(*Gates);
  std::vector<float> W(3 * F, 0.f);
  W.insert(W.end(), Scores.begin(), Scores.end());
  return ExportedModel::serialize(Meta, W);
}

} // namespace

// Checked proposals: every function tries the proposed allocator (basic here), and keeps it
// only where its bytes there were smaller than greedy's; the object is never larger than
// clang's, and each moved function costs what it costs under basic alone.
TEST_F(AllocatorPlanTest, CheckedProposalsKeepOnlySmallerFunctions) {
  // Greedy's score is ignored: a proposal is never the reference.
  std::shared_ptr<const AllocatorModel> Model = modelOf(constantProposalModel({9.f, 2.f, 1.f}));
  ASSERT_TRUE(Model->isProposalModel());
  EXPECT_EQ(Model->propose(std::vector<float>(allocatorFeatureNames().size(), 0.f)), 1u);
  unsigned Moved = 0, Stayed = 0;
  for (const Benchmark &B : Modules) {
    std::string Clang = compile(B);
    Expected<ObjectSize> ClangSize = measureObject(MemoryBufferRef(Clang, "clang"));
    ASSERT_TRUE(bool(ClangSize));
    std::map<std::string, uint64_t> Greedy = bytesOf(Clang);
    AllocatorPlan Basic = wholeModule("basic");
    std::map<std::string, uint64_t> ByBasic = bytesOf(compile(B, &Basic));
    Optimized O = optimized(B);
    Expected<BytesAllocation> R = allocateByProposals(
        *O.M, *Model, [&](Module &M, SmallVectorImpl<char> &Obj) { return O.CG->emit(M, Obj); });
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    EXPECT_TRUE(R->Failed.empty());
    EXPECT_EQ(R->FirstBytes, ClangSize->linkedImageBytes()) << B.Name;
    EXPECT_LE(R->MixBytes, R->FirstBytes) << B.Name;
    EXPECT_GE(R->Codegens, 2u);
    EXPECT_LE(R->Codegens, 3u);
    // A mix only where some function came out larger under its proposal (one of equal bytes
    // either way asks for none).
    const bool AnyLarger = llvm::any_of(Greedy, [&](const auto &KV) {
      auto It = ByBasic.find(KV.first);
      return It != ByBasic.end() && It->second > KV.second;
    });
    if (!AnyLarger)
      EXPECT_EQ(R->Codegens, 2u) << B.Name;
    std::string Object(R->Object.begin(), R->Object.end());
    if (R->FunctionsMoved == 0) {
      EXPECT_TRUE(Object == Clang) << B.Name;
      continue;
    }
    std::map<std::string, uint64_t> Mixed = bytesOf(Object);
    for (const auto &[Name, Bytes] : Greedy) {
      auto It = R->Plan.ByFunction.find(Name);
      if (It != R->Plan.ByFunction.end()) {
        ++Moved;
        EXPECT_EQ(It->getValue(), 1u) << Name; // basic, as proposed
        EXPECT_LE(Mixed[Name], Bytes) << B.Name << " " << Name;
        EXPECT_EQ(Mixed[Name], ByBasic[Name]) << B.Name << " " << Name;
      } else {
        ++Stayed;
        EXPECT_EQ(Mixed[Name], Bytes) << B.Name << " " << Name;
      }
    }
  }
  EXPECT_GT(Moved, 0u) << "no function moved: the test proves nothing";
  EXPECT_GT(Stayed, 0u) << "every function moved: the check proves nothing";
}

// The gates: a module below the model's smallest reference keeps the reference after one code
// generation; a mix worth less than the gate is not made (the better whole object ships after
// two). Either way the object is never larger than the reference.
TEST_F(AllocatorPlanTest, ProposalGatesStopEarly) {
  std::shared_ptr<const AllocatorModel> Small = modelOf(constantProposalModel(
      {9.f, 2.f, 1.f}, "proposal", json::Object{{"min_reference_bytes", 1 << 30}}));
  std::shared_ptr<const AllocatorModel> NoMix = modelOf(constantProposalModel(
      {9.f, 2.f, 1.f}, "proposal", json::Object{{"min_mix_gain_bytes", 1 << 30}}));
  EXPECT_EQ(Small->gates().MinReferenceBytes, uint64_t(1) << 30);
  EXPECT_EQ(NoMix->gates().MinMixGainBytes, uint64_t(1) << 30);
  unsigned Mixed = 0;
  for (const Benchmark &B : Modules) {
    std::string Clang = compile(B);
    auto Run = [&](const AllocatorModel &Model) {
      Optimized O = optimized(B);
      Expected<BytesAllocation> R = allocateByProposals(
          *O.M, Model, [&](Module &M, SmallVectorImpl<char> &Obj) { return O.CG->emit(M, Obj); });
      EXPECT_TRUE(bool(R)) << toString(R.takeError());
      return R ? std::move(*R) : BytesAllocation();
    };
    BytesAllocation S = Run(*Small);
    EXPECT_EQ(S.Codegens, 1u) << B.Name;
    EXPECT_EQ(S.FunctionsMoved, 0u) << B.Name;
    EXPECT_TRUE(S.Stopped == BytesAllocation::StoppedAt::SmallModule) << B.Name;
    EXPECT_TRUE(std::string(S.Object.begin(), S.Object.end()) == Clang) << B.Name;
    // Ungated, this module mixes: the gate then stops before the mix.
    std::shared_ptr<const AllocatorModel> Ungated = modelOf(constantProposalModel({9.f, 2.f, 1.f}));
    BytesAllocation U = Run(*Ungated);
    BytesAllocation N = Run(*NoMix);
    EXPECT_LE(N.Codegens, 2u) << B.Name;
    EXPECT_LE(N.MixBytes, N.FirstBytes) << B.Name;
    if (U.Codegens == 3) {
      ++Mixed;
      EXPECT_TRUE(N.Stopped == BytesAllocation::StoppedAt::SmallMixGain) << B.Name;
      // Every proposal or none: the whole proposals' object or the reference.
      EXPECT_TRUE(N.FunctionsMoved == 0 || N.FunctionsMoved == N.Plan.ByFunction.size());
      if (N.FunctionsMoved == 0)
        EXPECT_TRUE(std::string(N.Object.begin(), N.Object.end()) == Clang) << B.Name;
    }
  }
  EXPECT_GT(Mixed, 0u) << "no module needed a mix: the mix gate is untested";
  // Bad gates are named with the model's path.
  for (json::Value Gates : {json::Value(json::Object{{"min_mix_gain_bytes", -1}}),
                            json::Value(json::Object{{"min_bytes", 1}}), json::Value(3)}) {
    Expected<ExportedModel> E =
        ExportedModel::parse(constantProposalModel({0, 1, 2}, "proposal", Gates), "m");
    ASSERT_TRUE(bool(E));
    Expected<AllocatorModel> A = AllocatorModel::fromModel(std::move(*E), "dir/g.smm");
    ASSERT_FALSE(bool(A));
    EXPECT_NE(toString(A.takeError()).find("dir/g.smm: "), std::string::npos);
  }
}

TEST(AllocatorModelFile, BuiltinProposalModelsLoadAndProposeDeterministically) {
  for (StringRef Triple : {"x86_64-pc-linux-gnu", "aarch64-unknown-linux-gnu"}) {
    std::optional<Expected<AllocatorModel>> M = AllocatorModel::builtinProposalFor(Triple);
    ASSERT_TRUE(M.has_value()) << Triple.str();
    ASSERT_TRUE(bool(*M)) << toString(M->takeError());
    EXPECT_TRUE((*M)->isProposalModel());
    // Its gates, chosen by its trainer: a module of a few bytes is not proposed for.
    EXPECT_GT((*M)->gates().MinReferenceBytes, 0u) << Triple.str();
    std::optional<Expected<AllocatorModel>> C = AllocatorModel::builtinFor(Triple);
    ASSERT_TRUE(C.has_value() && bool(*C));
    EXPECT_FALSE((*C)->isProposalModel());
    std::vector<float> X(allocatorFeatureNames().size(), 0.5f);
    unsigned P = (*M)->propose(X);
    EXPECT_GE(P, 1u);
    EXPECT_LT(P, (*M)->allocators().size());
    EXPECT_EQ((*M)->propose(X), P);
  }
  EXPECT_FALSE(AllocatorModel::builtinProposalFor("riscv64-unknown-linux-gnu").has_value());
  // A candidate's `allocator_model` names them the same way.
  Expected<AllocatorModel> Named = AllocatorModel::forSpec(BuiltinProposalModel, "x86_64-pc-linux-gnu");
  ASSERT_TRUE(bool(Named)) << toString(Named.takeError());
  EXPECT_TRUE(Named->isProposalModel());
  Expected<AllocatorModel> Missing = AllocatorModel::forSpec(BuiltinProposalModel, "riscv64-unknown-linux-gnu");
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(toString(Missing.takeError()),
            "no allocator-proposal model is built in for riscv64-unknown-linux-gnu");
  Expected<ExportedModel> Bad = ExportedModel::parse(constantProposalModel({0, 1, 2}, "guess"), "m");
  ASSERT_TRUE(bool(Bad));
  Expected<AllocatorModel> A = AllocatorModel::fromModel(std::move(*Bad), "dir/p.smm");
  ASSERT_FALSE(bool(A));
  EXPECT_NE(toString(A.takeError()).find("dir/p.smm: 'use' must be"), std::string::npos);
}
