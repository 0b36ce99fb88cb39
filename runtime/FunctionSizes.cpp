#include "runtime/FunctionSizes.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"

using namespace llvm;

namespace smartcc {

Expected<std::map<std::string, uint64_t>> functionSizes(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  const auto *Elf = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  if (!Elf)
    return createStringError(inconvertibleErrorCode(), "not an ELF object");
  std::map<std::string, uint64_t> Sizes;
  for (const object::ELFSymbolRef &Sym : Elf->symbols()) {
    Expected<object::SymbolRef::Type> Type = Sym.getType();
    Expected<StringRef> Name = Sym.getName();
    if (!Type || !Name) {
      consumeError(Type.takeError());
      consumeError(Name.takeError());
      continue;
    }
    Expected<object::section_iterator> Sec = Sym.getSection();
    bool Defined = Sec && *Sec != Elf->section_end();
    if (!Sec)
      consumeError(Sec.takeError());
    if (*Type == object::SymbolRef::ST_Function && Defined)
      Sizes[Name->str()] += Sym.getSize();
  }
  return Sizes;
}

Expected<std::map<std::string, uint64_t>> functionSectionSizes(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  std::map<std::string, uint64_t> Sizes;
  for (const object::SectionRef &Sec : (*Obj)->sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    for (StringRef Prefix : {".text.", ".rodata."})
      if (Name->starts_with(Prefix))
        Sizes[Name->drop_front(Prefix.size()).str()] += Sec.getSize();
  }
  return Sizes;
}

} // namespace smartcc
