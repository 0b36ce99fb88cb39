#include "runtime/link/SharedUnwindObject.h"
#include "runtime/compile/SharedUnwind.h"
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
  TempFile CandidateIn, BaselineIn, CandidateOut, BaselineOut;
  if (Error E = writeTemp(Candidate, "o", CandidateIn))
    return std::move(E);
  if (Error E = writeTemp(Baseline, "o", BaselineIn))
    return std::move(E);
  for (TempFile *T : {&CandidateOut, &BaselineOut})
    if (std::error_code EC = sys::fs::getPotentiallyUniqueTempFileName("smartcc-unwind", "out",
                                                                       T->Path))
      return failure("cannot name a temporary file: " + EC.message());
  // Both links at once.
  Expected<sys::ProcessInfo> C = startLink(Linker, CandidateIn.Path, CandidateOut.Path);
  if (!C)
    return C.takeError();
  Expected<sys::ProcessInfo> B = startLink(Linker, BaselineIn.Path, BaselineOut.Path);
  Error CE = finishLink(*C, TimeoutMs, "the candidate's object");
  if (!B) {
    consumeError(std::move(CE));
    return B.takeError();
  }
  Error BE = finishLink(*B, TimeoutMs, "clang's object");
  if (CE) {
    consumeError(std::move(BE));
    return std::move(CE);
  }
  if (BE)
    return std::move(BE);
  ErrorOr<std::unique_ptr<MemoryBuffer>> CandidateImage = MemoryBuffer::getFile(CandidateOut.Path);
  ErrorOr<std::unique_ptr<MemoryBuffer>> BaselineImage = MemoryBuffer::getFile(BaselineOut.Path);
  if (!CandidateImage || !BaselineImage)
    return failure("cannot read the links of the objects alone");
  Expected<UnwindSummary> Summary = summarizeUnwind((*BaselineImage)->getMemBufferRef());
  if (!Summary)
    return Summary.takeError();
  return checkSharedUnwind((*CandidateImage)->getMemBufferRef(), *Summary);
}

} // namespace smartcc
