#include "runtime/compile/ClangBackend.h"
#include "clang/CodeGen/BackendUtil.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace smartcc {

bool emitWithClangBackend(clang::CompilerInstance &CI, llvm::Module &M, EmitKind Kind,
                          llvm::SmallVectorImpl<char> &Out) {
  clang::CodeGenOptions CG = CI.getCodeGenOpts();
  CG.DisableLLVMPasses = true; // the middle-end already ran: this is codegen only
  CG.PassBuilderCallbacks.clear();
  unsigned ErrorsBefore = CI.getDiagnostics().getNumErrors();
  clang::emitBackendOutput(CI, CG, M.getDataLayoutStr(), &M,
                           Kind == EmitKind::Object ? clang::Backend_EmitObj
                                                    : clang::Backend_EmitAssembly,
                           CI.getVirtualFileSystemPtr(),
                           std::make_unique<llvm::raw_svector_ostream>(Out));
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
