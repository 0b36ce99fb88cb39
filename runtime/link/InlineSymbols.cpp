#include "runtime/link/InlineSymbols.h"
#include "runtime/link/LinkInputs.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/IRObjectFile.h"
#include "llvm/Support/FileOutputBuffer.h"
#include <cstring>
#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace smartcc {

namespace {

// The names a fat object's bitcode defines that LTO may leave out of the symbol table; None
// when it carries no bitcode (then none of its definitions may be hidden).
std::optional<StringSet<>> omittableInBitcode(const object::ELFObjectFileBase &ELF) {
  for (object::ELFSectionRef Sec : ELF.sections()) {
    if (Sec.getType() != ELF::SHT_LLVM_LTO)
      continue;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      return std::nullopt;
    }
    Expected<object::IRSymtabFile> Symtab =
        object::readIRSymtab(MemoryBufferRef(*Contents, ""));
    // Objects GNU ld -r merged carry several modules in one section; their symbols may come
    // from any of them: not read.
    if (!Symtab || Symtab->Mods.size() != 1) {
      if (!Symtab)
        consumeError(Symtab.takeError());
      return std::nullopt;
    }
    StringSet<> Names;
    for (const irsymtab::Reader::SymbolRef &Sym : Symtab->TheReader.symbols())
      if (!Sym.isUndefined() && Sym.canBeOmittedFromSymbolTable())
        Names.insert(Sym.getName());
    return Names;
  }
  return std::nullopt;
}

struct NameState {
  bool Candidate = false; // defined, hideable, in an input file
  bool Blocked = false;   // a definition that must stay visible, or a reference without one
};

} // namespace

InlineSymbolScan scanInlineSymbols(ArrayRef<std::string> Inputs) {
  InlineSymbolScan Scan;
  std::map<std::string, NameState, std::less<>> States;
  std::map<std::string, std::vector<std::string>, std::less<>> DefinedIn; // name -> files
  bool Bitcode = false;
  forEachInputFile(Inputs, [&](MemoryBufferRef File, file_magic Magic, StringRef Path,
                               StringRef Member) {
    if (Magic == file_magic::bitcode) {
      Bitcode = true; // an LTO link: the linker's LTO decides, as it does for every input
      return false;
    }
    if (Magic != file_magic::elf_relocatable)
      return true; // shared libraries, linker scripts: other modules, or no definitions
    Expected<std::unique_ptr<object::ObjectFile>> Obj =
        object::ObjectFile::createObjectFile(File);
    if (!Obj) {
      consumeError(Obj.takeError());
      return true;
    }
    const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get());
    if (!ELF)
      return true;
    std::optional<StringSet<>> Omittable = omittableInBitcode(*ELF);
    for (const object::ELFSymbolRef &Sym : ELF->symbols()) {
      Expected<uint32_t> Flags = Sym.getFlags();
      Expected<StringRef> Name = Sym.getName();
      if (!Flags || !Name) {
        if (!Flags)
          consumeError(Flags.takeError());
        if (!Name)
          consumeError(Name.takeError());
        continue;
      }
      if (!(*Flags & (object::SymbolRef::SF_Global | object::SymbolRef::SF_Weak)) ||
          Name->empty())
        continue;
      NameState &S = States[Name->str()];
      // An object's symbol table names a symbol once: a reference here is an object that
      // needs another's definition (an `extern template` declaration's user): left visible.
      if (*Flags & object::SymbolRef::SF_Undefined) {
        S.Blocked = true;
        continue;
      }
      if (Sym.getOther() != ELF::STV_DEFAULT)
        continue; // hidden or protected already: not exported, or bound locally
      const bool Hideable = Member.empty() && Omittable && Omittable->contains(*Name) &&
                            (*Flags & object::SymbolRef::SF_Weak) &&
                            Sym.getELFType() == ELF::STT_FUNC && Name->starts_with("_Z") &&
                            !Name->contains('@');
      if (!Hideable) {
        S.Blocked = true;
        continue;
      }
      S.Candidate = true;
      DefinedIn[Name->str()].push_back(Path.str());
    }
    return true;
  });
  if (Bitcode) {
    Scan.Refusal = "bitcode_input";
    return Scan;
  }
  std::set<std::string> Files;
  for (const auto &[Name, S] : States)
    if (S.Candidate && !S.Blocked) {
      Scan.Names.insert(Name);
      for (const std::string &F : DefinedIn[Name])
        Files.insert(F);
    }
  for (const std::string &Path : Inputs)
    if (Files.count(Path)) {
      Scan.Objects.push_back(Path);
      Files.erase(Path);
    }
  if (Scan.Names.empty())
    Scan.Refusal = "none";
  return Scan;
}

namespace {

template <class ELFT>
Expected<unsigned> hideIn(MutableArrayRef<char> Copy, const StringSet<> &Names) {
  Expected<object::ELFFile<ELFT>> EF =
      object::ELFFile<ELFT>::create(StringRef(Copy.data(), Copy.size()));
  if (!EF)
    return EF.takeError();
  auto Sections = EF->sections();
  if (!Sections)
    return Sections.takeError();
  unsigned Hidden = 0;
  for (const typename ELFT::Shdr &Sec : *Sections) {
    if (Sec.sh_type != ELF::SHT_SYMTAB)
      continue;
    auto Symbols = EF->symbols(&Sec);
    if (!Symbols)
      return Symbols.takeError();
    auto StrTab = EF->getStringTableForSymtab(Sec, *Sections);
    if (!StrTab)
      return StrTab.takeError();
    for (const typename ELFT::Sym &Sym : *Symbols) {
      if (Sym.isUndefined() || Sym.getBinding() == ELF::STB_LOCAL ||
          Sym.getVisibility() != ELF::STV_DEFAULT)
        continue;
      Expected<StringRef> Name = Sym.getName(*StrTab);
      if (!Name)
        return Name.takeError();
      if (!Names.contains(*Name))
        continue;
      // The entry lies inside Copy (ELFFile reads it in place): its st_other byte is set.
      const char *Entry = reinterpret_cast<const char *>(&Sym);
      char &Other = Copy[Entry - Copy.data() + offsetof(typename ELFT::Sym, st_other)];
      Other = static_cast<char>((Other & ~0x3) | ELF::STV_HIDDEN);
      ++Hidden;
    }
  }
  return Hidden;
}

} // namespace

Expected<unsigned> writeWithHiddenSymbols(MemoryBufferRef File, const StringSet<> &Names,
                                          StringRef Path) {
  Expected<std::unique_ptr<FileOutputBuffer>> Out =
      FileOutputBuffer::create(Path, File.getBufferSize());
  if (!Out)
    return Out.takeError();
  std::memcpy((*Out)->getBufferStart(), File.getBufferStart(), File.getBufferSize());
  MutableArrayRef<char> Copy(reinterpret_cast<char *>((*Out)->getBufferStart()),
                             File.getBufferSize());
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(File);
  if (!Obj)
    return Obj.takeError();
  Expected<unsigned> Hidden = createStringError("not an ELF relocatable object");
  if (isa<object::ELF64LEObjectFile>(Obj->get()))
    Hidden = hideIn<object::ELF64LE>(Copy, Names);
  else if (isa<object::ELF64BEObjectFile>(Obj->get()))
    Hidden = hideIn<object::ELF64BE>(Copy, Names);
  else if (isa<object::ELF32LEObjectFile>(Obj->get()))
    Hidden = hideIn<object::ELF32LE>(Copy, Names);
  else if (isa<object::ELF32BEObjectFile>(Obj->get()))
    Hidden = hideIn<object::ELF32BE>(Copy, Names);
  if (!Hidden) {
    (*Out)->discard();
    return Hidden.takeError();
  }
  if (Error E = (*Out)->commit())
    return std::move(E);
  return *Hidden;
}

} // namespace smartcc
