// Builds and runs a candidate's middle-end the way clang builds its own for this compile:
// same target machine, pipeline tuning options, library info and instrumentation. Stage
// "default" is then clang's pipeline at the user's -O level; other stages are new-PM
// pipeline strings, so "-Oz, then more" is expressible.
#pragma once
#include "runtime/config/CandidateSpec.h"
#include "llvm/Support/Error.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class Module;
class TargetMachine;
}

namespace smartcc {
struct InlineLog;

// A target machine configured like clang's for this compile (used for TTI in the middle-end;
// codegen itself goes through clang's own emitBackendOutput).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createClangLikeTargetMachine(const clang::CompilerInstance &CI);

// Runs pipeline stages on modules of one compile, reusing the target machine and library
// info across runs (building them dominates the cost of a short stage). A stage is "default"
// (clang's per-module pipeline at the compile's level), a macro name known to
// policies/ActionSpace.h (clang-default, simplification, optimization,
// function-simplification, inliner, module-inliner), or a new-PM pipeline string.
class PipelineRunner {
public:
  // Tuning overrides come from a candidate (merge_functions, ...); nullptr = clang's own.
  static llvm::Expected<std::unique_ptr<PipelineRunner>>
  create(const clang::CompilerInstance &CI, const CandidateSpec *Tuning = nullptr);
  ~PipelineRunner();
  llvm::Error run(llvm::Module &M, llvm::StringRef Stage);
  // The ML inliner's decisions are appended here (with a candidate's Inliner set).
  void setInlineLog(InlineLog *Log);

private:
  PipelineRunner() = default;
  struct Impl;
  std::unique_ptr<Impl> P;
};

// What every optimized module goes through before code generation, whatever its pipeline:
// always_inline is a demand of the source (code may even need it to compile, e.g. inline asm
// with immediate constraints), so a pipeline that skips the inliner must not drop it. After
// clang's own pipeline this is a no-op.
constexpr const char *MandatoryFinish = "always-inline";

// What clang's per-module -Oz/-Os pipeline runs after its OptimizerLast extension point (read
// off `opt -passes='default<Oz>' -passes-ep-optimizer-last=no-op-module -print-pipeline-passes`
// for LLVM 22). A candidate forked at that point runs this first, so that it continues from
// exactly clang's own optimized module (byte identity is tested).
constexpr const char *ClangPipelineTail =
    "globaldce,constmerge,cg-profile,rel-lookup-table-converter,function(annotation-remarks)";

// Runs Spec's pipeline stages on M, then MandatoryFinish. Errors: an unparsable pipeline.
// With Spec.Inliner, its decisions go to Log if given.
llvm::Error runCandidatePipeline(llvm::Module &M, const CandidateSpec &Spec,
                                 const clang::CompilerInstance &CI, InlineLog *Log = nullptr);

} // namespace smartcc
