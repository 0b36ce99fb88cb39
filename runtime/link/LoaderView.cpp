#include "runtime/link/LoaderView.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace smartcc {

namespace {

template <class ELFT>
Error readDynamic(const ELFFile<ELFT> &EF, LoaderView &V) {
  auto Sections = EF.sections();
  if (!Sections)
    return Sections.takeError();
  for (const typename ELFT::Shdr &Sec : *Sections) {
    // The version definitions themselves (a version may name no symbol the image exports);
    // the base one is the file's own name.
    if (Sec.sh_type == ELF::SHT_GNU_verdef) {
      auto Defs = EF.getVersionDefinitions(Sec);
      if (!Defs)
        return Defs.takeError();
      for (const VerDef &Def : *Defs)
        if (!(Def.Flags & ELF::VER_FLG_BASE))
          V.VersionDefinitions.insert(Def.Name);
      continue;
    }
    if (Sec.sh_type != ELF::SHT_DYNAMIC)
      continue;
    auto StrSec = EF.getSection(Sec.sh_link);
    if (!StrSec)
      return StrSec.takeError();
    auto Strings = EF.getStringTable(**StrSec);
    if (!Strings)
      return Strings.takeError();
    auto Entries = EF.template getSectionContentsAsArray<typename ELFT::Dyn>(Sec);
    if (!Entries)
      return Entries.takeError();
    auto String = [&](uint64_t Offset) -> std::string {
      return Offset < Strings->size() ? std::string(Strings->data() + Offset) : "";
    };
    uint64_t InitArrayBytes = 0, FiniArrayBytes = 0, PreinitArrayBytes = 0;
    for (const typename ELFT::Dyn &D : *Entries) {
      switch (D.getTag()) {
      case ELF::DT_NEEDED: V.Needed.push_back(String(D.getVal())); break;
      case ELF::DT_SONAME: V.Soname = String(D.getVal()); break;
      case ELF::DT_RUNPATH: V.Runpath = String(D.getVal()); break;
      case ELF::DT_RPATH: V.Rpath = String(D.getVal()); break;
      case ELF::DT_FLAGS: V.Flags = D.getVal(); break;
      case ELF::DT_FLAGS_1: V.Flags1 = D.getVal(); break;
      case ELF::DT_INIT: V.Init = true; break;
      case ELF::DT_FINI: V.Fini = true; break;
      case ELF::DT_INIT_ARRAYSZ: InitArrayBytes = D.getVal(); break;
      case ELF::DT_FINI_ARRAYSZ: FiniArrayBytes = D.getVal(); break;
      case ELF::DT_PREINIT_ARRAYSZ: PreinitArrayBytes = D.getVal(); break;
      default: break;
      }
    }
    const uint64_t Word = sizeof(typename ELFT::uint);
    V.InitArray = InitArrayBytes / Word;
    V.FiniArray = FiniArrayBytes / Word;
    V.PreinitArray = PreinitArrayBytes / Word;
  }
  return Error::success();
}

template <class ELFT>
Error readSegments(const ELFFile<ELFT> &EF, MemoryBufferRef File, LoaderView &V) {
  auto Phdrs = EF.program_headers();
  if (!Phdrs)
    return Phdrs.takeError();
  for (const typename ELFT::Phdr &P : *Phdrs) {
    switch (P.p_type) {
    case ELF::PT_INTERP:
      if (P.p_offset + P.p_filesz > File.getBufferSize())
        return createStringError("PT_INTERP lies outside the file");
      V.Interpreter =
          StringRef(File.getBufferStart() + P.p_offset, P.p_filesz).rtrim('\0').str();
      break;
    case ELF::PT_TLS: V.TLS = true; break;
    case ELF::PT_GNU_RELRO: V.Relro = true; break;
    case ELF::PT_GNU_STACK: V.ExecutableStack = P.p_flags & ELF::PF_X; break;
    default: break;
    }
  }
  return Error::success();
}

const char *bindingName(uint8_t B) {
  switch (B) {
  case ELF::STB_LOCAL: return "local";
  case ELF::STB_GLOBAL: return "global";
  case ELF::STB_WEAK: return "weak";
  case ELF::STB_GNU_UNIQUE: return "unique";
  default: return "other-binding";
  }
}

const char *typeName(uint8_t T) {
  switch (T) {
  case ELF::STT_NOTYPE: return "notype";
  case ELF::STT_OBJECT: return "object";
  case ELF::STT_FUNC: return "function";
  case ELF::STT_TLS: return "tls";
  case ELF::STT_GNU_IFUNC: return "ifunc";
  case ELF::STT_COMMON: return "common";
  default: return "other-type";
  }
}

Error readSymbols(const ELFObjectFileBase &Obj, LoaderView &V) {
  Expected<std::vector<VersionEntry>> Versions = Obj.readDynsymVersions();
  if (!Versions)
    return Versions.takeError();
  size_t I = 0;
  for (ELFSymbolRef Sym : Obj.getDynamicSymbolIterators()) {
    const size_t Index = I++;
    Expected<StringRef> Name = Sym.getName();
    if (!Name)
      return Name.takeError();
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags)
      return Flags.takeError();
    // GNU ld gives each version definition an absolute symbol of its name (WP_1@@WP_1), lld
    // does not: the loader reads versions from .gnu.version_d, which is compared below.
    if (Index < Versions->size() && (*Versions)[Index].IsVerDef &&
        (*Versions)[Index].Name == *Name && Sym.getELFType() == ELF::STT_OBJECT &&
        !(*Flags & SymbolRef::SF_Undefined)) {
      Expected<section_iterator> Sec = Sym.getSection();
      if (Sec && *Sec == Obj.section_end())
        continue;
      if (!Sec)
        consumeError(Sec.takeError());
    }
    // Symbols the linker defines for the image's layout: GNU ld exports them from programs
    // linked with shared libraries, lld only where a library refers to them (then both do).
    // They name addresses that any change of the code moves, not the program's interface.
    if (Sym.getELFType() == ELF::STT_NOTYPE && !(*Flags & SymbolRef::SF_Undefined) &&
        llvm::is_contained({"__bss_start", "_edata", "edata", "_end", "end", "_etext", "etext",
                            "__etext", "__bss_start__", "__bss_end__", "_bss_end__", "__end__"},
                           *Name))
      continue;
    std::string Key = Name->str();
    if (Index < Versions->size() && !(*Versions)[Index].Name.empty())
      Key += ((*Versions)[Index].IsVerDef ? "@@" : "@") + (*Versions)[Index].Name;
    // Local symbols in .dynsym (GNU ld for AArch64 puts section symbols there, .text, .data)
    // bind nothing outside the image.
    if (Sym.getBinding() == ELF::STB_LOCAL || Sym.getELFType() == ELF::STT_SECTION)
      continue;
    std::string What = std::string(bindingName(Sym.getBinding())) + " " +
                       typeName(Sym.getELFType());
    if (*Flags & SymbolRef::SF_Undefined) {
      V.Imports[Key] = What;
      continue;
    }
    // Data: its size is part of the interface (an executable's copy relocation reserves it).
    if (Sym.getELFType() == ELF::STT_OBJECT || Sym.getELFType() == ELF::STT_TLS)
      What += " size " + std::to_string(Sym.getSize());
    const uint8_t Visibility = Sym.getOther() & 0x3;
    if (Visibility == ELF::STV_PROTECTED)
      What += " protected";
    V.Exports[Key] = What;
  }
  return Error::success();
}

// The symbol at the entry address (a function, or any symbol if none is a function).
void readEntry(const ELFObjectFileBase &Obj, LoaderView &V) {
  Expected<uint64_t> Entry = Obj.getStartAddress();
  if (!Entry) {
    consumeError(Entry.takeError());
    return;
  }
  if (*Entry == 0)
    return;
  for (ELFSymbolRef Sym : Obj.symbols()) {
    Expected<uint64_t> Address = Sym.getAddress();
    if (!Address || *Address != *Entry) {
      if (!Address)
        consumeError(Address.takeError());
      continue;
    }
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (Name->empty() || Sym.getELFType() == ELF::STT_SECTION)
      continue;
    if (V.Entry.empty() || Sym.getELFType() == ELF::STT_FUNC)
      V.Entry = Name->str();
  }
}

template <class ELFT>
Expected<LoaderView> readView(const ELFObjectFile<ELFT> &Obj, MemoryBufferRef File) {
  LoaderView V;
  const ELFFile<ELFT> &EF = Obj.getELFFile();
  V.Type = EF.getHeader().e_type;
  V.Machine = EF.getHeader().e_machine;
  if (Error E = readDynamic(EF, V))
    return std::move(E);
  if (Error E = readSegments(EF, File, V))
    return std::move(E);
  if (Error E = readSymbols(Obj, V))
    return std::move(E);
  readEntry(Obj, V);
  return V;
}

std::string listText(const std::vector<std::string> &L) {
  return "[" + join(L, ", ") + "]";
}

// A weak C++ symbol (inline function, template instantiation, vtable: vague linkage): every
// module that uses one has its own copy, so whether an image exports it is the optimizer's
// choice (LLVM omits such a symbol from a library's table where nothing takes its address),
// not the program's interface; GNU unique symbols are not weak and stay compared.
bool vagueLinkage(const std::string &Key, const std::string &What) {
  return StringRef(Key).starts_with("_Z") && StringRef(What).starts_with("weak ");
}

template <class Map>
std::string mapDifference(const char *What, const Map &Base, const Map &Cand, bool MayLose) {
  for (const auto &[Key, Value] : Cand) {
    auto It = Base.find(Key);
    if (It == Base.end() && vagueLinkage(Key, Value))
      continue;
    if (It == Base.end())
      return std::string(What) + " " + Key + " is not in the baseline";
    if (It->second != Value)
      return std::string(What) + " " + Key + " is " + Value + ", " + It->second +
             " in the baseline";
  }
  if (!MayLose)
    for (const auto &[Key, Value] : Base)
      if (!Cand.count(Key) && !vagueLinkage(Key, Value))
        return std::string(What) + " " + Key + " is missing";
  return "";
}

} // namespace

Expected<LoaderView> readLoaderView(MemoryBufferRef ELF) {
  Expected<std::unique_ptr<ObjectFile>> Obj = ObjectFile::createObjectFile(ELF);
  if (!Obj)
    return Obj.takeError();
  if (const auto *O = dyn_cast<ELF64LEObjectFile>(Obj->get()))
    return readView(*O, ELF);
  if (const auto *O = dyn_cast<ELF32LEObjectFile>(Obj->get()))
    return readView(*O, ELF);
  if (const auto *O = dyn_cast<ELF64BEObjectFile>(Obj->get()))
    return readView(*O, ELF);
  if (const auto *O = dyn_cast<ELF32BEObjectFile>(Obj->get()))
    return readView(*O, ELF);
  return createStringError("not an ELF file");
}

std::string loaderViewDifference(const LoaderView &B, const LoaderView &C) {
  auto Differs = [](const char *What, const std::string &Base, const std::string &Cand) {
    return std::string(What) + " is \"" + Cand + "\", \"" + Base + "\" in the baseline";
  };
  if (B.Type != C.Type)
    return "ELF type " + std::to_string(C.Type) + ", " + std::to_string(B.Type) +
           " in the baseline";
  if (B.Machine != C.Machine)
    return "ELF machine differs";
  if (B.Interpreter != C.Interpreter)
    return Differs("interpreter", B.Interpreter, C.Interpreter);
  if (B.Needed != C.Needed)
    return "DT_NEEDED is " + listText(C.Needed) + ", " + listText(B.Needed) + " in the baseline";
  if (B.Soname != C.Soname)
    return Differs("DT_SONAME", B.Soname, C.Soname);
  if (B.Runpath != C.Runpath)
    return Differs("DT_RUNPATH", B.Runpath, C.Runpath);
  if (B.Rpath != C.Rpath)
    return Differs("DT_RPATH", B.Rpath, C.Rpath);
  if (B.Flags != C.Flags)
    return "DT_FLAGS is 0x" + utohexstr(C.Flags) + ", 0x" + utohexstr(B.Flags) +
           " in the baseline";
  if (B.Flags1 != C.Flags1)
    return "DT_FLAGS_1 is 0x" + utohexstr(C.Flags1) + ", 0x" + utohexstr(B.Flags1) +
           " in the baseline";
  if (B.Init != C.Init || B.Fini != C.Fini)
    return "DT_INIT/DT_FINI differ";
  if (C.InitArray > B.InitArray || C.FiniArray > B.FiniArray ||
      C.PreinitArray > B.PreinitArray)
    return "more constructors or destructors than the baseline (init " +
           std::to_string(C.InitArray) + "/" + std::to_string(B.InitArray) + ", fini " +
           std::to_string(C.FiniArray) + "/" + std::to_string(B.FiniArray) + ")";
  // A TLS segment may go (its variables were unused); a new one could make a library that
  // loaded by dlopen before fail to (static TLS is reserved at startup).
  if (C.TLS && !B.TLS)
    return "a TLS segment the baseline has not";
  if (B.Relro != C.Relro)
    return std::string("a RELRO segment ") + (C.Relro ? "the baseline has not" : "is missing");
  if (B.ExecutableStack != C.ExecutableStack)
    return std::string("the stack is ") + (C.ExecutableStack ? "" : "not ") +
           "executable, as it is" + (B.ExecutableStack ? "" : " not") + " in the baseline";
  if (!B.Entry.empty() && !C.Entry.empty() && B.Entry != C.Entry)
    return Differs("the entry point", B.Entry, C.Entry);
  if (B.VersionDefinitions != C.VersionDefinitions)
    return "the version definitions differ";
  if (std::string D = mapDifference("exported symbol", B.Exports, C.Exports, false); !D.empty())
    return D;
  // A new import at a version the baseline already requires: wherever the baseline loads,
  // that version's library defines every symbol of it (libstdc++'s string members that the
  // baseline's own copies stood in for). Unversioned new imports stay refused.
  std::set<std::string> Versions;
  for (const auto &[Key, Value] : B.Imports)
    if (size_t At = Key.find('@'); At != std::string::npos)
      Versions.insert(Key.substr(At));
  std::map<std::string, std::string> Imports;
  for (const auto &[Key, Value] : C.Imports) {
    size_t At = Key.find('@');
    if (!B.Imports.count(Key) && At != std::string::npos && Versions.count(Key.substr(At)))
      continue;
    Imports.emplace(Key, Value);
  }
  return mapDifference("imported symbol", B.Imports, Imports, true);
}

} // namespace smartcc
