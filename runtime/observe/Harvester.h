// Corpus harvesting (MLGO-style): with `harvest = DIR`, every translation unit smartcc
// optimizes leaves its pre-optimization module (the frontend's IR at the user's -O level, the
// exact state a size policy starts from) in DIR:
//   DIR/bitcode/<h2>/<hash>.bc   the module, names normalized, one file per distinct content
//   DIR/meta/<hash>.json         first sighting: source, package, target, level, cc1 args, size
//   DIR/index.jsonl              one line per compile (duplicates included), appended atomically
// <hash> is the SHA-256 of the bitcode after clearing the module identifier and source file
// name, so the same file built in two packages (gnulib) is stored once. Safe under make -j:
// files appear by rename, the index grows by single O_APPEND writes.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace llvm {
class Module;
}

namespace smartcc {

struct HarvestContext {
  std::string Dir;
  std::string Source;      // the input file, as given
  std::string Directory;   // the compile's working directory
  std::string Target;      // triple
  std::string Level;       // "Oz", "Os"
  std::string Package;     // from SMARTCC_HARVEST_PACKAGE, empty if unset
  std::vector<std::string> CC1Args;
};

// Returns the content hash under which the module was stored.
llvm::Expected<std::string> harvestModule(llvm::Module &M, const HarvestContext &Ctx);

// The normalized content hash alone (also used to key caches of states).
std::string normalizedModuleHash(llvm::Module &M);

} // namespace smartcc
