#include "runtime/compile/CodegenContext.h"
#include "runtime/compile/ClangBackend.h"
#include "runtime/support/LLVMTargets.h"
#include "runtime/compile/PipelineBuilder.h"
#include "runtime/measure/RegAllocCost.h"
#include "runtime/compile/RegAllocPortfolio.h"
#include "policies/regalloc/MLRegAllocAdvisor.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include <optional>

using namespace llvm;

namespace smartcc {

namespace {

// Collects the first error so a failed emission can say why, and prints nothing.
struct FirstErrorConsumer : clang::DiagnosticConsumer {
  std::string First;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= clang::DiagnosticsEngine::Error && First.empty()) {
      SmallString<128> Text;
      Info.FormatDiagnostic(Text);
      First = Text.str().str();
    }
  }
};

} // namespace

CodegenContext::~CodegenContext() = default;

Expected<std::unique_ptr<CodegenContext>>
CodegenContext::fromCC1Args(const std::vector<std::string> &Args) {
  initializeLLVMTargetsOnce();
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  clang::DiagnosticOptions DiagOpts;
  auto *Consumer = new FirstErrorConsumer();
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts, Consumer);
  auto Inv = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*Inv, Argv, Diags))
    return createStringError(inconvertibleErrorCode(), "cc1 arguments do not parse: %s",
                             Consumer->First.c_str());
  std::unique_ptr<CodegenContext> Ctx(new CodegenContext());
  Ctx->CI = std::make_unique<clang::CompilerInstance>(std::move(Inv));
  Ctx->CI->createVirtualFileSystem();
  Ctx->CI->createDiagnostics(new FirstErrorConsumer(), /*ShouldOwnClient=*/true);
  if (!Ctx->CI->createTarget())
    return createStringError(inconvertibleErrorCode(), "cannot create the target");
  return std::move(Ctx);
}

Error CodegenContext::optimize(Module &M, const CandidateSpec &Spec, InlineLog *Log) {
  if (!Spec.AfterClangPipeline)
    return runCandidatePipeline(M, Spec, *CI, Log);
  // Here M is the frontend's module, not clang's optimized one: run clang's whole pipeline
  // first, which is what the continuing candidate starts from in a compile.
  CandidateSpec FromStart = Spec;
  FromStart.AfterClangPipeline = false;
  FromStart.Pipeline.insert(FromStart.Pipeline.begin(), "default");
  return runCandidatePipeline(M, FromStart, *CI, Log);
}

Expected<ObjectSize> CodegenContext::emitObject(Module &M, SmallVectorImpl<char> &Object,
                                                const RegAllocRequest &RegAlloc) {
  std::optional<ScopedMLRegAlloc> Policy;
  if (RegAlloc.Policy)
    Policy.emplace(*RegAlloc.Policy, RegAlloc.Log, RegAlloc.Plan);
  std::optional<ScopedRegAllocCost> Measure;
  if (RegAlloc.Cost)
    Measure.emplace(M.getContext(), *RegAlloc.Cost);
  if (Error E = emit(M, Object))
    return std::move(E);
  return measureObject(MemoryBufferRef(StringRef(Object.data(), Object.size()), "object"));
}

Error CodegenContext::emit(Module &M, SmallVectorImpl<char> &Object) {
  auto &Consumer = static_cast<FirstErrorConsumer &>(CI->getDiagnosticClient());
  Consumer.First.clear();
  if (emitWithClangBackend(*CI, M, EmitKind::Object, Object))
    return Error::success();
  return createStringError(inconvertibleErrorCode(), "backend error: %s", Consumer.First.c_str());
}

Expected<PortfolioAllocation> CodegenContext::emitObjectPerFunction(Module &M,
                                                                  const RegAllocPolicy &Policy,
                                                                  double MaxGrowth) {
  return allocatePerFunction(
      M, Policy, [&](Module &Mod, SmallVectorImpl<char> &Object) { return emit(Mod, Object); },
      MaxGrowth);
}

Expected<std::unique_ptr<Module>> loadBitcodeFile(const std::string &Path, LLVMContext &Ctx) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: %s", Path.c_str(),
                             Buf.getError().message().c_str());
  return parseBitcodeFile((*Buf)->getMemBufferRef(), Ctx);
}

} // namespace smartcc
