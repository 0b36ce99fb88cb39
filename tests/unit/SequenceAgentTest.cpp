// The compiler side of the sequence-value agent: which models it accepts (errors name the
// model), how it ranks a core set on a real module, and how many proposals each effort runs.
#include "policies/SequenceAgent.h"
#include "policies/AutophaseFeatures.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace llvm;
using namespace smartcc;

namespace {

// A linear model over the 56 Autophase inputs: output k = bias k + Slope k * (input Feature).
std::string linearModel(std::vector<float> Bias, std::vector<float> Slope,
                        json::Array Sequences, StringRef Kind = "sequence-value",
                        size_t Inputs = AutophaseFeatures::Count, size_t Feature = 0,
                        json::Object Extra = {}) {
  size_t K = Bias.size();
  json::Object Meta{{"input_size", int64_t(Inputs)},
                    {"kind", Kind},
                    {"trainer", "value"},
                    {"space", "macro+options"},
                    {"sequences", std::move(Sequences)},
                    {"layers", json::Array{json::Object{{"kind", "linear"},
                                                        {"in", int64_t(Inputs)},
                                                        {"out", int64_t(K)},
                                                        {"offset", 0}}}}};
  for (auto &KV : Extra)
    Meta[KV.first] = std::move(KV.second);
  std::vector<float> W(K * Inputs, 0.0f);
  for (size_t I = 0; I < K; ++I)
    W[I * Inputs + Feature] = Slope[I];
  W.insert(W.end(), Bias.begin(), Bias.end());
  return ExportedModel::serialize(Meta, W);
}

Expected<SequenceAgent> agentOf(const std::string &Bytes) {
  Expected<ExportedModel> M = ExportedModel::parse(Bytes, "m.smm");
  if (!M)
    return M.takeError();
  return SequenceAgent::fromModel(std::move(*M), "m.smm");
}

std::unique_ptr<Module> parse(LLVMContext &Ctx, StringRef IR) {
  SMDiagnostic Err;
  return parseAssemblyString(IR, Err, Ctx);
}

TEST(SequenceAgentTest, RanksByPredictionAndKeepsCoreSetOrderOnTies) {
  Expected<SequenceAgent> A = agentOf(linearModel(
      {0.5f, 2.0f, 0.5f, -1.0f}, {0, 0, 0, 0},
      json::Array{"clang-default", "clang-default no-jump-tables", "clang-simplification",
                  "clang-default no-machine-outliner"}));
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  LLVMContext Ctx;
  auto M = parse(Ctx, "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n");
  ASSERT_TRUE(M);
  std::vector<SequenceProposal> R = A->rank(*M);
  ASSERT_EQ(R.size(), 4u);
  EXPECT_EQ(R[0].Text, "clang-default no-jump-tables");
  EXPECT_EQ(R[0].Actions, (std::vector<std::string>{"clang-default", "no-jump-tables"}));
  EXPECT_FLOAT_EQ(R[0].PredictedPercent, 2.0f);
  EXPECT_EQ(R[1].Text, "clang-default"); // tie with clang-simplification: core-set order
  EXPECT_EQ(R[2].Text, "clang-simplification");
  EXPECT_EQ(R[3].Rank, 4u);
}

TEST(SequenceAgentTest, UsesTheModulesFeatures) {
  // Output 1 grows with log(1 + add instructions); output 0 is a constant 0.5. A module with
  // no additions prefers sequence 0, one with three prefers sequence 1 (log 4 = 1.39).
  Expected<SequenceAgent> A =
      agentOf(linearModel({0.5f, 0.0f}, {0.0f, 1.0f}, json::Array{"clang-default", "clang-inliner"},
                          "sequence-value", AutophaseFeatures::Count, AutophaseFeatures::NumAddInst));
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  LLVMContext Ctx;
  auto NoAdds = parse(Ctx, "define void @f() {\n  ret void\n}\n");
  auto Adds = parse(Ctx, "define i32 @f(i32 %x) {\n  %a = add i32 %x, 1\n  %b = add i32 %a, 2\n"
                         "  %c = add i32 %b, 3\n  ret i32 %c\n}\n");
  ASSERT_TRUE(NoAdds && Adds);
  EXPECT_EQ(A->rank(*NoAdds)[0].Text, "clang-default");
  std::vector<SequenceProposal> R = A->rank(*Adds);
  EXPECT_EQ(R[0].Text, "clang-inliner");
  EXPECT_NEAR(R[0].PredictedPercent, std::log(4.0f), 1e-5);
}

TEST(SequenceAgentTest, EffortLevelsChooseHowMany) {
  // Ranked by prediction: core-set entries 3, 0, 4, 1, 2.
  std::vector<SequenceProposal> R(5);
  unsigned Index[] = {3, 0, 4, 1, 2};
  for (size_t I = 0; I < R.size(); ++I)
    R[I].CoreSetIndex = Index[I], R[I].Rank = unsigned(I + 1);
  auto Indices = [](const std::vector<SequenceProposal> &P) {
    std::vector<unsigned> Out;
    for (const SequenceProposal &X : P)
      Out.push_back(X.CoreSetIndex);
    return Out;
  };
  EXPECT_EQ(Indices(proposalsForEffort(R, 0)), (std::vector<unsigned>{3}));
  // The model's choice, then the core set's first entries in mined order.
  EXPECT_EQ(Indices(proposalsForEffort(R, 1)), (std::vector<unsigned>{3, 0, 1}));
  EXPECT_EQ(proposalsForEffort(R, 2).size(), 5u);
  // Effort 2's guided start: effort 1's three, then the best predicted others.
  EXPECT_EQ(Indices(proposalsForGuidedStart(R, 4)), (std::vector<unsigned>{3, 0, 1, 4}));
  EXPECT_EQ(Indices(proposalsForGuidedStart(R, 9)), (std::vector<unsigned>{3, 0, 1, 4, 2}));
  // When the model's choice is the core set's first, the next ones follow.
  std::swap(R[0], R[1]);
  EXPECT_EQ(Indices(proposalsForEffort(R, 1)), (std::vector<unsigned>{0, 1, 2}));
}

TEST(SequenceAgentTest, ConfidenceRunsTheFirstChoiceAloneWhenItsMarginIsLarge) {
  // Ranked: core-set entries 3 (predicted 5 %), 0 (2 %), 4 (1.5 %), 1 (1 %), 2 (0 %). Effort 1
  // proposes 3, 0 and 1: the first choice's margin is 5 - 2 = 3 %.
  std::vector<SequenceProposal> R(5);
  unsigned Index[] = {3, 0, 4, 1, 2};
  float Predicted[] = {5, 2, 1.5f, 1, 0};
  for (size_t I = 0; I < R.size(); ++I)
    R[I].CoreSetIndex = Index[I], R[I].Rank = unsigned(I + 1), R[I].PredictedPercent = Predicted[I];
  EXPECT_DOUBLE_EQ(firstChoiceMargin(proposalsForEffort(R, 1)), 3.0);
  EXPECT_EQ(proposalsForEffort(R, 1, 0).size(), 3u);   // off
  EXPECT_EQ(proposalsForEffort(R, 1, 3.5).size(), 3u); // not sure enough
  std::vector<SequenceProposal> Alone = proposalsForEffort(R, 1, 3.0);
  ASSERT_EQ(Alone.size(), 1u);
  EXPECT_EQ(Alone[0].CoreSetIndex, 3u);
  EXPECT_EQ(proposalsForEffort(R, 2, 3.0).size(), 5u); // effort 2 is the whole core set
}

TEST(SequenceAgentTest, RejectsModelsItCannotServe) {
  auto Message = [](Expected<SequenceAgent> A) {
    return A ? std::string("accepted") : toString(A.takeError());
  };
  EXPECT_NE(Message(agentOf(linearModel({0}, {0}, json::Array{"clang-default"}, "policy")))
                .find("m.smm: not a sequence-value model"),
            std::string::npos);
  EXPECT_NE(Message(agentOf(linearModel({0, 0}, {0, 0}, json::Array{"clang-default"})))
                .find("2 outputs but 1 sequences"),
            std::string::npos);
  EXPECT_NE(Message(agentOf(linearModel({0}, {0}, json::Array{"clang-default"},
                                        "sequence-value", 10)))
                .find("10 inputs"),
            std::string::npos);
  EXPECT_NE(Message(agentOf(linearModel({0}, {0}, json::Array{"clang-default sroa"})))
                .find("'sroa' is not in space 'macro+options'"),
            std::string::npos);
}

TEST(SequenceAgentTest, IR2VecModelsReadTheBuiltInVocabularysEmbedding) {
  const IR2VecVocabulary *V = IR2VecVocabulary::builtin();
  ASSERT_NE(V, nullptr);
  const size_t In = V->dimension() + 1; // the embedding per instruction, then log(1 + size)
  auto Model = [&](StringRef Observation, StringRef Digest, size_t Inputs, StringRef Kind) {
    // Output 1 = the last input (log(1 + instructions) for an IR2Vec model); output 0 = 1.
    return linearModel({1.0f, 0.0f}, {0.0f, 1.0f}, json::Array{"clang-default", "clang-inliner"},
                       Kind, Inputs, Inputs - 1,
                       json::Object{{"observation", Observation}, {"ir2vec_vocabulary", Digest}});
  };
  Expected<SequenceAgent> A = agentOf(Model("ir2vec", V->digest(), In, "sequence-value"));
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  EXPECT_EQ(A->observation(), ObservationKind::IR2Vec);
  LLVMContext Ctx;
  auto One = parse(Ctx, "define void @f() {\n  ret void\n}\n");
  auto Five = parse(Ctx, "define i32 @g(i32 %x) {\n  %a = add i32 %x, 1\n  %b = mul i32 %a, 2\n"
                         "  %c = sub i32 %b, 3\n  %d = xor i32 %c, 4\n  ret i32 %d\n}\n");
  ASSERT_TRUE(One && Five);
  EXPECT_EQ(A->rank(*One)[0].Text, "clang-default"); // log 2 = 0.69 < 1
  std::vector<SequenceProposal> R = A->rank(*Five);
  EXPECT_EQ(R[0].Text, "clang-inliner");
  EXPECT_NEAR(R[0].PredictedPercent, std::log(6.0f), 1e-5);

  // Both observations: Autophase's 56 first.
  Expected<SequenceAgent> B =
      agentOf(Model("autophase-log1p+ir2vec", V->digest(), AutophaseFeatures::Count + In,
                    "sequence-value"));
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  EXPECT_NEAR(B->rank(*Five)[0].PredictedPercent, std::log(6.0f), 1e-5);

  auto Message = [](Expected<SequenceAgent> X) {
    return X ? std::string("accepted") : toString(X.takeError());
  };
  // Another vocabulary's model reads vectors in another basis: refused, both digests named.
  EXPECT_NE(Message(agentOf(Model("ir2vec", "0123456789ab", In, "sequence-value")))
                .find("trained with IR2Vec vocabulary '0123456789ab'; this smartcc's is '" +
                      V->digest() + "'"),
            std::string::npos);
  EXPECT_NE(Message(agentOf(Model("ir2vec", V->digest(), AutophaseFeatures::Count,
                                  "sequence-value")))
                .find("56 inputs; its observation (ir2vec) has " + std::to_string(In)),
            std::string::npos);
  EXPECT_NE(Message(agentOf(Model("inst2vec", V->digest(), In, "sequence-value")))
                .find("unknown observation 'inst2vec'"),
            std::string::npos);
  Expected<ExportedModel> L =
      ExportedModel::parse(Model("ir2vec", V->digest(), In, "link-value"), "l.smm");
  ASSERT_TRUE(bool(L));
  EXPECT_NE(Message(SequenceAgent::fromModel(std::move(*L), "l.smm", "link-value"))
                .find("link models read Autophase features only"),
            std::string::npos);
}

} // namespace

namespace {

Expected<SequenceAgent> linkAgentOf(const std::string &Bytes, StringRef Kind) {
  Expected<ExportedModel> M = ExportedModel::parse(Bytes, "link.smm");
  if (!M)
    return M.takeError();
  return SequenceAgent::fromModel(std::move(*M), "link.smm", Kind);
}

// The link agent's own models (kind link-value, scripts/link-tables.py): a column is a
// sequence of the space or a link candidate of the library, "link:NAME".
TEST(SequenceAgentTest, LinkModelsRankSequencesAndLinkCandidates) {
  std::string Bytes = linearModel({0.5f, 1.5f, -2.0f}, {0, 0, 0},
                                  json::Array{"clang-default machine-outliner", "link:lto-icf",
                                              "clang-simplification"},
                                  "link-value");
  Expected<SequenceAgent> A = linkAgentOf(Bytes, "link-value");
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  EXPECT_TRUE(A->isLinkModel());
  AutophaseVector Features{};
  std::vector<SequenceProposal> R = A->rank(Features);
  ASSERT_EQ(R.size(), 3u);
  EXPECT_EQ(R[0].LinkCandidate, "lto-icf");
  EXPECT_TRUE(R[0].Actions.empty());
  EXPECT_FLOAT_EQ(R[0].PredictedPercent, 1.5f);
  EXPECT_TRUE(R[1].LinkCandidate.empty());
  EXPECT_EQ(R[1].Actions, (std::vector<std::string>{"clang-default", "machine-outliner"}));
  EXPECT_EQ(R[2].Text, "clang-simplification");

  // Neither kind serves as the other: a TU agent never sees link candidates, and a per-TU
  // model given as a link model says what it is.
  Expected<SequenceAgent> AsTU = linkAgentOf(Bytes, "sequence-value");
  ASSERT_FALSE(bool(AsTU));
  EXPECT_NE(toString(AsTU.takeError()).find("not a sequence-value model (a link-value model)"),
            std::string::npos);
  Expected<SequenceAgent> TUAsLink = linkAgentOf(
      linearModel({0}, {0}, json::Array{"clang-default"}), "link-value");
  ASSERT_FALSE(bool(TUAsLink));
  EXPECT_NE(toString(TUAsLink.takeError()).find("not a link-value model"), std::string::npos);
  // In a per-TU model "link:..." is no action of the space.
  Expected<SequenceAgent> Bad =
      agentOf(linearModel({0}, {0}, json::Array{"link:lto-icf"}, "sequence-value"));
  ASSERT_FALSE(bool(Bad));
  consumeError(Bad.takeError());
}

} // namespace
