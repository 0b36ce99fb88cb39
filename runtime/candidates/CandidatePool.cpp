#include "runtime/candidates/CandidatePool.h"
#include "runtime/support/ProcessWait.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <cmath>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

const char *outcomeName(Outcome O) {
  switch (O) {
  case Outcome::NotRun: return "not_run";
  case Outcome::Ok: return "ok";
  case Outcome::Crashed: return "crash";
  case Outcome::Timeout: return "timeout";
  case Outcome::FatalError: return "fatal_error";
  case Outcome::BadPipeline: return "bad_pipeline";
  case Outcome::VerifierFailed: return "verifier";
  case Outcome::Growth: return "growth";
  case Outcome::CodegenFailed: return "codegen_error";
  case Outcome::Unchanged: return "unchanged";
  }
  return "unknown";
}

namespace {

constexpr int FatalExitCode = 3;
CandidateResult *CurrentResult = nullptr; // this process's slot, for the fatal handlers

[[noreturn]] void exitOnFatal(void *, const char *Reason, bool) {
  if (CurrentResult) {
    CurrentResult->Result = Outcome::FatalError;
    CurrentResult->setMessage(Reason);
  }
  _exit(FatalExitCode); // never run LLVM's interrupt handlers: they delete the compiler's files
}

void exitOnBadAlloc(void *, const char *Reason, bool) { exitOnFatal(nullptr, Reason, false); }

// A candidate process must never touch what belongs to the compiler: no signal handler that
// removes the compiler's output files or prints a crash report, no output on its stdout or
// stderr, and no life beyond its parent.
void becomeQuietChild(pid_t Parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != Parent) // the parent died before the line above took effect
    _exit(0);
  for (int Sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGALRM, SIGXCPU,
                  SIGXFSZ, SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    std::signal(Sig, SIG_DFL);
  remove_fatal_error_handler();
  install_fatal_error_handler(exitOnFatal);
  remove_bad_alloc_error_handler();
  install_bad_alloc_error_handler(exitOnBadAlloc);
  int Null = open("/dev/null", O_RDWR);
  if (Null >= 0) {
    dup2(Null, STDOUT_FILENO);
    dup2(Null, STDERR_FILENO);
    close(Null);
  }
}

double millisSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

struct Running {
  pid_t Pid;
  int PidFd; // readable when the process ends; -1 on kernels before 5.3
  size_t Index;
  std::chrono::steady_clock::time_point Start;
};

void recordExit(CandidateResult &R, int Status, bool TimedOut, double Millis) {
  if (TimedOut) {
    R.Result = Outcome::Timeout;
    R.Millis = Millis;
  } else if (WIFSIGNALED(Status)) {
    R.Result = WTERMSIG(Status) == SIGALRM ? Outcome::Timeout : Outcome::Crashed;
    R.Signal = WTERMSIG(Status);
    R.Millis = Millis;
    R.setMessage(strsignal(WTERMSIG(Status)));
  } else if (R.Result == Outcome::NotRun) {
    // Exited without reporting: an exit() deep inside LLVM.
    R.Result = Outcome::FatalError;
    R.Millis = Millis;
    R.setMessage(("exited with status " + std::to_string(WEXITSTATUS(Status))).c_str());
  }
}

// The launcher: forks each candidate from the pristine module it inherited.
[[noreturn]] void launcherMain(pid_t CompilerPid, Module &M,
                               const std::vector<CandidateSpec> &Specs,
                               const CandidateContext &Ctx, CandidateResult *Results,
                               const std::vector<int> &Fds, unsigned Jobs, unsigned TimeoutMs) {
  becomeQuietChild(CompilerPid);
  pid_t Self = getpid();
  std::vector<Running> Active;
  size_t Next = 0;
  while (Next < Specs.size() || !Active.empty()) {
    while (Next < Specs.size() && Active.size() < Jobs) {
      size_t I = Next++;
      pid_t Pid = fork();
      if (Pid == 0) {
        becomeQuietChild(Self);
        CurrentResult = &Results[I];
        alarm(TimeoutMs / 1000 + 2); // a backstop should the launcher itself be stuck
        runCandidate(M, Specs[I], Ctx, Results[I], Fds[I]);
        _exit(0);
      }
      if (Pid < 0) {
        Results[I].Result = Outcome::NotRun;
        Results[I].setMessage((std::string("fork failed: ") + std::strerror(errno)).c_str());
        continue;
      }
      Active.push_back({Pid, openPidFd(Pid), I, std::chrono::steady_clock::now()});
    }
    // Sleep until a candidate ends or the first one overruns its time.
    double Nearest = double(TimeoutMs);
    std::vector<int> PidFds;
    for (const Running &R : Active) {
      Nearest = std::min(Nearest, double(TimeoutMs) - millisSince(R.Start));
      PidFds.push_back(R.PidFd);
    }
    if (!Active.empty())
      waitForAnyExit(PidFds, int(std::ceil(std::max(Nearest, 0.0))) + 1);
    int Status = 0;
    for (pid_t Done; (Done = waitpid(-1, &Status, WNOHANG)) > 0;)
      for (size_t K = 0; K < Active.size(); ++K)
        if (Active[K].Pid == Done) {
          recordExit(Results[Active[K].Index], Status, false, millisSince(Active[K].Start));
          if (Active[K].PidFd >= 0)
            close(Active[K].PidFd);
          Active.erase(Active.begin() + K);
          break;
        }
    for (size_t K = 0; K < Active.size();) {
      double Elapsed = millisSince(Active[K].Start);
      if (Elapsed <= TimeoutMs) {
        ++K;
        continue;
      }
      kill(Active[K].Pid, SIGKILL);
      waitpid(Active[K].Pid, &Status, 0);
      recordExit(Results[Active[K].Index], Status, true, Elapsed);
      if (Active[K].PidFd >= 0)
        close(Active[K].PidFd);
      Active.erase(Active.begin() + K);
    }
  }
  _exit(0);
}

Expected<std::string> readFd(int Fd, uint64_t Offset, uint64_t Len) {
  std::string Out(Len, '\0');
  uint64_t Done = 0;
  while (Done < Len) {
    ssize_t N = pread(Fd, Out.data() + Done, Len - Done, off_t(Offset + Done));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return createStringError(inconvertibleErrorCode(), "short read of a candidate's output");
    Done += uint64_t(N);
  }
  return Out;
}

} // namespace

Expected<std::unique_ptr<CandidatePool>>
CandidatePool::launch(Module &M, std::vector<CandidateSpec> Specs, const CandidateContext &Ctx,
                      unsigned Jobs, unsigned TimeoutMs) {
  std::unique_ptr<CandidatePool> Pool(new CandidatePool());
  Pool->Specs = std::move(Specs);
  Pool->Jobs = std::max(1u, Jobs);
  Pool->TimeoutMs = TimeoutMs;
  size_t N = Pool->Specs.size();
  void *Mem = mmap(nullptr, sizeof(CandidateResult) * std::max<size_t>(N, 1),
                   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (Mem == MAP_FAILED)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "mmap: %s", std::strerror(errno));
  Pool->Results = static_cast<CandidateResult *>(Mem);
  for (size_t I = 0; I < N; ++I) {
    new (&Pool->Results[I]) CandidateResult();
    int Fd = memfd_create("smartcc-candidate", MFD_CLOEXEC);
    if (Fd < 0)
      return createStringError(std::error_code(errno, std::generic_category()),
                             "memfd_create: %s", std::strerror(errno));
    Pool->OutputFds.push_back(Fd);
  }
  // Buffered output would otherwise be flushed twice, once by each process.
  std::fflush(nullptr);
  outs().flush();
  errs().flush();
  pid_t Compiler = getpid();
  pid_t Pid = fork();
  if (Pid < 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "fork: %s", std::strerror(errno));
  if (Pid == 0)
    launcherMain(Compiler, M, Pool->Specs, Ctx, Pool->Results, Pool->OutputFds, Pool->Jobs, TimeoutMs);
  Pool->Launcher = Pid;
  return std::move(Pool);
}

void CandidatePool::wait() {
  if (Launcher < 0)
    return;
  // The launcher enforces per-candidate timeouts; this deadline only guards against the
  // launcher itself getting stuck.
  size_t Waves = (Specs.size() + Jobs - 1) / Jobs;
  double Deadline = double(TimeoutMs) * double(Waves + 1) + 5000;
  int Status;
  if (!waitForExit(Launcher, int(std::min(Deadline, 2e9)), Status)) {
    cancel();
    return;
  }
  Launcher = -1;
}

void CandidatePool::cancel() {
  if (Launcher < 0)
    return;
  kill(Launcher, SIGKILL); // its candidates follow: they die with their parent (PDEATHSIG)
  int Status;
  waitpid(Launcher, &Status, 0);
  Launcher = -1;
}

Expected<std::string> CandidatePool::objectBytes(size_t I) const {
  return readFd(OutputFds[I], 0, Results[I].ObjectBytes);
}

Expected<std::string> CandidatePool::assemblyBytes(size_t I) const {
  return readFd(OutputFds[I], Results[I].ObjectBytes, Results[I].AsmBytes);
}

Expected<std::string> CandidatePool::bitcodeBytes(size_t I) const {
  return readFd(OutputFds[I], Results[I].ObjectBytes + Results[I].AsmBytes,
                Results[I].BitcodeBytes);
}

Expected<std::string> CandidatePool::stackUsageBytes(size_t I) const {
  return readFd(OutputFds[I],
                Results[I].ObjectBytes + Results[I].AsmBytes + Results[I].BitcodeBytes,
                Results[I].StackUsageBytes);
}

CandidatePool::~CandidatePool() {
  cancel();
  for (int Fd : OutputFds)
    close(Fd);
  if (Results)
    munmap(Results, sizeof(CandidateResult) * std::max<size_t>(Specs.size(), 1));
}

} // namespace smartcc
