#include "runtime/measure/SizeMeasurer.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DataExtractor.h"

using namespace llvm;

namespace smartcc {

ObjectSize &ObjectSize::operator+=(const ObjectSize &O) {
  AllocBytes += O.AllocBytes;
  TextBytes += O.TextBytes;
  FileBytes += O.FileBytes;
  CodeBytes += O.CodeBytes;
  ReadOnlyBytes += O.ReadOnlyBytes;
  DataBytes += O.DataBytes;
  UnwindBytes += O.UnwindBytes;
  BssBytes += O.BssBytes;
  FDEs += O.FDEs;
  return *this;
}

namespace {

// Unwind tables by name: their types differ by target and by producer (x86-64 objects say
// SHT_X86_64_UNWIND, lld's output and AArch64 objects SHT_PROGBITS).
bool isUnwindSection(StringRef Name, uint32_t Type) {
  return Name.starts_with(".eh_frame") || Name.starts_with(".gcc_except_table") ||
         Name.starts_with(".ARM.exidx") || Name.starts_with(".ARM.extab") ||
         Name == ".sframe" || Type == ELF::SHT_X86_64_UNWIND; // == SHT_ARM_EXIDX
}

// FDEs in .eh_frame contents: records of a 4-byte length (0xffffffff: an 8-byte one follows)
// and a 4-byte CIE id, 0 for a CIE and a CIE pointer for an FDE; a zero length ends it.
uint64_t countFDEs(StringRef Contents, bool LittleEndian) {
  DataExtractor D(Contents, LittleEndian, /*AddressSize=*/8);
  uint64_t Offset = 0, N = 0;
  while (D.isValidOffsetForDataOfSize(Offset, 8)) {
    uint64_t Length = D.getU32(&Offset);
    if (Length == 0)
      break;
    if (Length == 0xffffffff)
      Length = D.getU64(&Offset);
    uint64_t Start = Offset;
    if (D.getU32(&Offset) != 0)
      ++N;
    Offset = Start + Length;
  }
  return N;
}

// IsRelocatable: an object file, whose .eh_frame FDEs are counted (a linked image has its own
// .eh_frame_hdr already).
void addSection(ObjectSize &Size, const object::SectionRef &Sec, bool IsElf,
                bool IsRelocatable) {
  const uint64_t Bytes = Sec.getSize();
  if (Sec.isText())
    Size.TextBytes += Bytes;
  if (!IsElf) { // no flags to read: LLVM's own section kinds
    if (Sec.isBSS())
      Size.BssBytes += Bytes;
    else if (Sec.isText())
      Size.CodeBytes += Bytes;
    else if (Sec.isData())
      Size.DataBytes += Bytes;
    else
      return;
    Size.AllocBytes += Bytes;
    return;
  }
  object::ELFSectionRef Elf(Sec);
  const uint64_t Flags = Elf.getFlags();
  if (!(Flags & ELF::SHF_ALLOC)) // debug info, symbols, relocations: never loaded
    return;
  Expected<StringRef> Name = Sec.getName();
  StringRef N = Name ? *Name : (consumeError(Name.takeError()), StringRef());
  // lld (18 and later) pads the RELRO region to a page boundary with this NOBITS section: its
  // size is wherever the region happens to end, not memory the program uses (the page is
  // mapped either way). Counted as .bss, it made 41 KB smaller links "grow RAM" when their
  // code shrank (libturbojpeg, -flto): it counts nowhere.
  if (N == ".relro_padding" && Elf.getType() == ELF::SHT_NOBITS)
    return;
  Size.AllocBytes += Bytes;
  if (Elf.getType() == ELF::SHT_NOBITS)
    Size.BssBytes += Bytes;
  else if (Flags & ELF::SHF_EXECINSTR)
    Size.CodeBytes += Bytes;
  else if (isUnwindSection(N, Elf.getType())) {
    Size.UnwindBytes += Bytes;
    if (IsRelocatable && N == ".eh_frame") {
      if (Expected<StringRef> Contents = Sec.getContents())
        Size.FDEs += countFDEs(*Contents, Sec.getObject()->isLittleEndian());
      else
        consumeError(Contents.takeError());
    }
  }
  else if (Flags & ELF::SHF_WRITE)
    Size.DataBytes += Bytes;
  else
    Size.ReadOnlyBytes += Bytes;
}

ObjectSize measure(const object::ObjectFile &Obj) {
  ObjectSize Size;
  Size.FileBytes = Obj.getData().size();
  const bool IsElf = isa<object::ELFObjectFileBase>(&Obj);
  for (const object::SectionRef &Sec : Obj.sections())
    addSection(Size, Sec, IsElf, Obj.isRelocatableObject());
  return Size;
}

std::string kindOf(const object::ObjectFile &Obj) {
  const auto *Elf = dyn_cast<object::ELFObjectFileBase>(&Obj);
  if (!Elf)
    return Obj.isRelocatableObject() ? "object" : "executable";
  switch (Elf->getEType()) {
  case ELF::ET_REL:
    return "object";
  case ELF::ET_EXEC:
    return "executable";
  default: // ET_DYN: a PIE executable has an interpreter, a shared library does not
    for (const object::SectionRef &Sec : Obj.sections())
      if (Expected<StringRef> Name = Sec.getName(); Name && *Name == ".interp")
        return "executable";
      else if (!Name)
        consumeError(Name.takeError());
    return "shared";
  }
}

} // namespace

Expected<ObjectSize> measureObject(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  return measure(**Obj);
}

Expected<FileSize> measureFile(MemoryBufferRef File) {
  Expected<std::unique_ptr<object::Binary>> Bin = object::createBinary(File);
  if (!Bin)
    return Bin.takeError();
  FileSize Out;
  if (const auto *Obj = dyn_cast<object::ObjectFile>(Bin->get())) {
    Out.Kind = kindOf(*Obj);
    Out.Size = measure(*Obj);
    return Out;
  }
  const auto *Ar = dyn_cast<object::Archive>(Bin->get());
  if (!Ar)
    return createStringError(inconvertibleErrorCode(),
                             "not an object file, executable, shared library or archive");
  Out.Kind = "archive";
  Error Err = Error::success();
  for (const object::Archive::Child &C : Ar->children(Err)) {
    Expected<std::unique_ptr<object::Binary>> Member = C.getAsBinary();
    if (!Member) { // a member LLVM cannot read (not an object): it ships no code
      consumeError(Member.takeError());
      continue;
    }
    if (const auto *Obj = dyn_cast<object::ObjectFile>(Member->get()))
      Out.Size += measure(*Obj);
  }
  if (Err)
    return std::move(Err);
  Out.Size.FileBytes = File.getBufferSize();
  return Out;
}

uint64_t metricValue(const ObjectSize &Size, uint64_t IRInstructions, Metric M) {
  switch (M) {
  case Metric::ImageBytes:
    return Size.linkedImageBytes();
  case Metric::CodeBytes:
    return Size.CodeBytes;
  case Metric::AllocBytes:
    return Size.AllocBytes;
  case Metric::TextBytes:
    return Size.TextBytes;
  case Metric::FileBytes:
    return Size.FileBytes;
  case Metric::IRInstructions:
    return IRInstructions;
  case Metric::RegAllocCost:
    break; // not a property of the object (see TUOptimizer)
  }
  return Size.linkedImageBytes();
}

} // namespace smartcc
