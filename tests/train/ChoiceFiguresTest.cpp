// What smartcc-train reports of a value model on a table (policies/train/SequenceValue.h):
// the never-worse geomeans and the calibration figures (top-1 accuracy, Spearman between
// predicted and measured gains, the share of the oracle's gain effort 1 reaches, regret),
// computed by hand on small tables.
#include "policies/train/SequenceValue.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace smartcc;

namespace {

ValueTable table(std::vector<std::vector<double>> Values, double Clang = 100) {
  ValueTable T;
  for (size_t I = 0; I < Values[0].size(); ++I)
    T.Sequences.push_back("clang-default");
  for (std::vector<double> &V : Values) {
    ValueTableRow R;
    R.Obs = {0};
    R.Clang = Clang;
    R.Values = std::move(V);
    T.Rows.push_back(std::move(R));
  }
  return T;
}

TEST(ChoiceFiguresTest, SpearmanOfRanks) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3}, {5, 5, 5}), 0.0); // constant: no correlation
  // Ties get average ranks: (1, 2.5, 2.5, 4) against (1, 2, 3, 4).
  EXPECT_NEAR(spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486833, 1e-6);
}

TEST(ChoiceFiguresTest, PerfectPredictionsAreCalibrated) {
  // Three sequences; the scores order them exactly as their bytes do.
  ValueTable T = table({{90, 95, 110}, {120, 80, 100}});
  std::vector<std::vector<float>> Scores = {{3, 2, 1}, {1, 3, 2}};
  ChoiceFigures F = scoreChoices(T, Scores);
  EXPECT_DOUBLE_EQ(F.Top1Accuracy, 1.0);
  EXPECT_DOUBLE_EQ(F.Spearman, 1.0);
  EXPECT_EQ(F.SpearmanRows, 2u);
  EXPECT_NEAR(F.Top1, std::exp((std::log(100.0 / 90) + std::log(100.0 / 80)) / 2), 1e-12);
  EXPECT_NEAR(F.OracleShare, 1.0, 1e-12);
  EXPECT_NEAR(F.MeanRegret, 0.0, 1e-12);
  EXPECT_NEAR(F.Effort1Total, 200.0 / (90 + 80), 1e-12); // byte-weighted: sums, not a geomean
}

TEST(ChoiceFiguresTest, WrongFirstChoicesCostRegretAndCorrelation) {
  // Inverted scores: the first choice is the worst sequence; with three columns the effort-1
  // rule still reaches the best one here (core-set order), so only top-1 suffers.
  ValueTable T = table({{90, 95, 110}});
  ChoiceFigures F = scoreChoices(T, {{1, 2, 3}});
  EXPECT_DOUBLE_EQ(F.Top1Accuracy, 0.0);
  EXPECT_DOUBLE_EQ(F.Spearman, -1.0);
  EXPECT_DOUBLE_EQ(F.Top1, 1.0); // the worst is larger than clang: clang's kept
  // A link table: effort 1 is the first three by prediction (all of them here).
  T.Kind = "link-value";
  EXPECT_NEAR(scoreChoices(T, {{1, 2, 3}}).MeanRegret, 0.0, 1e-12);
  // Four columns, the best one predicted last: a link model's effort 1 misses it.
  ValueTable L = table({{90, 95, 99, 110}});
  L.Kind = "link-value";
  ChoiceFigures G = scoreChoices(L, {{1, 2, 3, 4}});
  EXPECT_NEAR(G.MeanRegret, 100.0 * std::log(95.0 / 90.0), 1e-9);
  EXPECT_NEAR(G.OracleShare, std::log(100.0 / 95) / std::log(100.0 / 90), 1e-9);
}

TEST(ChoiceFiguresTest, NothingBeatsClangCountsAsACorrectChoice) {
  // Every column is larger than clang: any first choice leaves clang's bytes, the best there is.
  ValueTable T = table({{101, 120, 0}});
  ChoiceFigures F = scoreChoices(T, {{0, 1, 2}});
  EXPECT_DOUBLE_EQ(F.Top1Accuracy, 1.0);
  EXPECT_EQ(F.SpearmanRows, 0u); // two measured columns only (0 = failed)
  EXPECT_DOUBLE_EQ(F.OracleShare, 1.0);
}

} // namespace

TEST(ChoiceFiguresTest, TargetsWeighLossesAsAsked) {
  // Gains in percent of clang's bytes, clipped to +-50; a loss counts 0 by default.
  EXPECT_NEAR(valueTarget(100, 90, 0), 100 * std::log(100.0 / 90), 1e-12);
  EXPECT_EQ(valueTarget(100, 110, 0), 0.0);
  EXPECT_NEAR(valueTarget(100, 110, 0.3), 0.3 * 100 * std::log(100.0 / 110), 1e-12);
  EXPECT_NEAR(valueTarget(100, 10, 0.3), 50.0, 1e-12);   // an outlier gain
  EXPECT_NEAR(valueTarget(100, 1000, 1), -50.0, 1e-12);  // an outlier loss
}

TEST(ChoiceFiguresTest, PriorIsEachSequencesMeanTarget) {
  // Column 0 wins 10 % on one row and loses on the other; column 1 always wins 5 %; a failed
  // measurement (0) does not count.
  ValueTable T = table({{100 * std::exp(-0.10), 100 * std::exp(-0.05), 0},
                        {100 * std::exp(0.20), 100 * std::exp(-0.05), 80}});
  std::vector<float> P = valuePrior(T, 0);
  ASSERT_EQ(P.size(), 3u);
  EXPECT_NEAR(P[0], 5.0, 1e-4);
  EXPECT_NEAR(P[1], 5.0, 1e-4);
  EXPECT_NEAR(P[2], 100 * std::log(100.0 / 80), 1e-4);
  // Weighted losses: column 0 is now worth (10 - 0.5 * 20) / 2 = 0.
  EXPECT_NEAR(valuePrior(T, 0.5)[0], 0.0, 1e-4);
  EXPECT_NEAR(valuePrior(T, 0.5)[1], 5.0, 1e-4);
}

TEST(ChoiceFiguresTest, GreedyColumnOrderPicksWhatAddsMost) {
  // Column 2 wins most alone; given it, column 0 adds the most (it wins where 2 does not);
  // column 1 only repeats column 2's wins.
  ValueTable T = table({{100, 95, 80}, {90, 100, 100}, {100, 85, 80}});
  std::vector<size_t> Order = greedyColumnOrder(T);
  EXPECT_EQ(Order, (std::vector<size_t>{2, 0, 1}));
  T.Sequences = {"a", "b", "c"};
  permuteColumns(T, Order);
  EXPECT_EQ(T.Sequences, (std::vector<std::string>{"c", "a", "b"}));
  EXPECT_EQ(T.Rows[1].Values, (std::vector<double>{100, 90, 100}));
}
