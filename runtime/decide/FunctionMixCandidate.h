// The compiler's function-mix candidate (runtime/decide/FunctionMix.h): once clang's own output and
// the candidates are measured, one more candidate takes each non-local function from the
// version where its bytes (code and unwind entry, read off the version's real object) are
// fewest, and is compiled and judged like any other. The versions travel to its process as
// the bitcode each candidate wrote before its code generation (CandidateContext::EmitBitcode)
// and clang's module as it left the optimizer.
#pragma once
#include "runtime/config/CandidateSpec.h"
#include "runtime/decide/FunctionMix.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class LLVMContext;
class Module;
}

namespace smartcc {

struct MixSource {
  std::string Name;
  std::string Bitcode;     // the optimized module, before code generation
  std::string Object;      // the object it became (the per-function bytes)
  std::vector<std::string> CodegenArgs; // codegenArgs of its candidate
  bool ClangTail = false;  // clang's module at its optimizer's end: ClangPipelineTail follows
  MixTotals Measured;      // its object: the decision's metric value, code and unwind bytes
};

struct FunctionMixInput {
  std::vector<MixSource> Versions;
  MixRule Rule; // the decision's code_for_unwind, against clang's object
};

// The code-generation options of a candidate, as one key: its LLVM options and those of its
// sequence's option actions (the machine outliner, ...). Versions mix only with equal keys.
std::vector<std::string> codegenArgs(const CandidateSpec &Spec);
std::string codegenKey(const CandidateSpec &Spec);

// In the mix candidate's process: parses the versions into Ctx, finishes clang's, plans with
// each possible base (planBestFunctionMix) and builds the best plan's mix. Null when no plan
// is worth compiling. Summary says what moved; BaseArgs are the code-generation options to
// compile the mix with (its base's).
llvm::Expected<std::unique_ptr<llvm::Module>>
buildMixCandidate(const FunctionMixInput &In, llvm::LLVMContext &Ctx,
                  const clang::CompilerInstance &CI, std::string &Summary,
                  std::vector<std::string> &BaseArgs);

} // namespace smartcc
