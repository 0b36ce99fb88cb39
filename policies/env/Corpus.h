// Reads a harvested corpus (runtime/observe/Harvester.h layout) into benchmarks: one per distinct
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
  std::string Directory; // where it was compiled (Source may be relative to it)
  std::string Level; // the -O level it was harvested at: "Oz", or "O0" for CompilerGym-style
                     // input (its Bench.CC1Args are then -Oz's: see readCorpus)
  uint64_t IRInstructions = 0;
};

// Level: keep only modules harvested at this level ("" = all).
llvm::Expected<std::vector<CorpusModule>> readCorpus(const std::string &Dir,
                                                     const std::string &Level = "Oz");

// Keeps only the modules whose hash is listed in Path (one hash a line, as the split manifests
// and the study scripts write them). A missing file is an error naming it.
llvm::Error keepListedModules(std::vector<CorpusModule> &Modules, const std::string &Path);

} // namespace smartcc
