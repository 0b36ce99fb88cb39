// What one candidate's process reports back. It lives in memory shared between the compiler
// and the candidate processes, so it is plain old data: no pointers, no std::string.
#pragma once
#include "runtime/measure/StackSizeWarnings.h"
#include "runtime/measure/SizeMeasurer.h"
#include <cstdint>
#include <cstring>

namespace smartcc {

enum class Outcome : uint8_t {
  NotRun,        // never started (the compile failed or was cut short)
  Ok,            // measured
  Crashed,       // killed by a signal inside LLVM
  Timeout,       // exceeded timeout_ms
  FatalError,    // LLVM reported a fatal error (report_fatal_error)
  BadPipeline,   // the pipeline text or an LLVM option did not parse
  VerifierFailed,// the optimized module is not valid IR
  Growth,        // the module grew past max_growth
  CodegenFailed, // the backend reported an error
  Unchanged,     // it would have been another candidate's output again (nothing to mix)
};
const char *outcomeName(Outcome O); // "ok", "crash", "timeout", ... (also used as stats reasons)

struct CandidateResult {
  Outcome Result = Outcome::NotRun;
  int Signal = 0;            // for Crashed
  uint64_t IRBefore = 0;     // IR instructions entering the middle-end
  uint64_t IRAfter = 0;      // ... leaving it
  ObjectSize Object;         // measured object
  uint64_t ObjectBytes = 0;  // length of the object at offset 0 of the candidate's memfd
  uint64_t AsmBytes = 0;     // length of the assembly that follows it (only for -S)
  uint64_t BitcodeBytes = 0; // length of the optimized module's bitcode after that (EmitBitcode)
  // Code bytes the unwind-aware constants added (runtime/compile/UnwindAwareConstants.h): code
  // that exists only where unwind tables are emitted, which the code-for-unwind rule leaves
  // out (a build without unwind tables does not get it).
  uint64_t UnwindTradeCode = 0;
  // With -fstack-usage: the length of the stack-usage lines of its object's code generation,
  // after the bitcode in the memfd (what ships beside the object if it wins).
  uint64_t StackUsageBytes = 0;
  // With -Wframe-larger-than: the stack-size warnings its object's code generation would
  // print (runtime/measure/StackSizeWarnings.h); a Count of UINT32_MAX: not known.
  StackSizeWarnings StackWarnings;
  double Millis = 0;         // wall time in the candidate process
  double RegAllocCost = 0;   // frequency-weighted spills, reloads, copies (RegAllocCost.h)
  unsigned RegAllocRanges = 0, RegAllocChanged = 0; // with a register-allocation policy
  unsigned RegAllocEvictions = 0; // eviction decisions its eviction heads took (shipped mix)
  // Functions with a spill cost, and how many of them a policy head allocated (per-function
  // choice, runtime/compile/RegAllocPortfolio.h); code generations the choice took.
  unsigned RegAllocFunctions = 0, RegAllocFunctionsChanged = 0, RegAllocCodegens = 0;
  // The cost of LLVM's own allocation of the same module, measured on the way (-1: not):
  // at -O1..-O3 it is the baseline the ML allocation must beat.
  double GreedyRegAllocCost = -1;
  // With CandidateSpec::ProposeAfter: the agent's core-set indices on the module this
  // candidate reached, best predicted first, and their predictions (percent).
  static constexpr unsigned MaxNext = 32;
  uint8_t NextCount = 0;
  uint8_t Next[MaxNext] = {};
  float NextPredicted[MaxNext] = {};
  char Message[240] = {};    // why it failed, for -v and explain

  // One line, whatever LLVM said: it ends up in a table row and a JSON log line.
  void setMessage(const char *Text) {
    size_t N = 0;
    for (bool Space = false; *Text && N < sizeof(Message) - 1; ++Text) {
      bool IsSpace = *Text == '\n' || *Text == '\r' || *Text == '\t' || *Text == ' ';
      if (IsSpace && (Space || N == 0))
        continue;
      Message[N++] = IsSpace ? ' ' : *Text;
      Space = IsSpace;
    }
    while (N && Message[N - 1] == ' ')
      --N;
    Message[N] = 0;
  }
};

} // namespace smartcc
