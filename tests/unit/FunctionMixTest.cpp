// The per-function mix (runtime/decide/FunctionMix.h) on hand-written versions of one module: which
// bodies move, what they bring and leave behind, what may never move; and the per-function
// bytes it decides on (runtime/measure/FunctionSizes.h) on real objects, unwind entries included.
#include "runtime/decide/FunctionMix.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/support/LLVMTargets.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include <gtest/gtest.h>

using namespace llvm;
using namespace smartcc;

namespace {

// Clang's version: f inlines a large helper it alone uses; g is small; the table is data both
// versions have.
const char *BaseIR = R"IR(
@table = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]

define internal i32 @helper(i32 %x) {
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  ret i32 %b
}

define i32 @f(i32 %x) {
  %r = call i32 @helper(i32 %x)
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 %x
  %v = load i32, ptr %p
  %s = add i32 %r, %v
  ret i32 %s
}

define i32 @g(i32 %x) {
  %y = add i32 %x, 2
  ret i32 %y
}
)IR";

// Another sequence's version: f smaller with a helper of its own and the same table; g larger.
const char *DonorIR = R"IR(
@table = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]

define internal i32 @helper.small(i32 %x) {
  %a = shl i32 %x, 1
  ret i32 %a
}

define i32 @f(i32 %x) {
  %r = call i32 @helper.small(i32 %x)
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 %x
  %v = load i32, ptr %p
  %s = add i32 %r, %v
  ret i32 %s
}

define i32 @g(i32 %x) {
  %y = add i32 %x, 2
  %z = xor i32 %y, 5
  ret i32 %z
}
)IR";

// f keeps a counter: two copies of it would split its state.
const char *StatefulIR = R"IR(
@counter = internal global i32 0

define i32 @f(i32 %x) {
  %c = load i32, ptr @counter
  %n = add i32 %c, %x
  store i32 %n, ptr @counter
  ret i32 %n
}

define i32 @g(i32 %x) {
  ret i32 %x
}
)IR";

class FunctionMixTest : public ::testing::Test {
protected:
  std::unique_ptr<Module> parse(const char *IR) {
    SMDiagnostic Err;
    std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("test", OS);
      ADD_FAILURE() << Msg;
    }
    return M;
  }
  LLVMContext Ctx; // every version in one context, as the mix needs
};

TEST_F(FunctionMixTest, MovesTheSmallerBodyWithItsHelperAndSharesEqualConstants) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(DonorIR);
  ASSERT_TRUE(Base && Donor);
  std::vector<MixVersion> V{{Base.get(), {{"f", 100}, {"helper", 50}, {"g", 10}}, {}, ""},
                            {Donor.get(), {{"f", 20}, {"helper.small", 10}, {"g", 30}}, {}, ""}};
  FunctionMixPlan Plan = planFunctionMix(V, 0);
  ASSERT_EQ(Plan.Take.size(), 1u);
  EXPECT_EQ(Plan.Take.at("f"), 1u); // g is smaller where it is
  EXPECT_EQ(Plan.Considered, 2u);
  // f and the helper only it reached leave (150), f and its new helper come (30); the table
  // is Base's, shared, so it costs nothing.
  EXPECT_EQ(Plan.EstimatedSaving, 120);

  Expected<std::unique_ptr<Module>> Mix = buildFunctionMix(V, Plan);
  ASSERT_TRUE(bool(Mix)) << toString(Mix.takeError());
  Module &M = **Mix;
  EXPECT_EQ(M.getFunction("helper"), nullptr) << "Base's helper is dead and removed";
  Function *Copy = M.getFunction("helper.small");
  ASSERT_NE(Copy, nullptr);
  EXPECT_TRUE(Copy->hasLocalLinkage());
  // f now calls the copy; g kept Base's body (one instruction and the return).
  bool CallsCopy = false;
  for (const Instruction &I : instructions(*M.getFunction("f")))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      CallsCopy |= CB->getCalledFunction() == Copy;
  EXPECT_TRUE(CallsCopy);
  EXPECT_EQ(M.getFunction("g")->getInstructionCount(), 2u);
  EXPECT_EQ(M.global_size(), 1u) << "the table was shared, not copied";
  // The versions are untouched.
  EXPECT_NE(Base->getFunction("helper"), nullptr);
  EXPECT_NE(Donor->getFunction("helper.small"), nullptr);
}

TEST_F(FunctionMixTest, NothingMovesWithoutAWholeByte) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(DonorIR);
  ASSERT_TRUE(Base && Donor);
  // f's move would bring 60 where 60 leaves: no gain, no move.
  std::vector<MixVersion> V{{Base.get(), {{"f", 10}, {"helper", 50}, {"g", 10}}, {}, ""},
                            {Donor.get(), {{"f", 50}, {"helper.small", 10}, {"g", 30}}, {}, ""}};
  FunctionMixPlan Plan = planFunctionMix(V, 0);
  EXPECT_TRUE(Plan.Take.empty());
  EXPECT_EQ(Plan.EstimatedSaving, 0);
}

TEST_F(FunctionMixTest, MutableLocalStateNeverTravels) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(StatefulIR);
  ASSERT_TRUE(Base && Donor);
  std::vector<MixVersion> V{{Base.get(), {{"f", 100}, {"helper", 50}, {"g", 10}}, {}, ""},
                            {Donor.get(), {{"f", 5}, {"g", 10}}, {}, ""}};
  FunctionMixPlan Plan = planFunctionMix(V, 0);
  EXPECT_EQ(Plan.Take.count("f"), 0u);
}

TEST_F(FunctionMixTest, VersionsWithOtherCodegenOptionsAreNotDonors) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(DonorIR);
  ASSERT_TRUE(Base && Donor);
  std::vector<MixVersion> V{
      {Base.get(), {{"f", 100}, {"helper", 50}, {"g", 10}}, {}, ""},
      {Donor.get(), {{"f", 20}, {"helper.small", 10}, {"g", 30}},
       {},
       "-enable-machine-outliner=always"}};
  EXPECT_TRUE(planFunctionMix(V, 0).Take.empty());
}

TEST_F(FunctionMixTest, NoMoveBuysUnwindBytesWithCode) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(DonorIR);
  ASSERT_TRUE(Base && Donor);
  // Moving f saves 90 bytes in all, but Base's f and helper are mostly unwind entries: the
  // move would add 20 bytes of code (60 in, 40 out) and shrink unwind tables below clang's,
  // which code_for_unwind forbids (a build without unwind tables would get only the growth).
  std::vector<MixVersion> V{
      {Base.get(), {{"f", 100}, {"helper", 50}, {"g", 10}}, {{"f", 60}, {"helper", 50}}, ""},
      {Donor.get(), {{"f", 50}, {"helper.small", 10}, {"g", 30}}, {}, ""}};
  V[0].Measured = {160, 50, 110}; // Base is clang's version here
  MixRule Rule{true, V[0].Measured, 0};
  EXPECT_TRUE(planFunctionMix(V, 0, Rule).Take.empty());
  EXPECT_EQ(planFunctionMix(V, 0).Take.count("f"), 1u) << "without the rule it moves";
  // 10 % of clang's code may be spent: 20 bytes of 50 is still too much; 40 % allows it.
  Rule.Percent = 10;
  EXPECT_TRUE(planFunctionMix(V, 0, Rule).Take.empty());
  Rule.Percent = 40;
  FunctionMixPlan Plan = planFunctionMix(V, 0, Rule);
  EXPECT_EQ(Plan.Take.count("f"), 1u);
  EXPECT_EQ(Plan.EstimatedSaving, 90);
  EXPECT_DOUBLE_EQ(Plan.Estimated.Code, 70);
  EXPECT_DOUBLE_EQ(Plan.Estimated.Unwind, 0);
}

TEST_F(FunctionMixTest, TheBestBaseIsChosenAndMustBeatEveryAllowedVersion) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(DonorIR);
  ASSERT_TRUE(Base && Donor);
  std::vector<MixVersion> V{{Base.get(), {{"f", 100}, {"helper", 50}, {"g", 10}}, {}, ""},
                            {Donor.get(), {{"f", 20}, {"helper.small", 10}, {"g", 30}}, {}, ""}};
  V[0].Measured = {160, 160, 0};
  V[1].Measured = {60, 60, 0};
  // Base 0 takes f (saves 120: 40), base 1 takes g (saves 20: 40): a tie on the estimate, the
  // first base kept. Both beat the smaller version (60).
  FunctionMixPlan Plan = planBestFunctionMix(V, MixRule{});
  EXPECT_DOUBLE_EQ(Plan.Estimated.Image, 40);
  EXPECT_EQ(Plan.Base, 0u);
  EXPECT_EQ(Plan.Take.count("f"), 1u);
  // A mix that cannot beat the best version is not worth compiling: with g as small in the
  // second version, only base 0 moves anything (f, to 40), and that version alone is 30.
  V[1].FunctionBytes["g"] = 10;
  V[1].Measured.Image = 30;
  EXPECT_TRUE(planBestFunctionMix(V, MixRule{}).Take.empty());
}

TEST_F(FunctionMixTest, VersionsWithOutlinedCodeTakeNoPart) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(DonorIR);
  ASSERT_TRUE(Base && Donor);
  std::vector<MixVersion> V{{Base.get(), {{"f", 100}, {"helper", 50}, {"g", 10}}, {}, ""},
                            {Donor.get(), {{"f", 20}, {"helper.small", 10}, {"g", 30}}, {}, ""}};
  V[0].Measured = {160, 160, 0};
  V[1].Measured = {60, 60, 0};
  EXPECT_FALSE(planBestFunctionMix(V, MixRule{}).Take.empty());
  // The donor's f looks small because the outliner moved part of it out (shared with others).
  V[1].FunctionBytes["OUTLINED_FUNCTION_0"] = 12;
  EXPECT_TRUE(planBestFunctionMix(V, MixRule{}).Take.empty());
}

TEST_F(FunctionMixTest, JumpTableChoicesOnlyMoveWhenTheirTablesWereCounted) {
  std::unique_ptr<Module> Base = parse(BaseIR), Donor = parse(DonorIR);
  ASSERT_TRUE(Base && Donor);
  Donor->getFunction("f")->addFnAttr("no-jump-tables", "true");
  std::vector<MixVersion> V{{Base.get(), {{"f", 100}, {"helper", 50}, {"g", 10}}, {}, ""},
                            {Donor.get(), {{"f", 20}, {"helper.small", 10}, {"g", 30}}, {}, ""}};
  // Symbol sizes alone: Base's f may keep a jump table in .rodata that its bytes do not show.
  EXPECT_TRUE(planFunctionMix(V, 0).Take.empty());
  V[0].JumpTablesCounted = V[1].JumpTablesCounted = true; // .rodata.F counted
  EXPECT_EQ(planFunctionMix(V, 0).Take.count("f"), 1u);
}

// functionSectionSizes on real objects: each function's bytes are its section plus its unwind
// entry, and the entries are all of .eh_frame but its CIE.
class FunctionSectionSizesTest : public ::testing::TestWithParam<const char *> {};

// uwtable: every function gets an unwind entry; h calls out, so it has a frame to describe.
const char *UnwindIR = R"IR(
declare void @ext(ptr)
define i32 @f(i32 %x) uwtable {
  %y = mul i32 %x, 7
  ret i32 %y
}
define i32 @h(i32 %x) uwtable {
  %a = alloca [64 x i8]
  call void @ext(ptr %a)
  ret i32 %x
}
)IR";

SmallVector<char, 0> compileFor(const char *TripleName, bool FunctionSections) {
  initializeLLVMTargetsOnce();
  Triple TT(TripleName);
  std::string Error;
  SmallVector<char, 0> Buffer;
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T) {
    ADD_FAILURE() << Error;
    return Buffer;
  }
  TargetOptions Options;
  Options.FunctionSections = FunctionSections;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, "", "", Options, Reloc::PIC_, std::nullopt, CodeGenOptLevel::Default));
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(UnwindIR, Err, Ctx);
  if (!M) {
    ADD_FAILURE() << "IR does not parse";
    return Buffer;
  }
  M->setTargetTriple(TT);
  M->setDataLayout(TM->createDataLayout());
  raw_svector_ostream OS(Buffer);
  legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile)) {
    ADD_FAILURE() << "no object emission";
    return Buffer;
  }
  PM.run(*M);
  return Buffer;
}

TEST_P(FunctionSectionSizesTest, UnwindEntriesBelongToTheirFunctions) {
  SmallVector<char, 0> Buffer = compileFor(GetParam(), /*FunctionSections=*/true);
  MemoryBufferRef Ref(StringRef(Buffer.data(), Buffer.size()), "test.o");
  Expected<std::map<std::string, uint64_t>> Sizes = functionSectionSizes(Ref);
  ASSERT_TRUE(bool(Sizes)) << toString(Sizes.takeError());
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(Ref);
  ASSERT_TRUE(bool(Obj));
  std::map<std::string, uint64_t> Text;
  uint64_t EhFrame = 0;
  for (const object::SectionRef &S : (*Obj)->sections()) {
    StringRef Name = cantFail(S.getName());
    if (Name.starts_with(".text."))
      Text[Name.drop_front(6).str()] = S.getSize();
    if (Name == ".eh_frame")
      EhFrame = S.getSize();
  }
  ASSERT_GT(EhFrame, 0u);
  uint64_t Entries = 0;
  for (const char *F : {"f", "h"}) {
    ASSERT_TRUE(Sizes->count(F) && Text.count(F)) << F;
    uint64_t Entry = Sizes->at(F) - Text.at(F);
    EXPECT_GE(Entry, 16u) << F << ": an FDE is at least length, CIE pointer and range";
    EXPECT_EQ(Entry % 4, 0u) << F;
    Entries += Entry;
  }
  // What is left is the one CIE (and on some targets a terminator).
  ASSERT_LT(Entries, EhFrame);
  EXPECT_LE(EhFrame - Entries, 48u);
}

// Without function sections the entries point into one .text (section symbol plus offset):
// functionImageBytes finds the same per-function bytes.
TEST_P(FunctionSectionSizesTest, ImageBytesWithoutFunctionSectionsAgree) {
  SmallVector<char, 0> Split = compileFor(GetParam(), true), Whole = compileFor(GetParam(), false);
  Expected<std::map<std::string, uint64_t>> BySection =
      functionSectionSizes(MemoryBufferRef(StringRef(Split.data(), Split.size()), "split.o"));
  Expected<std::map<std::string, uint64_t>> ByImage =
      functionImageBytes(MemoryBufferRef(StringRef(Whole.data(), Whole.size()), "whole.o"));
  Expected<std::map<std::string, uint64_t>> Symbols =
      functionSizes(MemoryBufferRef(StringRef(Whole.data(), Whole.size()), "whole.o"));
  ASSERT_TRUE(BySection && ByImage && Symbols);
  for (const char *F : {"f", "h"}) {
    EXPECT_EQ(ByImage->at(F), BySection->at(F)) << F;
    EXPECT_GT(ByImage->at(F), Symbols->at(F)) << F << ": the unwind entry is counted";
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FunctionSectionSizesTest,
                         ::testing::Values("x86_64-unknown-linux-gnu",
                                           "aarch64-unknown-linux-gnu"));

} // namespace
