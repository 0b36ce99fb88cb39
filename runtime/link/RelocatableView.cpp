#include "runtime/link/RelocatableView.h"
#include "runtime/link/GlobalSymbols.h"
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
  Error E = forEachGlobalSymbol(*ELF, [&](const object::ELFSymbolRef &Sym, StringRef Name,
                                           bool Defined) -> Error {
    // (A symbol whose section index does not read makes the object unreadable.)
    Expected<object::section_iterator> Section = Sym.getSection();
    if (!Section)
      return Section.takeError();
    if (Defined)
      View.Defined[Name.str()] = std::to_string(Sym.getBinding()) + "/" +
                                 std::to_string(unsigned(Sym.getELFType()));
    else
      View.Undefined.insert(Name.str());
    return Error::success();
  });
  if (E)
    return std::move(E);
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
