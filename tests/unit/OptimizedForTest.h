// Test helper: clang's optimized module of a harvested benchmark, in a context of its own, with
// the compile's codegen context, ready for code generation (tests of register allocation).
#pragma once
#include "policies/env/Corpus.h"
#include "runtime/compile/CodegenContext.h"
#include "runtime/config/CandidateSpec.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include <gtest/gtest.h>
#include <memory>

namespace smartcc::testing {

struct Optimized {
  std::unique_ptr<CodegenContext> CG;
  std::unique_ptr<llvm::LLVMContext> Ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> M;
};

inline Optimized optimized(const Benchmark &B) {
  Optimized O;
  llvm::Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(B.CC1Args);
  EXPECT_TRUE(bool(CG));
  O.CG = std::move(*CG);
  llvm::Expected<std::unique_ptr<llvm::Module>> M = loadBitcodeFile(B.BitcodePath, *O.Ctx);
  EXPECT_TRUE(bool(M));
  O.M = std::move(*M);
  llvm::Error E = O.CG->optimize(*O.M, CandidateSpec());
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return O;
}

} // namespace smartcc::testing
