// What an -flto link's LTO merges: the bitcode among its input files, alone or as archive
// members. Read by the link agent (features of each module) and by the owned link's order
// (how large the program is) without running anything.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <string>

namespace smartcc {

// Calls Visit on every file among Inputs and every member of those that are archives (with the
// file's path, and the member's name or empty), until Visit returns false. Files that are
// missing or unreadable are skipped: lld reports them.
void forEachInputFile(llvm::ArrayRef<std::string> Inputs,
                      llvm::function_ref<bool(llvm::MemoryBufferRef File, llvm::file_magic Magic,
                                              llvm::StringRef Path, llvm::StringRef Member)>
                          Visit);

// Calls Visit on every bitcode module among Inputs (files, and the members of archives whether
// or not the link pulls them in). Files that are missing (a library lld finds on its search
// path) or unreadable are skipped: lld reports them. FatSections: also the bitcode that ELF
// objects carry in a .llvm.lto section (fat objects, runtime/compile/FatObject.h), which a
// whole-program link (lld's --fat-lto-objects) reads instead of their machine code.
void forEachBitcodeInput(llvm::ArrayRef<std::string> Inputs,
                         llvm::function_ref<void(llvm::MemoryBufferRef)> Visit,
                         bool FatSections = false);

// Why the fat objects among Inputs (files, archive members) cannot be linked from their
// bitcode ("FILE: why"), empty if every one can: an object whose .llvm.lto section does not
// stand for all of its machine code (merged by GNU ld -r with an assembly file or with other
// fat objects: several modules, or a global symbol its bitcode does not define). lld's
// --fat-lto-objects would link that bitcode and silently lose the rest.
std::string fatBitcodeGap(llvm::ArrayRef<std::string> Inputs);

// The bytes of that bitcode, summed: the program's size as LTO will see it, before any work.
uint64_t bitcodeInputBytes(llvm::ArrayRef<std::string> Inputs, bool FatSections = false);

// Whether the program's bitcode was compiled for size without minsize (-Os): its functions are
// optsize and none is minsize, as far as the first SampleModules modules with function
// definitions show. LTO's code generation then runs no machine outliner (it outlines minsize
// functions only), so the outliner's candidates hold the link's bytes.
bool optimizedForSizeWithoutMinSize(llvm::ArrayRef<std::string> Inputs,
                                    bool FatSections = false, unsigned SampleModules = 64);

// The bytes of the ELF relocatable objects among Inputs (files and archive members) that carry
// no bitcode, whole: how much of the link is machine code only (the linker front's rule,
// driver/LinkerFront.h).
uint64_t machineCodeInputBytes(llvm::ArrayRef<std::string> Inputs);

} // namespace smartcc
