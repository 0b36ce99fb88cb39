#include "runtime/SizeMeasurer.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"

using namespace llvm;

namespace smartcc {

Expected<ObjectSize> measureObject(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  ObjectSize Size;
  Size.FileBytes = Object.getBufferSize();
  const auto *Elf = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  for (const object::SectionRef &Sec : (*Obj)->sections()) {
    uint64_t Bytes = Sec.getSize();
    bool Alloc;
    if (Elf) // ELF says exactly what is loaded; debug info, symbols and relocations are not.
      Alloc = object::ELFSectionRef(Sec).getFlags() & ELF::SHF_ALLOC;
    else
      Alloc = Sec.isText() || Sec.isData() || Sec.isBSS();
    if (Alloc)
      Size.AllocBytes += Bytes;
    if (Sec.isText())
      Size.TextBytes += Bytes;
  }
  return Size;
}

uint64_t metricValue(const ObjectSize &Size, uint64_t IRInstructions, Metric M) {
  switch (M) {
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
  return Size.AllocBytes;
}

} // namespace smartcc
