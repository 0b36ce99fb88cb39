// Blocking waits for child processes with a deadline, without polling and without signals:
// a pidfd (Linux >= 5.3) becomes readable when its process ends. Used where smartcc waits for
// candidates (runtime/candidates/CandidatePool.cpp) and candidate links (driver/LTOLink.cpp). LLVM's
// sys::Wait with a timeout is not used: it arms SIGALRM and, on timeout, reaps *any* child,
// which with several candidates running can be the wrong one.
#pragma once
#include <sys/types.h>
#include <vector>

namespace smartcc {

// A pidfd for Pid, or -1 (old kernel, seccomp): callers then wake up periodically instead.
int openPidFd(pid_t Pid);

// Blocks until the process behind one of PidFds ends or TimeoutMs pass (negative entries
// are skipped; with any of them the wait is cut to 50 ms, the old kernels' fallback).
void waitForAnyExit(const std::vector<int> &PidFds, int TimeoutMs);

// Waits for Pid to end, at most TimeoutMs (< 0: no limit). True with its wait status when it
// ended; false on timeout (the process is left running).
bool waitForExit(pid_t Pid, int TimeoutMs, int &Status);

} // namespace smartcc
