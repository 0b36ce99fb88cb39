#include "runtime/decide/FunctionMixCandidate.h"
#include "policies/ActionSpace.h"
#include "runtime/decide/FunctionMix.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/compile/PipelineBuilder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace smartcc {

std::vector<std::string> codegenArgs(const CandidateSpec &Spec) {
  std::vector<std::string> Args = Spec.LLVMArgs;
  if (!Spec.Actions.empty()) {
    Expected<ActionSpace> Space = loadActionSpaces(Spec.ActionSpace);
    if (!Space) { // cannot tell: a key no other version has
      Args.push_back("?" + toString(Space.takeError()));
      return Args;
    }
    for (const std::string &A : Spec.Actions)
      if (int I = Space->indexOf(A); I >= 0)
        append_range(Args, Space->Actions[size_t(I)].LLVMArgs);
  }
  return Args;
}

std::string codegenKey(const CandidateSpec &Spec) { return join(codegenArgs(Spec), " "); }

Expected<std::unique_ptr<Module>> buildMixCandidate(const FunctionMixInput &In, LLVMContext &Ctx,
                                                    const clang::CompilerInstance &CI,
                                                    std::string &Summary,
                                                    std::vector<std::string> &BaseArgs) {
  std::vector<std::unique_ptr<Module>> Modules;
  std::vector<MixVersion> Versions;
  std::unique_ptr<PipelineRunner> Runner;
  for (const MixSource &S : In.Versions) {
    Expected<std::unique_ptr<Module>> M =
        parseBitcodeFile(MemoryBufferRef(S.Bitcode, S.Name), Ctx);
    if (!M)
      return M.takeError();
    if (S.ClangTail) {
      if (!Runner) {
        Expected<std::unique_ptr<PipelineRunner>> R = PipelineRunner::create(CI);
        if (!R)
          return R.takeError();
        Runner = std::move(*R);
      }
      if (Error E = Runner->run(**M, ClangPipelineTail))
        return std::move(E);
    }
    std::map<std::string, uint64_t> Unwind;
    Expected<std::map<std::string, uint64_t>> Bytes =
        functionImageBytes(MemoryBufferRef(S.Object, S.Name), &Unwind);
    if (!Bytes)
      return Bytes.takeError();
    Versions.push_back(MixVersion{M->get(), std::move(*Bytes), std::move(Unwind),
                                  join(S.CodegenArgs, " "), false, S.Measured});
    Modules.push_back(std::move(*M));
  }
  FunctionMixPlan Plan = planBestFunctionMix(Versions, In.Rule);
  if (Plan.Take.empty())
    return nullptr;
  BaseArgs = In.Versions[Plan.Base].CodegenArgs;
  std::map<unsigned, unsigned> PerVersion;
  for (const auto &[Name, V] : Plan.Take)
    ++PerVersion[V];
  std::string From;
  for (const auto &[V, N] : PerVersion)
    From += formatv("{0}{1} from {2}", From.empty() ? "" : ", ", N, In.Versions[V].Name).str();
  Summary = formatv("{0} of {1} functions moved into {2} ({3}), estimated {4} bytes fewer",
                    Plan.Take.size(), Plan.Considered, In.Versions[Plan.Base].Name, From,
                    Plan.EstimatedSaving)
                .str();
  return buildFunctionMix(Versions, Plan);
}

} // namespace smartcc
