// The decision for one translation unit and its renderings: which object ships (chooseWinner),
// the statistics it adds, the JSON log line and the --smartcc-explain table; plus
// CandidateResult::setMessage, which squeezes whatever LLVM said into one fixed-size line.
#include "runtime/decide/Decision.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace smartcc;

namespace {

CandidateReport ok(const std::string &Name, uint64_t Value) {
  CandidateReport C;
  C.Name = Name;
  C.Result.Result = Outcome::Ok;
  C.Value = Value;
  C.Result.Object.AllocBytes = Value;
  C.Result.Object.TextBytes = Value / 2;
  C.Result.Object.FileBytes = Value * 3;
  C.Result.Object.CodeBytes = Value; // all of the image is code unless a test says otherwise
  C.Result.Millis = 12;
  return C;
}

CandidateReport failed(const std::string &Name, Outcome O, uint64_t Value = 0,
                       const char *Message = "") {
  CandidateReport C;
  C.Name = Name;
  C.Result.Result = O;
  C.Result.setMessage(Message);
  C.Value = Value; // garbage as far as the decision goes: the candidate did not measure
  return C;
}

TUDecision decision(uint64_t Baseline, std::vector<CandidateReport> Candidates) {
  TUDecision D;
  D.Directory = "/src";
  D.Input = "a.c";
  D.Output = "a.o";
  D.Target = "x86_64-pc-linux-gnu";
  D.Level = "Oz";
  D.SizeMetric = Metric::AllocBytes;
  D.BaselineValue = Baseline;
  D.Baseline.AllocBytes = Baseline;
  D.Baseline.TextBytes = Baseline / 2;
  D.Baseline.FileBytes = Baseline * 3;
  D.Baseline.CodeBytes = Baseline;
  D.BaselineMeasured = true;
  D.BaselineMillis = 40;
  D.Candidates = std::move(Candidates);
  return D;
}

// ---- chooseWinner --------------------------------------------------------------------------

TEST(DecisionChooseWinner, TieWithBaselineKeepsBaseline) {
  TUDecision D = decision(1000, {ok("same", 1000)});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_EQ(D.KeptReason, "no_smaller");
  EXPECT_EQ(D.shippedValue(), 1000u);
}

TEST(DecisionChooseWinner, LargerCandidatesKeepBaseline) {
  TUDecision D = decision(1000, {ok("big", 1001), ok("bigger", 5000)});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_EQ(D.KeptReason, "no_smaller");
}

TEST(DecisionChooseWinner, FailedCandidatesAreIgnoredWhateverTheirValue) {
  TUDecision D = decision(1000, {failed("crash", Outcome::Crashed, 1),
                                 failed("timeout", Outcome::Timeout, 2),
                                 failed("notrun", Outcome::NotRun, 3), ok("fine", 999)});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 3);
  EXPECT_EQ(D.shippedValue(), 999u);
}

TEST(DecisionChooseWinner, StrictlySmallestWins) {
  TUDecision D = decision(1000, {ok("a", 990), ok("b", 950), ok("c", 970), ok("d", 1200)});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 1);
  EXPECT_EQ(D.shippedValue(), 950u);
}

TEST(DecisionChooseWinner, FirstOfEqualSmallestWins) {
  TUDecision D = decision(1000, {ok("a", 990), ok("b", 900), ok("c", 900), ok("d", 900)});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 1);
}

TEST(DecisionChooseWinner, AllFailed) {
  TUDecision D = decision(1000, {failed("x", Outcome::Crashed, 1),
                                 failed("y", Outcome::BadPipeline, 1),
                                 failed("z", Outcome::NotRun, 1)});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_EQ(D.KeptReason, "all_failed");
}

TEST(DecisionChooseWinner, NoCandidates) {
  TUDecision D = decision(1000, {});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_EQ(D.KeptReason, "no_candidates");
}

TEST(DecisionChooseWinner, UnmeasuredBaselineIsKept) {
  TUDecision D = decision(1000, {ok("tiny", 1)});
  D.BaselineMeasured = false;
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_EQ(D.KeptReason, "baseline_unmeasured");
}

TEST(DecisionChooseWinner, RerunResetsAnEarlierWinner) {
  TUDecision D = decision(1000, {ok("a", 900)});
  chooseWinner(D);
  ASSERT_EQ(D.Winner, 0);
  D.Candidates[0].Value = 1100;
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_EQ(D.KeptReason, "no_smaller");
}

// ---- ship rules ----------------------------------------------------------------------------

ObjectSize sizes(uint64_t Code, uint64_t Data, uint64_t Bss, uint64_t Unwind) {
  ObjectSize S;
  S.CodeBytes = Code;
  S.DataBytes = Data;
  S.BssBytes = Bss;
  S.UnwindBytes = Unwind;
  S.AllocBytes = Code + Data + Bss + Unwind;
  return S;
}

// A candidate with the given classes, its value the image metric's.
CandidateReport withSizes(const std::string &Name, ObjectSize S) {
  CandidateReport C = ok(Name, S.imageBytes());
  C.Result.Object = S;
  return C;
}

TUDecision imageDecision(ObjectSize Base, std::vector<CandidateReport> Candidates) {
  TUDecision D = decision(Base.imageBytes(), std::move(Candidates));
  D.SizeMetric = Metric::ImageBytes;
  D.Baseline = Base;
  return D;
}

TEST(DecisionShipRules, RamGrowthIsNotShippedByDefault) {
  // Smaller image, but 8 more bytes of .bss.
  TUDecision D = imageDecision(sizes(1000, 100, 200, 100), {withSizes("ram", sizes(900, 100, 208, 100))});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_EQ(D.KeptReason, "smaller_rejected");
  EXPECT_STREQ(D.Candidates[0].Rejected, "ram_growth");
  EXPECT_EQ(statsDelta(D)["candidate.rejected.ram_growth"], 1);
  EXPECT_EQ(statsDelta(D)["tu.kept.smaller_rejected"], 1);
}

TEST(DecisionShipRules, BssMovedIntoDataIsNotShippedByDefault) {
  // The fribidi case: the same RAM, but zero-initialized tables became initialized .data.
  // The code shrank more than the data grew, so the image alone would call it a win.
  TUDecision D = imageDecision(sizes(2000, 0, 512, 100), {withSizes("move", sizes(1400, 512, 0, 100))});
  ASSERT_LT(D.Candidates[0].Value, D.BaselineValue);
  chooseWinner(D);
  EXPECT_EQ(D.Winner, -1);
  EXPECT_STREQ(D.Candidates[0].Rejected, "ram_growth");
}

TEST(DecisionShipRules, AllowRamGrowthShipsIt) {
  TUDecision D = imageDecision(sizes(2000, 0, 512, 100), {withSizes("move", sizes(1400, 512, 0, 100))});
  D.Rules.AllowRamGrowth = true;
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 0);
  EXPECT_EQ(D.Candidates[0].Rejected, nullptr);
}

TEST(DecisionShipRules, CodeBoughtWithUnwindTablesIsNotShipped) {
  // The xz case: code +2.3 %, .eh_frame -20 %, the image smaller.
  TUDecision D = imageDecision(sizes(29714, 0, 0, 7680), {withSizes("trade", sizes(30402, 0, 0, 6144)),
                                                          withSizes("honest", sizes(29700, 0, 0, 7600))});
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 1); // the smaller one is rejected; the honest one ships
  EXPECT_STREQ(D.Candidates[0].Rejected, "code_for_unwind");
  EXPECT_EQ(D.Candidates[1].Rejected, nullptr);
}

TEST(DecisionShipRules, CodeForUnwindIsAPercentOfClangsCode) {
  // +2.3 % code: rejected at 2 %, shipped at 3 %.
  ObjectSize Base = sizes(29714, 0, 0, 7680), Cand = sizes(30402, 0, 0, 6144);
  ShipRules Rules;
  Rules.CodeForUnwind = 2;
  EXPECT_STREQ(brokenShipRule(Cand, Base, Rules), "code_for_unwind");
  Rules.CodeForUnwind = 3;
  EXPECT_EQ(brokenShipRule(Cand, Base, Rules), nullptr);
  // Code growth while unwind tables stay the same is the metric's business, not this rule's.
  EXPECT_EQ(brokenShipRule(sizes(30402, 0, 0, 7680), Base, ShipRules()), nullptr);
}

TEST(DecisionShipRules, SharedUnwindMayMoveOnePercentOfCode) {
  // libz.so on AArch64: 1,128 bytes of unwind tables shared away, the machine outliner's
  // choices moved 20 bytes of code (0.05 %): allowed; 1 % more code is still a trade.
  ObjectSize Base = sizes(42168, 0, 0, 7668), Cand = sizes(42188, 0, 0, 6540);
  EXPECT_STREQ(brokenShipRule(Cand, Base, ShipRules()), "code_for_unwind");
  EXPECT_EQ(brokenShipRule(Cand, Base, ShipRules(), /*SharedUnwind=*/true), nullptr);
  EXPECT_EQ(brokenShipRule(sizes(42500, 0, 0, 6540), Base, ShipRules(), true), nullptr);
  EXPECT_STREQ(brokenShipRule(sizes(42600, 0, 0, 6540), Base, ShipRules(), true), "code_for_unwind");
  TUDecision D = imageDecision(Base, {withSizes("shared", Cand)});
  D.Candidates[0].SharedUnwind = true;
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 0);
}

TEST(DecisionShipRules, InactiveRulesJudgeNothing) {
  ShipRules Off;
  Off.Active = false;
  EXPECT_EQ(brokenShipRule(sizes(2, 9, 9, 0), sizes(9, 0, 0, 9), Off), nullptr);
}

// ---- statsDelta ----------------------------------------------------------------------------

// The byte and image-class counters are checked apart (DecisionStatsDelta.ImageByClass).
Counters withoutImage(Counters C) {
  for (auto It = C.begin(); It != C.end();)
    It = llvm::StringRef(It->first).starts_with("image.") ? C.erase(It) : std::next(It);
  return C;
}

TEST(DecisionStatsDelta, ImageByClass) {
  TUDecision D = imageDecision(sizes(1000, 40, 8, 100), {withSizes("a", sizes(900, 40, 8, 90))});
  D.Baseline.ReadOnlyBytes = 7;
  D.Candidates[0].Result.Object.ReadOnlyBytes = 5;
  chooseWinner(D);
  ASSERT_EQ(D.Winner, 0);
  Counters C = statsDelta(D);
  EXPECT_EQ(C["image.code.baseline"], 1000);
  EXPECT_EQ(C["image.code.shipped"], 900);
  EXPECT_EQ(C["image.rodata.baseline"], 7);
  EXPECT_EQ(C["image.rodata.shipped"], 5);
  EXPECT_EQ(C["image.data.shipped"], 40);
  EXPECT_EQ(C["image.unwind.baseline"], 100);
  EXPECT_EQ(C["image.unwind.shipped"], 90);
  EXPECT_EQ(C["image.bss.shipped"], 8);
  // Kept: the shipped classes are clang's.
  TUDecision K = imageDecision(sizes(1000, 40, 8, 100), {withSizes("a", sizes(1900, 40, 8, 90))});
  chooseWinner(K);
  EXPECT_EQ(statsDelta(K)["image.code.shipped"], 1000);
}

TEST(DecisionStatsDelta, WonCountsEverythingButNotRun) {
  TUDecision D = decision(1000, {ok("a", 990), failed("b", Outcome::Crashed),
                                 ok("c", 900), failed("d", Outcome::Timeout),
                                 failed("e", Outcome::NotRun), failed("f", Outcome::Crashed),
                                 failed("g", Outcome::Growth)});
  chooseWinner(D);
  ASSERT_EQ(D.Winner, 2);
  Counters Expected{{"tu.optimized", 1},
                    {"tu.won", 1},
                    {"bytes.baseline", 1000},
                    {"bytes.shipped", 900},
                    {"bytes.saved", 100},
                    {"candidate.evaluated", 6},
                    {"candidate.discarded.crash", 2},
                    {"candidate.discarded.timeout", 1},
                    {"candidate.discarded.growth", 1}};
  EXPECT_EQ(withoutImage(statsDelta(D)), Expected);
}

TEST(DecisionStatsDelta, KeptByReason) {
  TUDecision D = decision(1000, {ok("a", 1000), failed("b", Outcome::FatalError)});
  chooseWinner(D);
  Counters Expected{{"tu.optimized", 1},
                    {"tu.kept.no_smaller", 1},
                    {"bytes.baseline", 1000},
                    {"bytes.shipped", 1000},
                    {"bytes.saved", 0},
                    {"candidate.evaluated", 2},
                    {"candidate.discarded.fatal_error", 1}};
  EXPECT_EQ(withoutImage(statsDelta(D)), Expected);
}

TEST(DecisionStatsDelta, UnmeasuredBaselineHasNoByteCounters) {
  TUDecision D = decision(1000, {failed("a", Outcome::NotRun)});
  D.BaselineMeasured = false;
  chooseWinner(D);
  Counters Expected{{"tu.optimized", 1}, {"tu.kept.baseline_unmeasured", 1}};
  EXPECT_EQ(withoutImage(statsDelta(D)), Expected);
}

TEST(DecisionStatsDelta, NoCandidates) {
  TUDecision D = decision(500, {});
  chooseWinner(D);
  Counters Expected{{"tu.optimized", 1},
                    {"tu.kept.no_candidates", 1},
                    {"bytes.baseline", 500},
                    {"bytes.shipped", 500},
                    {"bytes.saved", 0}};
  EXPECT_EQ(withoutImage(statsDelta(D)), Expected);
}

// ---- toJSONLine ----------------------------------------------------------------------------

llvm::json::Object parseLine(const std::string &Line) {
  EXPECT_FALSE(Line.empty());
  EXPECT_EQ(Line.back(), '\n');
  EXPECT_EQ(Line.find('\n'), Line.size() - 1) << "a log entry must be exactly one line";
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line);
  if (!V) {
    ADD_FAILURE() << "not JSON: " << llvm::toString(V.takeError()) << "\n" << Line;
    return {};
  }
  if (!V->getAsObject()) {
    ADD_FAILURE() << "not a JSON object: " << Line;
    return {};
  }
  return std::move(*V->getAsObject());
}

TEST(DecisionJSON, WinnerLine) {
  TUDecision D = decision(1000, {ok("alpha", 990),
                                 failed("beta", Outcome::Crashed, 0, "Segmentation fault"),
                                 ok("gamma", 870)});
  chooseWinner(D);
  ASSERT_EQ(D.Winner, 2);
  llvm::json::Object O = parseLine(toJSONLine(D));

  EXPECT_EQ(O.getString("chosen"), "gamma");
  EXPECT_EQ(O.getInteger("shipped_value"), 870);
  EXPECT_EQ(O.getInteger("saved"), 130);
  EXPECT_EQ(O.get("kept_reason"), nullptr);
  EXPECT_EQ(O.getString("input"), "a.c");
  EXPECT_EQ(O.getString("output"), "a.o");
  EXPECT_EQ(O.getString("directory"), "/src");
  EXPECT_EQ(O.getString("target"), "x86_64-pc-linux-gnu");
  EXPECT_EQ(O.getString("level"), "Oz");
  EXPECT_EQ(O.getString("metric"), metricName(Metric::AllocBytes));

  const llvm::json::Object *B = O.getObject("baseline");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->getInteger("value"), 1000);
  EXPECT_EQ(B->getInteger("alloc_bytes"), 1000);
  EXPECT_EQ(B->getInteger("image_bytes"), 1000);
  EXPECT_EQ(B->getInteger("code_bytes"), 1000);
  EXPECT_EQ(B->getInteger("bss_bytes"), 0);
  EXPECT_EQ(B->getInteger("text_bytes"), 500);
  EXPECT_EQ(B->getInteger("file_bytes"), 3000);

  const llvm::json::Array *Cands = O.getArray("candidates");
  ASSERT_NE(Cands, nullptr);
  ASSERT_EQ(Cands->size(), 3u);
  const char *Names[] = {"alpha", "beta", "gamma"};
  const char *Outcomes[] = {"ok", "crash", "ok"};
  for (size_t I = 0; I < 3; ++I) {
    const llvm::json::Object *C = (*Cands)[I].getAsObject();
    ASSERT_NE(C, nullptr);
    EXPECT_EQ(C->getString("name"), Names[I]);
    EXPECT_EQ(C->getString("outcome"), Outcomes[I]);
  }
  // Only measured candidates carry sizes; only failed ones with something to say a message.
  const llvm::json::Object *Alpha = (*Cands)[0].getAsObject();
  EXPECT_EQ(Alpha->getInteger("value"), 990);
  EXPECT_EQ(Alpha->getInteger("alloc_bytes"), 990);
  EXPECT_EQ(Alpha->get("message"), nullptr);
  const llvm::json::Object *Beta = (*Cands)[1].getAsObject();
  EXPECT_EQ(Beta->get("value"), nullptr);
  EXPECT_EQ(Beta->getString("message"), "Segmentation fault");
  EXPECT_EQ((*Cands)[2].getAsObject()->getInteger("value"), 870);
}

TEST(DecisionJSON, KeptLine) {
  TUDecision D = decision(1000, {ok("alpha", 1000)});
  D.Note = "could not write \"a.o\"";
  chooseWinner(D);
  llvm::json::Object O = parseLine(toJSONLine(D));
  EXPECT_EQ(O.getString("chosen"), "baseline");
  EXPECT_EQ(O.getInteger("shipped_value"), 1000);
  EXPECT_EQ(O.getInteger("saved"), 0);
  EXPECT_EQ(O.getString("kept_reason"), "no_smaller");
  EXPECT_EQ(O.getString("note"), "could not write \"a.o\"");
}

TEST(DecisionJSON, MessagesWithQuotesStayValidJSON) {
  TUDecision D = decision(
      1000, {failed("odd \"name\"", Outcome::FatalError, 0, "bad \"thing\"\n\\ happened")});
  chooseWinner(D);
  llvm::json::Object O = parseLine(toJSONLine(D));
  const llvm::json::Array *Cands = O.getArray("candidates");
  ASSERT_NE(Cands, nullptr);
  ASSERT_EQ(Cands->size(), 1u);
  EXPECT_EQ((*Cands)[0].getAsObject()->getString("name"), "odd \"name\"");
  EXPECT_EQ((*Cands)[0].getAsObject()->getString("message"), "bad \"thing\" \\ happened");
  EXPECT_EQ(O.getString("kept_reason"), "all_failed");
}

// ---- printExplain --------------------------------------------------------------------------

std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> Out;
  std::istringstream In(Text);
  for (std::string L; std::getline(In, L);)
    Out.push_back(L);
  return Out;
}

// The one line that begins (after indentation) with Name followed by a blank.
std::string rowOf(const std::vector<std::string> &Lines, const std::string &Name) {
  std::string Found;
  int Count = 0;
  for (const std::string &L : Lines) {
    llvm::StringRef R = llvm::StringRef(L).ltrim();
    if (R.starts_with(Name + " ")) {
      Found = L;
      ++Count;
    }
  }
  EXPECT_EQ(Count, 1) << "rows for " << Name;
  return Found;
}

TEST(DecisionExplain, WinnerRowSaysShipped) {
  TUDecision D = decision(1000, {ok("alpha", 990),
                                 failed("beta", Outcome::Timeout, 0, "killed after 60000 ms"),
                                 ok("gamma", 870), ok("delta", 1100)});
  chooseWinner(D);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printExplain(D, OS);
  OS.flush();
  std::vector<std::string> L = lines(Text);

  EXPECT_NE(Text.find("a.c -> a.o"), std::string::npos) << Text;
  std::string Base = rowOf(L, "clang -Oz");
  std::string Alpha = rowOf(L, "alpha"), Beta = rowOf(L, "beta"), Gamma = rowOf(L, "gamma"),
              Delta = rowOf(L, "delta");
  EXPECT_NE(Gamma.find("shipped"), std::string::npos) << Text;
  EXPECT_NE(Gamma.find("870"), std::string::npos) << Text;
  EXPECT_NE(Gamma.find("-13.00%"), std::string::npos) << Text;
  for (const std::string &Row : {Base, Alpha, Beta, Delta})
    EXPECT_EQ(Row.find("shipped"), std::string::npos) << Row;
  EXPECT_NE(Alpha.find("smaller, not best"), std::string::npos) << Text;
  EXPECT_NE(Delta.find("not smaller"), std::string::npos) << Text;
  EXPECT_NE(Beta.find("timeout: killed after 60000 ms"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("kept clang's output"), std::string::npos) << Text;
}

TEST(DecisionExplain, KeptBaselineRowSaysShipped) {
  TUDecision D = decision(1000, {ok("alpha", 1000), failed("beta", Outcome::Crashed)});
  chooseWinner(D);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printExplain(D, OS);
  OS.flush();
  std::vector<std::string> L = lines(Text);
  EXPECT_NE(rowOf(L, "clang -Oz").find("shipped"), std::string::npos) << Text;
  EXPECT_EQ(rowOf(L, "alpha").find("shipped"), std::string::npos) << Text;
  EXPECT_NE(rowOf(L, "beta").find("crash"), std::string::npos) << Text;
  EXPECT_NE(Text.find("kept clang's output: no_smaller"), std::string::npos) << Text;
}

// ---- CandidateResult::setMessage -----------------------------------------------------------

TEST(DecisionSetMessage, FlattensWhitespace) {
  CandidateResult R;
  R.setMessage("  LLVM ERROR:\n\tsomething\r\n  went   wrong \n");
  EXPECT_STREQ(R.Message, "LLVM ERROR: something went wrong");
}

TEST(DecisionSetMessage, EmptyAndBlank) {
  CandidateResult R;
  R.setMessage("previous");
  R.setMessage("");
  EXPECT_STREQ(R.Message, "");
  R.setMessage(" \n\t\r ");
  EXPECT_STREQ(R.Message, "");
}

TEST(DecisionSetMessage, TruncatesToTheBuffer) {
  CandidateResult R;
  std::string Long(1000, 'x');
  R.setMessage(Long.c_str());
  EXPECT_EQ(std::strlen(R.Message), sizeof(R.Message) - 1);
  EXPECT_EQ(std::string(R.Message), std::string(sizeof(R.Message) - 1, 'x'));
}

TEST(DecisionSetMessage, TruncationDoesNotLeaveATrailingSpace) {
  CandidateResult R;
  // The cut falls right after a space: the result must still end in a word.
  std::string Text(sizeof(R.Message) - 2, 'y');
  Text += " tail that does not fit";
  R.setMessage(Text.c_str());
  EXPECT_EQ(std::string(R.Message), std::string(sizeof(R.Message) - 2, 'y'));
}

TEST(DecisionOutcomeName, StatsReasons) {
  EXPECT_STREQ(outcomeName(Outcome::NotRun), "not_run");
  EXPECT_STREQ(outcomeName(Outcome::Ok), "ok");
  EXPECT_STREQ(outcomeName(Outcome::Crashed), "crash");
  EXPECT_STREQ(outcomeName(Outcome::Timeout), "timeout");
  EXPECT_STREQ(outcomeName(Outcome::FatalError), "fatal_error");
  EXPECT_STREQ(outcomeName(Outcome::BadPipeline), "bad_pipeline");
  EXPECT_STREQ(outcomeName(Outcome::VerifierFailed), "verifier");
  EXPECT_STREQ(outcomeName(Outcome::Growth), "growth");
  EXPECT_STREQ(outcomeName(Outcome::CodegenFailed), "codegen_error");
}

} // namespace

TEST(DecisionShipRules, NewUndefinedSymbolIsNotShipped) {
  // Smaller, but it calls a function clang's object does not: its link might fail (a call
  // clang proved dead) or pull library code in.
  TUDecision D = decision(1000, {ok("calls", 900), ok("clean", 950)});
  D.Candidates[0].NewUndefined = "never_defined";
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 1);
  EXPECT_STREQ(D.Candidates[0].Rejected, "new_undefined_symbol");
  EXPECT_EQ(statsDelta(D)["candidate.rejected.new_undefined_symbol"], 1);
  std::string S;
  llvm::raw_string_ostream OS(S);
  printExplain(D, OS);
  EXPECT_NE(S.find("it needs 'never_defined', which clang's object does not"), std::string::npos)
      << S;
  EXPECT_NE(toJSONLine(D).find("\"new_undefined\":\"never_defined\""), std::string::npos);
}

TEST(DecisionShipRules, NewPLTEntryIsRAMInASharedLibrary) {
  // Smaller as an object, but in a shared library it calls one of its own exported functions
  // through the PLT where clang's object had inlined it: writable .got.plt and 48 more bytes.
  TUDecision D = decision(1000, {ok("calls-init", 900), ok("clean", 960)});
  D.Candidates[0].NewPLT = "ctx_init";
  D.Candidates[0].NewPLTCount = 2;
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 1);
  EXPECT_STREQ(D.Candidates[0].Rejected, "new_plt_entry");
  EXPECT_EQ(statsDelta(D)["candidate.rejected.new_plt_entry"], 1);
  std::string S;
  llvm::raw_string_ostream OS(S);
  printExplain(D, OS);
  EXPECT_NE(S.find("it calls 'ctx_init' (and 1 more) through the shared library's PLT"),
            std::string::npos)
      << S;
  EXPECT_NE(toJSONLine(D).find("\"new_plt\":\"ctx_init\""), std::string::npos);
  // With RAM growth allowed the entries are charged as image bytes: 900 + 2 x 48 < 1000 ships
  // (and beats 960 only by its charged value: 996 is not below 960).
  D.Rules.AllowRamGrowth = true;
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 1);
  EXPECT_EQ(D.Candidates[0].Rejected, nullptr);
  D.Candidates[1].Value = 999;
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 0);
  D.Candidates[0].NewPLTCount = 3; // 900 + 144 >= 1000: not smaller in the library
  chooseWinner(D);
  EXPECT_EQ(D.Winner, 1);
  EXPECT_STREQ(D.Candidates[0].Rejected, "new_plt_entry");
}
