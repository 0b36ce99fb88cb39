// Fault injection for smartcc's end-to-end tests, loaded with LD_PRELOAD (never linked into
// smartcc). FAULT_INJECT selects the fault; smartcc itself is unchanged, so the tests see
// exactly what a user on a bad day would:
//   fork           every fork() fails with EAGAIN (as under `ulimit -u`)
//   fork-after:N   the first N forks of the process succeed, later ones fail (a fork in a
//                  child counts from its parent's count)
//   memfd          memfd_create() fails with EMFILE
//   enospc:DIR:N   writes to files under DIR fail with ENOSPC once N bytes were written to
//                  that folder by this process (a nearly full disk)
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string>
#include <sys/types.h>
#include <unistd.h>

namespace {

long ForksDone = 0;
long long BytesWritten = 0;

const char *fault() {
  const char *F = std::getenv("FAULT_INJECT");
  return F ? F : "";
}

bool failFork() {
  const char *F = fault();
  if (!std::strcmp(F, "fork"))
    return true;
  if (!std::strncmp(F, "fork-after:", 11))
    return ForksDone >= std::atol(F + 11);
  return false;
}

// For enospc: the folder and the quota, or false.
bool diskQuota(std::string &Dir, long long &Quota) {
  const char *F = fault();
  if (std::strncmp(F, "enospc:", 7))
    return false;
  const char *Colon = std::strrchr(F + 7, ':');
  if (!Colon)
    return false;
  Dir.assign(F + 7, Colon);
  Quota = std::atoll(Colon + 1);
  return true;
}

bool writesUnder(int Fd, const std::string &Dir) {
  char Link[64], Path[PATH_MAX];
  std::snprintf(Link, sizeof(Link), "/proc/self/fd/%d", Fd);
  ssize_t N = readlink(Link, Path, sizeof(Path) - 1);
  if (N <= 0)
    return false;
  Path[N] = 0;
  return !std::strncmp(Path, Dir.c_str(), Dir.size()) && Path[Dir.size()] == '/';
}

} // namespace

extern "C" pid_t fork() {
  if (failFork()) {
    errno = EAGAIN;
    return -1;
  }
  ++ForksDone;
  static auto Real = reinterpret_cast<pid_t (*)()>(dlsym(RTLD_NEXT, "fork"));
  return Real();
}

extern "C" int memfd_create(const char *Name, unsigned Flags) {
  if (!std::strcmp(fault(), "memfd")) {
    errno = EMFILE;
    return -1;
  }
  static auto Real = reinterpret_cast<int (*)(const char *, unsigned)>(dlsym(RTLD_NEXT, "memfd_create"));
  return Real(Name, Flags);
}

extern "C" ssize_t write(int Fd, const void *Buf, size_t Count) {
  static auto Real = reinterpret_cast<ssize_t (*)(int, const void *, size_t)>(dlsym(RTLD_NEXT, "write"));
  std::string Dir;
  long long Quota;
  if (diskQuota(Dir, Quota) && writesUnder(Fd, Dir)) {
    if (BytesWritten + (long long)Count > Quota) {
      errno = ENOSPC;
      return -1;
    }
    BytesWritten += (long long)Count;
  }
  return Real(Fd, Buf, Count);
}
