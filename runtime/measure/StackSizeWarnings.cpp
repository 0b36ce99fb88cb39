#include "runtime/measure/StackSizeWarnings.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/xxhash.h"
#include <string>

using namespace llvm;

namespace smartcc {

bool StackSizeWarnings::add(const DiagnosticInfo &DI) {
  const auto *S = dyn_cast<DiagnosticInfoStackSize>(&DI);
  if (!S)
    return false;
  std::string Key = S->getFunction().getName().str();
  Key.push_back('\0');
  Key += std::to_string(S->getResourceSize());
  // A sum: code generation may meet the functions in another order in another candidate.
  Digest += xxh3_64bits(StringRef(Key));
  ++Count;
  return true;
}

namespace {

// Clang's handler, wrapped: stack-size warnings are recorded on their way to it.
class StackSizeRecorder : public DiagnosticHandler {
public:
  StackSizeRecorder(std::unique_ptr<DiagnosticHandler> Next,
                    std::shared_ptr<StackSizeWarnings> Warnings)
      : Next(std::move(Next)), Warnings(std::move(Warnings)) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    Warnings->add(DI);
    return Next ? Next->handleDiagnostics(DI) : false;
  }
  bool isAnalysisRemarkEnabled(StringRef PassName) const override {
    return Next && Next->isAnalysisRemarkEnabled(PassName);
  }
  bool isMissedOptRemarkEnabled(StringRef PassName) const override {
    return Next && Next->isMissedOptRemarkEnabled(PassName);
  }
  bool isPassedOptRemarkEnabled(StringRef PassName) const override {
    return Next && Next->isPassedOptRemarkEnabled(PassName);
  }
  bool isAnyRemarkEnabled() const override { return Next && Next->isAnyRemarkEnabled(); }

private:
  std::unique_ptr<DiagnosticHandler> Next;
  std::shared_ptr<StackSizeWarnings> Warnings;
};

} // namespace

void recordStackSizeWarnings(LLVMContext &Ctx, std::shared_ptr<StackSizeWarnings> Warnings) {
  Ctx.setDiagnosticHandler(std::make_unique<StackSizeRecorder>(Ctx.getDiagnosticHandler(),
                                                               std::move(Warnings)));
}

} // namespace smartcc
