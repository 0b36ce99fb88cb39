// The learning environment: one translation unit's pre-optimization module (as harvested:
// the frontend's IR at the user's -O level, minsize/optsize under -Oz), an action space, and
// observations and rewards as in CodeZero/CompilerDream, but against real clang-22 -Oz.
//
//   reset(benchmark)  loads the module; measures the baselines: C0 = IR instructions at the
//                     start, Coz = IR instructions after clang's own pipeline (and its object
//                     bytes on request)
//   step(action)      applies a pass, a macro pipeline or an option in-process
//   reward            IR:    (C_{t-1} - C_t) / max(1, C0 - Coz)             (the papers' reward)
//                     bytes: (B_{t-1} - B_t) / max(1, B0 - Boz), B = object bytes after the
//                            current state is finished by code generation
//
// Identical states are cached by structural IR hash, function attributes and the option actions
// taken: (state, action) -> result, and recent
// states' bitcode, so repeated prefixes (search, PPO epochs over the same programs) cost no
// pass runs. Steps run in this process: wrap the environment in an EnvWorker (separate
// process) to survive passes that crash or hang.
#pragma once
#include "policies/ActionSpace.h"
#include "policies/AutophaseFeatures.h"
#include "policies/ModuleObservation.h"
#include "runtime/compile/CodegenContext.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}

namespace smartcc {

class PipelineRunner;

struct Benchmark {
  std::string Name;                 // for reports (package/source or hash)
  std::string BitcodePath;
  std::vector<std::string> CC1Args; // the TU's cc1 arguments (from the harvest's meta record)
};

enum class RewardKind { IRInstructions, ObjectBytes };

struct EnvOptions {
  RewardKind Reward = RewardKind::IRInstructions;
  unsigned MaxSteps = 45;
  size_t BitcodeCacheBytes = size_t(256) << 20;
  // What observation() holds before the action histogram (ModuleObservation.h); Vocab is
  // needed when it uses IR2Vec.
  ObservationKind Observation = ObservationKind::Autophase;
  const IR2VecVocabulary *Vocab = nullptr;
};

struct StepResult {
  double Reward = 0;
  bool Done = false;
  bool Failed = false;      // the action could not be applied (pipeline error)
  bool CacheHit = false;
  std::string Error;
};

struct EnvStats {
  uint64_t Steps = 0, CacheHits = 0, PassRuns = 0, Materializations = 0, Codegens = 0;
};

class CompilerEnv {
public:
  CompilerEnv(ActionSpace Space, EnvOptions Options);
  ~CompilerEnv();

  llvm::Error reset(const Benchmark &B);
  StepResult step(size_t ActionIndex);

  // Autophase features of the current state.
  const AutophaseVector &autophase() const { return Current.Features; }
  // Autophase (log-scaled) followed by the action histogram (counts / MaxSteps): the
  // observation vector of the agents.
  std::vector<float> observation() const;
  uint64_t irInstructions() const { return Current.IRInstructions; }
  // IR instructions of the current state once finished for codegen (mandatory inlining done):
  // what an episode's result is judged on.
  llvm::Expected<uint64_t> finishedIRInstructions();
  uint64_t initialIR() const { return InitialIR; }
  uint64_t clangIR() const { return ClangIR; }
  // Object bytes (allocated sections) of the current state after codegen, with the option
  // actions taken so far; and of clang's own -O pipeline on the initial module.
  llvm::Expected<uint64_t> objectBytes();
  llvm::Expected<uint64_t> clangObjectBytes();
  // The same objects by section class (code, unwind tables, data, FDEs).
  llvm::Expected<ObjectSize> objectSize();
  llvm::Expected<ObjectSize> clangObjectSize();
  // The current state's image bytes as the compiler would ship them: where its object is
  // smaller than clang's but breaks the compiler's default ship rules (runtime/decide/Decision.h: no
  // RAM growth, no code bought with unwind tables), clang's object ships, so clang's bytes.
  // Objective::ShippedBytes: what the compiler's users get, not what the candidate measures.
  llvm::Expected<uint64_t> shippedBytes();
  // The module of the current state (materialized on demand).
  llvm::Expected<llvm::Module *> module();

  const ActionSpace &actions() const { return Space; }
  const std::vector<size_t> &history() const { return History; }
  const EnvStats &stats() const { return Stats; }
  unsigned maxSteps() const { return Options.MaxSteps; }

private:
  struct State {
    uint64_t Hash = 0;
    uint64_t IRInstructions = 0;
    AutophaseVector Features{};
    std::vector<float> Embedding; // IR2Vec observation, when the options ask for it
    std::vector<size_t> OptionsTaken; // option actions, in order (they shape codegen)
  };
  struct Transition {
    State Next;
  };
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, size_t> &P) const {
      return std::hash<uint64_t>()(P.first * 1000003u ^ P.second);
    }
  };

  State describe(llvm::Module &M) const;
  llvm::Error materialize();
  llvm::Error applyAction(llvm::Module &M, const Action &A);
  void rememberBitcode(uint64_t Hash, llvm::Module &M);
  llvm::Expected<ObjectSize> sizeOf(llvm::Module &M, const std::vector<size_t> &Options);
  void applyLLVMArgs(const std::vector<size_t> &Options);

  ActionSpace Space;
  EnvOptions Options;
  Benchmark Bench;
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<CodegenContext> Codegen;
  std::unique_ptr<PipelineRunner> Runner;
  std::unique_ptr<llvm::Module> Pristine; // as harvested: clang's baseline starts here
  // Where episodes start: the harvested module after mandatory inlining, so that every state an
  // agent sees (and is rewarded on) honours always_inline; replays start here too.
  std::unique_ptr<llvm::Module> Initial;
  std::unique_ptr<llvm::Module> Live;     // the current state, when materialized
  State Current, Start;
  bool LiveIsCurrent = false;
  uint64_t InitialIR = 0, ClangIR = 0;
  std::optional<uint64_t> InitialBytes, LastBytes;
  std::optional<ObjectSize> ClangSize;
  std::vector<size_t> History;
  uint64_t PrevIR = 0;
  std::unordered_map<std::pair<uint64_t, size_t>, Transition, PairHash> Transitions;
  std::list<std::pair<uint64_t, std::string>> BitcodeLRU; // most recent first
  std::unordered_map<uint64_t, std::list<std::pair<uint64_t, std::string>>::iterator> BitcodeIndex;
  size_t BitcodeBytes = 0;
  EnvStats Stats;
};

} // namespace smartcc
