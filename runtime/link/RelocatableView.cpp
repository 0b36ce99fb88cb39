#include "runtime/link/RelocatableView.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;

namespace smartcc {

Expected<RelocatableView> readRelocatableView(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  if (!ELF || ELF->getEType() != ELF::ET_REL)
    return createStringError("%s is not an ELF relocatable object",
                             Object.getBufferIdentifier().str().c_str());
  RelocatableView View;
  for (const object::ELFSymbolRef &Sym : ELF->symbols()) {
    uint8_t Binding = Sym.getBinding();
    if (Binding == ELF::STB_LOCAL)
      continue;
    Expected<StringRef> Name = Sym.getName();
    if (!Name)
      return Name.takeError();
    if (Name->empty())
      continue;
    Expected<object::section_iterator> Section = Sym.getSection();
    if (!Section)
      return Section.takeError();
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags)
      return Flags.takeError();
    if (*Flags & object::SymbolRef::SF_Undefined)
      View.Undefined.insert(Name->str());
    else
      View.Defined[Name->str()] =
          std::to_string(Binding) + "/" + std::to_string(unsigned(Sym.getELFType()));
  }
  return View;
}

std::string relocatableViewDifference(const RelocatableView &Baseline,
                                      const RelocatableView &Candidate) {
  for (const auto &[Name, Kind] : Baseline.Defined) {
    auto It = Candidate.Defined.find(Name);
    if (It == Candidate.Defined.end())
      return "no longer defines " + Name;
    if (It->second != Kind)
      return "defines " + Name + " as binding/type " + It->second + ", not " + Kind;
  }
  for (const auto &[Name, Kind] : Candidate.Defined)
    if (!Baseline.Defined.count(Name))
      return "defines " + Name + " as well";
  for (const std::string &Name : Candidate.Undefined)
    if (!Baseline.Undefined.count(Name))
      return "needs " + Name + " as well";
  return "";
}

} // namespace smartcc
