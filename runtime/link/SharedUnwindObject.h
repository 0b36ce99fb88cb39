// The shared unwind entry's output check for one translation unit's object.
//
// A per-TU candidate may share one unwind entry among its frameless functions
// (runtime/compile/SharedUnwind.h, CandidateSpec::SharedUnwind). Its object may ship only if
// the same check as an owned link's (runtime/link/UnwindSharing.h) holds on it: one entry
// without instructions covers the run, no instruction of the run writes the stack pointer,
// the return-address register or a callee-saved register, every call into the run from a
// function with a call-site table is listed there, and no function lost the entry it had in
// clang's object. That check reads linked files (addresses resolved, one .eh_frame), so the
// candidate's object is linked alone by ld.lld into a throwaway executable (undefined symbols
// left at 0: nothing runs it); which functions have an entry in clang's object is read from
// the relocations of its .eh_frame, without a link (one link fewer per TU: each costs about
// 20 ms, most of it starting lld).
#pragma once
#include "runtime/link/UnwindSharing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace smartcc {

// Whether Object (relocatable ELF) holds a run: its markers with functions between them.
bool hasSharedUnwindRun(llvm::StringRef Object);

// Which functions of a relocatable object have an FDE (UnwindSummary::Covered; FDEs, their
// count), as runtime/measure/FunctionSizes.h finds each function's entry.
llvm::Expected<UnwindSummary> summarizeObjectUnwind(llvm::StringRef Object);

// Checks Candidate (linked alone by Linker within TimeoutMs) against Baseline (clang's object
// of the same TU); an error says what failed (a link that fails or times out is one).
llvm::Expected<SharedUnwindCheck> checkSharedUnwindObject(llvm::StringRef Candidate,
                                                          llvm::StringRef Baseline,
                                                          const std::string &Linker,
                                                          int TimeoutMs);

} // namespace smartcc
