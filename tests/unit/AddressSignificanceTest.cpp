// GlobalOpt's unnamed_addr rule before code generation (runtime/compile/AddressSignificance.h):
// a function only called is marked, one whose address is compared or escapes is not, and the
// object's .llvm_addrsig section then lists only the latter. The end-to-end effect (identical
// hidden instantiations folded by lld) is tests/lit/lto/inline-symbols.test.
#include "runtime/compile/AddressSignificance.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>

using namespace smartcc;
using namespace llvm;

static const char *IR = R"(
@slot = global ptr null
define linkonce_odr i32 @called(i32 %x) { ret i32 %x }
define linkonce_odr i32 @compared(i32 %x) { ret i32 %x }
define linkonce_odr i32 @stored(i32 %x) { ret i32 %x }
define linkonce_odr i32 @already(i32 %x) local_unnamed_addr { ret i32 %x }
declare void @external()
define i1 @user(ptr %p) {
  %a = call i32 @called(i32 1)
  %b = call i32 @already(i32 2)
  call void @external()
  store ptr @stored, ptr @slot
  %c = icmp eq ptr %p, @compared
  ret i1 %c
}
)";

TEST(AddressSignificance, MarksOnlyFunctionsWhoseAddressNobodyUses) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  // called, external, and user itself (nothing uses its address); not compared or stored.
  EXPECT_EQ(markUncomparedFunctions(*M), 3u);
  EXPECT_EQ(M->getFunction("called")->getUnnamedAddr(), GlobalValue::UnnamedAddr::Local);
  EXPECT_EQ(M->getFunction("external")->getUnnamedAddr(), GlobalValue::UnnamedAddr::Local);
  EXPECT_EQ(M->getFunction("user")->getUnnamedAddr(), GlobalValue::UnnamedAddr::Local);
  EXPECT_EQ(M->getFunction("compared")->getUnnamedAddr(), GlobalValue::UnnamedAddr::None);
  EXPECT_EQ(M->getFunction("stored")->getUnnamedAddr(), GlobalValue::UnnamedAddr::None);
  EXPECT_EQ(markUncomparedFunctions(*M), 0u); // nothing left to mark
}
