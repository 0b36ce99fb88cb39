// An environment trainer ships its best validated policy, not its last: exportIfBest exports
// only on a new best (remembered in the checkpoint directory across resumes), and the end of
// a run exports only when nothing was ever validated.
#include "policies/train/TrainingCommon.h"
#include "llvm/Support/FileSystem.h"
#include <gtest/gtest.h>

using namespace smartcc;

namespace {

TEST(BestPolicyTest, OnlyABetterValidationExports) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("best-policy", Dir));
  const std::string Ckpt = Dir.str().str();
  std::vector<int> Exported;
  int Step = 0;
  auto Export = [&] {
    Exported.push_back(Step);
    return llvm::Error::success();
  };
  for (double Score : {0.90, 1.01, 0.69, 0.69, 1.00, 1.02}) {
    ++Step;
    ASSERT_FALSE(bool(exportIfBest(Score, Ckpt, Step, Export)));
  }
  EXPECT_EQ(Exported, (std::vector<int>{1, 2, 6}));
  // The end of a validated run keeps the best; a resumed run remembers it.
  ASSERT_FALSE(bool(exportIfNeverValidated(Ckpt, Export)));
  EXPECT_EQ(Exported.size(), 3u);
  EXPECT_DOUBLE_EQ(loadBestScore(Ckpt, -1), 1.02);
  ++Step;
  ASSERT_FALSE(bool(exportIfBest(1.015, Ckpt, Step, Export)));
  EXPECT_EQ(Exported.size(), 3u);
  // A run that never validated ships its last policy.
  llvm::SmallString<128> Fresh;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("never-validated", Fresh));
  ASSERT_FALSE(bool(exportIfNeverValidated(Fresh.str().str(), Export)));
  EXPECT_EQ(Exported.size(), 4u);
  llvm::sys::fs::remove_directories(Ckpt);
  llvm::sys::fs::remove_directories(Fresh);
}

} // namespace
