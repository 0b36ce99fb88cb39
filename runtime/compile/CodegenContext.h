// Optimizing and compiling a module outside a live compile, exactly as clang would have: a
// CompilerInstance rebuilt from the translation unit's recorded cc1 arguments (the harvest
// records them) supplies target, language and codegen options, so the "default" pipeline
// plus clang's backend give clang-22's own object for that TU. Used by the learning
// environment and by smartcc-eval.
#pragma once
#include "runtime/config/CandidateSpec.h"
#include "runtime/measure/SizeMeasurer.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class LLVMContext;
class Module;
}

namespace smartcc {
struct InlineLog;
class RegAllocPolicy;
struct RegAllocLog;
struct RegAllocCost;
struct RegAllocPlan;
struct PortfolioAllocation;

// How codegen allocates registers and what it reports about it (all optional).
struct RegAllocRequest {
  const RegAllocPolicy *Policy = nullptr; // null: LLVM's greedy allocator as clang runs it
  RegAllocLog *Log = nullptr;             // the policy's decisions
  RegAllocCost *Cost = nullptr;           // the allocation's spill/reload/copy cost
  const RegAllocPlan *Plan = nullptr;     // which head allocates which function (null: head 0)
};

class CodegenContext {
public:
  static llvm::Expected<std::unique_ptr<CodegenContext>>
  fromCC1Args(const std::vector<std::string> &Args);
  ~CodegenContext();

  clang::CompilerInstance &instance() { return *CI; }

  // Runs Spec's middle-end on M (in place), M being the frontend's module: a continuing
  // candidate (after_clang_pipeline) gets clang's whole pipeline first. Errors: a pipeline
  // that does not parse.
  // With Spec.Inliner, the ML inliner's decisions are appended to Log if given.
  llvm::Error optimize(llvm::Module &M, const CandidateSpec &Spec, InlineLog *Log = nullptr);
  // Generates an object for M (rewriting M) and measures it; Object receives the bytes.
  llvm::Expected<ObjectSize> emitObject(llvm::Module &M, llvm::SmallVectorImpl<char> &Object,
                                        const RegAllocRequest &RegAlloc = {});
  // Generates M's object (rewriting M), allocating registers as the scope around the call
  // says: the emitter of runtime/compile/RegAllocPortfolio.h.
  llvm::Error emit(llvm::Module &M, llvm::SmallVectorImpl<char> &Object);
  // Generates M's object with registers allocated per function among LLVM's priorities and
  // Policy's heads (runtime/compile/RegAllocPortfolio.h), as the compiler's ml-regalloc candidate does.
  llvm::Expected<PortfolioAllocation> emitObjectPerFunction(llvm::Module &M,
                                                            const RegAllocPolicy &Policy,
                                                            double MaxGrowth = 0);

private:
  CodegenContext() = default;
  std::unique_ptr<clang::CompilerInstance> CI;
};

// Reads a bitcode file into Ctx.
llvm::Expected<std::unique_ptr<llvm::Module>> loadBitcodeFile(const std::string &Path,
                                                             llvm::LLVMContext &Ctx);

} // namespace smartcc
