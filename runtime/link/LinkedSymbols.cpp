#include "runtime/link/LinkedSymbols.h"
#include "runtime/link/GlobalSymbols.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/LTO/LTO.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;

namespace smartcc {

Expected<LinkedSymbols> readLinkedSymbols(MemoryBufferRef Image) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(Image);
  if (!Obj)
    return Obj.takeError();
  const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  if (!ELF)
    return createStringError("%s is not an ELF file", Image.getBufferIdentifier().str().c_str());
  LinkedSymbols S;
  for (const object::SectionRef &Sec : ELF->sections())
    if (object::ELFSectionRef(Sec).getType() == ELF::SHT_SYMTAB)
      S.HasSymtab = true;
  if (!S.HasSymtab)
    return S;
  // Runtime library calls (memcpy, __stack_chk_guard, ...): an LTO link fetches the archive
  // members that define them whether or not the program calls them, since its code
  // generation may; they say nothing about the pipeline.
  StringSet<> Runtime;
  for (const char *Name : lto::LTO::getRuntimeLibcallSymbols(ELF->makeTriple()))
    Runtime.insert(Name);
  Error E = forEachGlobalSymbol(*ELF, [&](const object::ELFSymbolRef &Sym, StringRef Name,
                                           bool Defined) -> Error {
    if (!Defined)
      return Error::success();
    // GNU ld names a versioned definition NAME@VERSION in .symtab, lld NAME: the name alone
    // (the versions are the loader view's, runtime/link/LoaderView.h).
    StringRef Plain = Name.split('@').first;
    // A weak C++ definition (an inline function or a template instantiation a pipeline did not
    // inline everywhere) is the same code wherever the ODR lets it be defined, and the
    // program's own bitcode is where it came from: whole-program links of C++ programs define
    // std::string's member templates that per-TU code inlined (jsoncpp).
    if (Sym.getBinding() == ELF::STB_WEAK && Plain.starts_with("_Z"))
      return Error::success();
    if (!Plain.empty() && !Runtime.contains(Plain))
      S.Defined.insert(Plain.str());
    return Error::success();
  });
  if (E)
    return std::move(E);
  return S;
}

std::string newDefinitions(const LinkedSymbols &Reference, const LinkedSymbols &Candidate) {
  if (!Reference.HasSymtab || !Candidate.HasSymtab)
    return "";
  for (const std::string &Name : Candidate.Defined)
    if (!Reference.Defined.count(Name))
      return "defines " + Name;
  return "";
}

} // namespace smartcc
