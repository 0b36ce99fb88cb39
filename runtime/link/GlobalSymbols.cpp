#include "runtime/link/GlobalSymbols.h"
#include "llvm/BinaryFormat/ELF.h"

using namespace llvm;

namespace smartcc {

Error forEachGlobalSymbol(
    const object::ELFObjectFileBase &Obj,
    function_ref<Error(const object::ELFSymbolRef &Sym, StringRef Name, bool Defined)> Fn) {
  for (const object::ELFSymbolRef &Sym : Obj.symbols()) {
    if (Sym.getBinding() == ELF::STB_LOCAL)
      continue;
    Expected<StringRef> Name = Sym.getName();
    if (!Name)
      return Name.takeError();
    if (Name->empty())
      continue;
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags)
      return Flags.takeError();
    if (Error E = Fn(Sym, *Name, !(*Flags & object::SymbolRef::SF_Undefined)))
      return E;
  }
  return Error::success();
}

} // namespace smartcc
