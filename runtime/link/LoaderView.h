// What the dynamic loader and other programs see of a linked image, read from the file: the
// ship rule of owned whole-program links (driver/WholeProgramLink.h). A whole-program link
// changes the code inside the image, never this: the interpreter, the libraries needed and
// their search path, the soname, the dynamic symbols the image exports (name, version,
// binding, type, and size of data, which copy relocations depend on) and imports, TLS, the
// entry point, the stack and RELRO segments, the dynamic flags, and the constructors.
//
// A candidate may import fewer symbols, import more at versions the baseline already requires
// (wherever the baseline loads, such a version's library defines all of them), run fewer
// constructors and lose its TLS segment (all unused), and export more or fewer weak C++ symbols (vague linkage: inline functions and
// template instantiations, of which every module that uses one has its own copy; LLVM's LTO
// omits them from a library's table where nothing takes their address), nothing more.
//
// Not compared: the symbols a linker defines for the layout (__bss_start, _edata, _end, ...),
// which GNU ld exports from programs linked with shared libraries and lld does not, and GNU
// ld's absolute symbols named after version definitions (the definitions are compared).
//
// Constructors: a whole-program link keeps llvm.global_ctors in link order by priority, which
// is the order in which a linker places the objects' .init_array entries, and may drop one
// the optimizer evaluated at link time (no program can see that). So the check asks for no
// more entries than the baseline has and the same DT_INIT/DT_FINI, not for the same list.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace smartcc {

struct LoaderView {
  unsigned Type = 0, Machine = 0; // e_type (ET_EXEC, ET_DYN), e_machine
  std::string Interpreter;        // PT_INTERP, empty without one
  std::vector<std::string> Needed; // DT_NEEDED, in order (the loader's search order)
  std::string Soname, Runpath, Rpath;
  uint64_t Flags = 0, Flags1 = 0; // DT_FLAGS, DT_FLAGS_1
  bool Init = false, Fini = false; // DT_INIT, DT_FINI
  uint64_t InitArray = 0, FiniArray = 0, PreinitArray = 0; // entries
  bool TLS = false, Relro = false, ExecutableStack = false;
  std::string Entry; // the symbol at e_entry (empty: no symbol table says)
  // Defined dynamic symbols, by name@version ("@@" for the default version): binding, type,
  // visibility, and the size of data objects.
  std::map<std::string, std::string> Exports;
  // Undefined dynamic symbols, name@version: their binding (a weak reference may stay
  // unresolved).
  std::map<std::string, std::string> Imports;
  std::set<std::string> VersionDefinitions;
};

// Reads the view of a linked ELF file (executable or shared library).
llvm::Expected<LoaderView> readLoaderView(llvm::MemoryBufferRef ELF);

// The first way in which Candidate's view is not Baseline's, in words; empty if none. A
// candidate may import fewer symbols, run fewer constructors and lose its TLS segment.
std::string loaderViewDifference(const LoaderView &Baseline, const LoaderView &Candidate);

} // namespace smartcc
