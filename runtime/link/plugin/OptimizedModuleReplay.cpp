#include "runtime/link/plugin/OptimizedModuleReplay.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smartcc {

namespace {

Error fail(StringRef Path, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "smartcc-replay-optimized: " + Path + ": " + What);
}

// The optimized module must be this link's program: LTO's pipeline keeps every definition the
// linker exports (it may drop internal ones), so each of M's must be defined there too.
Error checkSameProgram(const Module &M, const Module &Opt, StringRef Path) {
  if (M.getTargetTriple() != Opt.getTargetTriple())
    return fail(Path, "target " + Opt.getTargetTriple().str() + ", the link's is " +
                          M.getTargetTriple().str());
  if (M.getDataLayout() != Opt.getDataLayout())
    return fail(Path, "another data layout than the link's");
  for (const GlobalValue &GV : M.global_values()) {
    if (GV.isDeclaration() || GV.hasLocalLinkage() || GV.hasAvailableExternallyLinkage())
      continue;
    const GlobalValue *O = Opt.getNamedValue(GV.getName());
    if (!O || O->isDeclaration())
      return fail(Path, "not this link's program: no definition of " + GV.getName());
  }
  return Error::success();
}

// Empties M: bodies and initializers first, so that no global still uses another when it is
// erased (constants left over from them are dropped, any other use becomes poison).
void clearModule(Module &M) {
  for (Function &F : M)
    F.dropAllReferences();
  for (GlobalVariable &GV : M.globals())
    if (GV.hasInitializer())
      GV.setInitializer(nullptr);
  for (GlobalAlias &GA : M.aliases())
    GA.dropAllReferences();
  for (GlobalIFunc &GI : M.ifuncs())
    GI.dropAllReferences();
  auto Detach = [](GlobalValue &GV) {
    GV.removeDeadConstantUsers();
    if (!GV.use_empty())
      GV.replaceAllUsesWith(PoisonValue::get(GV.getType()));
  };
  for (GlobalValue &GV : M.global_values())
    Detach(GV);
  while (!M.alias_empty())
    M.alias_begin()->eraseFromParent();
  while (!M.ifunc_empty())
    M.ifunc_begin()->eraseFromParent();
  while (!M.empty())
    M.begin()->eraseFromParent();
  while (!M.global_empty())
    M.global_begin()->eraseFromParent();
  while (!M.named_metadata_empty())
    M.eraseNamedMetadata(&*M.named_metadata_begin());
  M.getComdatSymbolTable().clear();
  M.setModuleInlineAsm("");
}

// Moves every global of From into To (same context), in From's order, with their comdats,
// named metadata (module flags among them) and module-level assembly.
void moveModule(Module &From, Module &To) {
  for (GlobalObject &GO : From.global_objects())
    if (const Comdat *C = GO.getComdat()) {
      Comdat *Own = To.getOrInsertComdat(C->getName());
      Own->setSelectionKind(C->getSelectionKind());
      GO.setComdat(Own);
    }
  while (!From.global_empty()) {
    GlobalVariable *GV = &*From.global_begin();
    GV->removeFromParent();
    To.insertGlobalVariable(GV);
  }
  To.getFunctionList().splice(To.end(), From.getFunctionList());
  while (!From.alias_empty()) {
    GlobalAlias *GA = &*From.alias_begin();
    GA->removeFromParent();
    To.insertAlias(GA);
  }
  while (!From.ifunc_empty()) {
    GlobalIFunc *GI = &*From.ifunc_begin();
    GI->removeFromParent();
    To.insertIFunc(GI);
  }
  for (NamedMDNode &N : From.named_metadata()) {
    NamedMDNode *Own = To.getOrInsertNamedMetadata(N.getName());
    for (MDNode *Op : N.operands())
      Own->addOperand(Op);
  }
  To.setModuleInlineAsm(From.getModuleInlineAsm());
}

} // namespace

Error saveOptimizedModule(const Module &M, StringRef Path) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC, "smartcc: cannot write " + Path + ": " + EC.message());
  WriteBitcodeToFile(M, OS, /*ShouldPreserveUseListOrder=*/true);
  OS.close();
  if (OS.has_error())
    return createStringError(OS.error(), "smartcc: cannot write " + Path);
  return Error::success();
}

PreservedAnalyses SaveOptimizedModulePass::run(Module &M, ModuleAnalysisManager &) {
  if (Error E = saveOptimizedModule(M, Path))
    report_fatal_error(Twine(toString(std::move(E))), /*gen_crash_diag=*/false);
  return PreservedAnalyses::all();
}

Error replayOptimizedModule(Module &M, StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return fail(Path, Buf.getError().message());
  Expected<std::unique_ptr<Module>> Opt = parseBitcodeFile(**Buf, M.getContext());
  if (!Opt)
    return fail(Path, toString(Opt.takeError()));
  if (Error E = checkSameProgram(M, **Opt, Path))
    return E;
  clearModule(M);
  moveModule(**Opt, M);
  return Error::success();
}

PreservedAnalyses ReplayOptimizedModulePass::run(Module &M, ModuleAnalysisManager &) {
  // Inside lld a failed pass has no way out but a fatal error: the candidate's link fails
  // and clang's link stays.
  if (Error E = replayOptimizedModule(M, Path))
    report_fatal_error(Twine(toString(std::move(E))), /*gen_crash_diag=*/false);
  return PreservedAnalyses::none();
}

} // namespace smartcc
