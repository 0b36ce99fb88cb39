#include "runtime/measure/UndefinedSymbols.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"

using namespace llvm;

namespace smartcc {

static Error insertName(const object::SymbolRef &Sym, std::set<std::string> &Out) {
  Expected<StringRef> Name = Sym.getName();
  if (!Name)
    return Name.takeError();
  if (!Name->empty())
    Out.insert(Name->str());
  return Error::success();
}

// Relocations the linker resolves through a PLT entry or a GOT slot when the symbol is
// preemptible.
static bool viaPLTOrGOT(uint16_t Machine, uint64_t Type) {
  if (Machine == ELF::EM_X86_64)
    return Type == ELF::R_X86_64_PLT32 || Type == ELF::R_X86_64_GOTPCREL ||
           Type == ELF::R_X86_64_GOTPCRELX || Type == ELF::R_X86_64_REX_GOTPCRELX;
  if (Machine == ELF::EM_AARCH64)
    return Type == ELF::R_AARCH64_CALL26 || Type == ELF::R_AARCH64_JUMP26 ||
           Type == ELF::R_AARCH64_ADR_GOT_PAGE || Type == ELF::R_AARCH64_LD64_GOT_LO12_NC ||
           Type == ELF::R_AARCH64_LD64_GOTPAGE_LO15;
  return false;
}

Expected<LinkReferences> linkReferences(MemoryBufferRef Object, bool SharedLibraryCode) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  LinkReferences Out;
  for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags)
      return Flags.takeError();
    if (!(*Flags & object::SymbolRef::SF_Undefined))
      continue;
    if (Error E = insertName(Sym, Out.Undefined))
      return std::move(E);
  }
  const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  if (!SharedLibraryCode || !ELF)
    return Out; // other formats: no such estimate
  uint16_t Machine = ELF->getEMachine();
  for (const object::SectionRef &Sec : ELF->sections())
    for (const object::RelocationRef &R : Sec.relocations()) {
      if (!viaPLTOrGOT(Machine, R.getType()))
        continue;
      object::symbol_iterator Sym = R.getSymbol();
      if (Sym == ELF->symbol_end())
        continue;
      object::ELFSymbolRef E(*Sym);
      Expected<uint32_t> Flags = E.getFlags();
      if (!Flags)
        return Flags.takeError();
      if ((*Flags & object::SymbolRef::SF_Undefined) || !(*Flags & object::SymbolRef::SF_Global))
        continue;
      if ((E.getOther() & 0x3) != ELF::STV_DEFAULT)
        continue;
      if (Error Err = insertName(E, Out.Interposable))
        return std::move(Err);
    }
  return Out;
}

std::string firstNewSymbol(const std::set<std::string> &Candidate,
                              const std::set<std::string> &Baseline) {
  for (const std::string &S : Candidate)
    if (!Baseline.count(S))
      return S;
  return "";
}

} // namespace smartcc
