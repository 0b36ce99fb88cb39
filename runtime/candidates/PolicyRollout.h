// Serving a trained policy inside a candidate process: starting from the module as the
// environment's episodes start (the pre-optimization module after mandatory inlining), the
// exported model picks one action at a time from the observation, greedily, until it picks
// stop or reaches its horizon. The model file names its action space; its sizes are checked
// against it before anything runs.
#pragma once
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class Module;
}

namespace smartcc {

class ExportedModel;
class InlinePolicy;

// Plays a given action sequence of the named space on M the same way.
// Inliner: the ML inliner that inlining actions consult (null: LLVM's heuristic).
llvm::Error playSequence(llvm::Module &M, const std::string &SpaceName,
                         const std::vector<std::string> &Actions,
                         const clang::CompilerInstance &CI,
                         std::shared_ptr<const InlinePolicy> Inliner = nullptr);

// Returns the names of the actions taken.
llvm::Expected<std::vector<std::string>>
playPolicy(llvm::Module &M, const ExportedModel &Model, const clang::CompilerInstance &CI,
           std::shared_ptr<const InlinePolicy> Inliner = nullptr);

} // namespace smartcc
