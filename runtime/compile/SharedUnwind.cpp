#include "runtime/compile/SharedUnwind.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace smartcc {

namespace {

// Whether F may be covered by the shared entry: it must need its FDE only for asynchronous
// unwinding (no exception passes through a nounwind function without a personality), and be
// free to move into another section.
bool coverable(const Function &F, bool InText) {
  // Without an unwind table entry of its own (-fno-asynchronous-unwind-tables) a function has
  // no FDE to share: covering it would add one.
  if (!F.hasUWTable())
    return false;
  // (In the text section's run: a section prefix, hot or unlikely, puts a function in a
  // section of its own even without function sections. The run's own section overrides it.)
  if (F.isDeclaration() || !F.doesNotThrow() || F.hasPersonalityFn() || F.hasComdat() ||
      F.hasSection() || (InText && F.getSectionPrefix()) ||
      F.hasFnAttribute(Attribute::Naked) || F.hasPrefixData() || F.hasPrologueData())
    return false;
  // A call that is not a tail call needs a frame (AArch64 saves the return address): such a
  // function cannot be frameless, and is left out here rather than generated for nothing
  // (code generation decides on the rest, runtime/compile/SharedUnwindCodegen.h).
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(Call))
        if (!isa<AnyMemIntrinsic>(II))
          continue; // inline code, or nothing
      const auto *CI = dyn_cast<CallInst>(Call);
      if (!CI || !CI->isTailCall() || !isa<ReturnInst>(CI->getNextNode()))
        return false;
    }
  return true;
}

// A naked marker: nothing but its inline assembly (one CFI directive).
Function *marker(Module &M, StringRef Name, StringRef Directive, bool InText) {
  LLVMContext &C = M.getContext();
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                                 GlobalValue::InternalLinkage, Name, &M);
  F->addFnAttr(Attribute::Naked);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  // Size attributes: no alignment padding in front of a marker (x86-64 aligns other
  // functions to 16 bytes).
  F->addFnAttr(Attribute::MinSize);
  F->addFnAttr(Attribute::OptimizeForSize);
  if (!InText)
    F->setSection(SharedUnwindSection);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateCall(InlineAsm::get(FunctionType::get(Type::getVoidTy(C), false), Directive, "",
                              /*hasSideEffects=*/true));
  B.CreateUnreachable();
  return F;
}

} // namespace

PreservedAnalyses SharedUnwindPass::run(Module &M, ModuleAnalysisManager &) {
  // With debug information, code generation opens a frame (for .debug_frame) in every
  // function, with or without uwtable, and the shared frame cannot stay open across them:
  // such programs keep their own entries (a limit, docs/design.md).
  if (M.debug_compile_units_begin() != M.debug_compile_units_end())
    return PreservedAnalyses::all();
  // Given a list, only the functions it names (trusted: how the lit tests show the output
  // check refusing a wrong run); otherwise every function that may turn out frameless, which
  // code generation decides on its machine code (runtime/compile/SharedUnwindCodegen.h).
  StringSet<> Names;
  if (!ListPath.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(ListPath);
    if (!B)
      report_fatal_error(Twine("smartcc-shared-unwind: cannot read ") + ListPath + ": " +
                             B.getError().message(),
                         /*gen_crash_diag=*/false);
    SmallVector<StringRef, 0> Lines;
    (*B)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef L : Lines)
      if (!L.trim().empty())
        Names.insert(L.trim());
  }
  std::vector<Function *> Covered;
  for (Function &F : M)
    if ((ListPath.empty() || Names.contains(F.getName())) && coverable(F, InText))
      Covered.push_back(&F);
  // A program built without unwind tables has no FDE to share, the outliner's functions
  // included (they take their callers' unwind table kind): no run at all.
  if (llvm::none_of(M, [](const Function &F) { return !F.isDeclaration() && F.hasUWTable(); }))
    return PreservedAnalyses::all();
  // Begin, the functions, End, at the end of the module's list (markers are made there); the
  // functions change nothing else here: code generation keeps those frameless in the run and
  // moves the others out, and adds the machine outliner's frameless functions (fewer than two
  // here may still make a run; an empty one costs nothing).
  Function *Begin = marker(M, SharedUnwindBegin, ".cfi_startproc", InText);
  for (Function *F : Covered) {
    M.getFunctionList().splice(M.getFunctionList().end(), M.getFunctionList(), F->getIterator());
    F->addFnAttr(SharedUnwindAttr, ListPath.empty() ? "check" : "listed");
  }
  Function *End = marker(M, SharedUnwindEnd, ".cfi_endproc", InText);
  appendToCompilerUsed(M, {Begin, End});
  if (UncheckedThunks)
    M.addModuleFlag(Module::Warning, SharedUnwindUncheckedThunks, 1);
  if (InText)
    M.addModuleFlag(Module::Warning, SharedUnwindInText, 1);
  return PreservedAnalyses::none();
}

} // namespace smartcc
