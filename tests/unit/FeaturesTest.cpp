// Autophase and InstCount observation features (policies/AutophaseFeatures.h,
// policies/InstCountFeatures.h): every expected vector below was counted by hand from the IR next
// to it, following the definitions in docs/features.md, and is compared in full (all 56 / 70
// entries), so any miscount anywhere fails with the feature's name.
#include "policies/AutophaseFeatures.h"
#include "policies/InstCountFeatures.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <utility>

using namespace llvm;
using namespace smartcc;

namespace {

using AF = AutophaseFeatures;
using IC = InstCountFeatures;

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *IR) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
  if (!M) {
    ADD_FAILURE() << "IR does not parse: line " << Err.getLineNo() << ": "
                  << Err.getMessage().str();
    return nullptr;
  }
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(*M, &OS)) {
    ADD_FAILURE() << "IR does not verify: " << Msg;
    return nullptr;
  }
  return M;
}

// A full expected Autophase vector: the listed features, all others zero.
AutophaseVector autophase(std::initializer_list<std::pair<AF::Index, int64_t>> NonZero) {
  AutophaseVector V{};
  for (const auto &[Index, Value] : NonZero)
    V[Index] = Value;
  return V;
}

// "name: got X, want Y" for every differing entry; empty when equal.
template <size_t N>
std::string diff(const std::array<int64_t, N> &Got, const std::array<int64_t, N> &Want,
                 const std::array<const char *, N> &Names) {
  std::string Out;
  for (size_t I = 0; I < N; ++I)
    if (Got[I] != Want[I])
      Out += std::string(Names[I]) + ": got " + std::to_string(Got[I]) + ", want " +
             std::to_string(Want[I]) + "\n";
  return Out;
}

std::string autophaseDiff(const Module &M, const AutophaseVector &Want) {
  return diff(computeAutophase(M), Want, AF::names());
}

int64_t instructionCount(const Module &M) {
  int64_t N = 0;
  for (const Function &F : M)
    for (const BasicBlock &BB : F)
      N += static_cast<int64_t>(BB.size());
  return N;
}

// CriticalCount and NumEdges the way LLVM's own isCriticalEdge sees them.
std::pair<int64_t, int64_t> llvmCriticalAndEdges(const Module &M) {
  int64_t Critical = 0, Edges = 0;
  for (const Function &F : M)
    for (const BasicBlock &BB : F) {
      const Instruction *Term = BB.getTerminator();
      for (unsigned S = 0, E = Term->getNumSuccessors(); S < E; ++S) {
        ++Edges;
        Critical += isCriticalEdge(Term, S);
      }
    }
  return {Critical, Edges};
}

// --- The hand-written modules ------------------------------------------------------------------

// One block: a binary op with a constant operand and a return.
const char *StraightIR = R"IR(
define i32 @add1(i32 %x) {
entry:
  %a = add i32 %x, 1
  ret i32 %a
}
)IR";

// A diamond: entry has two successors, the arms one predecessor and one successor each, the join
// two predecessors and two phis with two incoming values each; a direct call returning i32.
const char *DiamondIR = R"IR(
declare i32 @g(i32)
declare void @h()

define i32 @diamond(i32 %x, i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  %t = call i32 @g(i32 %x)
  br label %join
else:
  %e = sub i32 %x, 7
  br label %join
join:
  %p = phi i32 [ %t, %then ], [ %e, %else ]
  %q = phi i32 [ 0, %then ], [ 1, %else ]
  %r = mul i32 %p, %q
  ret i32 %r
}
)IR";

// A switch with two cases to the same block (two edges, two predecessors of %a), critical edges,
// an unreachable default, memory instructions and 64-bit constants.
const char *SwitchIR = R"IR(
define i64 @sw(i32 %x, ptr %p) {
entry:
  %slot = alloca i64
  store i64 0, ptr %slot
  switch i32 %x, label %def [
    i32 0, label %a
    i32 1, label %a
    i32 5, label %b
  ]
a:
  %v = load i64, ptr %slot
  %w = zext i32 %x to i64
  %s = add i64 %v, %w
  br label %b
b:
  %m = phi i64 [ 0, %entry ], [ %s, %a ]
  %g = getelementptr inbounds i64, ptr %p, i64 1
  %l = load i64, ptr %g
  %r = xor i64 %l, %m
  ret i64 %r
def:
  unreachable
}
)IR";

// A loop whose header has four phis with eight incoming values in total, a body of exactly 15
// instructions (BlockMid), unary instructions including freeze and fneg, and calls.
const char *LoopIR = R"IR(
declare i64 @big(i32, i32, i32, i32, i32)
declare float @fl()

define i32 @loop(i32 %n, float %f) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i2, %body ]
  %a = phi i32 [ 1, %entry ], [ %a2, %body ]
  %b = phi i32 [ 2, %entry ], [ %b2, %body ]
  %c = phi i32 [ 3, %entry ], [ %c2, %body ]
  %done = icmp sge i32 %i, %n
  br i1 %done, label %exit, label %body
body:
  %i2 = add nsw i32 %i, 1
  %a2 = shl i32 %a, 2
  %b2 = lshr i32 %b, 1
  %c2 = ashr i32 %c, %a
  %fr = freeze i32 %c2
  %ng = fneg float %f
  %t = trunc i32 %fr to i8
  %se = sext i8 %t to i32
  %o = or i32 %se, %a2
  %an = and i32 %o, %b2
  %sel = select i1 %done, i32 %an, i32 %o
  %bc = bitcast float %ng to i32
  %big = call i64 @big(i32 1, i32 2, i32 3, i32 4, i32 %sel)
  %fc = call float @fl()
  br label %head
exit:
  ret i32 %a
}
)IR";

// Calls that do not count for returnInt (a direct call whose type differs from the callee's, an
// indirect call), LLVM 22's ptrtoaddr, freeze, a callbr, i8 and i1 constants, and a block with a
// single phi of six incoming values (four of them from one switch).
const char *MiscIR = R"IR(
declare void @v()

define i64 @misc(ptr %p, ptr %fp, i8 %k) {
entry:
  %a = ptrtoint ptr %p to i64
  %b = ptrtoaddr ptr %p to i64
  %f = freeze i64 %a
  %r1 = call i32 @v()
  %r2 = call i32 %fp(i32 1)
  %s = add i64 %f, %b
  %k2 = or i8 %k, 3
  callbr void asm "", "!i"() to label %ft [label %ind]
ft:
  switch i8 %k2, label %x [
    i8 1, label %ind
    i8 2, label %ind
    i8 3, label %ind
    i8 4, label %ind
  ]
x:
  br label %ind
ind:
  %m = phi i64 [ %s, %entry ], [ 0, %ft ], [ 0, %ft ], [ 0, %ft ], [ 0, %ft ], [ 1, %x ]
  %z = icmp eq i1 true, false
  ret i64 %m
}
)IR";

// StraightIR again, with debug info: one debug record (LLVM 22's replacement for llvm.dbg.value
// calls) and the metadata it needs.
const char *DebugRecordIR = R"IR(
define i32 @add1(i32 %x) !dbg !5 {
entry:
    #dbg_value(i32 %x, !9, !DIExpression(), !10)
  %a = add i32 %x, 1, !dbg !10
  ret i32 %a, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "add1", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!9 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 1, type: !11)
!10 = !DILocation(line: 1, column: 1, scope: !5)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
)IR";

// --- Autophase ---------------------------------------------------------------------------------

TEST(AutophaseFeaturesNames, CountOrderAndUniqueness) {
  const auto &Names = AF::names();
  ASSERT_EQ(Names.size(), 56u);
  std::set<std::string> Unique;
  for (const char *N : Names) {
    ASSERT_NE(N, nullptr);
    Unique.insert(N);
  }
  EXPECT_EQ(Unique.size(), 56u);
  // CompilerGym's AUTOPHASE_FEATURE_NAMES, in order.
  const char *Want[] = {
      "BBNumArgsHi",    "BBNumArgsLo",   "onePred",        "onePredOneSuc",
      "onePredTwoSuc",  "oneSuccessor",  "twoPred",        "twoPredOneSuc",
      "twoEach",        "twoSuccessor",  "morePreds",      "BB03Phi",
      "BBHiPhi",        "BBNoPhi",       "BeginPhi",       "BranchCount",
      "returnInt",      "CriticalCount", "NumEdges",       "const32Bit",
      "const64Bit",     "numConstZeroes", "numConstOnes",  "UncondBranches",
      "binaryConstArg", "NumAShrInst",   "NumAddInst",     "NumAllocaInst",
      "NumAndInst",     "BlockMid",      "BlockLow",       "NumBitCastInst",
      "NumBrInst",      "NumCallInst",   "NumGetElementPtrInst", "NumICmpInst",
      "NumLShrInst",    "NumLoadInst",   "NumMulInst",     "NumOrInst",
      "NumPHIInst",     "NumRetInst",    "NumSExtInst",    "NumSelectInst",
      "NumShlInst",     "NumStoreInst",  "NumSubInst",     "NumTruncInst",
      "NumXorInst",     "NumZExtInst",   "TotalBlocks",    "TotalInsts",
      "TotalMemInst",   "TotalFuncs",    "ArgsPhi",        "testUnary"};
  static_assert(sizeof(Want) / sizeof(Want[0]) == AF::Count);
  for (size_t I = 0; I < AF::Count; ++I)
    EXPECT_STREQ(Names[I], Want[I]) << "index " << I;
  // The index enum agrees with the names.
  EXPECT_STREQ(Names[AF::TotalInsts], "TotalInsts");
  EXPECT_STREQ(Names[AF::NumRetInst], "NumRetInst");
  EXPECT_STREQ(Names[AF::ArgsPhi], "ArgsPhi");
  EXPECT_STREQ(Names[AF::CriticalCount], "CriticalCount");
  EXPECT_STREQ(Names[AF::testUnary], "testUnary");
}

TEST(AutophaseFeaturesValues, StraightLine) {
  LLVMContext Ctx;
  auto M = parse(Ctx, StraightIR);
  ASSERT_TRUE(M);
  EXPECT_EQ(autophaseDiff(*M, autophase({{AF::BBNoPhi, 1},
                                         {AF::const32Bit, 1},
                                         {AF::numConstOnes, 1},
                                         {AF::binaryConstArg, 1},
                                         {AF::NumAddInst, 1},
                                         {AF::BlockLow, 1},
                                         {AF::NumRetInst, 1},
                                         {AF::TotalBlocks, 1},
                                         {AF::TotalInsts, 2},
                                         {AF::TotalFuncs, 1}})),
            "");
}

TEST(AutophaseFeaturesValues, DiamondWithPhis) {
  LLVMContext Ctx;
  auto M = parse(Ctx, DiamondIR);
  ASSERT_TRUE(M);
  EXPECT_EQ(autophaseDiff(*M, autophase({{AF::BBNumArgsLo, 1}, // join: 4 phi arguments
                                         {AF::onePred, 2},     // then, else
                                         {AF::onePredOneSuc, 2},
                                         {AF::oneSuccessor, 2},
                                         {AF::twoPred, 1}, // join
                                         {AF::twoSuccessor, 1}, // entry
                                         {AF::BB03Phi, 1},
                                         {AF::BBNoPhi, 3},
                                         {AF::BeginPhi, 1},
                                         {AF::BranchCount, 3},
                                         {AF::returnInt, 1}, // call @g
                                         {AF::NumEdges, 4},
                                         {AF::const32Bit, 3}, // 7, 0, 1
                                         {AF::numConstZeroes, 1},
                                         {AF::numConstOnes, 1},
                                         {AF::UncondBranches, 2},
                                         {AF::binaryConstArg, 1}, // sub %x, 7
                                         {AF::BlockLow, 4},
                                         {AF::NumBrInst, 3},
                                         {AF::NumCallInst, 1},
                                         {AF::NumMulInst, 1},
                                         {AF::NumPHIInst, 2},
                                         {AF::NumRetInst, 1},
                                         {AF::NumSubInst, 1},
                                         {AF::TotalBlocks, 4},
                                         {AF::TotalInsts, 9},
                                         {AF::TotalMemInst, 1}, // the call
                                         {AF::TotalFuncs, 3},   // declarations count too
                                         {AF::ArgsPhi, 4}})),
            "");
}

TEST(AutophaseFeaturesValues, SwitchCriticalEdgesAndMemory) {
  LLVMContext Ctx;
  auto M = parse(Ctx, SwitchIR);
  ASSERT_TRUE(M);
  EXPECT_EQ(
      autophaseDiff(*M, autophase({{AF::BBNumArgsLo, 1}, // b: 2 phi arguments
                                   {AF::onePred, 1},     // def
                                   {AF::oneSuccessor, 1}, // a
                                   {AF::twoPred, 2},      // a (two switch edges), b
                                   {AF::twoPredOneSuc, 1}, // a
                                   {AF::BB03Phi, 1},
                                   {AF::BBNoPhi, 3},
                                   {AF::BeginPhi, 1},
                                   {AF::BranchCount, 1},
                                   // entry->a twice and entry->b; entry->def is not critical.
                                   {AF::CriticalCount, 3},
                                   {AF::NumEdges, 5}, // 4 switch edges + a->b
                                   // alloca's implicit i32 1 + case values 0, 1, 5
                                   {AF::const32Bit, 4},
                                   // store 0, phi 0, gep 1
                                   {AF::const64Bit, 3},
                                   {AF::numConstZeroes, 3},
                                   {AF::numConstOnes, 3},
                                   {AF::UncondBranches, 1},
                                   {AF::NumAddInst, 1},
                                   {AF::NumAllocaInst, 1},
                                   {AF::BlockLow, 4},
                                   {AF::NumBrInst, 1},
                                   {AF::NumGetElementPtrInst, 1},
                                   {AF::NumLoadInst, 2},
                                   {AF::NumPHIInst, 1},
                                   {AF::NumRetInst, 1},
                                   {AF::NumStoreInst, 1},
                                   {AF::NumXorInst, 1},
                                   {AF::NumZExtInst, 1},
                                   {AF::TotalBlocks, 4},
                                   {AF::TotalInsts, 13},
                                   {AF::TotalMemInst, 5}, // alloca, store, 2 loads, gep
                                   {AF::TotalFuncs, 1},
                                   {AF::ArgsPhi, 2},
                                   {AF::testUnary, 4}})), // alloca, 2 loads, zext
      "");
}

TEST(AutophaseFeaturesValues, LoopWithManyPhisAndUnaryOps) {
  LLVMContext Ctx;
  auto M = parse(Ctx, LoopIR);
  ASSERT_TRUE(M);
  EXPECT_EQ(autophaseDiff(*M, autophase({{AF::BBNumArgsHi, 1}, // head: 8 phi arguments
                                         {AF::onePred, 2},     // body, exit
                                         {AF::onePredOneSuc, 1}, // body
                                         {AF::oneSuccessor, 2},  // entry, body
                                         {AF::twoPred, 1},       // head
                                         {AF::twoEach, 1},       // head
                                         {AF::twoSuccessor, 1},  // head
                                         {AF::BBHiPhi, 1},
                                         {AF::BBNoPhi, 3},
                                         {AF::BeginPhi, 1},
                                         {AF::BranchCount, 3},
                                         {AF::returnInt, 1}, // @big returns i64, @fl float
                                         {AF::NumEdges, 4},
                                         // phis 0..3, add 1, shl 2, lshr 1, call args 1..4
                                         {AF::const32Bit, 11},
                                         {AF::numConstZeroes, 1},
                                         {AF::numConstOnes, 4},
                                         {AF::UncondBranches, 2},
                                         {AF::binaryConstArg, 3}, // add, shl, lshr
                                         {AF::NumAShrInst, 1},
                                         {AF::NumAddInst, 1},
                                         {AF::NumAndInst, 1},
                                         {AF::BlockMid, 1}, // body: 15 instructions
                                         {AF::BlockLow, 3},
                                         {AF::NumBitCastInst, 1},
                                         {AF::NumBrInst, 3},
                                         {AF::NumCallInst, 2},
                                         {AF::NumICmpInst, 1},
                                         {AF::NumLShrInst, 1},
                                         {AF::NumOrInst, 1},
                                         {AF::NumPHIInst, 4},
                                         {AF::NumRetInst, 1},
                                         {AF::NumSExtInst, 1},
                                         {AF::NumSelectInst, 1},
                                         {AF::NumShlInst, 1},
                                         {AF::NumTruncInst, 1},
                                         {AF::TotalBlocks, 4},
                                         {AF::TotalInsts, 23},
                                         {AF::TotalMemInst, 2},
                                         {AF::TotalFuncs, 3},
                                         {AF::ArgsPhi, 8},
                                         // fneg, trunc, sext, bitcast (freeze excluded)
                                         {AF::testUnary, 4}})),
            "");
}

TEST(AutophaseFeaturesValues, CallsNewOpcodesAndSmallConstants) {
  LLVMContext Ctx;
  auto M = parse(Ctx, MiscIR);
  ASSERT_TRUE(M);
  // CFG: entry -callbr-> {ft, ind}; ft -switch-> {x, ind x4}; x -> ind. Predecessor edges:
  // entry 0, ft 1, x 1, ind 6.
  EXPECT_EQ(
      autophaseDiff(*M, autophase({{AF::BBNumArgsHi, 1},   // ind: 1 phi with 6 arguments
                                   {AF::onePred, 2},       // ft, x
                                   {AF::onePredOneSuc, 1}, // x (ft has 5 successors)
                                   {AF::oneSuccessor, 1},  // x
                                   {AF::twoSuccessor, 1},  // entry (callbr)
                                   {AF::morePreds, 1},     // ind
                                   {AF::BB03Phi, 1},
                                   {AF::BBNoPhi, 3},
                                   {AF::BeginPhi, 1},
                                   {AF::BranchCount, 1},
                                   // entry->ind and the four ft->ind edges; not entry->ft, ft->x
                                   // (one predecessor each) nor x->ind (x has one successor).
                                   {AF::CriticalCount, 5},
                                   {AF::NumEdges, 8},        // 2 + 5 + 1
                                   {AF::const32Bit, 1},      // %fp(i32 1)
                                   {AF::const64Bit, 5},      // the phi's 0, 0, 0, 0, 1
                                   {AF::numConstZeroes, 5},  // phi 0 x4, i1 false
                                   {AF::numConstOnes, 4},    // i32 1, case i8 1, phi 1, i1 true
                                   {AF::UncondBranches, 1},
                                   {AF::binaryConstArg, 1}, // or i8 %k, 3
                                   {AF::NumAddInst, 1},
                                   {AF::BlockLow, 4},
                                   {AF::NumBrInst, 1},
                                   {AF::NumCallInst, 2}, // returnInt stays 0
                                   {AF::NumICmpInst, 1},
                                   {AF::NumOrInst, 1},
                                   {AF::NumPHIInst, 1},
                                   {AF::NumRetInst, 1},
                                   {AF::TotalBlocks, 4},
                                   {AF::TotalInsts, 13},
                                   {AF::TotalMemInst, 2}, // the two calls; callbr is not one
                                   {AF::TotalFuncs, 2},
                                   {AF::ArgsPhi, 6},
                                   {AF::testUnary, 2}})), // ptrtoint, ptrtoaddr; not freeze
      "");
}

TEST(AutophaseFeaturesValues, DeterministicAndAdditiveOverFunctions) {
  // Features are sums over functions: the module holding all the functions above has the sum of
  // their vectors.
  LLVMContext Ctx;
  std::string All = std::string(StraightIR) + DiamondIR + SwitchIR + LoopIR + MiscIR;
  auto Whole = parse(Ctx, All.c_str());
  ASSERT_TRUE(Whole);
  AutophaseVector Sum{};
  for (const char *IR : {StraightIR, DiamondIR, SwitchIR, LoopIR, MiscIR}) {
    auto M = parse(Ctx, IR);
    ASSERT_TRUE(M);
    AutophaseVector V = computeAutophase(*M);
    for (size_t I = 0; I < AF::Count; ++I)
      Sum[I] += V[I];
  }
  EXPECT_EQ(diff(computeAutophase(*Whole), Sum, AF::names()), "");
  EXPECT_EQ(computeAutophase(*Whole), computeAutophase(*Whole));
}

TEST(AutophaseFeaturesValues, DebugRecordsAreNotInstructions) {
  // LLVM 10 counted llvm.dbg.value calls (and their declaration); in LLVM 22 debug info is kept in
  // records, old-style intrinsic calls are upgraded to records on parsing, and neither counts.
  LLVMContext Ctx;
  auto Plain = parse(Ctx, StraightIR);
  auto WithRecord = parse(Ctx, DebugRecordIR);
  std::string OldStyle = DebugRecordIR;
  const std::string Record = "    #dbg_value(i32 %x, !9, !DIExpression(), !10)";
  OldStyle.replace(OldStyle.find(Record), Record.size(),
                   "  call void @llvm.dbg.value(metadata i32 %x, metadata !9, "
                   "metadata !DIExpression()), !dbg !10");
  OldStyle += "declare void @llvm.dbg.value(metadata, metadata, metadata)\n";
  auto WithCall = parse(Ctx, OldStyle.c_str());
  ASSERT_TRUE(Plain && WithRecord && WithCall);
  EXPECT_EQ(diff(computeAutophase(*WithRecord), computeAutophase(*Plain), AF::names()), "");
  EXPECT_EQ(diff(computeAutophase(*WithCall), computeAutophase(*Plain), AF::names()), "");
  EXPECT_EQ(diff(computeInstCount(*WithCall), computeInstCount(*Plain), IC::names()), "");
}

TEST(AutophaseFeaturesValues, EmptyModuleIsAllZero) {
  LLVMContext Ctx;
  Module M("empty", Ctx);
  EXPECT_EQ(diff(computeAutophase(M), AutophaseVector{}, AF::names()), "");
}

// --- InstCount ---------------------------------------------------------------------------------

TEST(InstCountFeaturesNames, CountOrderAndUniqueness) {
  const auto &Names = IC::names();
  ASSERT_EQ(Names.size(), 70u);
  std::set<std::string> Unique;
  for (const char *N : Names) {
    ASSERT_NE(N, nullptr);
    Unique.insert(N);
  }
  EXPECT_EQ(Unique.size(), 70u);
  // CompilerGym's INST_COUNT_FEATURE_NAMES (LLVM 10's Instruction.def order), each with the
  // "Count" suffix of its InstCountDict observation.
  const char *Base[] = {
      "TotalInsts", "TotalBlocks", "TotalFuncs", "Ret", "Br", "Switch", "IndirectBr", "Invoke",
      "Resume", "Unreachable", "CleanupRet", "CatchRet", "CatchSwitch", "CallBr", "FNeg", "Add",
      "FAdd", "Sub", "FSub", "Mul", "FMul", "UDiv", "SDiv", "FDiv", "URem", "SRem", "FRem", "Shl",
      "LShr", "AShr", "And", "Or", "Xor", "Alloca", "Load", "Store", "GetElementPtr", "Fence",
      "AtomicCmpXchg", "AtomicRMW", "Trunc", "ZExt", "SExt", "FPToUI", "FPToSI", "UIToFP",
      "SIToFP", "FPTrunc", "FPExt", "PtrToInt", "IntToPtr", "BitCast", "AddrSpaceCast",
      "CleanupPad", "CatchPad", "ICmp", "FCmp", "PHI", "Call", "Select", "UserOp1", "UserOp2",
      "VAArg", "ExtractElement", "InsertElement", "ShuffleVector", "ExtractValue", "InsertValue",
      "LandingPad", "Freeze"};
  static_assert(sizeof(Base) / sizeof(Base[0]) == IC::Count);
  for (size_t I = 0; I < IC::Count; ++I)
    EXPECT_EQ(std::string(Names[I]), std::string(Base[I]) + "Count") << "index " << I;
}

TEST(InstCountFeaturesNames, EveryLLVMOpcodeMapsToItsNamedSlot) {
  // Each opcode of the LLVM we build against lands in the slot named after it, except ptrtoaddr
  // (new since LLVM 10), which is folded into ptrtoint.
  const auto &Names = IC::names();
#define HANDLE_INST(NUM, OPC, CLASS)                                                               \
  {                                                                                                \
    size_t Slot = IC::slotOf(Instruction::OPC);                                                    \
    ASSERT_LT(Slot, IC::Count) << #OPC;                                                            \
    ASSERT_GE(Slot, IC::FirstOpcode) << #OPC;                                                      \
    if (std::string(#OPC) == "PtrToAddr")                                                          \
      EXPECT_STREQ(Names[Slot], "PtrToIntCount");                                                  \
    else                                                                                           \
      EXPECT_EQ(std::string(Names[Slot]), std::string(#OPC) + "Count");                            \
  }
#include "llvm/IR/Instruction.def"
  EXPECT_EQ(IC::slotOf(0), IC::Count);
}

TEST(InstCountFeaturesValues, DiamondExact) {
  LLVMContext Ctx;
  auto M = parse(Ctx, DiamondIR);
  ASSERT_TRUE(M);
  InstCountVector Want{};
  Want[IC::TotalInstsIndex] = 9;
  Want[IC::TotalBlocksIndex] = 4;
  Want[IC::TotalFuncsIndex] = 3;
  Want[IC::slotOf(Instruction::Br)] = 3;
  Want[IC::slotOf(Instruction::Call)] = 1;
  Want[IC::slotOf(Instruction::Sub)] = 1;
  Want[IC::slotOf(Instruction::PHI)] = 2;
  Want[IC::slotOf(Instruction::Mul)] = 1;
  Want[IC::slotOf(Instruction::Ret)] = 1;
  EXPECT_EQ(diff(computeInstCount(*M), Want, IC::names()), "");
}

TEST(InstCountFeaturesValues, NewOpcodesExact) {
  LLVMContext Ctx;
  auto M = parse(Ctx, MiscIR);
  ASSERT_TRUE(M);
  InstCountVector Want{};
  Want[IC::TotalInstsIndex] = 13;
  Want[IC::TotalBlocksIndex] = 4;
  Want[IC::TotalFuncsIndex] = 2;
  Want[49] = 2; // PtrToIntCount: ptrtoint + ptrtoaddr (folded)
  Want[69] = 1; // FreezeCount
  Want[13] = 1; // CallBrCount
  Want[IC::slotOf(Instruction::Call)] = 2;
  Want[IC::slotOf(Instruction::Add)] = 1;
  Want[IC::slotOf(Instruction::Or)] = 1;
  Want[IC::slotOf(Instruction::Switch)] = 1;
  Want[IC::slotOf(Instruction::Br)] = 1;
  Want[IC::slotOf(Instruction::PHI)] = 1;
  Want[IC::slotOf(Instruction::ICmp)] = 1;
  Want[IC::slotOf(Instruction::Ret)] = 1;
  EXPECT_EQ(diff(computeInstCount(*M), Want, IC::names()), "");
}

TEST(InstCountFeaturesValues, TotalsAgreeWithModuleAndAutophase) {
  for (const char *IR : {StraightIR, DiamondIR, SwitchIR, LoopIR, MiscIR}) {
    LLVMContext Ctx;
    auto M = parse(Ctx, IR);
    ASSERT_TRUE(M);
    InstCountVector IV = computeInstCount(*M);
    AutophaseVector AV = computeAutophase(*M);
    int64_t OpcodeSum = 0;
    for (size_t I = IC::FirstOpcode; I < IC::Count; ++I)
      OpcodeSum += IV[I];
    EXPECT_EQ(OpcodeSum, IV[IC::TotalInstsIndex]);
    EXPECT_EQ(IV[IC::TotalInstsIndex], instructionCount(*M));
    EXPECT_EQ(IV[IC::TotalInstsIndex], static_cast<int64_t>(M->getInstructionCount()));
    EXPECT_EQ(AV[AF::TotalInsts], IV[IC::TotalInstsIndex]);
    EXPECT_EQ(AV[AF::TotalBlocks], IV[IC::TotalBlocksIndex]);
    EXPECT_EQ(AV[AF::TotalFuncs], IV[IC::TotalFuncsIndex]);
    EXPECT_EQ(AV[AF::TotalFuncs], static_cast<int64_t>(M->size()));
    EXPECT_EQ(AV[AF::BlockLow] + AV[AF::BlockMid], AV[AF::TotalBlocks]); // no block > 500
    EXPECT_EQ(AV[AF::BBNoPhi] + AV[AF::BB03Phi] + AV[AF::BBHiPhi], AV[AF::TotalBlocks]);
    EXPECT_EQ(AV[AF::NumPHIInst], IV[IC::slotOf(Instruction::PHI)]);
    EXPECT_EQ(AV[AF::NumCallInst], IV[IC::slotOf(Instruction::Call)]);
    auto [Critical, Edges] = llvmCriticalAndEdges(*M);
    EXPECT_EQ(AV[AF::CriticalCount], Critical);
    EXPECT_EQ(AV[AF::NumEdges], Edges);
  }
}

} // namespace
