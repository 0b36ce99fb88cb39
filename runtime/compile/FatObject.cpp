#include "runtime/compile/FatObject.h"
#include "runtime/observe/SideOutputs.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace smartcc {

std::string moduleBitcode(const Module &M) {
  std::string Bytes;
  raw_string_ostream OS(Bytes);
  WriteBitcodeToFile(M, OS);
  return Bytes;
}

Error addBitcodeSection(const std::string &Path, StringRef Bitcode) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> In = MemoryBuffer::getFile(Path);
  if (!In)
    return createStringError(In.getError(), "cannot read " + Path);
  Expected<std::unique_ptr<object::Binary>> Bin = object::createBinary((*In)->getMemBufferRef());
  if (!Bin)
    return Bin.takeError();
  const auto *Obj = dyn_cast<object::ELFObjectFileBase>(Bin->get());
  if (!Obj || !Obj->isRelocatableObject())
    return createStringError(inconvertibleErrorCode(),
                             Path + " is not an ELF relocatable object");
  for (const object::SectionRef &S : Obj->sections())
    if (Expected<StringRef> Name = S.getName(); Name && *Name == FatObjectSection)
      return Error::success(); // already there (a fat object given to -c again)
    else if (!Name)
      consumeError(Name.takeError());

  objcopy::ConfigManager Config;
  Config.Common.AddSection.emplace_back(
      FatObjectSection, MemoryBuffer::getMemBufferCopy(Bitcode, FatObjectSection));
  // objcopy's flags are GNU objcopy's: a section not marked read-only becomes writable.
  Config.Common.SetSectionFlags.try_emplace(
      FatObjectSection,
      objcopy::SectionFlagsUpdate{FatObjectSection, objcopy::SectionFlag::SecExclude |
                                                        objcopy::SectionFlag::SecReadonly});
  Config.Common.SetSectionType.try_emplace(FatObjectSection, ELF::SHT_LLVM_LTO);
  std::string Out;
  raw_string_ostream OS(Out);
  if (Error E = objcopy::executeObjcopyOnBinary(Config, **Bin, OS))
    return E;
  return replaceFile(Path, Out);
}

} // namespace smartcc
