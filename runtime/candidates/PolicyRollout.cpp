#include "runtime/candidates/PolicyRollout.h"
#include "runtime/compile/OptionActions.h"
#include "policies/ActionSpace.h"
#include "policies/AutophaseFeatures.h"
#include "policies/ModuleObservation.h"
#include "policies/Observation.h"
#include "policies/model/ExportedModel.h"
#include "runtime/compile/PipelineBuilder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smartcc {

namespace {

// One episode in a candidate's process: the pipeline runner and the LLVM options so far.
struct Episode {
  std::unique_ptr<PipelineRunner> Runner;
  // Options accumulate on top of the user's -mllvm options (re-parsed after each reset).
  std::vector<std::string> UserArgs, Taken;

  static Expected<Episode> start(Module &M, const clang::CompilerInstance &CI,
                                 std::shared_ptr<const InlinePolicy> Inliner) {
    CandidateSpec Tuning; // clang's own tuning, plus the ML inliner if any
    Tuning.Inliner = std::move(Inliner);
    Expected<std::unique_ptr<PipelineRunner>> Runner = PipelineRunner::create(CI, &Tuning);
    if (!Runner)
      return Runner.takeError();
    if (Error E = (*Runner)->run(M, MandatoryFinish)) // where the environment's episodes start
      return std::move(E);
    Episode Ep;
    Ep.Runner = std::move(*Runner);
    Ep.UserArgs = CI.getFrontendOpts().LLVMArgs;
    return std::move(Ep);
  }

  Error apply(Module &M, const Action &Act) {
    if (Act.Kind != ActionKind::Option)
      return Runner->run(M, Act.Pipeline);
    addFunctionAttributes(M, Act.FunctionAttrs);
    // This is a candidate's own process: global options are fine. Options of earlier actions
    // stay (Taken), the user's come first.
    if (Act.LLVMArgs.empty())
      return Error::success();
    Taken.insert(Taken.end(), Act.LLVMArgs.begin(), Act.LLVMArgs.end());
    return applyLLVMOptions(UserArgs, Taken, "action '" + Act.Name + "': ");
  }
};

} // namespace

Error playSequence(Module &M, const std::string &SpaceName,
                   const std::vector<std::string> &Actions, const clang::CompilerInstance &CI,
                   std::shared_ptr<const InlinePolicy> Inliner) {
  Expected<ActionSpace> Space = loadActionSpaces(SpaceName);
  if (!Space)
    return Space.takeError();
  Expected<Episode> Ep = Episode::start(M, CI, Inliner);
  if (!Ep)
    return Ep.takeError();
  for (const std::string &Name : Actions) {
    int Index = Space->indexOf(Name);
    if (Index < 0)
      return createStringError(inconvertibleErrorCode(), "no action '%s' in space '%s'",
                               Name.c_str(), SpaceName.c_str());
    if (Error E = Ep->apply(M, Space->Actions[size_t(Index)]))
      return E;
  }
  return Ep->Runner->run(M, MandatoryFinish); // as the environment finishes a state
}

Expected<std::vector<std::string>> playPolicy(Module &M, const ExportedModel &Model,
                                              const clang::CompilerInstance &CI,
                                              std::shared_ptr<const InlinePolicy> Inliner) {
  const json::Object &Meta = Model.metadata();
  Expected<ActionSpace> Space = loadActionSpaces(Meta.getString("space").value_or("").str());
  if (!Space)
    return Space.takeError();
  const size_t Stop = Space->size();
  unsigned Horizon = unsigned(Meta.getInteger("horizon").value_or(45));
  Expected<ModelObservation> Obs = modelObservation(Meta, /*Policy=*/true);
  if (!Obs)
    return Obs.takeError();
  const size_t Inputs = Obs->size() + Stop;
  if (Model.outputSize() != Stop + 1 || Model.inputSize() != Inputs)
    return createStringError(inconvertibleErrorCode(),
                             "model has %zu inputs and %zu outputs; its space '%s' and "
                             "observation need %zu and %zu",
                             Model.inputSize(), Model.outputSize(), Space->Name.c_str(), Inputs,
                             Stop + 1);
  Expected<Episode> Ep = Episode::start(M, CI, Inliner);
  if (!Ep)
    return Ep.takeError();
  std::vector<size_t> History;
  std::vector<std::string> Taken;
  for (unsigned T = 0; T < Horizon; ++T) {
    std::vector<float> Embedding;
    if (usesIR2Vec(Obs->Kind))
      Embedding = moduleObservation(M, ObservationKind::IR2Vec, Obs->Vocab);
    size_t A = Model.argmax(
        policyObservation(Obs->Kind, computeAutophase(M), Embedding, History, Stop, Horizon));
    if (A >= Stop)
      break;
    History.push_back(A);
    Taken.push_back(Space->Actions[A].Name);
    if (Error E = Ep->apply(M, Space->Actions[A]))
      return std::move(E);
  }
  if (Error E = Ep->Runner->run(M, MandatoryFinish))
    return std::move(E);
  return Taken;
}

} // namespace smartcc
