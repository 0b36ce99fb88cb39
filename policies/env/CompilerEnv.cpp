#include "policies/env/CompilerEnv.h"
#include "policies/Observation.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/decide/Decision.h"
#include "runtime/compile/OptionActions.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "runtime/compile/PipelineBuilder.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/StructuralHash.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace smartcc {

CompilerEnv::CompilerEnv(ActionSpace Space, EnvOptions Options)
    : Space(std::move(Space)), Options(Options) {}

CompilerEnv::~CompilerEnv() {
  Live.reset(); // modules before their context
  Initial.reset();
  Pristine.reset();
}

CompilerEnv::State CompilerEnv::describe(Module &M) const {
  State S;
  S.OptionsTaken = Current.OptionsTaken;
  hash_code Options = hash_combine_range(S.OptionsTaken.begin(), S.OptionsTaken.end());
  // StructuralHash leaves function attributes out, but they are part of the state: clang's -Os
  // pipeline on -Oz's output can give the same instructions with optsize where -Oz has minsize,
  // and code generation then differs. Without them such states shared cached transitions and
  // bitcode, and a sequence could be measured on another state's module.
  hash_code Attributes = hash_value(M.size());
  for (const Function &F : M)
    Attributes = hash_combine(
        Attributes, F.getAttributes().getFnAttrs().getAsString(/*InAttrGrp=*/true));
  S.Hash = uint64_t(
      hash_combine(StructuralHash(M, /*DetailedHash=*/true), Attributes, Options));
  S.IRInstructions = countIRInstructions(M);
  S.Features = computeAutophase(M);
  if (usesIR2Vec(this->Options.Observation) && this->Options.Vocab)
    S.Embedding = moduleObservation(M, ObservationKind::IR2Vec, this->Options.Vocab);
  return S;
}

// cl::opt state is process-global: the options of the current state are re-applied from the
// defaults whenever they may have changed (one environment per process). Only options that the
// space's option actions name are reset, so the host program's own options survive.
void CompilerEnv::applyLLVMArgs(const std::vector<size_t> &Taken) {
  for (const Action &A : Space.Actions)
    resetLLVMOptionsNamedIn(A.LLVMArgs);
  std::vector<const char *> Argv{"smartcc-env"};
  for (size_t I : Taken)
    for (const std::string &A : Space.Actions[I].LLVMArgs)
      Argv.push_back(A.c_str());
  if (Argv.size() > 1)
    cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &nulls());
}

Error CompilerEnv::reset(const Benchmark &B) {
  bool SameBenchmark = Initial && B.BitcodePath == Bench.BitcodePath;
  Bench = B;
  History.clear();
  Current = State();
  applyLLVMArgs({});
  if (!SameBenchmark) {
    Live.reset();
    Initial.reset();
    Pristine.reset();
    Ctx = std::make_unique<LLVMContext>();
    Transitions.clear();
    BitcodeLRU.clear();
    BitcodeIndex.clear();
    BitcodeBytes = 0;
    InitialBytes.reset();
    ClangSize.reset();
    Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(B.CC1Args);
    if (!CG)
      return CG.takeError();
    Codegen = std::move(*CG);
    Expected<std::unique_ptr<PipelineRunner>> R = PipelineRunner::create(Codegen->instance());
    if (!R)
      return R.takeError();
    Runner = std::move(*R);
    Expected<std::unique_ptr<Module>> M = loadBitcodeFile(B.BitcodePath, *Ctx);
    if (!M)
      return M.takeError();
    Pristine = std::move(*M);
    std::unique_ptr<Module> Clang = CloneModule(*Pristine);
    if (Error E = Runner->run(*Clang, "default"))
      return E;
    ClangIR = countIRInstructions(*Clang);
    Initial = CloneModule(*Pristine);
    if (Error E = Runner->run(*Initial, MandatoryFinish))
      return E;
  }
  Live = CloneModule(*Initial);
  Start = describe(*Live);
  Current = Start;
  LiveIsCurrent = true;
  InitialIR = PrevIR = Start.IRInstructions;
  LastBytes.reset();
  return Error::success();
}

void CompilerEnv::rememberBitcode(uint64_t Hash, Module &M) {
  if (BitcodeIndex.count(Hash))
    return;
  std::string Bytes;
  raw_string_ostream OS(Bytes);
  WriteBitcodeToFile(M, OS);
  OS.flush();
  BitcodeBytes += Bytes.size();
  BitcodeLRU.emplace_front(Hash, std::move(Bytes));
  BitcodeIndex[Hash] = BitcodeLRU.begin();
  while (BitcodeBytes > Options.BitcodeCacheBytes && BitcodeLRU.size() > 1) {
    BitcodeBytes -= BitcodeLRU.back().second.size();
    BitcodeIndex.erase(BitcodeLRU.back().first);
    BitcodeLRU.pop_back();
  }
}

Error CompilerEnv::applyAction(Module &M, const Action &A) {
  switch (A.Kind) {
  case ActionKind::Pass:
  case ActionKind::Macro:
    ++Stats.PassRuns;
    return Runner->run(M, A.Pipeline);
  case ActionKind::Option:
    addFunctionAttributes(M, A.FunctionAttrs);
    return Error::success();
  }
  return Error::success();
}

// Brings Live to the current state: from the bitcode cache if it is there, else by replaying
// the episode's actions on the pristine module.
Error CompilerEnv::materialize() {
  if (LiveIsCurrent)
    return Error::success();
  ++Stats.Materializations;
  applyLLVMArgs(Current.OptionsTaken);
  auto It = BitcodeIndex.find(Current.Hash);
  if (It != BitcodeIndex.end()) {
    BitcodeLRU.splice(BitcodeLRU.begin(), BitcodeLRU, It->second);
    Expected<std::unique_ptr<Module>> M = parseBitcodeFile(
        MemoryBufferRef(It->second->second, Bench.Name), *Ctx);
    if (!M)
      return M.takeError();
    Live = std::move(*M);
  } else {
    Live = CloneModule(*Initial);
    std::vector<size_t> Taken;
    for (size_t A : History) {
      if (Space.Actions[A].Kind == ActionKind::Option) {
        Taken.push_back(A);
        applyLLVMArgs(Taken);
      }
      if (Error E = applyAction(*Live, Space.Actions[A]))
        return E;
    }
  }
  LiveIsCurrent = true;
  return Error::success();
}

StepResult CompilerEnv::step(size_t ActionIndex) {
  StepResult R;
  ++Stats.Steps;
  const Action &A = Space.Actions[ActionIndex];
  auto Key = std::make_pair(Current.Hash, ActionIndex);
  auto Hit = Transitions.find(Key);
  if (Hit != Transitions.end()) {
    ++Stats.CacheHits;
    R.CacheHit = true;
    // Leaving a materialized state without running anything: keep its bitcode so a later
    // miss can restore it without replaying (serializing every state costs as much as a pass).
    if (LiveIsCurrent)
      rememberBitcode(Current.Hash, *Live);
    Current = Hit->second.Next;
    LiveIsCurrent = false;
  } else if (Error E = materialize()) {
    R.Failed = true;
    R.Error = toString(std::move(E));
  } else {
    if (A.Kind == ActionKind::Option) {
      Current.OptionsTaken.push_back(ActionIndex);
      applyLLVMArgs(Current.OptionsTaken);
    }
    if (Error E = applyAction(*Live, A)) {
      R.Failed = true;
      R.Error = toString(std::move(E));
    }
    State Next = describe(*Live);
    Transitions[Key] = {Next};
    Current = Next;
  }
  History.push_back(ActionIndex);
  if (Options.Reward == RewardKind::IRInstructions) {
    double Scale = std::max<double>(1.0, double(InitialIR) - double(ClangIR));
    R.Reward = (double(PrevIR) - double(Current.IRInstructions)) / Scale;
  } else {
    Expected<uint64_t> Now = objectBytes();
    Expected<uint64_t> Clang = clangObjectBytes();
    if (!Now || !Clang) {
      consumeError(Now.takeError());
      consumeError(Clang.takeError());
      R.Failed = true;
      R.Error = "code generation failed";
    } else {
      uint64_t Before = LastBytes.value_or(*InitialBytes);
      // The papers' normalization, (C_0 - C_clang), made safe for bytes: unoptimized code can
      // be about as small as clang's (or smaller: big tables unrolled by -Oz), which would turn
      // rewards into raw byte counts. A tenth of clang's size bounds the scale from below.
      double Scale = std::max({1.0, std::abs(double(*InitialBytes) - double(*Clang)),
                               double(*Clang) / 10.0});
      R.Reward = (double(Before) - double(*Now)) / Scale;
      LastBytes = *Now;
    }
  }
  PrevIR = Current.IRInstructions;
  R.Done = History.size() >= Options.MaxSteps;
  return R;
}

std::vector<float> CompilerEnv::observation() const {
  return policyObservation(Options.Observation, Current.Features, Current.Embedding, History,
                           Space.size(), Options.MaxSteps);
}

Expected<Module *> CompilerEnv::module() {
  if (Error E = materialize())
    return std::move(E);
  return Live.get();
}

Expected<ObjectSize> CompilerEnv::sizeOf(Module &M, const std::vector<size_t> &Taken) {
  ++Stats.Codegens;
  applyLLVMArgs(Taken);
  std::unique_ptr<Module> Copy = CloneModule(M); // codegen rewrites the IR it runs on
  if (Error E = Runner->run(*Copy, MandatoryFinish))
    return std::move(E);
  SmallVector<char, 0> Object;
  Expected<ObjectSize> Size = Codegen->emitObject(*Copy, Object);
  applyLLVMArgs(Current.OptionsTaken);
  return Size;
}

Expected<uint64_t> CompilerEnv::finishedIRInstructions() {
  if (Error E = materialize())
    return std::move(E);
  std::unique_ptr<Module> Copy = CloneModule(*Live);
  if (Error E = Runner->run(*Copy, MandatoryFinish))
    return std::move(E);
  return countIRInstructions(*Copy);
}

static Expected<uint64_t> linkedBytes(Expected<ObjectSize> S) {
  if (!S)
    return S.takeError();
  return S->linkedImageBytes();
}

Expected<uint64_t> CompilerEnv::objectBytes() { return linkedBytes(objectSize()); }

Expected<ObjectSize> CompilerEnv::objectSize() {
  if (!InitialBytes) {
    Expected<ObjectSize> B = sizeOf(*Initial, {});
    if (!B)
      return B.takeError();
    InitialBytes = B->linkedImageBytes();
  }
  if (Error E = materialize())
    return std::move(E);
  return sizeOf(*Live, Current.OptionsTaken);
}

Expected<uint64_t> CompilerEnv::clangObjectBytes() { return linkedBytes(clangObjectSize()); }

Expected<ObjectSize> CompilerEnv::clangObjectSize() {
  if (!ClangSize) {
    std::unique_ptr<Module> Clang = CloneModule(*Pristine);
    if (Error E = Runner->run(*Clang, "default"))
      return std::move(E);
    Expected<ObjectSize> B = sizeOf(*Clang, {});
    if (!B)
      return B.takeError();
    ClangSize = *B;
  }
  return *ClangSize;
}

Expected<uint64_t> CompilerEnv::shippedBytes() {
  Expected<ObjectSize> Clang = clangObjectSize();
  if (!Clang)
    return Clang.takeError();
  Expected<ObjectSize> Now = objectSize();
  if (!Now)
    return Now.takeError();
  return shippedImageBytes(*Now, *Clang);
}

} // namespace smartcc
