#include "runtime/compile/AllocatorsByBytes.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/measure/SizeMeasurer.h"
#include "llvm/IR/Module.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <optional>

using namespace llvm;

namespace smartcc {
namespace {

MemoryBufferRef bufferOf(StringRef Object) { return MemoryBufferRef(Object, "<allocation>"); }

Error emitWith(Module &M, const AllocatorPlan &Plan, EmitObjectWithFn Emit,
               SmallVectorImpl<char> &Object) {
  ScopedAllocatorPlan Scope(Plan);
  return Emit(M, Object);
}

Expected<uint64_t> imageBytes(StringRef Object) {
  Expected<ObjectSize> Size = measureObject(bufferOf(Object));
  if (!Size)
    return Size.takeError();
  return Size->linkedImageBytes();
}

// A copy of M (in M's context) to code-generate: read back from its bitcode, use-list orders
// included. CloneModule does not keep the order of a value's uses, on which instruction
// selection depends: an AArch64 object of a clone was 4 bytes smaller than clang's, so the
// reference allocation would not have been clang's.
Expected<std::unique_ptr<Module>> copyOf(Module &M, StringRef Bitcode) {
  return parseBitcodeFile(MemoryBufferRef(Bitcode, M.getModuleIdentifier()), M.getContext());
}

// M's bitcode, use-list orders included: what copyOf reads.
SmallString<0> bitcodeOf(const Module &M) {
  SmallString<0> Bitcode;
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(M, OS, /*ShouldPreserveUseListOrder=*/true);
  return Bitcode;
}

// The reference allocation (R.Plan with its Default) of a copy of M: its object, each
// function's bytes in R.Bytes[0], its image bytes in R.FirstBytes and R.MixBytes, and with
// RecordFeatures each function's features in R.Features. Its failure is the whole choice's.
Expected<SmallString<0>> referenceObject(Module &M, StringRef Bitcode, EmitObjectWithFn Emit,
                                         bool RecordFeatures, BytesAllocation &R) {
  Expected<std::unique_ptr<Module>> Copy = copyOf(M, Bitcode);
  if (!Copy)
    return Copy.takeError();
  AllocatorPlan Whole = R.Plan;
  if (RecordFeatures)
    Whole.Features = &R.Features;
  SmallString<0> First;
  ++R.Codegens;
  if (Error E = emitWith(**Copy, Whole, Emit, First))
    return std::move(E);
  Expected<std::map<std::string, uint64_t>> Sizes = functionImageBytes(bufferOf(First));
  if (!Sizes)
    return Sizes.takeError();
  R.Bytes[0] = std::move(*Sizes);
  Expected<uint64_t> FirstBytes = imageBytes(First);
  if (!FirstBytes)
    return FirstBytes.takeError();
  R.FirstBytes = R.MixBytes = *FirstBytes;
  return std::move(First);
}

// R.Object: Mix if smaller than First as a whole, else First with the plan cleared.
Error keepMixIfSmaller(SmallString<0> Mix, SmallString<0> First, BytesAllocation &R) {
  Expected<uint64_t> MixBytes = imageBytes(Mix);
  if (!MixBytes)
    return MixBytes.takeError();
  if (*MixBytes >= R.FirstBytes) {
    // Not smaller as a whole (the functions interact after all, through shared constants or
    // outlined sequences): the reference allocation stays.
    R.Plan.ByFunction.clear();
    R.FunctionsMoved = 0;
    R.Object = std::move(First);
    return Error::success();
  }
  R.MixBytes = *MixBytes;
  R.Object = std::move(Mix);
  return Error::success();
}

// The mix of R.Plan (First: the reference object) as R.Object, unless nothing moved or the mix
// is not smaller as a whole.
Error finishMix(Module &M, EmitObjectWithFn Emit, SmallString<0> First, BytesAllocation &R) {
  if (R.FunctionsMoved == 0) {
    R.Object = std::move(First);
    return Error::success();
  }
  SmallString<0> Mix;
  ++R.Codegens;
  if (Error E = emitWith(M, R.Plan, Emit, Mix))
    return E;
  return keepMixIfSmaller(std::move(Mix), std::move(First), R);
}

} // namespace

Expected<BytesAllocation> allocateByBytes(Module &M, ArrayRef<AllocatorChoice> Allocators,
                                          EmitObjectWithFn Emit, bool RecordFeatures,
                                          bool PlanOnly) {
  if (Allocators.empty())
    return createStringError(inconvertibleErrorCode(), "no register allocators to choose from");
  BytesAllocation R;
  R.Plan.Choices.assign(Allocators.begin(), Allocators.end());
  // Each allocator on a copy of the module (code generation rewrites it): its object and each
  // function's bytes in it.
  std::vector<std::optional<std::map<std::string, uint64_t>>> &Bytes = R.Bytes;
  Bytes.resize(Allocators.size());
  SmallString<0> Bitcode = bitcodeOf(M);
  Expected<SmallString<0>> First = referenceObject(M, Bitcode, Emit, RecordFeatures, R);
  if (!First)
    return First.takeError();
  for (unsigned I = 1; I != Allocators.size(); ++I) {
    Expected<std::unique_ptr<Module>> Copy = copyOf(M, Bitcode);
    if (!Copy)
      return Copy.takeError();
    AllocatorPlan Whole = R.Plan;
    Whole.Default = I;
    SmallString<0> Object;
    ++R.Codegens;
    if (Error E = emitWith(**Copy, Whole, Emit, Object)) {
      R.Failed.push_back(Allocators[I].name() + ": " + toString(std::move(E)));
      continue;
    }
    Expected<std::map<std::string, uint64_t>> Sizes = functionImageBytes(bufferOf(Object));
    if (!Sizes) {
      R.Failed.push_back(Allocators[I].name() + ": " + toString(Sizes.takeError()));
      continue;
    }
    Bytes[I] = std::move(*Sizes);
  }
  // Each function of the first object at its smallest allocation; the first wins ties, and an
  // allocator that did not define the function (it cannot happen, unless its object failed to
  // read) does not get it.
  for (const auto &[Name, Reference] : *Bytes[0]) {
    ++R.Functions;
    unsigned Best = 0;
    uint64_t BestBytes = Reference;
    for (unsigned I = 1; I != Allocators.size(); ++I) {
      if (!Bytes[I])
        continue;
      auto It = Bytes[I]->find(Name);
      if (It != Bytes[I]->end() && It->second < BestBytes) {
        Best = I;
        BestBytes = It->second;
      }
    }
    if (Best != 0) {
      R.Plan.ByFunction[Name] = Best;
      ++R.FunctionsMoved;
    }
  }
  if (PlanOnly)
    return R;
  if (Error E = finishMix(M, Emit, std::move(*First), R))
    return std::move(E);
  return R;
}

Expected<BytesAllocation> allocateByProposals(Module &M, const AllocatorModel &Model,
                                              EmitObjectWithFn Emit, bool PlanOnly) {
  BytesAllocation R;
  R.Plan.Choices = Model.allocators();
  R.Bytes.resize(2);
  SmallString<0> Bitcode = bitcodeOf(M);
  // The reference allocation, each function's features recorded as it is allocated.
  Expected<SmallString<0>> Reference =
      referenceObject(M, Bitcode, Emit, /*RecordFeatures=*/true, R);
  if (!Reference)
    return Reference.takeError();
  SmallString<0> First = std::move(*Reference);
  const ProposalGates &Gates = Model.gates();
  uint64_t ReferenceBytes = 0;
  for (const auto &KV : *R.Bytes[0])
    ReferenceBytes += KV.second;
  if (ReferenceBytes < Gates.MinReferenceBytes) {
    // A small module: what a proposal could save does not pay for its code generations.
    R.Functions = R.Bytes[0]->size();
    R.Stopped = BytesAllocation::StoppedAt::SmallModule;
    if (!PlanOnly)
      R.Object = std::move(First);
    return R;
  }
  // Every function at its proposal.
  AllocatorPlan Proposed = R.Plan;
  for (const auto &[Name, Features] : R.Features)
    Proposed.ByFunction[Name] = Model.propose(Features);
  SmallString<0> Second;
  {
    Expected<std::unique_ptr<Module>> Copy = copyOf(M, Bitcode);
    if (!Copy)
      return Copy.takeError();
    ++R.Codegens;
    if (Error E = emitWith(**Copy, Proposed, Emit, Second)) {
      // (PBQP cannot allocate some functions: then nothing moves.)
      R.Failed.push_back("proposals: " + toString(std::move(E)));
      R.Functions = R.Bytes[0]->size();
      if (!PlanOnly)
        R.Object = std::move(First);
      return R;
    }
    Expected<std::map<std::string, uint64_t>> Sizes = functionImageBytes(bufferOf(Second));
    if (!Sizes)
      return Sizes.takeError();
    R.Bytes[1] = std::move(*Sizes);
  }
  // Each function keeps its proposal where it was smaller. Functions' bytes add up (one's
  // allocation does not change another's), so what the mix saves over the reference, and what
  // the proposals' object saves as a whole, are known before the mix is made. A function of
  // equal bytes either way asks for no mix: only one that its proposal made larger does.
  int64_t MixGain = 0, WholeGain = 0;
  bool AnyLarger = false;
  for (const auto &[Name, Reference] : *R.Bytes[0]) {
    ++R.Functions;
    auto P = Proposed.ByFunction.find(Name);
    auto It = R.Bytes[1]->find(Name);
    if (P == Proposed.ByFunction.end() || It == R.Bytes[1]->end())
      continue;
    WholeGain += int64_t(Reference) - int64_t(It->second);
    AnyLarger |= It->second > Reference;
    if (It->second >= Reference)
      continue;
    MixGain += int64_t(Reference) - int64_t(It->second);
    R.Plan.ByFunction[Name] = P->getValue();
    ++R.FunctionsMoved;
  }
  if (PlanOnly)
    return R;
  // None larger: the proposals' object is the mix (its equal functions as small as the
  // reference's), kept if smaller as a whole.
  if (R.FunctionsMoved != 0 && !AnyLarger) {
    R.Plan.ByFunction = Proposed.ByFunction;
    R.FunctionsMoved = R.Plan.ByFunction.size();
    if (Error E = keepMixIfSmaller(std::move(Second), std::move(First), R))
      return std::move(E);
    return R;
  }
  if (R.FunctionsMoved != 0 && R.Plan.ByFunction.size() != Proposed.ByFunction.size() &&
      MixGain - std::max<int64_t>(WholeGain, 0) < int64_t(Gates.MinMixGainBytes)) {
    // The mix would save little over the better whole object: that one ships instead of a
    // third code generation (every proposal or none, below).
    R.Stopped = BytesAllocation::StoppedAt::SmallMixGain;
    if (WholeGain > 0)
      R.Plan.ByFunction = Proposed.ByFunction;
    else
      R.Plan.ByFunction.clear();
    R.FunctionsMoved = R.Plan.ByFunction.size();
  }
  // Every proposal kept: the second object is the mix already.
  if (R.FunctionsMoved != 0 && R.Plan.ByFunction.size() == Proposed.ByFunction.size()) {
    if (Error E = keepMixIfSmaller(std::move(Second), std::move(First), R))
      return std::move(E);
    return R;
  }
  if (Error E = finishMix(M, Emit, std::move(First), R))
    return std::move(E);
  return R;
}

} // namespace smartcc
