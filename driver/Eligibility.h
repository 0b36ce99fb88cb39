// Decides, from a cc1 job's parsed options, whether smartcc optimizes it or leaves it to clang.
// The rule: take over only a plain C-family compile to an object or assembly at a size level
// the configuration enables, where clang's pipeline has no extension-point passes smartcc
// would have to reproduce (sanitizers, coverage, profiling, instrumentation, plugins) and no
// side output written during codegen. Anything else is clang's, untouched.
#pragma once
#include "runtime/config/Config.h"
#include <string>

namespace clang {
class CompilerInvocation;
}

namespace smartcc {

struct Eligibility {
  bool Eligible = false;
  // Not optimized, but in harvest mode its module is still collected: an ordinary compile at
  // a level smartcc does not take over (e.g. the -O0 variant of harvest_o0).
  bool HarvestOnly = false;
  std::string Reason; // a stats reason when not eligible (e.g. "not_size_level")
  std::string Level;  // "Oz", "Os", "O0", "O1", "O2", "O3"
};

Eligibility classifyCompile(const clang::CompilerInvocation &Inv, const Config &Cfg);

} // namespace smartcc
