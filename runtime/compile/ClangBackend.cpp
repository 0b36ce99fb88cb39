#include "runtime/compile/ClangBackend.h"
#include "runtime/compile/AddressSignificance.h"
#include "clang/CodeGen/BackendUtil.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include <utility>

namespace smartcc {

namespace {
std::string StackUsageCapture;
} // namespace

void setStackUsageCapture(std::string Path) { StackUsageCapture = std::move(Path); }

bool emitWithClangBackend(clang::CompilerInstance &CI, llvm::Module &M, EmitKind Kind,
                          llvm::SmallVectorImpl<char> &Out) {
  clang::CodeGenOptions CG = CI.getCodeGenOpts();
  CG.DisableLLVMPasses = true; // the middle-end already ran: this is codegen only
  CG.PassBuilderCallbacks.clear();
  // (The target options are built from CI's own options: the file is swapped there too, for
  // the duration of this code generation.)
  CG.StackUsageOutput = StackUsageCapture;
  std::string UserStackUsage = std::exchange(CI.getCodeGenOpts().StackUsageOutput,
                                             StackUsageCapture);
  if (CG.Addrsig)
    markUncomparedFunctions(M);
  unsigned ErrorsBefore = CI.getDiagnostics().getNumErrors();
  clang::emitBackendOutput(CI, CG, M.getDataLayoutStr(), &M,
                           Kind == EmitKind::Object ? clang::Backend_EmitObj
                                                    : clang::Backend_EmitAssembly,
                           CI.getVirtualFileSystemPtr(),
                           std::make_unique<llvm::raw_svector_ostream>(Out));
  CI.getCodeGenOpts().StackUsageOutput = std::move(UserStackUsage);
  return CI.getDiagnostics().getNumErrors() == ErrorsBefore;
}

bool emitObjectForMeasuring(clang::CompilerInstance &CI, llvm::Module &M, bool FunctionSections,
                            llvm::SmallVectorImpl<char> &Out) {
  bool Was = CI.getCodeGenOpts().FunctionSections;
  CI.getCodeGenOpts().FunctionSections = Was || FunctionSections;
  bool Ok = emitWithClangBackend(CI, M, EmitKind::Object, Out);
  CI.getCodeGenOpts().FunctionSections = Was;
  return Ok;
}

} // namespace smartcc
