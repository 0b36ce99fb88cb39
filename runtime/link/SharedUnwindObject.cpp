#include "runtime/link/SharedUnwindObject.h"
#include "runtime/compile/SharedUnwind.h"
#include "runtime/support/ProcessWait.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <set>
#include <vector>
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

// The FDEs' pc_begin fields of a relocatable .eh_frame: each record is a 4-byte length (not
// 0xffffffff: objects use the 32-bit format), a 4-byte CIE pointer (0 for a CIE) and, in an
// FDE, pc_begin. Their offsets in the section.
Expected<std::vector<uint64_t>> fdeAddressFields(StringRef EHFrame) {
  std::vector<uint64_t> Fields;
  uint64_t Off = 0;
  while (Off + 4 <= EHFrame.size()) {
    const uint32_t Length = support::endian::read32le(EHFrame.data() + Off);
    if (Length == 0)
      break; // a terminator
    if (Length == 0xffffffff || Off + 4 + Length > EHFrame.size() || Length < 4)
      return failure("unreadable .eh_frame record at offset " + Twine(Off));
    const uint32_t CIEPointer = support::endian::read32le(EHFrame.data() + Off + 4);
    if (CIEPointer != 0)
      Fields.push_back(Off + 8);
    Off += 4 + Length;
  }
  return Fields;
}

} // namespace

Expected<UnwindSummary> summarizeObjectUnwind(StringRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> O =
      object::ObjectFile::createObjectFile(MemoryBufferRef(Object, "object"));
  if (!O)
    return O.takeError();
  const auto *ELF = dyn_cast<object::ELFObjectFileBase>(O->get());
  if (!ELF || !ELF->isLittleEndian())
    return failure("not a little-endian ELF object");
  // Where each FDE begins, as (section, offset): the relocation of its pc_begin field.
  std::set<std::pair<uint64_t, uint64_t>> Starts;
  for (const object::SectionRef &S : ELF->sections()) {
    Expected<object::section_iterator> Target = S.getRelocatedSection();
    if (!Target) {
      consumeError(Target.takeError());
      continue;
    }
    if (*Target == ELF->section_end())
      continue;
    Expected<StringRef> Name = (*Target)->getName();
    if (!Name || *Name != ".eh_frame") {
      if (!Name)
        consumeError(Name.takeError());
      continue;
    }
    Expected<StringRef> Contents = (*Target)->getContents();
    if (!Contents)
      return Contents.takeError();
    Expected<std::vector<uint64_t>> Fields = fdeAddressFields(*Contents);
    if (!Fields)
      return Fields.takeError();
    std::set<uint64_t> AtField(Fields->begin(), Fields->end());
    for (const object::ELFRelocationRef R : S.relocations()) {
      if (!AtField.count(R.getOffset()))
        continue;
      object::symbol_iterator Sym = R.getSymbol();
      Expected<int64_t> Addend = R.getAddend();
      if (Sym == ELF->symbol_end() || !Addend) {
        if (!Addend)
          consumeError(Addend.takeError());
        continue;
      }
      Expected<object::section_iterator> In = Sym->getSection();
      Expected<uint64_t> Value = Sym->getValue();
      if (!In || !Value || *In == ELF->section_end()) {
        if (!In)
          consumeError(In.takeError());
        if (!Value)
          consumeError(Value.takeError());
        continue;
      }
      Starts.insert({(*In)->getIndex(), *Value + uint64_t(*Addend)});
    }
  }
  UnwindSummary Summary;
  Summary.FDEs = unsigned(Starts.size());
  for (const object::ELFSymbolRef S : ELF->symbols()) {
    if (S.getELFType() != ELF::STT_FUNC || S.getSize() == 0)
      continue;
    Expected<StringRef> Name = S.getName();
    Expected<object::section_iterator> In = S.getSection();
    Expected<uint64_t> Value = S.getValue();
    if (!Name || !In || !Value || *In == ELF->section_end()) {
      consumeError(Name.takeError());
      if (!In)
        consumeError(In.takeError());
      else if (!Value)
        consumeError(Value.takeError());
      continue;
    }
    if (Starts.count({(*In)->getIndex(), *Value}))
      Summary.Covered.insert(Name->str());
  }
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
