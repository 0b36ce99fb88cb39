// smartcc-eval's reports: per-module JSON lines in, Markdown summary and HTML with SVG out.
#pragma once
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace smartcc {

struct EvalRow {
  std::string Module, Package, Method, Target;
  uint64_t IR = 0, Bytes = 0;            // the method's result
  uint64_t ClangIR = 0, ClangBytes = 0;  // clang-22 -Oz on the same module
  double Seconds = 0, ClangSeconds = 0;
  bool Failed = false;
  std::string Error;
  std::string Sequence; // the actions a search chose, space-separated
  // Searches: sequences rejected because they crashed LLVM, failed or timed out in their
  // contained evaluation, and the first of them (actions and what happened).
  uint64_t Rejected = 0;
  std::string Rejection;
  // Register allocation (method regalloc): the greedy allocator's frequency-weighted spill,
  // reload and copy cost of the method (per-function choice), of the policy's heads alone
  // (each function's cheapest head, LLVM's priorities excluded: before any fallback), and of
  // LLVM's own priorities; -1 when not measured.
  // In these rows "clang" is clang at the method's speed level with the greedy allocator.
  double Cost = -1, HeadCost = -1, ClangCost = -1;
  // ML inliner (methods inliner, agent@E,inliner): the call sites its advisor was asked about
  // and how many of its answers differ from LLVM's heuristic, over the candidates compiled.
  uint64_t InlineDecisions = 0, InlineChanged = 0;
  // Candidates with allocators chosen by bytes: the code generations the allocation ran.
  unsigned Codegens = 0;
  // Agent methods: each proposal compiled, in the model's order: its predicted gain
  // (100*log(clang / proposal)) and measured bytes (0: it failed). At effort 2 that is the
  // whole core set, so the report can judge the model's calibration.
  std::vector<std::pair<double, uint64_t>> Proposals;
  // Guided search (method guided): rounds compiled, those that found a smaller state, and
  // whether the shipped sequence continues an earlier best (outside the core set).
  unsigned Rounds = 0, Improvements = 0;
  bool Composed = false;
};

llvm::json::Value toJSON(const EvalRow &R);
bool fromJSON(const llvm::json::Value &V, EvalRow &R);

// Geomean of clang/method ratios (>1 = smaller than clang) per method and package, with min
// and max, for IR and bytes; time ratios; failure counts.
// Provenance (LLVM's version, the command) is printed under the title when given.
void writeMarkdown(const std::vector<EvalRow> &Rows, const std::string &Title,
                   llvm::raw_ostream &OS, const std::string &Provenance = "");
void writeHTML(const std::vector<EvalRow> &Rows, const std::string &Title, llvm::raw_ostream &OS,
               const std::string &Provenance = "");

} // namespace smartcc
