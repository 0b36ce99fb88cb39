// The sequence-value agent at an -flto link. The link's bitcode inputs (objects, and the
// bitcode members of archives) are what lld's LTO merges into one module: their Autophase
// features, summed, are the agent's view of the whole program. Each proposal it ranks high
// becomes a link candidate that lld runs as its LTO pipeline (translated below); every one is
// a real link measured against clang's, like any other link candidate.
#pragma once
#include "runtime/config/Config.h"
#include "policies/ActionSpace.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace smartcc {

struct LinkAgentChoice {
  bool Active = false;                  // a model ranked this link
  std::vector<LinkCandidateSpec> Specs; // its proposals as link candidates, best first
  std::vector<float> Predicted;         // each one's predicted gain (as CandidateSpec's)
  std::string ActionSpace;              // the space of the sequences (Specs' descriptions)
  std::string Model;                    // which model
  std::string Note;                     // why it did not serve, or inputs it could not read
  unsigned Modules = 0;                 // bitcode modules whose features were summed
  std::vector<int64_t> Features;        // their Autophase features, summed (what it ranked)
  double Millis = 0;                    // reading the inputs, features and ranking
  std::vector<std::string> Skipped;     // proposals that are clang's link, or not expressible
};

// How an action sequence runs at an LTO link: macros through smartcc's LTO pass plugin at
// Level (Oz/Os), clang's whole pipeline as lld's own lto<O2> (what clang's driver asks lld for
// at -Oz/-Os), pass actions as their pipeline text, option actions as function attributes
// (at their place in the sequence) or -mllvm settings. Errors: an action the link cannot
// express (clang-default-os: its point is re-running the frontend's -Os choices).
llvm::Expected<LinkCandidateSpec> linkCandidateForSequence(llvm::ArrayRef<std::string> Actions,
                                                           const ActionSpace &Space,
                                                           llvm::StringRef Level);

// The agent's link candidates for a link of Inputs (the link job's input files) at Level.
// FatSections: the link reads the bitcode fat objects carry (a whole-program link).
LinkAgentChoice linkAgentCandidates(llvm::ArrayRef<std::string> Inputs, const Config &Cfg,
                                    llvm::StringRef Triple, llvm::StringRef Level,
                                    bool FatSections = false);

} // namespace smartcc
