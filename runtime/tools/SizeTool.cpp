// smartcc-size: the section classes of objects, executables, shared libraries and archives, as
// smartcc's own decisions measure them (runtime/SizeMeasurer.h). The link-level benchmark
// (scripts/link-bench.py) reads linked images with it, so objects and images are judged by
// one classification.
//
//   smartcc-size FILE...          a table, one row per file, and a total
//   smartcc-size --json FILE...   one JSON object per line per file
#include "runtime/SizeMeasurer.h"
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
  if (!Json)
    outs() << format("%10s %10s %10s %10s %10s %10s %10s  %s\n", "image", "code", "rodata",
                     "data", "unwind", "bss", "file", "name");
  ObjectSize Total;
  int Status = 0;
  for (const std::string &Path : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf) {
      WithColor::error(errs(), "smartcc-size") << Path << ": " << Buf.getError().message() << "\n";
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
