// GlobalOpt's unnamed_addr rule for functions, applied right before code generation.
//
// Why: an object's .llvm_addrsig section lists the symbols whose address the program may
// compare; lld's identical code folding (--icf=safe) folds only functions not listed, and the
// code generator lists every function that has uses and is not at least local_unnamed_addr.
// GlobalOpt marks the functions whose address the module never compares nor lets escape, but
// only in pipelines that run it: the agent's pass sequences and other candidates' pipelines
// may not, and their objects then list every called function, so a library linked from them
// keeps two identical template instantiations apart where clang's objects let lld fold them
// (driver/PerTULink.h). Only the section, which no image contains, changes.
#pragma once

namespace llvm {
class Module;
}

namespace smartcc {

// Marks local_unnamed_addr every function of M (definitions and declarations) whose address
// M neither compares nor lets escape, as GlobalOpt would; returns how many it marked.
unsigned markUncomparedFunctions(llvm::Module &M);

} // namespace smartcc
