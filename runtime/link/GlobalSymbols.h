// The global and weak symbols of an ELF file's symbol table (.symtab), named, each with
// whether the file defines it: the walk that the ship rules over symbols share
// (runtime/link/LinkedSymbols.h: what an image defines; runtime/link/RelocatableView.h: what
// a relocatable link's output defines and needs).
#pragma once
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Error.h"

namespace smartcc {

// Calls Fn for each symbol of Obj's symbol table that is not local and has a name; the first
// error (Obj's or Fn's) ends the walk.
llvm::Error forEachGlobalSymbol(
    const llvm::object::ELFObjectFileBase &Obj,
    llvm::function_ref<llvm::Error(const llvm::object::ELFSymbolRef &Sym, llvm::StringRef Name,
                                   bool Defined)>
        Fn);

} // namespace smartcc
