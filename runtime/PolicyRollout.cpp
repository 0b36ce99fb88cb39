#include "runtime/PolicyRollout.h"
#include "policies/ActionSpace.h"
#include "policies/AutophaseFeatures.h"
#include "policies/Observation.h"
#include "policies/model/ExportedModel.h"
#include "runtime/PipelineBuilder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smartcc {

Expected<std::vector<std::string>> playPolicy(Module &M, const ExportedModel &Model,
                                              const clang::CompilerInstance &CI) {
  const json::Object &Meta = Model.metadata();
  Expected<ActionSpace> Space = loadActionSpaces(Meta.getString("space").value_or("").str());
  if (!Space)
    return Space.takeError();
  const size_t Stop = Space->size();
  unsigned Horizon = unsigned(Meta.getInteger("horizon").value_or(45));
  if (Model.outputSize() != Stop + 1 || Model.inputSize() != AutophaseFeatures::Count + Stop)
    return createStringError(inconvertibleErrorCode(),
                             "model has %zu inputs and %zu outputs; its space '%s' needs %zu "
                             "and %zu",
                             Model.inputSize(), Model.outputSize(), Space->Name.c_str(),
                             AutophaseFeatures::Count + Stop, Stop + 1);
  Expected<std::unique_ptr<PipelineRunner>> Runner = PipelineRunner::create(CI);
  if (!Runner)
    return Runner.takeError();
  if (Error E = (*Runner)->run(M, MandatoryFinish)) // where the environment's episodes start
    return std::move(E);
  std::vector<size_t> History;
  std::vector<std::string> Taken;
  // Options accumulate on top of the user's -mllvm options (re-parsed after each reset).
  std::vector<const char *> Args{"smartcc (policy options)"};
  for (const std::string &U : CI.getFrontendOpts().LLVMArgs)
    Args.push_back(U.c_str());
  for (unsigned T = 0; T < Horizon; ++T) {
    size_t A = Model.argmax(observationVector(computeAutophase(M), History, Stop, Horizon));
    if (A >= Stop)
      break;
    const Action &Act = Space->Actions[A];
    History.push_back(A);
    Taken.push_back(Act.Name);
    if (Act.Kind != ActionKind::Option) {
      if (Error E = (*Runner)->run(M, Act.Pipeline))
        return std::move(E);
      continue;
    }
    for (Function &F : M)
      if (!F.isDeclaration())
        for (const auto &[K, V] : Act.FunctionAttrs)
          F.addFnAttr(K, V);
    if (!Act.LLVMArgs.empty()) { // this is a candidate's own process: global options are fine
      cl::ResetAllOptionOccurrences();
      for (const std::string &X : Act.LLVMArgs)
        Args.push_back(X.c_str());
      cl::ParseCommandLineOptions(Args.size(), Args.data(), "", &nulls());
    }
  }
  return Taken;
}

} // namespace smartcc
