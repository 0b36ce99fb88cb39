// The compiler-side inference routine: hand-computed forward passes, standardization, layer
// norm, and errors that name the file and line. (The match with LibTorch's own forward is
// tested in tests/train/, which links LibTorch.)
#include "policies/model/ExportedModel.h"
#include <gtest/gtest.h>

using namespace llvm;
using namespace smartcc;

namespace {

// 2 inputs -> linear(2x2) -> relu -> linear(1x2) -> tanh
std::string tinyModel(bool Standardize) {
  json::Object Meta{{"input_size", 2},
                    {"layers", json::Array{json::Object{{"kind", "linear"}, {"in", 2}, {"out", 2},
                                                        {"offset", 0}},
                                           json::Object{{"kind", "relu"}},
                                           json::Object{{"kind", "linear"}, {"in", 2}, {"out", 1},
                                                        {"offset", 6}},
                                           json::Object{{"kind", "tanh"}}}}};
  if (Standardize) {
    Meta["input_mean"] = json::Array{1.0, 2.0};
    Meta["input_std"] = json::Array{2.0, 4.0};
  }
  // W1 = [[1, -1], [0.5, 2]], b1 = [0, -1]; W2 = [[1, 1]], b2 = [0.25]
  std::vector<float> W{1, -1, 0.5f, 2, 0, -1, 1, 1, 0.25f};
  return ExportedModel::serialize(Meta, W);
}

TEST(ExportedModelTest, ForwardMatchesHandComputation) {
  Expected<ExportedModel> M = ExportedModel::parse(tinyModel(false), "tiny.smm");
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_EQ(M->inputSize(), 2u);
  EXPECT_EQ(M->outputSize(), 1u);
  // x = (3, 1): h = relu(3 - 1, 1.5 + 2 - 1) = (2, 2.5); y = tanh(2 + 2.5 + 0.25)
  std::vector<float> Y = M->forward({3.0f, 1.0f});
  ASSERT_EQ(Y.size(), 1u);
  EXPECT_NEAR(Y[0], std::tanh(4.75f), 1e-6);
  // x = (-1, 0): h = relu(-1, -1.5) = (0, 0); y = tanh(0.25)
  EXPECT_NEAR(M->forward({-1.0f, 0.0f})[0], std::tanh(0.25f), 1e-6);
}

TEST(ExportedModelTest, StandardizesInputs) {
  Expected<ExportedModel> M = ExportedModel::parse(tinyModel(true), "tiny.smm");
  ASSERT_TRUE(bool(M));
  // raw (7, 6) standardizes to ((7-1)/2, (6-2)/4) = (3, 1): same as the unstandardized case
  EXPECT_NEAR(M->forward({7.0f, 6.0f})[0], std::tanh(4.75f), 1e-6);
}

TEST(ExportedModelTest, LayerNormAndArgmax) {
  json::Object Meta{{"input_size", 3},
                    {"layers", json::Array{json::Object{{"kind", "layernorm"}, {"size", 3},
                                                        {"offset", 0}, {"eps", 0.0}}}}};
  std::vector<float> W{1, 1, 2, 0, 0, 0.5f}; // gains then biases
  Expected<ExportedModel> M = ExportedModel::parse(ExportedModel::serialize(Meta, W), "ln");
  ASSERT_TRUE(bool(M));
  // (1, 2, 3): mean 2, var 2/3 -> normalized (-1.2247, 0, 1.2247)
  std::vector<float> Y = M->forward({1, 2, 3});
  EXPECT_NEAR(Y[0], -1.2247449f, 1e-5);
  EXPECT_NEAR(Y[1], 0.0f, 1e-6);
  EXPECT_NEAR(Y[2], 2 * 1.2247449f + 0.5f, 1e-5);
  EXPECT_EQ(M->argmax({1, 2, 3}), 2u);
}

TEST(ExportedModelTest, Softmax) {
  // The kernel chooser's middle layer: weights summing to 1, large inputs without overflow.
  json::Object Meta{{"input_size", 3}, {"layers", json::Array{json::Object{{"kind", "softmax"}}}}};
  Expected<ExportedModel> M = ExportedModel::parse(ExportedModel::serialize(Meta, {}), "sm");
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  std::vector<float> Y = M->forward({0, std::log(2.0f), std::log(5.0f)});
  EXPECT_NEAR(Y[0], 0.125f, 1e-6);
  EXPECT_NEAR(Y[1], 0.25f, 1e-6);
  EXPECT_NEAR(Y[2], 0.625f, 1e-6);
  Y = M->forward({1000, 1000, 0});
  EXPECT_NEAR(Y[0], 0.5f, 1e-6);
  EXPECT_NEAR(Y[2], 0.0f, 1e-6);
}

TEST(ExportedModelTest, ErrorsNameFileAndLine) {
  auto ErrorOf = [](const std::string &Bytes) {
    Expected<ExportedModel> M = ExportedModel::parse(Bytes, "m.smm");
    return M ? std::string("no error") : toString(M.takeError());
  };
  EXPECT_EQ(ErrorOf("GARBAGE\n{}\n"),
            "m.smm: line 1: not a smartcc model (expected 'SMARTCC-MODEL 1')");
  EXPECT_NE(ErrorOf("SMARTCC-MODEL 1\n{not json\n").find("m.smm: line 2: metadata:"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("SMARTCC-MODEL 1\n{\"input_size\":2,\"layers\":[{\"kind\":\"gelu\"}]}\n"),
            "m.smm: line 2: layer 0: unknown kind 'gelu'");
  EXPECT_EQ(ErrorOf("SMARTCC-MODEL 1\n{\"input_size\":2,\"layers\":[{\"kind\":\"linear\","
                    "\"in\":3,\"out\":1,\"offset\":0}]}\n"),
            "m.smm: line 2: layer 0: expects 3 inputs, the previous layer gives 2");
  EXPECT_EQ(ErrorOf("SMARTCC-MODEL 1\n{\"input_size\":2,\"layers\":[{\"kind\":\"linear\","
                    "\"in\":2,\"out\":1,\"offset\":0}]}\n"),
            "m.smm: line 3: layer 0: weights outside the file");
}

} // namespace
