// The IR2Vec vocabulary and module embeddings (policies/IR2VecVocabulary.h,
// policies/IR2VecEmbedding.h). The vocabulary below gives every entity a vector that encodes
// its section (first value) and ones (second), so each expected embedding is a count worked out
// by hand from the IR beside it. Agreement with llvm-ir2vec itself on a real module is the lit
// test tools/ir2vec.test.
#include "policies/IR2VecEmbedding.h"
#include "policies/IR2VecVocabulary.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>

using namespace llvm;
using namespace smartcc;

namespace {

// Opcodes (1, 1), types (10, 1), operand kinds and predicates (100, 1), before LLVM's weights.
std::vector<std::vector<double>> sectionVectors() {
  std::vector<std::vector<double>> V;
  for (const IR2VecVocabulary::Entity &E : IR2VecVocabulary::entities())
    V.push_back({E.Section == "Opcodes" ? 1.0 : E.Section == "Types" ? 10.0 : 100.0, 1.0});
  return V;
}

TEST(IR2VecVocabulary, EntitiesAreLLVMsInItsOrder) {
  const std::vector<IR2VecVocabulary::Entity> &E = IR2VecVocabulary::entities();
  ASSERT_EQ(E.size(), ir2vec::Vocabulary::getCanonicalSize());
  EXPECT_EQ(E.front().Name, "Ret");
  EXPECT_EQ(E.front().Section, "Opcodes");
  auto Find = [&](StringRef Name) {
    for (const IR2VecVocabulary::Entity &X : E)
      if (X.Name == Name)
        return X.Section;
    return std::string("missing");
  };
  EXPECT_EQ(Find("IntegerTy"), "Types");
  EXPECT_EQ(Find("Pointer"), "Arguments");
  EXPECT_EQ(Find("ICMP_slt"), "Arguments"); // predicates: with the operand kinds, as LLVM reads
  EXPECT_EQ(E.back().Name, "ICMP_sle");
}

TEST(IR2VecVocabulary, RoundTripsThroughLLVMsFormat) {
  std::string Json = IR2VecVocabulary::toJson(sectionVectors());
  Expected<IR2VecVocabulary> V = IR2VecVocabulary::parse(Json, "v.json");
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  EXPECT_EQ(V->dimension(), 2u);
  EXPECT_EQ(V->digest().size(), 12u);
  // The same vectors give the same digest; another vector another.
  Expected<IR2VecVocabulary> Same = IR2VecVocabulary::parse(Json, "w.json");
  ASSERT_TRUE(bool(Same));
  EXPECT_EQ(Same->digest(), V->digest());
  std::vector<std::vector<double>> Other = sectionVectors();
  Other[3][0] = 2.0;
  Expected<IR2VecVocabulary> O = IR2VecVocabulary::parse(IR2VecVocabulary::toJson(Other), "o");
  ASSERT_TRUE(bool(O));
  EXPECT_NE(O->digest(), V->digest());
}

TEST(IR2VecVocabulary, BadFilesAreNamedWithTheEntity) {
  auto Message = [](StringRef Json) {
    Expected<IR2VecVocabulary> V = IR2VecVocabulary::parse(Json, "bad.json");
    return V ? std::string("parsed") : toString(V.takeError());
  };
  EXPECT_NE(Message("{").find("bad.json: not an IR2Vec vocabulary"), std::string::npos);
  EXPECT_NE(Message("[]").find("bad.json: not an IR2Vec vocabulary"), std::string::npos);
  std::vector<std::vector<double>> V = sectionVectors();
  std::string Json = IR2VecVocabulary::toJson(V);
  // A vocabulary without one entity (an older LLVM's) is refused, not silently zero.
  std::string NoFreeze = Json;
  NoFreeze.replace(NoFreeze.find("\"Freeze\""), 6, "\"Frozen");
  EXPECT_NE(Message(NoFreeze).find("entity \"Freeze\" (Opcodes) is missing"), std::string::npos);
  V[5].push_back(3.0);
  EXPECT_NE(Message(IR2VecVocabulary::toJson(V)).find("has 3 values, expected 2"),
            std::string::npos);
  Expected<IR2VecVocabulary> Missing = IR2VecVocabulary::load("/nonexistent/v.json");
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(toString(Missing.takeError()).find("/nonexistent/v.json: cannot read"),
            std::string::npos);
}

TEST(IR2VecVocabulary, TheShippedOneIsBuiltIn) {
  // policies/models/ir2vec/vocabulary.json is in the tree: a file that stopped parsing (or an
  // LLVM whose entities changed) must fail here, not turn the feature off silently.
  const IR2VecVocabulary *V = IR2VecVocabulary::builtin();
  ASSERT_NE(V, nullptr);
  EXPECT_EQ(V->dimension(), 64u);
}

TEST(IR2VecEmbedding, ModuleIsTheSumOfItsDefinedFunctionsWithLLVMsWeights) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  // f: add (i32, two variables), ret (void type? no: ret's type is void) with one variable
  // operand. g: ret with a constant. The declaration h contributes nothing.
  std::unique_ptr<Module> M = parseAssemblyString(R"(
define i32 @f(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}
define i32 @g() {
  ret i32 7
}
declare i32 @h(i32)
)",
                                                  Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  Expected<IR2VecVocabulary> V =
      IR2VecVocabulary::parse(IR2VecVocabulary::toJson(sectionVectors()), "v");
  ASSERT_TRUE(bool(V));
  ModuleEmbedding E = embedModule(*M, *V);
  // Weights: opcode 1.0, type 0.5, operand 0.2 (LLVM's defaults). Per instruction:
  //   add: 1*1 + 0.5*10 + 2*0.2*100 = 46; ones: 1 + 0.5 + 0.4 = 1.9
  //   ret %s (type void): 1 + 5 + 20 = 26; ones: 1.7.  ret 7: the same, 26 and 1.7.
  EXPECT_EQ(E.Functions, 2u);
  EXPECT_EQ(E.Instructions, 3u);
  ASSERT_EQ(E.Sum.size(), 2u);
  EXPECT_NEAR(E.Sum[0], 46 + 26 + 26, 1e-4);
  EXPECT_NEAR(E.Sum[1], 1.9 + 1.7 + 1.7, 1e-4);
  std::vector<float> Obs = embeddingObservation(E);
  ASSERT_EQ(Obs.size(), 3u);
  EXPECT_NEAR(Obs[0], 98.0 / 3, 1e-4);
  EXPECT_NEAR(Obs[2], std::log1p(3.0), 1e-5);
}

} // namespace
