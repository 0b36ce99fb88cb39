// The candidate budget's rules (runtime/candidates/CandidateBudget.h): the allowance, which candidates fit,
// and the order proposals and library candidates are considered in.
#include "runtime/candidates/CandidateBudget.h"
#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace smartcc;

namespace {

TEST(CandidateBudget, AllowanceIsTheLargerOfTimeAndSmallTUShare) {
  EXPECT_DOUBLE_EQ(budgetAllowance(3000, 50, 1000), 3.0);  // small TU: 3 compiles
  EXPECT_DOUBLE_EQ(budgetAllowance(3000, 50, 2000), 1.0);  // whole compiles only
  EXPECT_DOUBLE_EQ(budgetAllowance(3000, 50, 45000), 0.5); // large TU: the time share
  EXPECT_DOUBLE_EQ(budgetAllowance(3000, 0, 45000), 0.0);
  EXPECT_DOUBLE_EQ(budgetAllowance(3000, 150, 0), 3000.0); // an empty module divides by 1
}

TEST(CandidateBudget, LateCandidatesCostHalf) {
  EXPECT_DOUBLE_EQ(candidateCost(false), 1.0);
  EXPECT_DOUBLE_EQ(candidateCost(true), LateCost);
  EXPECT_DOUBLE_EQ(LateCost, 0.5);
}

TEST(CandidateBudget, KeepsWhatFitsInOrderAndLetsCheaperOnesThrough) {
  std::vector<std::pair<std::string, double>> Items{
      {"full-a", 1.0}, {"late-a", 0.5}, {"full-b", 1.0}, {"late-b", 0.5}, {"late-c", 0.5}};
  auto Cost = [](const std::pair<std::string, double> &I) { return I.second; };
  std::vector<std::pair<std::string, double>> Kept = Items;
  EXPECT_EQ(keepWithinAllowance(Kept, 2.0, Cost), 2u);
  ASSERT_EQ(Kept.size(), 3u); // full-a, late-a, then full-b would exceed: late-b fits
  EXPECT_EQ(Kept[0].first, "full-a");
  EXPECT_EQ(Kept[1].first, "late-a");
  EXPECT_EQ(Kept[2].first, "late-b");
  Kept = Items;
  EXPECT_EQ(keepWithinAllowance(Kept, 0.5, Cost), 4u);
  ASSERT_EQ(Kept.size(), 1u);
  EXPECT_EQ(Kept[0].first, "late-a");
  Kept = Items;
  EXPECT_EQ(keepWithinAllowance(Kept, 0.4, Cost), 5u);
}

std::string render(const std::vector<CandidateSlot> &Order) {
  std::string S;
  for (const CandidateSlot &C : Order)
    S += (S.empty() ? "" : " ") + std::string(C.FromLibrary ? "L" : "P") +
         std::to_string(C.Index);
  return S;
}

TEST(CandidateBudget, OrderFollowsTheBudgetAndTheTUsSize) {
  const std::vector<bool> Library{true, true, false}; // two late candidates, one full
  EXPECT_EQ(render(candidateOrder(Library, 3, /*BudgetLimited=*/false, false)),
            "P0 P1 P2 L0 L1 L2");
  EXPECT_EQ(render(candidateOrder(Library, 3, true, /*LargeTU=*/true)), "L0 L1 L2 P0 P1 P2");
  EXPECT_EQ(render(candidateOrder(Library, 3, true, false)), "P0 L0 L1 P1 P2 L2");
  EXPECT_EQ(render(candidateOrder(Library, 0, true, false)), "L0 L1 L2");
}

} // namespace

// A candidate that code-generates several times (allocators chosen by bytes: one per
// allocator and one more) costs each code generation: it does not fit where one late
// candidate does, and a cheaper one after it still may.
TEST(CandidateBudget, CodegensAreEachCounted) {
  EXPECT_DOUBLE_EQ(smartcc::candidateCost(true, 5), 5 * smartcc::LateCost);
  EXPECT_DOUBLE_EQ(smartcc::candidateCost(false, 2), 1.0 + smartcc::LateCost);
  EXPECT_DOUBLE_EQ(smartcc::candidateCost(true), smartcc::LateCost);
  std::vector<smartcc::CandidateSlot> Slots = smartcc::candidatesWithinBudget(
      {}, {true, true}, /*Allowance=*/1.0, /*LargeTU=*/true, /*Cap=*/10, {5, 1});
  ASSERT_EQ(Slots.size(), 1u);
  EXPECT_TRUE(Slots[0].FromLibrary);
  EXPECT_EQ(Slots[0].Index, 1u);
  Slots = smartcc::candidatesWithinBudget({}, {true, true}, 3.0, true, 10, {5, 1});
  EXPECT_EQ(Slots.size(), 2u);
}
