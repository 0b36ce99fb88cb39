// Measures an object file, executable or shared library in memory with llvm::object: the
// numbers every smartcc decision is made on, and the ones its link-level benchmark reports.
//
// What users ship is the image: the file-backed allocated bytes (SHF_ALLOC and not NOBITS).
// .bss/.tbss cost RAM, not image bytes, so they are counted apart; a metric that adds them
// to the image calls a .bss -> .data move a win while the binary on disk grows.
//
// Every allocated section falls in exactly one class, decided by its flags (and, for unwind
// tables, its name or type), so the classes add up to the image:
//   code    executable (SHF_EXECINSTR)
//   unwind  .eh_frame, .eh_frame_hdr, .gcc_except_table, .ARM.exidx, .ARM.extab, .sframe
//   data    writable and file-backed (.data, .data.rel.ro, .tdata, .got, ...)
//   rodata  the rest of the file-backed allocated bytes (.rodata, .dynsym, .rela.dyn, ...)
//   bss     writable, not file-backed (.bss, .tbss): RAM only
// For relocatable objects the FDEs of .eh_frame are counted too (linkedImageBytes).
#pragma once
#include "runtime/config/Config.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>

namespace smartcc {

struct ObjectSize {
  uint64_t AllocBytes = 0;  // every SHF_ALLOC section, .bss included (the old `alloc` metric)
  uint64_t TextBytes = 0;   // sections LLVM calls text (executable)
  uint64_t FileBytes = 0;   // the file itself
  uint64_t CodeBytes = 0;   // section classes, as above
  uint64_t ReadOnlyBytes = 0;
  uint64_t DataBytes = 0;
  uint64_t UnwindBytes = 0;
  uint64_t BssBytes = 0;
  // Frame descriptions in a relocatable object's .eh_frame: the linker adds an 8-byte entry
  // per FDE to .eh_frame_hdr's search table, bytes the object itself does not contain.
  uint64_t FDEs = 0;

  // File-backed allocated bytes: what the image costs.
  uint64_t imageBytes() const { return CodeBytes + ReadOnlyBytes + DataBytes + UnwindBytes; }
  // What this object will add to a linked image: its image bytes and the .eh_frame_hdr entries
  // of its FDEs. The `image` metric: a candidate that outlines code into new functions adds
  // FDEs, and without these 8 bytes each it could be smaller as an object and larger linked.
  uint64_t linkedImageBytes() const { return imageBytes() + 8 * FDEs; }
  // Writable data, initialized or not: what the program costs in RAM before its heap and stack.
  uint64_t ramBytes() const { return DataBytes + BssBytes; }
  ObjectSize &operator+=(const ObjectSize &O);
};

// An ELF relocatable object, executable or shared library (or another format LLVM reads,
// classified by LLVM's section kinds).
llvm::Expected<ObjectSize> measureObject(llvm::MemoryBufferRef Object);

// Object files, executables, shared libraries and static archives (the sum of their members;
// FileBytes is the archive's own size). Kind is "object", "executable", "shared" or "archive".
struct FileSize {
  std::string Kind;
  ObjectSize Size;
};
llvm::Expected<FileSize> measureFile(llvm::MemoryBufferRef File);

// The value of one metric. IR instruction counts are not an object property: the caller
// passes the count it observed.
uint64_t metricValue(const ObjectSize &Size, uint64_t IRInstructions, Metric M);

} // namespace smartcc
