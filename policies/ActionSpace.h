// Action spaces as data (policies/actions/*.toml, embedded at build time, or any TOML file):
//
//   name = "autophase"
//   description = "..."
//   [[action]]
//   name = "instcombine"                       # unique within the space
//   pipeline = "function(instcombine<no-verify-fixpoint>)"   # a new-PM pipeline string, or
//   macro = "clang-default"                    # a pipeline clang's PassBuilder builds (below), or
//   function_attrs = { "no-jump-tables" = "true" }  # option actions: take effect at codegen
//   llvm_args = ["-enable-machine-outliner=always"]  #   (and in later macro steps)
//   description = "..."
//
// Macros (built by the PassBuilder at the TU's -O level, as clang would build them):
//   clang-default            the whole per-module default pipeline (clang's -Oz itself)
//   simplification           buildModuleSimplificationPipeline
//   optimization             buildModuleOptimizationPipeline
//   function-simplification  buildFunctionSimplificationPipeline on every function
//   inliner                  buildInlinerPipeline (CGSCC inliner + function simplification)
//   module-inliner           buildModuleInlinerPipeline
#pragma once
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace smartcc {

enum class ActionKind { Pass, Macro, Option };

struct Action {
  std::string Name;
  std::string Description;
  ActionKind Kind = ActionKind::Pass;
  std::string Pipeline; // Pass: pipeline text; Macro: macro name
  std::vector<std::pair<std::string, std::string>> FunctionAttrs; // Option
  std::vector<std::string> LLVMArgs;                                 // Option
};

struct ActionSpace {
  std::string Name;
  std::string Description;
  std::vector<Action> Actions;

  size_t size() const { return Actions.size(); }
  int indexOf(llvm::StringRef ActionName) const; // -1 when absent
  // A sequence of action indices as its names, space-separated (how sequences are written).
  std::string namesOf(const std::vector<size_t> &Sequence) const;
};

bool isKnownMacro(llvm::StringRef Name);

// Parses a space from TOML text; errors name SourceName, line and key.
llvm::Expected<ActionSpace> parseActionSpace(llvm::StringRef Text, llvm::StringRef SourceName);
// A built-in space by name (autophase, full, macro, options, ...) or a TOML file by path.
llvm::Expected<ActionSpace> loadActionSpace(llvm::StringRef NameOrPath);
// Concatenation of spaces, in order (e.g. "autophase+macro+options"). Names must stay unique.
llvm::Expected<ActionSpace> loadActionSpaces(llvm::StringRef PlusSeparatedNames);
std::vector<std::string> builtinActionSpaceNames();

} // namespace smartcc
