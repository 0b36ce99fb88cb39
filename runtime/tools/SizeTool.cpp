// smartcc-size: the section classes of objects, executables, shared libraries and archives, as
// smartcc's own decisions measure them (runtime/measure/SizeMeasurer.h). The link-level benchmark
// (scripts/link-bench.py) reads linked images with it, so objects and images are judged by
// one classification.
//
//   smartcc-size FILE...          a table, one row per file, and a total
//   smartcc-size --json FILE...   one JSON object per line per file
//   smartcc-size --shared-unwind-baseline=CLANG FILE...
//                                 the shared-unwind candidate's check of each linked FILE
//                                 against clang's link CLANG (runtime/link/UnwindSharing.h)
//   smartcc-size --frameless FILE  the functions whose unwind entry is the CIE's rule alone
#include "runtime/measure/SizeMeasurer.h"
#include "runtime/link/UnwindSharing.h"
#include "runtime/link/SharedUnwindObject.h"
#include "runtime/config/ToolPaths.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace smartcc;

static cl::OptionCategory Category("smartcc-size options");
static cl::list<std::string> Files(cl::Positional, cl::desc("FILE..."), cl::OneOrMore,
                                   cl::cat(Category));
static cl::opt<bool> Json("json", cl::desc("one JSON object per line per file"),
                          cl::cat(Category));

static cl::opt<std::string> SharedUnwindBaseline(
    "shared-unwind-baseline", cl::desc("check each FILE's shared unwind entry against this "
                                       "link of clang's (or, for objects, clang's object "
                                       "of the same file)"),
    cl::value_desc("CLANG"), cl::cat(Category));
static cl::opt<bool> Frameless("frameless", cl::desc("list each FILE's frameless functions"),
                               cl::cat(Category));

static Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return createStringError(B.getError(), "%s: %s", Path.str().c_str(),
                             B.getError().message().c_str());
  return std::move(*B);
}

// The unwind modes (--frameless, --shared-unwind-baseline); 1 when a file fails.
static int unwindMode() {
  std::optional<UnwindSummary> Base;
  std::optional<std::unique_ptr<MemoryBuffer>> BaseObject; // a relocatable baseline
  if (!SharedUnwindBaseline.empty()) {
    Expected<std::unique_ptr<MemoryBuffer>> B = readFile(SharedUnwindBaseline);
    const bool IsObject =
        B && identify_magic((*B)->getBuffer()) == file_magic::elf_relocatable;
    Expected<UnwindSummary> S = !B        ? Expected<UnwindSummary>(B.takeError())
                                : IsObject ? UnwindSummary()
                                           : summarizeUnwind((*B)->getMemBufferRef());
    if (B && IsObject)
      BaseObject = std::move(*B);
    if (!S) {
      WithColor::error(errs(), "smartcc-size") << SharedUnwindBaseline << ": "
                                               << toString(S.takeError()) << "\n";
      return 1;
    }
    Base = std::move(*S);
  }
  int Status = 0;
  for (const std::string &Path : Files) {
    Expected<std::unique_ptr<MemoryBuffer>> B = readFile(Path);
    if (!B) {
      WithColor::error(errs(), "smartcc-size") << toString(B.takeError()) << "\n";
      Status = 1;
      continue;
    }
    if (Frameless) {
      Expected<UnwindSummary> S = summarizeUnwind((*B)->getMemBufferRef());
      if (!S) {
        WithColor::error(errs(), "smartcc-size") << Path << ": " << toString(S.takeError())
                                                 << "\n";
        Status = 1;
        continue;
      }
      outs() << Path << ": " << S->FDEs << " unwind entries, " << S->Frameless.size()
             << " frameless functions\n";
      for (const std::string &N : S->Frameless)
        outs() << "  " << N << "\n";
      continue;
    }
    // Objects (a per-TU candidate's against clang's) are checked as the compiler checks
    // them: each linked alone (runtime/link/SharedUnwindObject.h).
    Expected<SharedUnwindCheck> C =
        BaseObject ? checkSharedUnwindObject((*B)->getBuffer(), (*BaseObject)->getBuffer(),
                                             realLinkerPath(), 60000)
                   : checkSharedUnwind((*B)->getMemBufferRef(), *Base);
    if (!C) {
      WithColor::error(errs(), "smartcc-size") << Path << ": " << toString(C.takeError())
                                               << "\n";
      Status = 1;
      continue;
    }
    outs() << Path << ": shared unwind entry ok: " << C->Functions << " functions, "
           << C->RunBytes << " bytes, " << C->Instructions << " instructions checked\n";
  }
  return Status;
}

static void printJSON(StringRef Path, const FileSize &F) {
  const ObjectSize &S = F.Size;
  json::Object O{{"file", Path},
                 {"kind", F.Kind},
                 {"image", int64_t(S.imageBytes())},
                 {"code", int64_t(S.CodeBytes)},
                 {"rodata", int64_t(S.ReadOnlyBytes)},
                 {"data", int64_t(S.DataBytes)},
                 {"unwind", int64_t(S.UnwindBytes)},
                 {"bss", int64_t(S.BssBytes)},
                 {"ram", int64_t(S.ramBytes())},
                 {"fdes", int64_t(S.FDEs)}, // objects: each adds 8 bytes of .eh_frame_hdr
                 {"file_bytes", int64_t(S.FileBytes)}};
  outs() << json::Value(std::move(O)) << "\n";
}

static void printRow(StringRef Name, const ObjectSize &S) {
  outs() << format("%10llu %10llu %10llu %10llu %10llu %10llu %10llu  %s\n",
                   (unsigned long long)S.imageBytes(), (unsigned long long)S.CodeBytes,
                   (unsigned long long)S.ReadOnlyBytes, (unsigned long long)S.DataBytes,
                   (unsigned long long)S.UnwindBytes, (unsigned long long)S.BssBytes,
                   (unsigned long long)S.FileBytes, Name.str().c_str());
}

int main(int Argc, char **Argv) {
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "smartcc-size: image bytes by section class (image = code + rodata + data + unwind; "
      "bss is RAM only)\n");
  if (Frameless || !SharedUnwindBaseline.empty())
    return unwindMode();
  if (!Json)
    outs() << format("%10s %10s %10s %10s %10s %10s %10s  %s\n", "image", "code", "rodata",
                     "data", "unwind", "bss", "file", "name");
  ObjectSize Total;
  int Status = 0;
  for (const std::string &Path : Files) {
    Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(Path);
    if (!Buf) {
      WithColor::error(errs(), "smartcc-size") << toString(Buf.takeError()) << "\n";
      Status = 1;
      continue;
    }
    Expected<FileSize> F = measureFile((*Buf)->getMemBufferRef());
    if (!F) {
      WithColor::error(errs(), "smartcc-size") << Path << ": " << toString(F.takeError()) << "\n";
      Status = 1;
      continue;
    }
    Total += F->Size;
    if (Json)
      printJSON(Path, *F);
    else
      printRow(Path, F->Size);
  }
  if (!Json && Files.size() > 1)
    printRow("(total)", Total);
  return Status;
}
