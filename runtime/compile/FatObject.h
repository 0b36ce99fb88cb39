// Objects that carry their translation unit's bitcode (setting `fat_objects`): the object smartcc
// ships for a size-level compile gains a section `.llvm.lto` holding the module's bitcode, as
// clang-22's -ffat-lto-objects objects do (type SHT_LLVM_LTO, flag SHF_EXCLUDE). No linker puts an excluded section into an image, so every link of the
// object is what it was (GNU ld and lld link its machine code; plain `ar` keeps the section),
// while a whole-program link that asks for it (lld's --fat-lto-objects) finds the bitcode.
//
// The section is added to the object as written, so the machine code that ships is the
// decision's, byte for byte. (clang's own fat objects are not: on 2 of 30 files tried their
// code differs by a few bytes from plain -Oz, because -ffat-lto-objects runs another pipeline.)
// The bitcode is the module as LTO's pre-link pipeline leaves it (what clang's -flto compile
// writes), made beside clang's middle-end by a bitcode-only job (runtime/decide/TUOptimizer.cpp);
// the module before any pass only if that job fails: linked whole from unoptimized modules, a
// program came out larger than from clang's -flto objects.
#pragma once
#include "llvm/Support/Error.h"
#include <string>

namespace llvm {
class Module;
}

namespace smartcc {

inline constexpr const char *FatObjectSection = ".llvm.lto";

// The bitcode of M as it is now.
std::string moduleBitcode(const llvm::Module &M);

// Rewrites the ELF relocatable object at Path with Bitcode in a section FatObjectSection
// (SHT_LLVM_LTO, SHF_EXCLUDE); the file is replaced only once the new object is complete.
llvm::Error addBitcodeSection(const std::string &Path, llvm::StringRef Bitcode);

} // namespace smartcc
