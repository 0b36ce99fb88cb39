// A CompilerEnv in a child process, so that a pass order that crashes LLVM or never ends
// cannot kill a training run. The parent keeps the episode's action history; when the worker
// dies (signal, LLVM fatal error) or exceeds the step timeout, the parent records the
// offending sequence, starts a fresh worker, replays the history up to the bad action, and
// reports the step as failed with a penalty, so the episode continues.
#pragma once
#include "policies/env/CompilerEnv.h"
#include <sys/types.h>

namespace smartcc {

struct CrashRecord {
  std::string Benchmark;
  std::vector<size_t> Actions; // the history, ending with the action that failed
  std::string What;            // "signal 11", "timeout", "exit 3"
};

class EnvWorker {
public:
  static llvm::Expected<std::unique_ptr<EnvWorker>> spawn(ActionSpace Space, EnvOptions Options,
                                                          unsigned StepTimeoutMs = 60000);
  ~EnvWorker();

  llvm::Error reset(const Benchmark &B);
  // A crashed/hung step returns Failed with reward -Penalty and leaves the state unchanged.
  StepResult step(size_t Action, double Penalty = 1.0);
  const std::vector<float> &observation() const { return Obs; }
  uint64_t irInstructions() const { return IR; }
  uint64_t initialIR() const { return InitialIR; }
  uint64_t clangIR() const { return ClangIR; }
  llvm::Expected<uint64_t> objectBytes();
  llvm::Expected<uint64_t> clangObjectBytes(); // clang -Oz's object of the episode's module
  const std::vector<CrashRecord> &crashes() const { return Crashes; }
  const ActionSpace &actions() const { return Space; }
  const std::vector<size_t> &history() const { return History; }

private:
  EnvWorker(ActionSpace Space, EnvOptions Options, unsigned Timeout)
      : Space(std::move(Space)), Options(Options), TimeoutMs(Timeout) {}
  llvm::Error start();
  llvm::Expected<uint64_t> askBytes(llvm::StringRef Op); // "bytes" or "clang_bytes"
  void stop();
  bool send(const std::string &Message);
  bool receive(std::string &Message); // false on death or timeout (then the worker is gone)

  ActionSpace Space;
  EnvOptions Options;
  unsigned TimeoutMs;
  pid_t Pid = -1;
  int ToChild = -1, FromChild = -1;
  std::string LastDeath;
  Benchmark Bench;
  std::vector<size_t> History; // every attempted action of the episode
  std::vector<size_t> Applied; // the ones that took effect (what a replay repeats)
  std::vector<float> Obs;
  uint64_t IR = 0, InitialIR = 0, ClangIR = 0;
  std::vector<CrashRecord> Crashes;
};

} // namespace smartcc
