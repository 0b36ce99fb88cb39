// The methods smartcc-eval evaluates on one module, each against clang-22 -Oz's row (Base):
// library candidates, searches, the agent, the guided search, the function mix, the ML
// inliner and register allocation, per-function choice, gcc -Os. policies/env/tools/Eval.cpp
// runs them over a corpus, one process per module.
#pragma once
#include "EvalReport.h"
#include "policies/env/Corpus.h"
#include "policies/env/Search.h"
#include "runtime/config/Config.h"
#include "runtime/measure/SizeMeasurer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include <chrono>
#include <optional>
#include <string>

// The tool's options that the methods read (defined in Eval.cpp).
extern llvm::cl::opt<std::string> CorpusDir;     // gcc -Os sizes are recorded beside the corpus
extern llvm::cl::opt<std::string> SpaceName;     // the action space of searches
extern llvm::cl::opt<std::string> RegAllocLevel; // the -O level of the regalloc method
extern llvm::cl::opt<unsigned> Seed;
extern smartcc::Objective TheObjective;          // --objective, parsed once in main

namespace smartcc::eval {

inline double since(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T).count();
}

// A --method split into its kind and argument, and checked: the one place that knows the
// methods' spellings. smartcc-eval parses every method before any module runs (a misspelt
// one would otherwise fail every row of a sweep that exits 0, and a malformed search budget
// abort in std::stoul inside each child), then dispatches on the kind.
struct MethodSpec {
  llvm::StringRef Kind, Arg; // "agent", "MODEL.smm@1,budget=3000"; "random", "10x45"; "oz", ""
};

llvm::Expected<MethodSpec> parseMethod(llvm::StringRef M);

// One method on one module.
llvm::Expected<EvalRow> evalMethod(const CorpusModule &C, const Config &Cfg, const MethodSpec &M,
                                   const EvalRow &Base);

// A library candidate (Spec) compiled as the compiler's candidate process runs it, outside a
// compile; Object, if given, receives the object's section classes.
llvm::Expected<EvalRow> evalCandidate(const CorpusModule &C, const CandidateSpec &Spec,
                                      const EvalRow &Base, ObjectSize *Object = nullptr);

// clang-22 -Oz's object of the module being evaluated (each module runs in its own process;
// evalModule sets it before any method runs): with --objective shipped a candidate smaller than
// it that breaks the compiler's ship rules is worth its bytes, as in CompilerEnv::shippedBytes.
extern std::optional<ObjectSize> ClangObject;

// Reads the gcc -Os sizes recorded at harvest time (CorpusDir/gcc-os.jsonl), if any.
void readGccSizes();

} // namespace smartcc::eval
