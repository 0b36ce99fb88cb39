#include "runtime/link/LinkInputs.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace smartcc {

namespace {

// The bitcode in a fat object's .llvm.lto section (SHT_LLVM_LTO), if it has one.
void visitFatSection(MemoryBufferRef File, function_ref<void(MemoryBufferRef)> Visit) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(File);
  if (!Obj) {
    consumeError(Obj.takeError());
    return;
  }
  const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  if (!ELF)
    return;
  for (object::ELFSectionRef Sec : ELF->sections()) {
    if (Sec.getType() != ELF::SHT_LLVM_LTO)
      continue;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    if (identify_magic(*Contents) == file_magic::bitcode)
      Visit(MemoryBufferRef(*Contents, File.getBufferIdentifier()));
  }
}

} // namespace

void forEachBitcodeInput(ArrayRef<std::string> Inputs, function_ref<void(MemoryBufferRef)> Visit,
                         bool FatSections) {
  for (const std::string &Path : Inputs) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf)
      continue;
    file_magic Magic = identify_magic((*Buf)->getBuffer());
    if (Magic == file_magic::bitcode) {
      Visit((*Buf)->getMemBufferRef());
      continue;
    }
    if (FatSections && Magic == file_magic::elf_relocatable) {
      visitFatSection((*Buf)->getMemBufferRef(), Visit);
      continue;
    }
    if (Magic != file_magic::archive)
      continue;
    Expected<std::unique_ptr<object::Archive>> A =
        object::Archive::create((*Buf)->getMemBufferRef());
    if (!A) {
      consumeError(A.takeError());
      continue;
    }
    Error Err = Error::success();
    for (const object::Archive::Child &Child : (*A)->children(Err)) {
      Expected<MemoryBufferRef> Member = Child.getMemoryBufferRef();
      if (!Member) {
        consumeError(Member.takeError());
        continue;
      }
      file_magic MemberMagic = identify_magic(Member->getBuffer());
      if (MemberMagic == file_magic::bitcode)
        Visit(*Member);
      else if (FatSections && MemberMagic == file_magic::elf_relocatable)
        visitFatSection(*Member, Visit);
    }
    consumeError(std::move(Err));
  }
}

uint64_t bitcodeInputBytes(ArrayRef<std::string> Inputs, bool FatSections) {
  uint64_t Bytes = 0;
  forEachBitcodeInput(Inputs, [&](MemoryBufferRef B) { Bytes += B.getBufferSize(); },
                      FatSections);
  return Bytes;
}

} // namespace smartcc
