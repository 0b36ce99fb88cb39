// The kernel chooser (policies/train/SequenceKernel.h) on hand-made tables: a narrow kernel
// predicts the nearest training module's gains, an infinite one the prior; the exported
// model computes the same as the fitted rule; validation chooses the bandwidth.
#include "policies/train/SequenceKernel.h"
#include "policies/model/ExportedModel.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace llvm;
using namespace smartcc;

namespace {

// Two kinds of module, told apart by their first feature: on kind A (x ~ 0) sequence 0 wins
// 10 %, on kind B (x ~ 10) sequence 1 does; neither ever loses.
ValueTable table(const std::vector<float> &Xs) {
  ValueTable T;
  T.Space = "macro+options";
  T.Objective = "bytes";
  T.Sequences = {"clang-default", "clang-default-os"};
  for (size_t I = 0; I < Xs.size(); ++I) {
    ValueTableRow R;
    R.Hash = "h" + std::to_string(I);
    R.Obs = {Xs[I], float(I % 2)};
    R.Clang = 110;
    bool A = Xs[I] < 5;
    R.Values = {A ? 100.0 : 110.0, A ? 110.0 : 100.0};
    T.Rows.push_back(std::move(R));
  }
  return T;
}

const double TenPercent = 100.0 * std::log(110.0 / 100.0);

// Fits the kernel chooser in a fresh directory and loads the model it wrote.
ExportedModel fit(const ValueTable &Train, const ValueTable &Val) {
  SequenceValueOptions O;
  SmallString<128> Dir;
  EXPECT_FALSE(sys::fs::createUniqueDirectory("kernel-test", Dir));
  O.RunDir = Dir.str().str();
  EXPECT_FALSE(bool(trainSequenceKernel(O, Train, Val)));
  Expected<ExportedModel> M = ExportedModel::load(O.RunDir + "/model.smm");
  EXPECT_TRUE(bool(M)) << (M ? "" : toString(M.takeError()));
  sys::fs::remove_directories(O.RunDir);
  return M ? std::move(*M) : ExportedModel();
}

TEST(SequenceKernelTest, NarrowIsNearestWideIsPrior) {
  ValueTable Train = table({0, 0.5f, 10, 10.5f}), Query = table({0.2f, 10.2f});
  Welford S;
  for (const ValueTableRow &R : Train.Rows)
    S.add(R.Obs);
  std::vector<std::vector<float>> Near = kernelPredict(Train, S, 1e-3, Query, 0);
  EXPECT_NEAR(Near[0][0], TenPercent, 1e-3); // like the A modules
  EXPECT_NEAR(Near[0][1], 0.0, 1e-3);
  EXPECT_NEAR(Near[1][1], TenPercent, 1e-3); // like the B modules
  std::vector<std::vector<float>> Far =
      kernelPredict(Train, S, std::numeric_limits<double>::infinity(), Query, 0);
  std::vector<float> Prior = valuePrior(Train, 0);
  for (const std::vector<float> &P : Far)
    for (size_t J = 0; J < P.size(); ++J)
      EXPECT_NEAR(P[J], Prior[J], 1e-5);
}

TEST(SequenceKernelTest, FitsOnValidationAndExportsTheSameRule) {
  // Validation has both kinds, so a narrow kernel beats the prior (which picks one sequence
  // for all) and is chosen; the model file then predicts what the rule predicts.
  ValueTable Train = table({0, 0.5f, 1, 10, 10.5f, 11}), Val = table({0.3f, 10.7f});
  ExportedModel Fit = fit(Train, Val);
  ExportedModel *M = &Fit;
  const json::Object *Chooser = M->metadata().getObject("chooser");
  ASSERT_TRUE(Chooser);
  EXPECT_EQ(Chooser->getString("kind").value_or(""), "kernel");
  EXPECT_TRUE(Chooser->getNumber("bandwidth_multiple").has_value()); // not "inf": not the prior
  EXPECT_EQ(M->metadata().getString("kind").value_or(""), "sequence-value");
  std::vector<float> A = M->forward(Val.Rows[0].Obs), B = M->forward(Val.Rows[1].Obs);
  EXPECT_GT(A[0], A[1]);
  EXPECT_GT(B[1], B[0]);
  const json::Object *V = M->metadata().getObject("validation");
  ASSERT_TRUE(V);
  EXPECT_NEAR(V->getNumber("top1_accuracy").value_or(0), 1.0, 1e-12);
}

TEST(SequenceKernelTest, NoSignalChoosesThePrior) {
  // Every module alike: no bandwidth beats the prior, and ties go to the widest kernel.
  ValueTable Train = table({0, 0.5f, 1, 1.5f}), Val = table({0.2f, 0.7f});
  ExportedModel Fit = fit(Train, Val);
  ExportedModel *M = &Fit;
  ASSERT_TRUE(M->metadata().getObject("chooser"));
  EXPECT_EQ(M->metadata().getObject("chooser")->getString("bandwidth_multiple").value_or(""),
            "inf");
  std::vector<float> P = M->forward(Val.Rows[0].Obs), Prior = valuePrior(Train, 0);
  for (size_t J = 0; J < P.size(); ++J)
    EXPECT_NEAR(P[J], Prior[J], 1e-5);
}

} // namespace
