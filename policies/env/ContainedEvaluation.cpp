#include "policies/env/ContainedEvaluation.h"
#include "runtime/support/FileDescriptorIO.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

namespace {

using TextWork = function_ref<Expected<std::string>(size_t)>;

// One line per item: "INDEX VTEXT" or "INDEX EMESSAGE" (newlines flattened).
[[noreturn]] void childMain(int Fd, size_t First, size_t N, TextWork Work, bool SilenceStderr) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (SilenceStderr)
    if (int Null = open("/dev/null", O_WRONLY); Null >= 0)
      dup2(Null, STDERR_FILENO);
  for (size_t I = First; I < N; ++I) {
    Expected<std::string> V = Work(I);
    std::string Text = V ? "V" + *V : "E" + toString(V.takeError());
    std::replace(Text.begin(), Text.end(), '\n', ' ');
    std::string Line = std::to_string(I) + " " + Text + "\n";
    if (!writeAll(Fd, Line.data(), Line.size()))
      _exit(3);
  }
  _exit(0); // _exit: the parent's buffered output must not be flushed twice
}

// Parses complete lines out of Buffer into Results; returns how many items were reported.
size_t takeLines(std::string &Buffer, std::vector<ContainedText> &Results) {
  size_t Reported = 0, Start = 0;
  for (size_t End; (End = Buffer.find('\n', Start)) != std::string::npos; Start = End + 1) {
    StringRef Line = StringRef(Buffer).slice(Start, End);
    auto [Index, Rest] = Line.split(' ');
    size_t I;
    if (Index.getAsInteger(10, I) || I >= Results.size() || Rest.empty())
      continue;
    if (Rest[0] == 'V')
      Results[I].Text = Rest.drop_front().str();
    else
      Results[I].Error = Rest.drop_front().str();
    ++Reported;
  }
  Buffer.erase(0, Start);
  return Reported;
}

// The mechanism: one child for the batch, a fresh one after an item that killed or hung it.
std::vector<ContainedText> runBatch(size_t N, TextWork Work, unsigned TimeoutMs,
                                    bool SilenceStderr) {
  std::vector<ContainedText> Results(N);
  size_t Next = 0; // the first item no child has reported
  while (Next < N) {
    int Pipe[2];
    if (pipe2(Pipe, O_CLOEXEC) != 0) {
      for (size_t I = Next; I < N; ++I)
        Results[I].Error = "pipe: " + std::string(strerror(errno));
      break;
    }
    pid_t Pid = fork();
    if (Pid < 0) {
      close(Pipe[0]), close(Pipe[1]);
      for (size_t I = Next; I < N; ++I)
        Results[I].Error = "fork: " + std::string(strerror(errno));
      break;
    }
    if (Pid == 0) {
      close(Pipe[0]);
      childMain(Pipe[1], Next, N, Work, SilenceStderr);
    }
    close(Pipe[1]);
    std::string Buffer;
    bool TimedOut = false;
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(TimeoutMs);
    for (;;) {
      long long Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                           Deadline - std::chrono::steady_clock::now())
                           .count();
      if (Left <= 0) {
        TimedOut = true;
        break;
      }
      pollfd P{Pipe[0], POLLIN, 0};
      int R = poll(&P, 1, int(std::min<long long>(Left, 1000000)));
      if (R <= 0)
        continue; // interrupted or the deadline passed: checked above
      char Chunk[4096];
      ssize_t Got = read(Pipe[0], Chunk, sizeof(Chunk));
      if (Got < 0 && errno == EINTR)
        continue;
      if (Got <= 0)
        break; // end of file: the child is done, one way or another
      Buffer.append(Chunk, size_t(Got));
      if (size_t Reported = takeLines(Buffer, Results)) {
        Next += Reported;
        Deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(TimeoutMs);
      }
    }
    close(Pipe[0]);
    if (TimedOut)
      kill(Pid, SIGKILL);
    int Status = 0;
    while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    if (Next >= N)
      break;
    // The child stopped before reporting item Next: that item is what killed it.
    Results[Next].Died = true;
    std::string &Why = Results[Next].Error;
    if (TimedOut)
      Why = "timed out after " + std::to_string(TimeoutMs / 1000) + " s";
    else if (WIFSIGNALED(Status))
      Why = "signal " + std::to_string(WTERMSIG(Status));
    else
      Why = "exit " + std::to_string(WIFEXITED(Status) ? WEXITSTATUS(Status) : -1);
    ++Next;
  }
  return Results;
}

} // namespace

std::vector<ContainedResult> evaluateContained(size_t N,
                                               function_ref<Expected<uint64_t>(size_t)> Work,
                                               unsigned TimeoutMs) {
  std::vector<ContainedText> Texts = runBatch(
      N,
      [&](size_t I) -> Expected<std::string> {
        Expected<uint64_t> V = Work(I);
        if (!V)
          return V.takeError();
        return std::to_string(*V);
      },
      TimeoutMs, /*SilenceStderr=*/true);
  std::vector<ContainedResult> Results(N);
  for (size_t I = 0; I < N; ++I) {
    uint64_t V;
    if (Texts[I].Text && !StringRef(*Texts[I].Text).getAsInteger(10, V))
      Results[I].Value = V;
    else
      Results[I].Error = std::move(Texts[I].Error);
  }
  return Results;
}

ContainedText runContained(function_ref<Expected<std::string>()> Work, unsigned TimeoutMs,
                           bool SilenceStderr) {
  return std::move(runBatch(
      1, [&](size_t) { return Work(); }, TimeoutMs, SilenceStderr)[0]);
}

} // namespace smartcc
