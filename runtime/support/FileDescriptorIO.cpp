#include "runtime/support/FileDescriptorIO.h"
#include <cerrno>
#include <unistd.h>

bool smartcc::writeAll(int Fd, const char *Data, size_t Len) {
  while (Len) {
    ssize_t N = ::write(Fd, Data, Len);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Len -= size_t(N);
  }
  return true;
}
