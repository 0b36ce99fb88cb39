#include "ModulePool.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

std::string resultPath(const std::string &ResultDir, const CorpusModule &C) {
  return ResultDir + "/" + C.Hash + ".jsonl";
}

PoolSummary runPerModule(const std::vector<CorpusModule> &Modules, const std::string &ResultDir,
                         unsigned Jobs,
                         const std::function<int(const CorpusModule &, const std::string &)> &Work,
                         const std::function<bool(const std::string &)> &Complete) {
  sys::fs::create_directories(ResultDir);
  auto Start = std::chrono::steady_clock::now();
  PoolSummary S;
  size_t Running = 0, Next = 0;
  auto Reap = [&] {
    int Status;
    if (waitpid(-1, &Status, 0) <= 0)
      return;
    --Running;
    ++S.Done;
    S.Crashed += !(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
    double Elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    size_t Fresh = S.Done - S.Resumed;
    double Eta = Fresh ? Elapsed / double(Fresh) * double(Modules.size() - S.Done) : 0;
    outs() << format("[%zu/%zu] %.0f s elapsed, ETA %.0f s, %zu failed\n", S.Done,
                     Modules.size(), Elapsed, Eta, S.Crashed);
    outs().flush();
  };
  while (Next < Modules.size() || Running) {
    if (Next < Modules.size() && Running < std::max(1u, Jobs)) {
      const CorpusModule &C = Modules[Next++];
      std::string Path = resultPath(ResultDir, C);
      if (Complete ? Complete(Path) : sys::fs::exists(Path)) {
        ++S.Done, ++S.Resumed;
        continue;
      }
      outs().flush();
      pid_t P = fork();
      if (P == 0)
        _exit(Work(C, Path));
      if (P > 0)
        ++Running;
      continue;
    }
    Reap();
  }
  return S;
}

} // namespace smartcc
