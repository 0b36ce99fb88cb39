#include "driver/HarvestGcc.h"
#include "runtime/observe/SideOutputs.h"
#include "driver/CC1Entry.h"
#include "runtime/measure/SizeMeasurer.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Job.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;
using namespace clang::driver;

namespace smartcc {

namespace {

// gcc's arguments: the user's, at -Os, into Temp. Only plain `-c` compiles of one source
// qualify (links, -S, -E and multi-input commands are not objects to compare).
std::optional<std::vector<std::string>> gccArguments(ArrayRef<const char *> Args,
                                                     StringRef Temp) {
  std::vector<std::string> Out{"gcc"};
  bool Compile = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "-c")
      Compile = true;
    if (A == "-S" || A == "-E" || A == "-flto" || A.starts_with("-flto="))
      return std::nullopt;
    if (A == "-o" && I + 1 < Args.size()) {
      ++I;
      continue;
    }
    if (A.starts_with("-o") && A.size() > 2)
      continue;
    if (A.starts_with("--target=") || A == "-MD" || A == "-MMD")
      continue;
    if ((A == "-target" || A == "-MF" || A == "-MT" || A == "-MQ") && I + 1 < Args.size()) {
      ++I; // dependency files were written by the real compile
      continue;
    }
    Out.push_back(A == "-Oz" ? "-Os" : A.str());
  }
  if (!Compile)
    return std::nullopt;
  Out.push_back("-o");
  Out.push_back(Temp.str());
  return Out;
}

void appendRecord(const std::string &Path, const json::Object &Record) {
  std::string Line;
  raw_string_ostream(Line) << json::Value(json::Object(Record)) << "\n";
  if (Error E = appendLine(Path, Line))
    warnSideOutput("harvest records to", Path, std::move(E));
}

// One gcc run at -Os; appends its record (ok, allocated bytes) for Arch.
void runGcc(StringRef Program, StringRef Arch, ArrayRef<const char *> Args, StringRef Cwd,
            StringRef Source, const Config &Cfg) {
  ErrorOr<std::string> Gcc = sys::findProgramByName(Program);
  if (!Gcc)
    return;
  SmallString<128> Temp;
  if (sys::fs::createTemporaryFile("smartcc-gcc", "o", Temp))
    return;
  std::optional<std::vector<std::string>> GccArgs = gccArguments(Args, Temp);
  if (!GccArgs) {
    sys::fs::remove(Temp);
    return;
  }
  (*GccArgs)[0] = Program.str();
  std::vector<StringRef> Argv(GccArgs->begin(), GccArgs->end());
  std::optional<StringRef> Null = StringRef("/dev/null");
  int Rc = sys::ExecuteAndWait(*Gcc, Argv, std::nullopt, {Null, Null, Null});
  json::Object Record{{"directory", Cwd}, {"source", Source}, {"arch", Arch}, {"ok", Rc == 0}};
  if (Rc == 0)
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> Obj = MemoryBuffer::getFile(Temp)) {
      if (Expected<ObjectSize> Size = measureObject((*Obj)->getMemBufferRef())) {
        Record["alloc_bytes"] = int64_t(Size->AllocBytes);
        Record["image_bytes"] = int64_t(Size->linkedImageBytes());
      } else {
        consumeError(Size.takeError());
        Record["ok"] = false;
      }
    }
  sys::fs::remove(Temp);
  appendRecord(Cfg.HarvestDir + "/gcc-os.jsonl", Record);
}

} // namespace

void recordGccSize(ArrayRef<const char *> Args, const Compilation &Done, const Config &Cfg) {
  if (Cfg.HarvestDir.empty() || !Cfg.HarvestGcc)
    return;
  // Exactly one eligible -Oz compile of one source.
  const Command *Compile = nullptr;
  for (const Command &Job : Done.getJobs()) {
    const auto &JobArgs = Job.getArguments();
    if (JobArgs.empty() || StringRef(JobArgs[0]) != "-cc1")
      continue;
    if (Compile)
      return;
    Compile = &Job;
  }
  if (!Compile || Compile->getInputInfos().size() != 1 ||
      !llvm::is_contained(Compile->getArguments(), StringRef("-Oz")))
    return;
  std::string Reason;
  if (!isEligibleCC1(ArrayRef(Compile->getArguments()).slice(1), Cfg, Reason))
    return;
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  StringRef Source = Compile->getInputInfos()[0].getFilename();
  // The host's gcc, and for each harvest target the matching cross gcc (the harvested flavour
  // of that target compares against it).
  runGcc("gcc", "x86_64", Args, Cwd, Source, Cfg);
  for (const std::string &Target : Cfg.HarvestTargets) {
    StringRef Arch = StringRef(Target).split('-').first;
    if (Arch == "aarch64" || Arch == "arm64")
      runGcc("aarch64-linux-gnu-gcc", "aarch64", Args, Cwd, Source, Cfg);
  }
}

} // namespace smartcc
