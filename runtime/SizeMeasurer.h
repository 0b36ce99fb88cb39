// Measures an object file in memory with llvm::object: the numbers every smartcc decision is
// made on. Works for any object format LLVM reads (ELF for the Linux targets smartcc serves).
#pragma once
#include "runtime/Config.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>

namespace smartcc {

struct ObjectSize {
  uint64_t AllocBytes = 0; // sections loaded at run time (SHF_ALLOC): text, rodata, data, bss, eh_frame
  uint64_t TextBytes = 0;  // executable sections
  uint64_t FileBytes = 0;  // the object file itself
};

llvm::Expected<ObjectSize> measureObject(llvm::MemoryBufferRef Object);

// The value of one metric. IR instruction counts are not an object property: the caller
// passes the count it observed.
uint64_t metricValue(const ObjectSize &Size, uint64_t IRInstructions, Metric M);

} // namespace smartcc
