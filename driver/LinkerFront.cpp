#include "driver/LinkerFront.h"
#include "driver/CC1Entry.h"
#include "driver/LTOLinkCommand.h"
#include "driver/OwnedLTOLink.h"
#include "driver/ProgramName.h"
#include "driver/SmartccArgs.h"
#include "driver/SmartccCommands.h"
#include "runtime/config/Config.h"
#include "runtime/link/LinkInputs.h"
#include "runtime/observe/SideOutputs.h"
#include "runtime/support/ProcessWait.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <chrono>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace smartcc {

namespace {

[[noreturn]] void execLinker(const std::string &Linker, int Argc, const char **Argv) {
  std::vector<const char *> Args{Linker.c_str()};
  Args.insert(Args.end(), Argv + 1, Argv + Argc);
  Args.push_back(nullptr);
  execv(Linker.c_str(), const_cast<char *const *>(Args.data()));
  errs() << "smartcc-ld: error: cannot execute '" << Linker << "': " << std::strerror(errno)
         << "\n";
  std::exit(1);
}

// The command's input files: the words that name an existing object, archive or bitcode file,
// other than the output. (An option's value names such a file only for inputs: scripts, map
// files and version scripts are text.) The inputs serve what the link is (its bitcode, its
// target) and the link agent's features; the links themselves take the command as given.
std::vector<std::string> inputFiles(ArrayRef<std::string> Args, StringRef Output) {
  std::vector<std::string> Inputs;
  for (const std::string &A : Args) {
    if (A.empty() || A[0] == '-' || A == Output)
      continue;
    file_magic Magic;
    if (!sys::fs::is_regular_file(A) || identify_magic(A, Magic))
      continue;
    if (Magic == file_magic::elf_relocatable || Magic == file_magic::archive ||
        Magic == file_magic::bitcode)
      Inputs.push_back(A);
  }
  return Inputs;
}

bool isRelocatable(ArrayRef<std::string> Args) {
  return llvm::any_of(Args, [](StringRef A) {
    return A == "-r" || A == "--relocatable" || A == "-Ur" || A == "-i";
  });
}

// The target and LTO kind of the link's bitcode: the first module's triple, and whether any
// module is ThinLTO (then lld runs ThinLTO backends, whose pipeline is thinlto<...>).
void describeBitcode(ArrayRef<std::string> Inputs, bool FatSections, std::string &Triple,
                     bool &Thin) {
  forEachBitcodeInput(Inputs, [&](MemoryBufferRef Buf) {
    Expected<BitcodeFileContents> Contents = getBitcodeFileContents(Buf);
    if (!Contents) {
      consumeError(Contents.takeError());
      return;
    }
    for (BitcodeModule &M : Contents->Mods) {
      if (Triple.empty()) {
        Expected<std::string> T = getBitcodeTargetTriple(Buf);
        if (T)
          Triple = *T;
        else
          consumeError(T.takeError());
      }
      Expected<BitcodeLTOInfo> Info = M.getLTOInfo();
      if (Info)
        Thin |= Info->IsThinLTO;
      else
        consumeError(Info.takeError());
    }
  }, FatSections);
}

// The user's link, standard streams as given; its exit status (a signal: 128 + signal, as a
// shell reports it).
int runUserLink(const std::string &Linker, int Argc, const char **Argv, double &Millis) {
  std::vector<StringRef> Args{Linker};
  Args.insert(Args.end(), Argv + 1, Argv + Argc);
  auto Start = std::chrono::steady_clock::now();
  std::string Err;
  sys::ProcessInfo PI = sys::ExecuteNoWait(Linker, Args, std::nullopt, {}, 0, &Err);
  if (PI.Pid == sys::ProcessInfo::InvalidPid) {
    errs() << "smartcc-ld: error: cannot execute '" << Linker << "': " << Err << "\n";
    return 1;
  }
  int Status = 0;
  waitForExit(PI.Pid, -1, Status);
  Millis = millisSince(Start);
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return WEXITSTATUS(Status);
}

} // namespace

bool isLinkerFrontName(const char *Argv0) {
  return StringRef(baseName(Argv0)).ends_with("smartcc-ld");
}

int linkerFrontMain(int ArgcIn, const char **ArgvIn) {
  const std::string Linker = realLinkerPath();
  // smartcc's own --smartcc-KEY settings are taken out (lld would refuse them); commands
  // (--smartcc-stats, ...) are the compiler's.
  SplitArgs S = splitSmartccArgs(ArgcIn, ArgvIn);
  const int Argc = int(S.CompilerArgs.size());
  const char **Argv = S.CompilerArgs.data();
  // Response files are expanded for reading the command only; the user's link gets it as
  // written.
  BumpPtrAllocator Alloc;
  SmallVector<const char *, 256> Expanded(Argv + 1, Argv + Argc);
  cl::ExpansionContext ECtx(Alloc, cl::TokenizeGNUCommandLine);
  if (Error E = ECtx.expandResponseFiles(Expanded)) {
    consumeError(std::move(E));
    execLinker(Linker, Argc, Argv); // lld says what is wrong with them
  }
  std::vector<std::string> Args(Expanded.begin(), Expanded.end());
  Expected<Config> Cfg = loadConfig(ConfigEnvironment::fromProcess(), S.Settings);
  if (!Cfg) {
    errs() << "smartcc-ld: error: " << toString(Cfg.takeError()) << "\n";
    return 1;
  }
  if (!S.Commands.empty())
    return runSmartccCommands(S, *Cfg);
  if (Cfg->Disable || !Cfg->LTOLinks)
    execLinker(Linker, Argc, Argv);
  llvm::opt::ArgStringList ArgList;
  for (const std::string &A : Args)
    ArgList.push_back(A.c_str());
  const std::string Output = linkOutput(ArgList);
  // Not a link that writes an image (--version, -v, --help, or to standard output): lld's.
  if (Output.empty() || Output == "-")
    execLinker(Linker, Argc, Argv);
  std::string Reason;
  std::vector<std::string> Inputs = inputFiles(Args, Output);
  const bool Relocatable = isRelocatable(Args);
  bool WholeProgram = false;
  if (!Cfg->takesOver("Oz") && !Cfg->takesOver("Os"))
    Reason = "level_not_enabled";
  else if (!sideOutputBesidesMap(ArgList).empty())
    Reason = "link_side_output";
  // The user chose LTO's pipeline: candidates would replace it (lld keeps the last one).
  else if (llvm::any_of(Args, [](StringRef A) { return A.contains("lto-newpm-passes"); }))
    Reason = "user_lto_pipeline";
  else if (uint64_t Bitcode = bitcodeInputBytes(Inputs)) {
    // Most of the program is machine code already: kbuild's final links add a few objects
    // (one of them bitcode: the version stamp) to the relocatable link that optimized the
    // whole kernel, and repeat the link for kallsyms, which needs the same layout each time.
    // The whole-program decision was made where the program's bitcode was.
    if (Bitcode < machineCodeInputBytes(Inputs))
      Reason = "front_mostly_machine_code";
  }
  // No -flto: a link of fat objects (smartcc's size-level objects carry their bitcode) is made
  // whole-program as smartcc's driver makes its plain links (driver/WholeProgramLink.h), with
  // the same refusals; not a relocatable link (a kernel's vmlinux.o without the kernel's own
  // LTO support: initcall order, the vDSO, ...).
  else if (uint64_t Fat = bitcodeInputBytes(Inputs, /*FatSections=*/true); !Fat)
    Reason = "front_no_bitcode";
  else if (!Cfg->WholeProgram)
    Reason = "front_no_bitcode"; // (whole_program off: the fat objects are machine code)
  else if (Relocatable)
    Reason = "wp_relocatable";
  else if (!fatBitcodeGap(Inputs).empty())
    Reason = "wp_partial_bitcode";
  else if (Fat < machineCodeInputBytes(Inputs))
    Reason = "front_mostly_machine_code";
  else
    WholeProgram = true;
  if (!Reason.empty()) {
    double Millis = 0;
    int Status = runUserLink(Linker, Argc, Argv, Millis);
    if (Status == 0)
      addCounters(*Cfg, {{"link.passthrough." + Reason, 1}});
    return Status;
  }

  // The handle removes the candidates' temporary files however this ends.
  LTOLinkHandle H;
  H.L = std::make_unique<OwnedLTOLink>(*Cfg);
  OwnedLTOLink &L = *H.L;
  L.Owned = true;
  L.Output = Output;
  L.Job.Executable = Linker;
  L.Job.Args = Args; // response files expanded: map files inside them are found
  L.Job.Inputs = Inputs;
  L.Job.Relocatable = Relocatable;
  describeBitcode(Inputs, WholeProgram, L.Job.Triple, L.Job.Thin);
  if (WholeProgram) {
    // The candidates' link reads the objects' bitcode; the user's link stays the baseline.
    L.WholeProgram = true;
    L.Job.Args.push_back("--fat-lto-objects");
  }
  double Millis = 0;
  int Status = runUserLink(Linker, Argc, Argv, Millis);
  if (Status != 0)
    return Status;
  L.prepare();
  L.finish(Millis);
  return 0;
}

} // namespace smartcc
