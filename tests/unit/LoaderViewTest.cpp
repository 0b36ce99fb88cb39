// The ship rule of whole-program links (runtime/link/LoaderView.h): what may and may not
// differ between the link the user asked for and a whole-program candidate.
#include "runtime/link/LoaderView.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

using namespace smartcc;

namespace {

LoaderView executable() {
  LoaderView V;
  V.Type = 3; // ET_DYN: a PIE
  V.Machine = 62;
  V.Interpreter = "/lib64/ld-linux-x86-64.so.2";
  V.Needed = {"libwp.so.1", "libm.so.6", "libc.so.6"};
  V.Runpath = "$ORIGIN";
  V.Flags1 = 0x8000001;
  V.InitArray = 2;
  V.FiniArray = 1;
  V.Relro = true;
  V.Entry = "_start";
  V.Exports = {{"environ@@GLIBC_2.2.5", "weak object size 8"}};
  V.Imports = {{"printf@GLIBC_2.2.5", "global function"}, {"__gmon_start__", "weak notype"}};
  return V;
}

} // namespace

TEST(LoaderView, TheSameViewIsNoDifference) {
  EXPECT_EQ(loaderViewDifference(executable(), executable()), "");
}

TEST(LoaderView, FewerImportsConstructorsAndNoTLSAreAllowed) {
  LoaderView C = executable();
  C.Imports.erase("printf@GLIBC_2.2.5");
  C.InitArray = 1;
  EXPECT_EQ(loaderViewDifference(executable(), C), "");
  LoaderView WithTLS = executable(), WithoutTLS = executable();
  WithTLS.TLS = true;
  EXPECT_EQ(loaderViewDifference(WithTLS, C), "");
  EXPECT_EQ(loaderViewDifference(WithoutTLS, WithTLS), "a TLS segment the baseline has not");
}

TEST(LoaderView, NeededLibrariesInTheirOrder) {
  LoaderView C = executable();
  std::swap(C.Needed[0], C.Needed[1]);
  EXPECT_EQ(loaderViewDifference(executable(), C),
            "DT_NEEDED is [libm.so.6, libwp.so.1, libc.so.6], "
            "[libwp.so.1, libm.so.6, libc.so.6] in the baseline");
  C = executable();
  C.Needed.erase(C.Needed.begin() + 1); // --as-needed dropped libm
  EXPECT_NE(loaderViewDifference(executable(), C), "");
}

TEST(LoaderView, EveryLoaderFieldCounts) {
  const LoaderView B = executable();
  std::vector<LoaderView> Changed(10, B);
  Changed[0].Interpreter = "/lib/ld-musl-x86_64.so.1";
  Changed[1].Soname = "libwp.so.2";
  Changed[2].Runpath = "";
  Changed[3].Rpath = "$ORIGIN";
  Changed[4].Flags = 0x8; // BIND_NOW
  Changed[5].TLS = true;
  Changed[6].ExecutableStack = true;
  Changed[7].Entry = "main";
  Changed[8].InitArray = 3;
  Changed[9].Type = 2; // ET_EXEC: no longer a PIE
  for (const LoaderView &C : Changed)
    EXPECT_NE(loaderViewDifference(B, C), "");
}

TEST(LoaderView, ExportsMustMatchExactly) {
  const LoaderView B = executable();
  LoaderView C = B;
  C.Exports["wp_internal@@WP_1"] = "global function";
  EXPECT_EQ(loaderViewDifference(B, C), "exported symbol wp_internal@@WP_1 is not in the baseline");
  C = B;
  C.Exports.clear();
  EXPECT_EQ(loaderViewDifference(B, C), "exported symbol environ@@GLIBC_2.2.5 is missing");
  C = B;
  C.Exports["environ@@GLIBC_2.2.5"] = "weak object size 16"; // a copy relocation's size
  EXPECT_EQ(loaderViewDifference(B, C), "exported symbol environ@@GLIBC_2.2.5 is weak object "
                                        "size 16, weak object size 8 in the baseline");
  // Vague linkage (an inline function, a template instantiation) may come or go.
  C = B;
  C.Exports["_ZN4Json18ValueConstIteratorppEv"] = "weak function";
  EXPECT_EQ(loaderViewDifference(B, C), "");
  EXPECT_EQ(loaderViewDifference(C, B), "");
  C.Exports["_ZN4Json18ValueConstIteratorppEv"] = "global function";
  EXPECT_NE(loaderViewDifference(B, C), "");
  C = B;
  C.Imports["printf@GLIBC_2.2.5"] = "weak function";
  EXPECT_NE(loaderViewDifference(B, C), "");
  C = B;
  C.Imports["memcpy@GLIBC_2.14"] = "global function";
  EXPECT_EQ(loaderViewDifference(B, C), "imported symbol memcpy@GLIBC_2.14 is not in the baseline");
  // At a version the baseline requires already: every symbol of it is where the baseline loads.
  C = B;
  C.Imports["puts@GLIBC_2.2.5"] = "global function";
  EXPECT_EQ(loaderViewDifference(B, C), "");
  C.Imports["wp_new"] = "global function"; // unversioned: refused
  EXPECT_EQ(loaderViewDifference(B, C), "imported symbol wp_new is not in the baseline");
}

// Read from a real linked file: this test program, which the loader runs.
TEST(LoaderView, ReadsALinkedProgram) {
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, (void *)&executable);
  auto Buf = llvm::MemoryBuffer::getFile(Self);
  ASSERT_TRUE(bool(Buf));
  llvm::Expected<LoaderView> V = readLoaderView((*Buf)->getMemBufferRef());
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_NE(V->Interpreter.find("ld-linux"), std::string::npos) << V->Interpreter;
  EXPECT_TRUE(std::find(V->Needed.begin(), V->Needed.end(), "libc.so.6") != V->Needed.end());
  EXPECT_TRUE(V->Imports.count("malloc@GLIBC_2.2.5") || V->Imports.count("malloc@GLIBC_2.17"));
  EXPECT_EQ(loaderViewDifference(*V, *V), "");
  EXPECT_FALSE(bool(readLoaderView(llvm::MemoryBufferRef("not an ELF file", "x"))));
}
