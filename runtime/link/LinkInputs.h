// What an -flto link's LTO merges: the bitcode among its input files, alone or as archive
// members. Read by the link agent (features of each module) and by the owned link's order
// (how large the program is) without running anything.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <string>

namespace smartcc {

// Calls Visit on every bitcode module among Inputs (files, and the members of archives whether
// or not the link pulls them in). Files that are missing (a library lld finds on its search
// path) or unreadable are skipped: lld reports them.
void forEachBitcodeInput(llvm::ArrayRef<std::string> Inputs,
                         llvm::function_ref<void(llvm::MemoryBufferRef)> Visit);

// The bytes of that bitcode, summed: the program's size as LTO will see it, before any work.
uint64_t bitcodeInputBytes(llvm::ArrayRef<std::string> Inputs);

} // namespace smartcc
