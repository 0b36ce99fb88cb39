#include "policies/env/EnvWorker.h"
#include "runtime/support/FileDescriptorIO.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

namespace {

// Messages are JSON objects, length-prefixed: small, debuggable, and the cost is nothing next
// to a pass run.
bool writeMessage(int Fd, const std::string &Text) {
  uint32_t Len = Text.size();
  std::string Buf(reinterpret_cast<const char *>(&Len), 4);
  Buf += Text;
  return writeAll(Fd, Buf.data(), Buf.size());
}

bool readExactly(int Fd, char *P, size_t Len, int TimeoutMs) {
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(TimeoutMs);
  while (Len) {
    int Left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                       Deadline - std::chrono::steady_clock::now())
                       .count());
    if (TimeoutMs >= 0 && Left <= 0)
      return false;
    pollfd PFD{Fd, POLLIN, 0};
    int R = ::poll(&PFD, 1, TimeoutMs >= 0 ? Left : -1);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      return false;
    ssize_t N = ::read(Fd, P, Len);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    P += N;
    Len -= size_t(N);
  }
  return true;
}

bool readMessage(int Fd, std::string &Text, int TimeoutMs) {
  uint32_t Len;
  if (!readExactly(Fd, reinterpret_cast<char *>(&Len), 4, TimeoutMs))
    return false;
  Text.resize(Len);
  return readExactly(Fd, Text.data(), Len, TimeoutMs);
}

json::Array toJSON(const std::vector<float> &V) {
  json::Array A;
  for (float F : V)
    A.push_back(double(F));
  return A;
}

std::string stateReply(CompilerEnv &Env, json::Object Extra) {
  Extra["ir"] = int64_t(Env.irInstructions());
  Extra["initial_ir"] = int64_t(Env.initialIR());
  Extra["clang_ir"] = int64_t(Env.clangIR());
  Extra["obs"] = toJSON(Env.observation());
  std::string S;
  raw_string_ostream(S) << json::Value(std::move(Extra));
  return S;
}

[[noreturn]] void exitOnFatal(void *, const char *, bool) { _exit(3); }

// The worker: serves reset/step/bytes requests until its pipe closes.
[[noreturn]] void workerMain(int In, int Out, const ActionSpace &Space, EnvOptions Options) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  for (int Sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP})
    std::signal(Sig, SIG_DFL);
  remove_fatal_error_handler();
  install_fatal_error_handler(exitOnFatal);
  CompilerEnv Env(Space, Options);
  std::string Request;
  while (readMessage(In, Request, -1)) {
    Expected<json::Value> V = json::parse(Request);
    const json::Object *O = V ? V->getAsObject() : nullptr;
    if (!O)
      _exit(4);
    std::string Reply;
    StringRef Op = O->getString("op").value_or("");
    if (Op == "reset") {
      Benchmark B;
      B.Name = O->getString("name").value_or("").str();
      B.BitcodePath = O->getString("bitcode").value_or("").str();
      for (const json::Value &A : *O->getArray("cc1_args"))
        B.CC1Args.push_back(A.getAsString()->str());
      if (Error E = Env.reset(B))
        raw_string_ostream(Reply) << json::Value(json::Object{{"error", toString(std::move(E))}});
      else
        Reply = stateReply(Env, json::Object{});
    } else if (Op == "step") {
      StepResult R = Env.step(size_t(*O->getInteger("action")));
      Reply = stateReply(Env, json::Object{{"reward", R.Reward}, {"done", R.Done},
                                           {"failed", R.Failed}, {"error", R.Error},
                                           {"cache_hit", R.CacheHit}});
    } else if (Op == "bytes" || Op == "clang_bytes") {
      Expected<uint64_t> B = Op == "bytes" ? Env.objectBytes() : Env.clangObjectBytes();
      json::Object O = B ? json::Object{{"bytes", int64_t(*B)}}
                         : json::Object{{"error", toString(B.takeError())}};
      raw_string_ostream(Reply) << json::Value(std::move(O));
    }
    if (!writeMessage(Out, Reply))
      _exit(5);
  }
  _exit(0);
}

} // namespace

Expected<std::unique_ptr<EnvWorker>> EnvWorker::spawn(ActionSpace Space, EnvOptions Options,
                                                      unsigned StepTimeoutMs) {
  std::unique_ptr<EnvWorker> W(new EnvWorker(std::move(Space), Options, StepTimeoutMs));
  if (Error E = W->start())
    return std::move(E);
  return std::move(W);
}

EnvWorker::~EnvWorker() { stop(); }

Error EnvWorker::start() {
  int Down[2], Up[2];
  if (pipe2(Down, O_CLOEXEC) || pipe2(Up, O_CLOEXEC))
    return createStringError(std::error_code(errno, std::generic_category()), "pipe");
  std::fflush(nullptr);
  outs().flush();
  errs().flush();
  Pid = fork();
  if (Pid < 0)
    return createStringError(std::error_code(errno, std::generic_category()), "fork");
  if (Pid == 0) {
    ::close(Down[1]);
    ::close(Up[0]);
    workerMain(Down[0], Up[1], Space, Options);
  }
  ::close(Down[0]);
  ::close(Up[1]);
  ToChild = Down[1];
  FromChild = Up[0];
  return Error::success();
}

void EnvWorker::stop() {
  if (Pid < 0)
    return;
  ::close(ToChild);
  ::close(FromChild);
  kill(Pid, SIGKILL);
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (WIFSIGNALED(Status) && WTERMSIG(Status) != SIGKILL)
    LastDeath = "signal " + std::to_string(WTERMSIG(Status));
  else if (WIFEXITED(Status))
    LastDeath = "exit " + std::to_string(WEXITSTATUS(Status));
  Pid = -1;
}

bool EnvWorker::send(const std::string &Message) {
  return Pid > 0 && writeMessage(ToChild, Message);
}

bool EnvWorker::receive(std::string &Message) {
  if (readMessage(FromChild, Message, int(TimeoutMs)))
    return true;
  // Dead or stuck: which one decides the record. A dead worker's pipe closes a moment before
  // its exit status can be collected, so give it that moment.
  int Status = 0;
  bool Dead = false;
  for (int I = 0; I < 200 && !Dead; ++I) {
    Dead = waitpid(Pid, &Status, WNOHANG) == Pid;
    if (!Dead)
      usleep(1000);
  }
  LastDeath = !Dead ? "timeout"
              : WIFSIGNALED(Status) ? "signal " + std::to_string(WTERMSIG(Status))
                                    : "exit " + std::to_string(WEXITSTATUS(Status));
  if (Dead)
    Pid = -1;
  std::string Why = LastDeath;
  stop();
  LastDeath = Why;
  return false;
}

static bool readState(const json::Object &O, std::vector<float> &Obs, uint64_t &IR,
                      uint64_t &Initial, uint64_t &Clang) {
  const json::Array *A = O.getArray("obs");
  if (!A)
    return false;
  Obs.clear();
  for (const json::Value &V : *A)
    Obs.push_back(float(*V.getAsNumber()));
  IR = uint64_t(O.getInteger("ir").value_or(0));
  Initial = uint64_t(O.getInteger("initial_ir").value_or(0));
  Clang = uint64_t(O.getInteger("clang_ir").value_or(0));
  return true;
}

Error EnvWorker::reset(const Benchmark &B) {
  Bench = B;
  History.clear();
  Applied.clear();
  if (Pid < 0)
    if (Error E = start())
      return E;
  json::Array Args;
  for (const std::string &A : B.CC1Args)
    Args.push_back(A);
  std::string Req;
  raw_string_ostream(Req) << json::Value(json::Object{
      {"op", "reset"}, {"name", B.Name}, {"bitcode", B.BitcodePath}, {"cc1_args", std::move(Args)}});
  std::string Reply;
  if (!send(Req) || !receive(Reply))
    return createStringError(inconvertibleErrorCode(), "environment worker died in reset (%s)",
                             LastDeath.c_str());
  Expected<json::Value> V = json::parse(Reply);
  if (!V || !V->getAsObject())
    return createStringError(inconvertibleErrorCode(), "bad reply from the worker");
  if (std::optional<StringRef> Err = V->getAsObject()->getString("error"))
    return createStringError(inconvertibleErrorCode(), "%s", Err->str().c_str());
  readState(*V->getAsObject(), Obs, IR, InitialIR, ClangIR);
  return Error::success();
}

StepResult EnvWorker::step(size_t Action, double Penalty) {
  StepResult R;
  std::string Reply;
  if (send("{\"op\":\"step\",\"action\":" + std::to_string(Action) + "}") && receive(Reply)) {
    Expected<json::Value> V = json::parse(Reply);
    const json::Object *O = V ? V->getAsObject() : nullptr;
    if (O && readState(*O, Obs, IR, InitialIR, ClangIR)) {
      R.Reward = O->getNumber("reward").value_or(0);
      R.Done = O->getBoolean("done").value_or(false);
      R.Failed = O->getBoolean("failed").value_or(false);
      R.CacheHit = O->getBoolean("cache_hit").value_or(false);
      R.Error = O->getString("error").value_or("").str();
      History.push_back(Action);
      Applied.push_back(Action);
      return R;
    }
    consumeError(V.takeError());
  }
  // The worker died or hung on this action: record it, rebuild the state before it by
  // replaying the actions that took effect (not earlier failed attempts).
  CrashRecord Rec{Bench.Name, Applied, LastDeath};
  Rec.Actions.push_back(Action);
  Crashes.push_back(Rec);
  std::vector<size_t> Attempts = History, Before = Applied;
  R.Failed = true;
  R.Reward = -Penalty;
  R.Error = "action '" + Space.Actions[Action].Name + "' killed the environment (" +
            Rec.What + ")";
  if (Error E = reset(Bench)) {
    R.Error += "; restart failed: " + toString(std::move(E));
    R.Done = true;
    return R;
  }
  for (size_t A : Before)
    step(A, Penalty);
  History = Attempts;
  History.push_back(Action); // the attempt counts as a step of the episode
  R.Done = History.size() >= Options.MaxSteps;
  return R;
}

Expected<uint64_t> EnvWorker::objectBytes() { return askBytes("bytes"); }

Expected<uint64_t> EnvWorker::clangObjectBytes() { return askBytes("clang_bytes"); }

Expected<uint64_t> EnvWorker::askBytes(StringRef Op) {
  std::string Reply;
  if (!send(("{\"op\":\"" + Op + "\"}").str()) || !receive(Reply))
    return createStringError(inconvertibleErrorCode(), "environment worker died (%s)",
                             LastDeath.c_str());
  Expected<json::Value> V = json::parse(Reply);
  if (!V)
    return V.takeError();
  if (std::optional<int64_t> B = V->getAsObject()->getInteger("bytes"))
    return uint64_t(*B);
  return createStringError(inconvertibleErrorCode(), "%s",
                           V->getAsObject()->getString("error").value_or("?").str().c_str());
}

} // namespace smartcc
