// The "no new library code" ship rule (runtime/link/LinkedSymbols.h) on images linked by
// clang-22: a candidate that defines a strong global the reference does not is refused (a
// library call the pipeline made), a weak C++ definition is not (an instantiation a pipeline
// did not inline, the same code wherever it is defined).
#include "runtime/link/LinkedSymbols.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>

using namespace smartcc;

namespace {

// Links Source as a shared library in Dir and reads its symbols.
LinkedSymbols linked(const std::string &Dir, const std::string &Name, const std::string &Source) {
  std::string Src = Dir + "/" + Name + ".c", Lib = Dir + "/lib" + Name + ".so";
  std::ofstream(Src) << Source;
  EXPECT_EQ(std::system(("/usr/lib/llvm-22/bin/clang -O1 -fPIC -shared -fuse-ld=lld " + Src +
                         " -o " + Lib).c_str()),
            0);
  auto Buf = llvm::MemoryBuffer::getFile(Lib);
  EXPECT_TRUE(bool(Buf));
  llvm::Expected<LinkedSymbols> S = readLinkedSymbols((*Buf)->getMemBufferRef());
  EXPECT_TRUE(bool(S)) << llvm::toString(S.takeError());
  return S ? *S : LinkedSymbols();
}

} // namespace

TEST(LinkedSymbols, NewStrongDefinitionsAreRefusedWeakCxxOnesAreNot) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("linked-symbols", Dir));
  const std::string D = Dir.str().str();
  const std::string Base = "int f(int x) { return x + 1; }\n";
  LinkedSymbols Ref = linked(D, "ref", Base);
  ASSERT_TRUE(Ref.HasSymtab);
  EXPECT_TRUE(Ref.Defined.count("f"));
  // The same definitions: nothing new.
  EXPECT_EQ(newDefinitions(Ref, linked(D, "same", Base)), "");
  // A weak C++ definition (as a template instantiation is emitted): allowed.
  LinkedSymbols Inst = linked(D, "inst", Base + "__attribute__((weak)) int _ZN1AIiE1gEv(void) "
                                               "{ return 2; }\n");
  EXPECT_EQ(newDefinitions(Ref, Inst), "");
  // A strong global the reference does not define (puts pulled from a C library): refused,
  // and so is a weak C symbol.
  EXPECT_EQ(newDefinitions(Ref, linked(D, "call", Base + "int puts(const char *s) { return 0; }\n")),
            "defines puts");
  EXPECT_EQ(newDefinitions(Ref, linked(D, "weakc", Base + "__attribute__((weak)) int w(void) "
                                                          "{ return 3; }\n")),
            "defines w");
  llvm::sys::fs::remove_directories(D);
}
