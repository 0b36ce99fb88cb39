// Reads a harvested corpus (runtime/Harvester.h layout) into benchmarks: one per distinct
// module, with the package it first came from and its IR size.
#pragma once
#include "policies/env/CompilerEnv.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace smartcc {

struct CorpusModule {
  Benchmark Bench;
  std::string Hash, Package, Source, Target;
  uint64_t IRInstructions = 0;
};

llvm::Expected<std::vector<CorpusModule>> readCorpus(const std::string &Dir);

} // namespace smartcc
