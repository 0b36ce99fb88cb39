// Code generation through clang's own backend entry point (clang::emitBackendOutput with the
// middle-end disabled), so every object smartcc measures is produced exactly as clang would
// produce it from the same IR and options.
#pragma once
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class Module;
}

namespace smartcc {

enum class EmitKind { Object, Assembly };

// Generates code for M (which it rewrites: codegen prepares IR in place). Backend errors are
// reported through CI's diagnostics engine; returns false when any occurred.
bool emitWithClangBackend(clang::CompilerInstance &CI, llvm::Module &M, EmitKind Kind,
                          llvm::SmallVectorImpl<char> &Out);

// -fstack-usage: smartcc's code generations never write the user's .su file (only clang's own
// compile does); a candidate that needs its own stack-usage lines for shipping names a file
// here for the code generations that follow, "" to stop.
void setStackUsageCapture(std::string Path);

// The same object, with every function in its own section when FunctionSections (as
// -ffunction-sections would), so that each function's code and jump tables can be told apart
// (runtime/measure/FunctionSizes.h): for deciding per function, not for shipping.
bool emitObjectForMeasuring(clang::CompilerInstance &CI, llvm::Module &M, bool FunctionSections,
                            llvm::SmallVectorImpl<char> &Out);

} // namespace smartcc
