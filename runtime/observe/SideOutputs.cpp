#include "runtime/observe/SideOutputs.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

Error replaceFile(StringRef Path, StringRef Bytes) {
  SmallString<256> Temp;
  int Fd;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + "-smartcc-%%%%%%%%.tmp", Fd, Temp))
    return errorCodeToError(EC);
  {
    raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << Bytes;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      // A stream destroyed with its error still set is an LLVM fatal error ("IO failure on
      // output stream"): the error is ours to handle.
      OS.clear_error();
      sys::fs::remove(Temp);
      return errorCodeToError(EC);
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return errorCodeToError(EC);
  }
  return Error::success();
}

Error appendLine(const std::string &Path, const std::string &Line) {
  int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (Fd < 0)
    return errorCodeToError(std::error_code(errno, std::generic_category()));
  ssize_t N = ::write(Fd, Line.data(), Line.size());
  int WriteErrno = errno;
  ::close(Fd);
  if (N < 0)
    return errorCodeToError(std::error_code(WriteErrno, std::generic_category()));
  if (size_t(N) != Line.size())
    return createStringError(std::errc::no_space_on_device, "short write");
  return Error::success();
}

void warnSideOutput(StringRef What, StringRef Path, Error E) {
  errs() << "smartcc: warning: cannot write " << What << " '" << Path
         << "': " << toString(std::move(E)) << "; the compile continues without it\n";
}

void addCounters(const Config &Cfg, const Counters &Delta) {
  if (!Cfg.Stats)
    return;
  std::string Dir = Cfg.effectiveStatsDir();
  Error E = StatsStore(Dir).add(Delta);
  if (!E)
    return;
  if (Cfg.StatsDir.empty())
    consumeError(std::move(E));
  else
    warnSideOutput("statistics to", Dir, std::move(E));
}

void recordDecision(const Config &Cfg, const TUDecision &D, const Counters &Extra) {
  if (!Cfg.LogPath.empty())
    if (Error E = appendLine(Cfg.LogPath, toJSONLine(D)))
      warnSideOutput("the log", Cfg.LogPath, std::move(E));
  Counters Delta = statsDelta(D);
  for (const auto &[Name, Value] : Extra)
    Delta[Name] += Value;
  addCounters(Cfg, Delta);
}

} // namespace smartcc
