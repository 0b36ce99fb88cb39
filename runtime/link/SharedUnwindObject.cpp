#include "runtime/link/SharedUnwindObject.h"
#include "runtime/compile/SharedUnwind.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/support/ProcessWait.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <signal.h>
#include <sys/wait.h>

using namespace llvm;

namespace smartcc {

namespace {

Error failure(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

// A temporary file that is removed with this object.
struct TempFile {
  SmallString<128> Path;
  ~TempFile() {
    if (!Path.empty())
      sys::fs::remove(Path);
  }
};

Error writeTemp(StringRef Bytes, StringRef Suffix, TempFile &T) {
  int FD = -1;
  if (std::error_code EC = sys::fs::createTemporaryFile("smartcc-unwind", Suffix, FD, T.Path))
    return failure("cannot create a temporary file: " + EC.message());
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Bytes;
  OS.close();
  if (OS.has_error())
    return failure("cannot write " + T.Path + ": " + OS.error().message());
  return Error::success();
}

// Starts ld.lld linking Object alone into Out: a static executable without an entry point,
// every undefined symbol at 0 (--unresolved-symbols=ignore-all), kept whatever lld would
// refuse to run (--noinhibit-exec). Its messages go nowhere: only its output is read.
Expected<sys::ProcessInfo> startLink(const std::string &Linker, StringRef Object, StringRef Out) {
  std::vector<StringRef> Args = {Linker, "-o", Out, "--unresolved-symbols=ignore-all",
                                 "--noinhibit-exec", "--no-gc-sections", "--build-id=none",
                                 Object};
  std::optional<StringRef> Null[] = {StringRef(""), StringRef(""), StringRef("")};
  std::string Message;
  bool Failed = false;
  sys::ProcessInfo PI =
      sys::ExecuteNoWait(Linker, Args, std::nullopt, Null, 0, &Message, &Failed);
  if (Failed)
    return failure("cannot run " + Linker + ": " + Message);
  return PI;
}

Error finishLink(const sys::ProcessInfo &PI, int TimeoutMs, StringRef What) {
  int Status = 0;
  if (!waitForExit(PI.Pid, TimeoutMs, Status)) {
    ::kill(PI.Pid, SIGKILL);
    waitForExit(PI.Pid, -1, Status);
    return failure("linking " + What + " alone timed out");
  }
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return failure("ld.lld could not link " + What + " alone");
  return Error::success();
}

} // namespace

Expected<UnwindSummary> summarizeObjectUnwind(StringRef Object) {
  UnwindSummary Summary;
  Expected<std::set<std::string>> Covered =
      functionsWithUnwindEntries(MemoryBufferRef(Object, "object"), &Summary.FDEs);
  if (!Covered)
    return Covered.takeError();
  Summary.Covered = std::move(*Covered);
  return Summary;
}

bool hasSharedUnwindRun(StringRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> O =
      object::ObjectFile::createObjectFile(MemoryBufferRef(Object, "object"));
  if (!O) {
    consumeError(O.takeError());
    return false;
  }
  // The markers' offsets in their section (a closed run's are equal: nothing between them).
  std::optional<uint64_t> Begin, End;
  for (const object::SymbolRef &S : (*O)->symbols()) {
    Expected<StringRef> Name = S.getName();
    Expected<uint64_t> Value = S.getValue();
    if (!Name || !Value) {
      consumeError(Name.takeError());
      consumeError(Value.takeError());
      continue;
    }
    if (*Name == SharedUnwindBegin)
      Begin = *Value;
    else if (*Name == SharedUnwindEnd)
      End = *Value;
  }
  return Begin && End && *Begin != *End;
}

Expected<SharedUnwindCheck> checkSharedUnwindObject(StringRef Candidate, StringRef Baseline,
                                                    const std::string &Linker, int TimeoutMs) {
  // clang's object: which functions have an entry, read from its relocations (no link).
  Expected<UnwindSummary> Summary = summarizeObjectUnwind(Baseline);
  if (!Summary)
    return Summary.takeError();
  TempFile In, Out; // (the output made too: lld replaces it, nothing else can take its name)
  if (Error E = writeTemp(Candidate, "o", In))
    return std::move(E);
  if (Error E = writeTemp("", "out", Out))
    return std::move(E);
  Expected<sys::ProcessInfo> Link = startLink(Linker, In.Path, Out.Path);
  if (!Link)
    return Link.takeError();
  if (Error E = finishLink(*Link, TimeoutMs, "the candidate's object"))
    return std::move(E);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Image = MemoryBuffer::getFile(Out.Path);
  if (!Image)
    return failure("cannot read the link of the candidate's object alone");
  return checkSharedUnwind((*Image)->getMemBufferRef(), *Summary);
}

} // namespace smartcc
