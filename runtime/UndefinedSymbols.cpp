#include "runtime/UndefinedSymbols.h"
#include "llvm/Object/ObjectFile.h"

using namespace llvm;

namespace smartcc {

Expected<std::set<std::string>> undefinedSymbols(MemoryBufferRef Object) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  std::set<std::string> Out;
  for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags)
      return Flags.takeError();
    if (!(*Flags & object::SymbolRef::SF_Undefined))
      continue;
    Expected<StringRef> Name = Sym.getName();
    if (!Name)
      return Name.takeError();
    if (!Name->empty())
      Out.insert(Name->str());
  }
  return Out;
}

std::string firstNewUndefined(const std::set<std::string> &Candidate,
                              const std::set<std::string> &Baseline) {
  for (const std::string &S : Candidate)
    if (!Baseline.count(S))
      return S;
  return "";
}

} // namespace smartcc
