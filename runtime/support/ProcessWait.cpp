#include "runtime/support/ProcessWait.h"
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace smartcc {

// glibc 2.36's <sys/pidfd.h> declares pidfd_open without C linkage: the system call directly.
int openPidFd(pid_t Pid) { return int(syscall(SYS_pidfd_open, Pid, 0)); }

void waitForAnyExit(const std::vector<int> &PidFds, int TimeoutMs) {
  std::vector<pollfd> Polled;
  bool Blind = false;
  for (int Fd : PidFds) {
    if (Fd >= 0)
      Polled.push_back({Fd, POLLIN, 0});
    else
      Blind = true;
  }
  if (Blind)
    TimeoutMs = std::min(TimeoutMs, 50);
  (void)poll(Polled.data(), Polled.size(), std::max(TimeoutMs, 0)); // EINTR: caller re-checks
}

bool waitForExit(pid_t Pid, int TimeoutMs, int &Status) {
  auto Start = std::chrono::steady_clock::now();
  int Fd = openPidFd(Pid);
  while (true) {
    pid_t R = waitpid(Pid, &Status, WNOHANG);
    if (R == Pid || (R < 0 && errno != EINTR)) {
      if (Fd >= 0)
        close(Fd);
      return R == Pid;
    }
    double Elapsed = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - Start)
                         .count();
    if (TimeoutMs >= 0 && Elapsed >= TimeoutMs) {
      if (Fd >= 0)
        close(Fd);
      return false;
    }
    int Left = TimeoutMs < 0 ? 60000 : int(std::ceil(TimeoutMs - Elapsed));
    waitForAnyExit({Fd}, Left);
  }
}

} // namespace smartcc
