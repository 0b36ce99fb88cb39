#include "runtime/link/LinkInputs.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/IRObjectFile.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace smartcc {

namespace {

// The bitcode in a fat object's .llvm.lto section (SHT_LLVM_LTO), if it has one.
void visitFatSection(MemoryBufferRef File, function_ref<void(MemoryBufferRef)> Visit) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(File);
  if (!Obj) {
    consumeError(Obj.takeError());
    return;
  }
  const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  if (!ELF)
    return;
  for (object::ELFSectionRef Sec : ELF->sections()) {
    if (Sec.getType() != ELF::SHT_LLVM_LTO)
      continue;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    if (identify_magic(*Contents) == file_magic::bitcode)
      Visit(MemoryBufferRef(*Contents, File.getBufferIdentifier()));
  }
}

// Why a fat object's bitcode does not stand for its machine code ("" if it does, or if it has
// no .llvm.lto section): a relocatable link by GNU ld (`ld -r`) keeps the section, so an object
// it merged from a fat object and an assembly file (or another compiler's object) carries one
// module that lacks the others' code, and several fat objects merged make one section of
// several modules. lld's --fat-lto-objects would link the bitcode instead of all of it.
std::string fatSectionGap(MemoryBufferRef File) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj = object::ObjectFile::createObjectFile(File);
  if (!Obj) {
    consumeError(Obj.takeError());
    return "";
  }
  const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  if (!ELF)
    return "";
  std::optional<StringRef> Bitcode;
  for (object::ELFSectionRef Sec : ELF->sections()) {
    if (Sec.getType() != ELF::SHT_LLVM_LTO)
      continue;
    if (Bitcode)
      return "more than one .llvm.lto section";
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      return "its .llvm.lto section cannot be read";
    }
    Bitcode = *Contents;
  }
  if (!Bitcode)
    return "";
  Expected<object::IRSymtabFile> Symtab = object::readIRSymtab(MemoryBufferRef(*Bitcode, ""));
  if (!Symtab) {
    consumeError(Symtab.takeError());
    return "its .llvm.lto section is not readable bitcode";
  }
  if (Symtab->Mods.size() != 1)
    return std::to_string(Symtab->Mods.size()) +
           " modules in its .llvm.lto section (objects merged by a relocatable link)";
  StringSet<> InBitcode;
  for (const irsymtab::Reader::SymbolRef &Sym : Symtab->TheReader.symbols())
    if (!Sym.isUndefined())
      InBitcode.insert(Sym.getName());
  for (const object::ELFSymbolRef &Sym : ELF->symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags) {
      consumeError(Flags.takeError());
      continue;
    }
    if (!(*Flags & (object::SymbolRef::SF_Global | object::SymbolRef::SF_Weak)) ||
        (*Flags & object::SymbolRef::SF_Undefined))
      continue;
    uint8_t Type = Sym.getELFType();
    if (Type == ELF::STT_SECTION || Type == ELF::STT_FILE)
      continue;
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    // What code generation itself adds, which no module names: the personality's reference
    // (DW.ref.__gxx_personality_v0, weak and hidden, in every C++ object with exceptions), its
    // thunks (__llvm_retpoline_*, weak and hidden), KCFI's absolute type ids. A whole-program
    // link's code generation adds them again.
    if (((*Flags & object::SymbolRef::SF_Weak) && Sym.getOther() == ELF::STV_HIDDEN) ||
        (*Flags & object::SymbolRef::SF_Absolute) || Name->starts_with("DW.ref.") ||
        Name->starts_with("__llvm_") || Name->starts_with("__kcfi_typeid_"))
      continue;
    if (!InBitcode.contains(*Name))
      return ("its machine code defines " + *Name + ", its bitcode does not").str();
  }
  return "";
}

} // namespace

void forEachInputFile(ArrayRef<std::string> Inputs,
                      function_ref<bool(MemoryBufferRef File, file_magic Magic,
                                        StringRef Path, StringRef Member)>
                          Visit) {
  for (const std::string &Path : Inputs) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf)
      continue;
    file_magic Magic = identify_magic((*Buf)->getBuffer());
    if (Magic != file_magic::archive) {
      if (!Visit((*Buf)->getMemBufferRef(), Magic, Path, ""))
        return;
      continue;
    }
    Expected<std::unique_ptr<object::Archive>> A =
        object::Archive::create((*Buf)->getMemBufferRef());
    if (!A) {
      consumeError(A.takeError());
      continue;
    }
    Error Err = Error::success();
    for (const object::Archive::Child &Child : (*A)->children(Err)) {
      Expected<MemoryBufferRef> Member = Child.getMemoryBufferRef();
      if (!Member) {
        consumeError(Member.takeError());
        continue;
      }
      Expected<StringRef> Name = Child.getName();
      StringRef MemberName = Name ? *Name : StringRef("?");
      if (!Name)
        consumeError(Name.takeError());
      if (!Visit(*Member, identify_magic(Member->getBuffer()), Path, MemberName)) {
        consumeError(std::move(Err));
        return;
      }
    }
    consumeError(std::move(Err));
  }
}

std::string fatBitcodeGap(ArrayRef<std::string> Inputs) {
  std::string Found;
  forEachInputFile(Inputs, [&](MemoryBufferRef File, file_magic Magic, StringRef Path,
                               StringRef Member) {
    if (Magic != file_magic::elf_relocatable)
      return true;
    std::string Gap = fatSectionGap(File);
    if (Gap.empty())
      return true;
    Found = (Path + (Member.empty() ? "" : "(" + Member + ")") + ": " + Gap).str();
    return false;
  });
  return Found;
}

// forEachBitcodeInput's walk, stopped once Visit returns false.
static void visitBitcodeInputs(ArrayRef<std::string> Inputs, bool FatSections,
                               function_ref<bool(MemoryBufferRef)> Visit) {
  forEachInputFile(Inputs, [&](MemoryBufferRef File, file_magic Magic, StringRef, StringRef) {
    bool More = true;
    if (Magic == file_magic::bitcode)
      More = Visit(File);
    else if (FatSections && Magic == file_magic::elf_relocatable)
      visitFatSection(File, [&](MemoryBufferRef B) { More = More && Visit(B); });
    return More;
  });
}

void forEachBitcodeInput(ArrayRef<std::string> Inputs, function_ref<void(MemoryBufferRef)> Visit,
                         bool FatSections) {
  visitBitcodeInputs(Inputs, FatSections, [&](MemoryBufferRef B) {
    Visit(B);
    return true;
  });
}

uint64_t bitcodeInputBytes(ArrayRef<std::string> Inputs, bool FatSections) {
  uint64_t Bytes = 0;
  forEachBitcodeInput(Inputs, [&](MemoryBufferRef B) { Bytes += B.getBufferSize(); },
                      FatSections);
  return Bytes;
}

uint64_t machineCodeInputBytes(ArrayRef<std::string> Inputs) {
  uint64_t Bytes = 0;
  forEachInputFile(Inputs, [&](MemoryBufferRef File, file_magic Magic, StringRef, StringRef) {
    if (Magic != file_magic::elf_relocatable)
      return true;
    bool Fat = false;
    visitFatSection(File, [&](MemoryBufferRef) { Fat = true; });
    if (!Fat)
      Bytes += File.getBufferSize();
    return true;
  });
  return Bytes;
}

bool optimizedForSizeWithoutMinSize(ArrayRef<std::string> Inputs, bool FatSections,
                                    unsigned SampleModules) {
  unsigned Seen = 0;
  bool OptSize = false, MinSize = false;
  // The walk stops at the sample's end or the first minsize function: the other inputs are
  // not read.
  visitBitcodeInputs(Inputs, FatSections, [&](MemoryBufferRef Buf) {
    // Attributes are read with the module's header: no function body is materialized.
    LLVMContext Ctx;
    Expected<std::unique_ptr<Module>> M = getLazyBitcodeModule(Buf, Ctx);
    if (!M) {
      consumeError(M.takeError());
      return true;
    }
    bool Defines = false;
    for (const Function &F : **M) {
      if (F.isDeclaration())
        continue;
      Defines = true;
      MinSize |= F.hasMinSize();
      OptSize |= F.hasOptSize();
    }
    Seen += Defines;
    return Seen < SampleModules && !MinSize;
  });
  return OptSize && !MinSize;
}

} // namespace smartcc
