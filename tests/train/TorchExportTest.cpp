// The shipped inference routine computes what LibTorch computes: a trained-shape network is
// exported and both forwards are compared on recorded random inputs within 1e-5.
#include "policies/model/ExportedModel.h"
#include "policies/train/TorchExport.h"
#include <gtest/gtest.h>

using namespace smartcc;

namespace {

TEST(TorchExportTest, ExportedForwardMatchesLibTorch) {
  torch::manual_seed(7);
  const int64_t In = 98; // Autophase (56) + a 42-action histogram
  torch::nn::Sequential Net(torch::nn::Linear(In, 64), torch::nn::ReLU(),
                            torch::nn::LayerNorm(torch::nn::LayerNormOptions({64})),
                            torch::nn::Linear(64, 64), torch::nn::Tanh(),
                            torch::nn::Linear(64, 42));
  // Make LayerNorm's affine parameters non-trivial, as after training.
  for (auto &P : Net->named_parameters())
    if (P.key().find("1.") == std::string::npos)
      P.value().data().add_(torch::randn_like(P.value()) * 0.1);
  std::vector<float> Mean(In), Std(In);
  for (int64_t I = 0; I < In; ++I) {
    Mean[size_t(I)] = 0.1f * float(I % 7);
    Std[size_t(I)] = 0.5f + 0.01f * float(I);
  }
  llvm::Expected<std::string> Bytes =
      exportSequential(Net, size_t(In), llvm::json::Object{{"space", "autophase"}}, Mean, Std);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  llvm::Expected<ExportedModel> M = ExportedModel::parse(*Bytes, "test");
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_EQ(M->outputSize(), 42u);

  torch::NoGradGuard NoGrad;
  torch::Tensor MeanT = torch::tensor(Mean), StdT = torch::tensor(Std);
  double MaxDiff = 0;
  for (int Trial = 0; Trial < 100; ++Trial) {
    torch::Tensor X = torch::randn({In}) * 3.0;
    torch::Tensor Expected = Net->forward(((X - MeanT) / StdT).unsqueeze(0)).squeeze(0);
    std::vector<float> Input(X.data_ptr<float>(), X.data_ptr<float>() + In);
    std::vector<float> Got = M->forward(Input);
    ASSERT_EQ(Got.size(), size_t(Expected.size(0)));
    for (size_t I = 0; I < Got.size(); ++I)
      MaxDiff = std::max(MaxDiff, std::fabs(double(Got[I]) - Expected[int64_t(I)].item<double>()));
    EXPECT_EQ(M->argmax(Input), size_t(Expected.argmax().item<int64_t>()));
  }
  EXPECT_LT(MaxDiff, 1e-5);
}

TEST(TorchExportTest, UnsupportedLayersAreRefused) {
  torch::nn::Sequential Net(torch::nn::Linear(4, 4), torch::nn::Sigmoid());
  llvm::Expected<std::string> Bytes = exportSequential(Net, 4, llvm::json::Object{});
  ASSERT_FALSE(bool(Bytes));
  EXPECT_NE(llvm::toString(Bytes.takeError()).find("cannot be exported"), std::string::npos);
}

} // namespace
