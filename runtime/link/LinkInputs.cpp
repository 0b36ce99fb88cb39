#include "runtime/link/LinkInputs.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace smartcc {

void forEachBitcodeInput(ArrayRef<std::string> Inputs, function_ref<void(MemoryBufferRef)> Visit) {
  for (const std::string &Path : Inputs) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf)
      continue;
    file_magic Magic = identify_magic((*Buf)->getBuffer());
    if (Magic == file_magic::bitcode) {
      Visit((*Buf)->getMemBufferRef());
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
      if (identify_magic(Member->getBuffer()) == file_magic::bitcode)
        Visit(*Member);
    }
    consumeError(std::move(Err));
  }
}

uint64_t bitcodeInputBytes(ArrayRef<std::string> Inputs) {
  uint64_t Bytes = 0;
  forEachBitcodeInput(Inputs, [&](MemoryBufferRef B) { Bytes += B.getBufferSize(); });
  return Bytes;
}

} // namespace smartcc
