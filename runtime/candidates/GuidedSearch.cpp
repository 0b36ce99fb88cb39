#include "runtime/candidates/GuidedSearch.h"
#include "policies/SequenceAgent.h"
#include "runtime/candidates/AgentCandidates.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;

namespace smartcc {

namespace {

void writeBitcode(Module &M, SmallVector<char, 0> &Out) {
  Out.clear();
  raw_svector_ostream OS(Out);
  // Use-list order shapes some passes' iteration order: keep it, so a continued state is
  // exactly the one measured.
  WriteBitcodeToFile(M, OS, /*ShouldPreserveUseListOrder=*/true);
}

std::string keyOf(bool AfterClang, const std::vector<std::string> &Actions) {
  return (AfterClang ? "late:" : "start:") + join(Actions, " ");
}

} // namespace

GuidedSearch::GuidedSearch(std::shared_ptr<const SequenceAgent> Agent, unsigned Candidates)
    : Agent(std::move(Agent)), Candidates(Candidates) {}

GuidedSearch::~GuidedSearch() = default;

void GuidedSearch::snapshotStart(Module &M) { writeBitcode(M, StartBitcode); }

void GuidedSearch::snapshotAfterClang(Module &M) {
  if (!AfterClangBitcode.empty()) // taken already: the first end of clang's middle-end counts
    return;
  writeBitcode(M, AfterClangBitcode);
  ClangNext.clear();
  for (const SequenceProposal &P : Agent->rank(M))
    ClangNext.push_back({P.CoreSetIndex, P.PredictedPercent});
}

Module *GuidedSearch::moduleFor(bool FromClang) {
  std::unique_ptr<Module> &M = FromClang ? AfterClang : Start;
  if (M)
    return M.get();
  const SmallVector<char, 0> &Bitcode = FromClang ? AfterClangBitcode : StartBitcode;
  if (Bitcode.empty())
    return nullptr;
  if (!Ctx)
    Ctx = std::make_unique<LLVMContext>();
  Expected<std::unique_ptr<Module>> Parsed =
      parseBitcodeFile(MemoryBufferRef(StringRef(Bitcode.data(), Bitcode.size()), "guided"), *Ctx);
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return nullptr;
  }
  M = std::move(*Parsed);
  return M.get();
}

std::vector<std::unique_ptr<CandidatePool>>
GuidedSearch::run(const std::vector<const CandidatePool *> &Earlier, uint64_t BaselineValue,
                  ValueOf Value, Launcher Launch) {
  std::vector<std::unique_ptr<CandidatePool>> Rounds;
  std::set<std::string> Tried;
  // The anchor: the smallest result so far that can be continued, clang's output to begin.
  Anchor Best;
  Best.Next = ClangNext;
  Best.Value = BaselineValue;
  Tried.insert(keyOf(true, {}));
  auto Consider = [&](const CandidatePool &P) {
    bool Improved = false;
    for (size_t I = 0; I < P.size(); ++I) {
      const CandidateSpec &S = P.spec(I);
      const CandidateResult &R = P.result(I);
      Tried.insert(keyOf(S.AfterClangPipeline, S.Actions));
      if (!S.ProposeAfter || R.Result != Outcome::Ok)
        continue;
      std::optional<uint64_t> V = Value(R);
      if (!V || *V >= Best.Value)
        continue;
      Best.Actions = S.Actions;
      Best.AfterClang = S.AfterClangPipeline;
      Best.Value = *V;
      Best.Next.clear();
      for (unsigned K = 0; K < R.NextCount; ++K)
        Best.Next.push_back({R.Next[K], R.NextPredicted[K]});
      Improved = true;
    }
    return Improved;
  };
  for (const CandidatePool *P : Earlier)
    if (P)
      Consider(*P);
  const std::vector<std::vector<std::string>> &Core = Agent->sequences();
  unsigned Left = Candidates, Improvements = 0;
  size_t NextIndex = 0;
  while (Left) {
    std::vector<CandidateSpec> Batch;
    for (; NextIndex < Best.Next.size() && Batch.size() < std::min(Left, GuidedPerRound);
         ++NextIndex) {
      auto [Index, Predicted] = Best.Next[NextIndex];
      if (Index >= Core.size())
        continue;
      CandidateSpec S;
      S.Pipeline.clear();
      S.AfterClangPipeline = Best.AfterClang;
      S.Actions = Best.Actions;
      llvm::append_range(S.Actions, Core[Index]);
      if (!Tried.insert(keyOf(S.AfterClangPipeline, S.Actions)).second)
        continue;
      S.Name = formatv("guided#{0}.{1}", Rounds.size() + 1, Batch.size() + 1).str();
      S.Description = join(S.Actions, " ");
      if (S.AfterClangPipeline)
        S.Description = std::string(WholeClangPipelineAction) + " " + S.Description;
      S.ActionSpace = Agent->spaceName();
      S.PredictedPercent = Predicted;
      S.ProposeAfter = Agent;
      Batch.push_back(std::move(S));
    }
    if (Batch.empty())
      break;
    Module *From = moduleFor(Best.AfterClang);
    if (!From) {
      Note = "guided search stopped: the module to continue was not kept";
      break;
    }
    Left -= unsigned(Batch.size());
    std::unique_ptr<CandidatePool> P = Launch(*From, std::move(Batch));
    if (!P)
      break; // the launch error is the caller's to report
    P->wait();
    if (Consider(*P)) {
      ++Improvements;
      NextIndex = 0;
    }
    Rounds.push_back(std::move(P));
  }
  if (Note.empty() && !Rounds.empty())
    Note = formatv("guided search: {0} round(s) after the first proposals, {1} found a smaller "
                   "result",
                   Rounds.size(), Improvements)
               .str();
  return Rounds;
}

} // namespace smartcc
