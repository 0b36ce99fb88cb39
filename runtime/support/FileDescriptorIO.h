// Writing to pipes and memfds shared with child processes: all of it, across short writes and
// signal interruptions.
#pragma once
#include <cstddef>

namespace smartcc {
bool writeAll(int Fd, const char *Data, size_t Len);
}
