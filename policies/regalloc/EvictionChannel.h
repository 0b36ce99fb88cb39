// LLVM 22's ML eviction advisor, served in-process. The greedy allocator's eviction decisions
// can only be taken over through LLVM's own ML advisor (AllocationOrder is private, so an
// advisor written outside LLVM cannot walk the candidate registers), and in a stock build that
// advisor has no compiled-in model: it asks an InteractiveModelRunner, which writes each
// decision's features to the FIFO BASE.out and reads the chosen position from BASE.in.
//
// An EvictionChannel is the other end of those FIFOs, on a thread of the same process: it
// parses the runner's log (a JSON header naming the feature tensors, then per function a
// {"context": NAME} line, then per decision an {"observation": N} line, the tensors' raw bytes
// and a newline) and answers each decision with Chooser's position (an int64).
//
// LLVM offers, per decision, up to 32 candidate registers in allocation order plus one last
// position meaning "evict nothing" (the live range itself); "mask" says which are legal. The
// channel only ever answers a legal position: a chooser's illegal answer is replaced by the
// first legal one, so no allocation can be invalid.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace smartcc {

// One eviction decision: each feature tensor of LLVM's advisor as floats, by its name.
struct EvictionObservation {
  std::vector<std::string> Names;         // as in the runner's header
  std::vector<std::vector<float>> Values; // per feature, one value per position
  size_t Positions = 0;                   // candidate registers + the "evict nothing" position
  std::vector<bool> Legal;                // the mask
  const std::vector<float> *feature(llvm::StringRef Name) const;
};

class EvictionChannel {
public:
  // Returns a position (any value: an illegal one is replaced by the first legal position).
  using Chooser = std::function<int64_t(const EvictionObservation &)>;

  // Makes the two FIFOs in a fresh temporary directory and starts serving them.
  static llvm::Expected<std::unique_ptr<EvictionChannel>> open(Chooser Choose);
  // Stops serving (the compiler's side must have closed: its model runner destroyed) and
  // removes the FIFOs.
  ~EvictionChannel();
  EvictionChannel(const EvictionChannel &) = delete;
  EvictionChannel &operator=(const EvictionChannel &) = delete;

  // What -regalloc-evict-interactive-channel-base must name.
  const std::string &base() const { return Base; }
  // Removes the FIFOs' names once LLVM's runner has opened them (the open descriptors keep
  // working): a candidate process killed later (a timeout) leaves nothing in the temporary
  // directory.
  void removeNames();
  unsigned decisions() const { return Decisions.load(); }
  // The protocol error that stopped the thread, if any ("" otherwise). Once the thread stops
  // answering, LLVM's runner fails its read and the compile reports it: the candidate fails
  // and clang's own output ships.
  std::string error() const { return Failed.load() ? Error : std::string(); }

private:
  EvictionChannel() = default;
  void serve();

  std::string Dir, Base;
  Chooser Choose;
  int ToCompiler = -1, FromCompiler = -1;
  std::thread Thread;
  std::atomic<bool> Stop{false};
  std::atomic<unsigned> Decisions{0};
  std::atomic<bool> Failed{false};
  std::string Error; // written by the thread once, before Failed is set
};

} // namespace smartcc
