#include "policies/regalloc/AllocatorOptions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include <pthread.h>

using namespace llvm;

namespace smartcc {
namespace {

std::recursive_mutex *Lock = nullptr;

std::recursive_mutex &optionsLock() {
  // A fork while another thread allocates would give the child a lock nobody releases, and
  // that allocation's options: fork waits until no allocation holds it (candidates are forked
  // processes, and trainers fork to contain crashes).
  static std::once_flag Once;
  std::call_once(Once, [] {
    Lock = new std::recursive_mutex;
    // The child has a new thread id, which a recursive mutex's owner check would reject: it
    // gets a new lock instead (the old one, held, is left behind).
    pthread_atfork([] { Lock->lock(); }, [] { Lock->unlock(); },
                   [] { Lock = new std::recursive_mutex; });
  });
  return *Lock;
}

std::pair<StringRef, StringRef> split(StringRef Arg) { return Arg.ltrim('-').split('='); }

} // namespace

const std::vector<std::string> &allocatorOptionNames() {
  // Read by RAGreedy while it splits live ranges (SplitEditor::reset, the hint-split
  // threshold), after the advisors exist: RegAllocGreedy.cpp in LLVM 22. Options read before
  // (reverse local assignment, the callee-saved cost, local reassignment in the eviction
  // advisor) would apply one function late, so they are not here.
  static const std::vector<std::string> Names = {"split-spill-mode",
                                                 "split-threshold-for-reg-with-hint"};
  return Names;
}

const std::vector<std::vector<std::string>> &allocatorOptionSets() {
  // The three that found savings alone on the x86-64 training modules (per function, best of
  // greedy and the option): split-spill-mode=default 1.1 %, =size 0.2 %, hint threshold 100
  // 0.2 % of the spill cost; other allocator options found under 0.1 % (docs/ml-regalloc.md).
  // Adding the two spill modes combined with the threshold, and threshold 0, left the chosen
  // heads' training cost where it was (0.9598 against 0.9597 for 8 heads).
  static const std::vector<std::vector<std::string>> Sets = {
      {"-split-spill-mode=default"},
      {"-split-spill-mode=size"},
      {"-split-threshold-for-reg-with-hint=100"},
  };
  return Sets;
}

Error checkAllocatorOption(StringRef Arg) {
  auto [Name, Value] = split(Arg);
  if (!Arg.starts_with("-") || !Arg.contains('=') || !is_contained(allocatorOptionNames(), Name))
    return createStringError(inconvertibleErrorCode(),
                             "'" + Arg + "' is not a per-function allocator option (allowed: -" +
                                 join(allocatorOptionNames(), "=, -") + "=)");
  if (!cl::getRegisteredOptions().lookup(Name))
    return createStringError(inconvertibleErrorCode(),
                             "'" + Arg + "': this LLVM has no option " + Name);
  // The values LLVM 22 accepts, checked here: the option's own parser would print its
  // complaint on stderr, and then set the option.
  unsigned Number;
  bool OK = Name == "split-spill-mode" ? is_contained({"default", "size", "speed"}, Value)
                                       : !Value.getAsInteger(10, Number);
  if (!OK)
    return createStringError(inconvertibleErrorCode(),
                             "'" + Arg + "': '" + Value + "' is not a value of -" + Name);
  return Error::success();
}

FunctionAllocatorOptions::FunctionAllocatorOptions(ArrayRef<std::string> Args)
    : Lock(optionsLock()) {
  auto &Registered = cl::getRegisteredOptions(); // a reference: no copy of the table
  for (const std::string &A : Args) {
    auto [Name, Value] = split(A);
    cl::Option *O = Registered.lookup(Name);
    // Checked when the model was loaded; an option the user gave stays as given.
    if (!O || O->getNumOccurrences())
      continue;
    if (!O->addOccurrence(0, Name, Value))
      Set.push_back(Name.str());
    else
      O->reset();
  }
}

FunctionAllocatorOptions::~FunctionAllocatorOptions() {
  auto &Registered = cl::getRegisteredOptions(); // a reference: no copy of the table
  for (const std::string &Name : Set)
    if (cl::Option *O = Registered.lookup(Name))
      O->reset();
}

} // namespace smartcc
