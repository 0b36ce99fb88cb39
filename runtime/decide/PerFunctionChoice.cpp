#include "runtime/decide/PerFunctionChoice.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/compile/ClangBackend.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/compile/PipelineBuilder.h"
#include "runtime/measure/SizeMeasurer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace smartcc {

namespace {

struct Compiled {
  uint64_t Bytes = 0, IR = 0;
  std::map<std::string, uint64_t> Functions;
};

// Clones Pre, applies the attributes chosen for each function, runs clang's pipeline and the
// backend, and measures.
// With PerFunction, code is generated with function sections so that each function's code and
// jump tables can be told apart (for deciding); without, as clang would (for the truth).
Expected<Compiled> compileWith(clang::CompilerInstance &CI, PipelineRunner &Runner,
                               const Module &Pre, bool PerFunction,
                               const std::function<const FunctionAttrSet *(StringRef)> &AttrsFor) {
  std::unique_ptr<Module> M = CloneModule(Pre);
  for (Function &F : *M)
    if (!F.isDeclaration())
      if (const FunctionAttrSet *A = AttrsFor(F.getName()))
        for (const auto &[K, V] : *A)
          F.addFnAttr(K, V);
  if (Error E = Runner.run(*M, "default"))
    return std::move(E);
  Compiled C;
  C.IR = countIRInstructions(*M);
  SmallVector<char, 0> Object;
  if (!emitObjectForMeasuring(CI, *M, PerFunction, Object))
    return createStringError(inconvertibleErrorCode(), "backend error");
  MemoryBufferRef Ref(StringRef(Object.data(), Object.size()), "object");
  Expected<ObjectSize> Size = measureObject(Ref);
  if (!Size)
    return Size.takeError();
  C.Bytes = Size->linkedImageBytes();
  Expected<std::map<std::string, uint64_t>> F =
      PerFunction ? functionSectionSizes(Ref) : functionSizes(Ref);
  if (!F)
    return F.takeError();
  C.Functions = std::move(*F);
  return C;
}

} // namespace

Expected<PerFunctionResult> choosePerFunction(clang::CompilerInstance &CI, const Module &Pre,
                                              const std::vector<FunctionAttrSet> &Options) {
  Expected<std::unique_ptr<PipelineRunner>> Runner = PipelineRunner::create(CI);
  if (!Runner)
    return Runner.takeError();
  Expected<Compiled> Base =
      compileWith(CI, **Runner, Pre, true, [](StringRef) { return nullptr; });
  if (!Base)
    return Base.takeError();
  Expected<Compiled> Truth =
      compileWith(CI, **Runner, Pre, false, [](StringRef) { return nullptr; });
  if (!Truth)
    return Truth.takeError();
  std::vector<Compiled> Variants;
  for (const FunctionAttrSet &A : Options) {
    Expected<Compiled> V = compileWith(CI, **Runner, Pre, true, [&](StringRef) { return &A; });
    if (!V)
      return V.takeError();
    Variants.push_back(std::move(*V));
  }
  PerFunctionResult R;
  R.BaselineBytes = Truth->Bytes;
  for (const Function &F : Pre) {
    if (F.isDeclaration())
      continue;
    std::string Name = F.getName().str();
    auto B = Base->Functions.find(Name);
    if (B == Base->Functions.end())
      continue; // inlined or removed under clang's pipeline: nothing to decide
    int Best = -1;
    uint64_t BestSize = B->second;
    for (size_t I = 0; I < Variants.size(); ++I) {
      auto V = Variants[I].Functions.find(Name);
      if (V != Variants[I].Functions.end() && V->second < BestSize) {
        BestSize = V->second;
        Best = int(I);
      }
    }
    R.Choice[Name] = Best;
  }
  Expected<Compiled> Mixed = compileWith(CI, **Runner, Pre, false, [&](StringRef Name) {
    auto It = R.Choice.find(Name.str());
    return It == R.Choice.end() || It->second < 0 ? nullptr : &Options[It->second];
  });
  if (!Mixed)
    return Mixed.takeError();
  R.MixedBytes = Mixed->Bytes;
  R.MixedIR = Mixed->IR;
  return R;
}

} // namespace smartcc
