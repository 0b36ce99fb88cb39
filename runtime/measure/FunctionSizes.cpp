#include "runtime/measure/FunctionSizes.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Endian.h"
#include <vector>

using namespace llvm;

namespace smartcc {

namespace {

// Symbol sizes of the object's defined functions.
Expected<std::map<std::string, uint64_t>> symbolSizes(const object::ObjectFile &Obj) {
  const auto *Elf = dyn_cast<object::ELFObjectFileBase>(&Obj);
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

} // namespace

Expected<std::map<std::string, uint64_t>> functionSizes(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  return symbolSizes(**Obj);
}

namespace {

// Function symbols by where they start: (section, offset) -> names, in symbol-table order
// (aliases share a start: a C++ constructor's C1 and C2). An .eh_frame relocation names
// either the function's symbol or its section's symbol plus the offset.
using FunctionStarts = std::map<std::pair<uint64_t, uint64_t>, std::vector<std::string>>;

FunctionStarts functionStarts(const object::ObjectFile &Obj) {
  FunctionStarts Starts;
  for (const object::SymbolRef &Sym : Obj.symbols()) {
    Expected<object::SymbolRef::Type> Type = Sym.getType();
    Expected<StringRef> Name = Sym.getName();
    Expected<object::section_iterator> Sec = Sym.getSection();
    Expected<uint64_t> Value = Sym.getValue();
    if (Type && Name && Sec && Value && *Type == object::SymbolRef::ST_Function &&
        *Sec != Obj.section_end())
      Starts[{(*Sec)->getIndex(), *Value}].push_back(Name->str());
    if (!Type)
      consumeError(Type.takeError());
    if (!Name)
      consumeError(Name.takeError());
    if (!Sec)
      consumeError(Sec.takeError());
    if (!Value)
      consumeError(Value.takeError());
  }
  return Starts;
}

// The functions a relocation of .eh_frame points at (none: null).
const std::vector<std::string> *relocatedFunctions(const object::ObjectFile &Obj,
                                                   const object::RelocationRef &R,
                                                   const FunctionStarts &Starts) {
  object::symbol_iterator Sym = R.getSymbol();
  if (Sym == Obj.symbol_end())
    return nullptr;
  Expected<object::section_iterator> Sec = Sym->getSection();
  Expected<uint64_t> Value = Sym->getValue();
  if (!Sec || !Value || *Sec == Obj.section_end()) {
    if (!Sec)
      consumeError(Sec.takeError());
    if (!Value)
      consumeError(Value.takeError());
    return nullptr;
  }
  int64_t Addend = 0;
  if (const auto *Elf = dyn_cast<object::ELFObjectFileBase>(&Obj)) {
    Expected<int64_t> A = object::ELFRelocationRef(R).getAddend();
    if (A)
      Addend = *A;
    else
      consumeError(A.takeError()); // REL: the addend is in place; function symbols have none
  }
  auto It = Starts.find({(*Sec)->getIndex(), *Value + uint64_t(Addend)});
  return It == Starts.end() ? nullptr : &It->second;
}

// Each FDE of .eh_frame with the functions it describes (found by the relocation of the
// entry's initial location), in order: Visit(names, bytes).
void forEachUnwindEntry(
    const object::ObjectFile &Obj,
    function_ref<void(const std::vector<std::string> &, uint64_t)> Visit) {
  for (const object::SectionRef &Rel : Obj.sections()) {
    Expected<object::section_iterator> Target = Rel.getRelocatedSection();
    if (!Target) {
      consumeError(Target.takeError());
      continue;
    }
    if (*Target == Obj.section_end())
      continue;
    Expected<StringRef> Name = (*Target)->getName();
    if (!Name || *Name != ".eh_frame") {
      if (!Name)
        consumeError(Name.takeError());
      continue;
    }
    const FunctionStarts Starts = functionStarts(Obj);
    std::map<uint64_t, const std::vector<std::string> *> At; // offset in .eh_frame -> functions
    for (const object::RelocationRef &R : Rel.relocations())
      if (const std::vector<std::string> *Names = relocatedFunctions(Obj, R, Starts))
        At[R.getOffset()] = Names;
    Expected<StringRef> Data = (*Target)->getContents();
    if (!Data) {
      consumeError(Data.takeError());
      return;
    }
    const bool Little = Obj.isLittleEndian();
    auto Read32 = [&](uint64_t Off) {
      return Little ? support::endian::read32le(Data->data() + Off)
                    : support::endian::read32be(Data->data() + Off);
    };
    for (uint64_t Off = 0; Off + 8 <= Data->size();) {
      uint32_t Length = Read32(Off);
      if (Length == 0 || Length == 0xffffffffu || Off + 4 + Length > Data->size())
        break;
      if (Read32(Off + 4) != 0) // an FDE (a CIE has id 0)
        if (auto It = At.find(Off + 8); It != At.end())
          Visit(*It->second, 4 + uint64_t(Length));
      Off += 4 + uint64_t(Length);
    }
  }
}

// Each function's unwind entry: code that saves more registers has a longer entry, and unwind
// tables are part of the image. (An entry's bytes go to the first of its aliases.)
std::map<std::string, uint64_t> unwindEntries(const object::ObjectFile &Obj) {
  std::map<std::string, uint64_t> Sizes;
  forEachUnwindEntry(Obj, [&](const std::vector<std::string> &Names, uint64_t Bytes) {
    Sizes[Names.front()] += Bytes;
  });
  return Sizes;
}

// Adds each function's unwind entry to Sizes, and hands the entries alone to Unwind if given.
void addUnwindEntries(const object::ObjectFile &Obj, std::map<std::string, uint64_t> &Sizes,
                      std::map<std::string, uint64_t> *Unwind) {
  std::map<std::string, uint64_t> Entries = unwindEntries(Obj);
  for (const auto &[Name, Bytes] : Entries)
    Sizes[Name] += Bytes;
  if (Unwind)
    *Unwind = std::move(Entries);
}

} // namespace

Expected<std::map<std::string, uint64_t>>
functionSectionSizes(MemoryBufferRef Object, std::map<std::string, uint64_t> *Unwind) {
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
  addUnwindEntries(**Obj, Sizes, Unwind);
  return Sizes;
}

Expected<std::set<std::string>> functionsWithUnwindEntries(MemoryBufferRef Object,
                                                           unsigned *Entries) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  std::set<std::string> Names;
  unsigned N = 0;
  forEachUnwindEntry(**Obj, [&](const std::vector<std::string> &Aliases, uint64_t) {
    ++N;
    Names.insert(Aliases.begin(), Aliases.end());
  });
  if (Entries)
    *Entries = N;
  return Names;
}

Expected<std::map<std::string, uint64_t>>
functionImageBytes(MemoryBufferRef Object, std::map<std::string, uint64_t> *Unwind) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  Expected<std::map<std::string, uint64_t>> Sizes = symbolSizes(**Obj);
  if (!Sizes)
    return Sizes.takeError();
  addUnwindEntries(**Obj, *Sizes, Unwind);
  return Sizes;
}

} // namespace smartcc
