// measureObject and metricValue, on real objects: each test compiles a small IR module with a
// real LLVM TargetMachine, in process, for both targets smartcc serves, and checks that the
// numbers move exactly the way a section change says they should.
#include "runtime/measure/SizeMeasurer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "runtime/support/LLVMTargets.h"
#include <gtest/gtest.h>

#include <mutex>
#include <string>

using namespace llvm;
using namespace smartcc;

namespace {

const char *FunctionIR = R"IR(
define i32 @f(i32 %x) {
  %y = mul i32 %x, 7
  %z = add i32 %y, 3
  ret i32 %z
}
)IR";

// 1000 non-zero bytes, so the array lands in .rodata (file-backed), not in .bss.
std::string constantArrayIR() {
  std::string S = "@table = constant [1000 x i8] c\"";
  for (int I = 0; I < 1000; ++I)
    S += "\\01";
  return S + "\"\n";
}

// 4096 zero bytes in a writable global: .bss, allocated at run time but absent from the file.
const char *BssIR = "@zeros = global [4096 x i8] zeroinitializer\n";

// !llvm.ident becomes the .comment section: SHF_MERGE|SHF_STRINGS but not SHF_ALLOC, so it
// must show in the file size and never in the allocated size.
std::string longIdentIR() {
  return "!llvm.ident = !{!0}\n!0 = !{!\"" + std::string(3000, 'c') + "\"}\n";
}

class SizeMeasurerTest : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    initializeLLVMTargetsOnce();
    TT = Triple(GetParam());
    std::string Error;
    const Target *T = TargetRegistry::lookupTarget(TT, Error);
    ASSERT_NE(T, nullptr) << Error;
    TM.reset(T->createTargetMachine(TT, "", "", TargetOptions(), Reloc::PIC_, std::nullopt,
                                    CodeGenOptLevel::Default));
    ASSERT_NE(TM, nullptr);
  }

  // Parses IR text, retargets it to this test's machine and emits an ELF object.
  SmallVector<char, 0> compile(const std::string &IR) {
    SmallVector<char, 0> Buffer;
    LLVMContext Ctx;
    SMDiagnostic Err;
    std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Err.print("test", OS);
      ADD_FAILURE() << "IR does not parse: " << Msg;
      return Buffer;
    }
    M->setTargetTriple(TT);
    M->setDataLayout(TM->createDataLayout());
    raw_svector_ostream OS(Buffer);
    legacy::PassManager PM;
    if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile)) {
      ADD_FAILURE() << "target cannot emit an object file";
      return Buffer;
    }
    PM.run(*M);
    EXPECT_FALSE(Buffer.empty());
    return Buffer;
  }

  ObjectSize measure(const SmallVector<char, 0> &Buffer) {
    Expected<ObjectSize> S =
        measureObject(MemoryBufferRef(StringRef(Buffer.data(), Buffer.size()), "test.o"));
    if (!S) {
      ADD_FAILURE() << "measureObject failed: " << toString(S.takeError());
      return ObjectSize();
    }
    return *S;
  }

  Triple TT;
  std::unique_ptr<TargetMachine> TM;
};

TEST_P(SizeMeasurerTest, FileBytesIsTheBufferSize) {
  SmallVector<char, 0> Obj = compile(FunctionIR);
  ObjectSize S = measure(Obj);
  EXPECT_EQ(S.FileBytes, Obj.size());
}

TEST_P(SizeMeasurerTest, FunctionHasTextAndTextIsAllocated) {
  ObjectSize S = measure(compile(FunctionIR));
  EXPECT_GT(S.TextBytes, 0u);
  // Executable sections are loaded, so they are part of the allocated bytes.
  EXPECT_GE(S.AllocBytes, S.TextBytes);
  EXPECT_LT(S.AllocBytes, S.FileBytes); // headers, symbols and relocations are not allocated
}

TEST_P(SizeMeasurerTest, DataOnlyModuleHasNoText) {
  ObjectSize S = measure(compile(constantArrayIR()));
  EXPECT_EQ(S.TextBytes, 0u);
  EXPECT_GE(S.AllocBytes, 1000u);
}

TEST_P(SizeMeasurerTest, ConstantArrayAddsAllocBytesNotText) {
  ObjectSize Without = measure(compile(FunctionIR));
  ObjectSize With = measure(compile(std::string(FunctionIR) + constantArrayIR()));
  EXPECT_GE(With.AllocBytes, Without.AllocBytes + 1000);
  EXPECT_EQ(With.TextBytes, Without.TextBytes);
  EXPECT_GE(With.FileBytes, Without.FileBytes + 1000);
}

TEST_P(SizeMeasurerTest, BssCountsAsAllocatedButTakesNoFileSpace) {
  ObjectSize Without = measure(compile(FunctionIR));
  ObjectSize With = measure(compile(std::string(FunctionIR) + BssIR));
  EXPECT_GE(With.AllocBytes, Without.AllocBytes + 4096);
  EXPECT_EQ(With.TextBytes, Without.TextBytes);
  // A NOBITS section has a size but no contents; only a symbol and a header were added.
  EXPECT_LT(With.FileBytes, Without.FileBytes + 1024);
}

TEST_P(SizeMeasurerTest, NonAllocatedSectionChangesOnlyFileBytes) {
  SmallVector<char, 0> PlainObj = compile(FunctionIR);
  SmallVector<char, 0> IdentObj = compile(std::string(FunctionIR) + longIdentIR());

  // Make sure the test really produced a large non-allocated section; otherwise the
  // equalities below would prove nothing.
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(
      MemoryBufferRef(StringRef(IdentObj.data(), IdentObj.size()), "ident.o"));
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  uint64_t CommentBytes = 0;
  for (const object::SectionRef &Sec : (*Obj)->sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (Name && *Name == ".comment")
      CommentBytes = Sec.getSize();
    else if (!Name)
      consumeError(Name.takeError());
  }
  ASSERT_GE(CommentBytes, 3000u);

  ObjectSize Plain = measure(PlainObj);
  ObjectSize Ident = measure(IdentObj);
  EXPECT_EQ(Ident.AllocBytes, Plain.AllocBytes);
  EXPECT_EQ(Ident.TextBytes, Plain.TextBytes);
  EXPECT_GE(Ident.FileBytes, Plain.FileBytes + 3000);
}

// The image metric: .bss is RAM, not image bytes; every allocated byte is in exactly one class.
TEST_P(SizeMeasurerTest, ImageExcludesBssAndClassesAddUp) {
  ObjectSize Without = measure(compile(FunctionIR));
  ObjectSize With = measure(compile(std::string(FunctionIR) + BssIR));
  EXPECT_EQ(With.imageBytes(), Without.imageBytes());
  EXPECT_GE(With.BssBytes, Without.BssBytes + 4096);
  EXPECT_GE(With.ramBytes(), 4096u);
  EXPECT_EQ(With.AllocBytes, With.imageBytes() + With.BssBytes);
  EXPECT_EQ(Without.AllocBytes, Without.imageBytes() + Without.BssBytes);
}

// The same 4096 bytes initialized: they move from RAM-only to the image, as writable data.
TEST_P(SizeMeasurerTest, InitializedWritableDataIsImageAndRam) {
  ObjectSize Bss = measure(compile(std::string(FunctionIR) + BssIR));
  ObjectSize Data = measure(compile(std::string(FunctionIR) +
                                    "@ones = global [4096 x i8] c\"" +
                                    [] {
                                      std::string S;
                                      for (int I = 0; I < 4096; ++I)
                                        S += "\\01";
                                      return S;
                                    }() +
                                    "\"\n"));
  EXPECT_GE(Data.DataBytes, Bss.DataBytes + 4096);
  EXPECT_GE(Data.imageBytes(), Bss.imageBytes() + 4096);
  EXPECT_EQ(Data.ramBytes(), Bss.ramBytes()); // the same RAM either way
}

TEST_P(SizeMeasurerTest, ConstantsAreReadOnlyAndCodeIsCode) {
  ObjectSize Plain = measure(compile(FunctionIR));
  ObjectSize With = measure(compile(std::string(FunctionIR) + constantArrayIR()));
  EXPECT_GE(With.ReadOnlyBytes, Plain.ReadOnlyBytes + 1000);
  EXPECT_EQ(With.CodeBytes, Plain.CodeBytes);
  EXPECT_EQ(With.CodeBytes, With.TextBytes);
  EXPECT_GT(With.CodeBytes, 0u);
}

// A function with an unwind table (uwtable) gets .eh_frame: the unwind class, not rodata.
TEST_P(SizeMeasurerTest, EhFrameIsUnwind) {
  std::string NoTable = FunctionIR, WithTable = FunctionIR;
  NoTable.replace(NoTable.find("{"), 1, "nounwind {");
  WithTable.replace(WithTable.find("{"), 1, "uwtable {");
  ObjectSize Plain = measure(compile(NoTable));
  ObjectSize Unwind = measure(compile(WithTable));
  EXPECT_GT(Unwind.UnwindBytes, Plain.UnwindBytes);
  EXPECT_EQ(Unwind.ReadOnlyBytes, Plain.ReadOnlyBytes);
  EXPECT_EQ(Unwind.CodeBytes, Plain.CodeBytes);
  // Its FDE: 8 more bytes of .eh_frame_hdr once linked, counted by the image metric.
  EXPECT_EQ(Plain.FDEs, 0u);
  EXPECT_EQ(Unwind.FDEs, 1u);
  EXPECT_EQ(Unwind.linkedImageBytes(), Unwind.imageBytes() + 8);
  EXPECT_EQ(metricValue(Unwind, 0, Metric::ImageBytes), Unwind.imageBytes() + 8);
}

INSTANTIATE_TEST_SUITE_P(SizeMeasurerTargets, SizeMeasurerTest,
                         ::testing::Values("x86_64-pc-linux-gnu", "aarch64-unknown-linux-gnu"),
                         [](const ::testing::TestParamInfo<const char *> &Info) {
                           return std::string(StringRef(Info.param).split('-').first);
                         });

TEST(SizeMeasurerErrors, GarbageIsAnError) {
  std::string Garbage = "this is certainly not an object file \x01\x02\x03";
  Expected<ObjectSize> S = measureObject(MemoryBufferRef(Garbage, "garbage.o"));
  ASSERT_FALSE(bool(S));
  consumeError(S.takeError());
}

TEST(SizeMeasurerErrors, EmptyBufferIsAnError) {
  Expected<ObjectSize> S = measureObject(MemoryBufferRef(StringRef(), "empty.o"));
  ASSERT_FALSE(bool(S));
  consumeError(S.takeError());
}

TEST(SizeMeasurerErrors, TruncatedElfIsAnError) {
  // A valid ELF magic with nothing behind it: recognised as ELF, then rejected.
  std::string Truncated = "\x7f"
                          "ELF\x02\x01\x01";
  Expected<ObjectSize> S = measureObject(MemoryBufferRef(Truncated, "truncated.o"));
  ASSERT_FALSE(bool(S));
  consumeError(S.takeError());
}

TEST(SizeMeasurerMetric, EachMetricReadsItsOwnField) {
  ObjectSize S;
  S.AllocBytes = 111;
  S.TextBytes = 22;
  S.FileBytes = 3333;
  EXPECT_EQ(metricValue(S, 44, Metric::AllocBytes), 111u);
  EXPECT_EQ(metricValue(S, 44, Metric::TextBytes), 22u);
  EXPECT_EQ(metricValue(S, 44, Metric::FileBytes), 3333u);
  EXPECT_EQ(metricValue(S, 44, Metric::IRInstructions), 44u);
  S.CodeBytes = 10;
  S.ReadOnlyBytes = 20;
  S.DataBytes = 30;
  S.UnwindBytes = 40;
  S.BssBytes = 1000;
  EXPECT_EQ(metricValue(S, 44, Metric::ImageBytes), 100u); // .bss is not in the image
  EXPECT_EQ(metricValue(S, 44, Metric::CodeBytes), 10u);
  EXPECT_EQ(S.ramBytes(), 1030u);
}

// measureFile: a static archive is the sum of its members; anything else is an error.
TEST(SizeMeasurerFile, GarbageIsNotAFileKind) {
  std::string Garbage = "not an object";
  Expected<FileSize> F = measureFile(MemoryBufferRef(Garbage, "x"));
  ASSERT_FALSE(bool(F));
  consumeError(F.takeError());
}

} // namespace

// What real objects compiled by clang-22 ask of the link (runtime/measure/UndefinedSymbols.h).
#include "runtime/measure/UndefinedSymbols.h"
#include "llvm/Support/FileSystem.h"
#include <cstdlib>
#include <fstream>
TEST(UndefinedSymbols, ListsWhatTheObjectNeeds) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("undef", Dir));
  std::string Src = (Dir + "/a.c").str(), Obj = (Dir + "/a.o").str();
  {
    std::ofstream(Src) << "extern void ext(int); extern int data;\n"
                          "static void local(void) {}\n"
                          "void f(int x) { local(); if (x > 3) ext(data); }\n";
  }
  ASSERT_EQ(std::system(("/usr/lib/llvm-22/bin/clang -Oz -c " + Src + " -o " + Obj).c_str()), 0);
  auto Buf = llvm::MemoryBuffer::getFile(Obj);
  ASSERT_TRUE(bool(Buf));
  llvm::Expected<smartcc::LinkReferences> L =
      smartcc::linkReferences((*Buf)->getMemBufferRef(), /*SharedLibraryCode=*/false);
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  const std::set<std::string> &U = L->Undefined;
  EXPECT_EQ(U, (std::set<std::string>{"data", "ext"}));
  EXPECT_TRUE(L->Interposable.empty()); // not asked for
  EXPECT_EQ(smartcc::firstNewSymbol({"data", "ext", "memset"}, U), "memset");
  EXPECT_EQ(smartcc::firstNewSymbol({"ext"}, U), "");
  llvm::sys::fs::remove_directories(Dir);
}

// Shared-library code reaches its own exported functions and data through the PLT and GOT; local,
// hidden and undefined symbols are not its own PLT entries (LinkReferences::Interposable).
TEST(UndefinedSymbols, InterposableReferencesOfSharedLibraryCode) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("plt", Dir));
  std::string Src = (Dir + "/lib.c").str();
  {
    std::ofstream(Src) << "void init(int *s) { s[0] = 1; s[1] = 2; }\n"
                          "static void helper(int *s) { s[2] = 3; }\n"
                          "__attribute__((visibility(\"hidden\"))) void hid(int *s) { s[3] = 4; }\n"
                          "extern void ext(int *);\n"
                          "int shared_data = 5;\n"
                          "void use(int *s) { init(s); helper(s); hid(s); ext(s); s[4] = shared_data; }\n"
                          "void plain(int *s) { s[5] = 6; }\n";
  }
  for (const char *Target : {"x86_64-linux-gnu", "aarch64-linux-gnu"}) {
    std::string Obj = (Dir + "/lib-" + Target + ".o").str();
    ASSERT_EQ(std::system(("/usr/lib/llvm-22/bin/clang --target=" + std::string(Target) +
                           " -O0 -fPIC -c " + Src + " -o " + Obj).c_str()),
              0);
    auto Buf = llvm::MemoryBuffer::getFile(Obj);
    ASSERT_TRUE(bool(Buf));
    llvm::Expected<smartcc::LinkReferences> R =
        smartcc::linkReferences((*Buf)->getMemBufferRef(), /*SharedLibraryCode=*/true);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    EXPECT_EQ(R->Interposable, (std::set<std::string>{"init", "shared_data"})) << Target;
    EXPECT_EQ(R->Undefined, (std::set<std::string>{"ext"})) << Target;
  }
  llvm::sys::fs::remove_directories(Dir);
}

// lld pads the RELRO region to a page with a NOBITS section, .relro_padding, whose size follows
// wherever the region ends: a linked program measures only its real .bss as RAM, however the
// padding moves when its code changes size.
#include "llvm/Object/ObjectFile.h"
TEST(SizeMeasurerFile, RelroPaddingIsNeitherBssNorImage) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("relro", Dir));
  std::string Src = (Dir + "/p.c").str(), Exe = (Dir + "/p").str();
  {
    std::ofstream(Src) << "static int counter[66];\n"
                          "int (*const table[2])(void) = {0, 0};\n"
                          "int main(void) { return counter[table[0] != 0] + 1; }\n";
  }
  ASSERT_EQ(std::system(("/usr/lib/llvm-22/bin/clang -Oz -fuse-ld=lld -pie -fPIE " + Src +
                         " -o " + Exe).c_str()),
            0);
  auto Buf = llvm::MemoryBuffer::getFile(Exe);
  ASSERT_TRUE(bool(Buf));
  auto Obj = llvm::object::ObjectFile::createObjectFile((*Buf)->getMemBufferRef());
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError());
  uint64_t Bss = 0, Padding = 0;
  for (const llvm::object::SectionRef &S : (*Obj)->sections()) {
    llvm::Expected<llvm::StringRef> Name = S.getName();
    ASSERT_TRUE(bool(Name));
    if (*Name == ".bss")
      Bss += S.getSize();
    if (*Name == ".relro_padding")
      Padding += S.getSize();
  }
  ASSERT_GT(Padding, 0u) << "lld wrote no .relro_padding: the test no longer tests anything";
  llvm::Expected<smartcc::FileSize> F = smartcc::measureFile((*Buf)->getMemBufferRef());
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Size.BssBytes, Bss);
  EXPECT_EQ(F->Kind, "executable");
  llvm::sys::fs::remove_directories(Dir);
}
