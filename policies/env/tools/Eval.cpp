// smartcc-eval: evaluates methods on harvested modules against real clang-22 -Oz (the
// environment's clang pipeline + clang's backend, proven byte-identical to clang -Oz by the
// unit tests), in IR instructions and object bytes.
//
//   smartcc-eval --corpus DIR --out DIR [--method oz] [--method candidate:NAME]
//                [--method random:TRIALSxLENGTH] [--method greedy:STEPS[,evals=N]] [--method os|o0]
//                [--method agent[:MODEL]@EFFORT[,budget=N[,time=PERCENT]][,inliner[=MODEL]]]
//                [--method guided[:MODEL]@EVALS[,k=K][,first=N][,order=mined][,next=start][,mix]]
//                [--method policy:MODEL]
//                [--method gcc-os]
//                [--method coreset:FILE[:K]] [--method perfunc:OPTIONS]
//                [--method funcmix[:MODEL]@EFFORT]
//                [--method inliner[:MODEL]]
//                [--method regalloc[:MODEL][,growth=PERCENT]] [--regalloc-level O2]
//                [--space autophase+macro+options] [--objective bytes|ir]
//                [--hashes FILE] [--max-modules N] [--jobs 2] [--seed 1]
//
// Every module is evaluated in its own process (parallel, and a crash costs one module). Rows
// are written per module under OUT/rows/, so an interrupted sweep resumes where it stopped.
#include "EvalMethods.h"
#include "EvalReport.h"
#include "ModulePool.h"
#include "policies/SequenceAgent.h"
#include "policies/inliner/InlinePolicy.h"
#include "policies/regalloc/RegAllocPolicy.h"
#include "policies/env/Corpus.h"
#include "policies/model/ExportedModel.h"
#include "policies/env/ContainedEvaluation.h"
#include "policies/env/Search.h"
#include "runtime/candidates/AgentCandidates.h"
#include "runtime/config/BuildInfo.h"
#include "runtime/candidates/CandidateBudget.h"
#include "runtime/candidates/CandidateRunner.h"
#include "runtime/compile/CompileLevel.h"
#include "runtime/config/Config.h"
#include "runtime/decide/Decision.h"
#include "runtime/candidates/InlinerCandidates.h"
#include "runtime/observe/JSONLines.h"
#include "runtime/compile/OptionActions.h"
#include "runtime/decide/PerFunctionChoice.h"
#include "runtime/decide/FunctionMix.h"
#include "runtime/measure/FunctionSizes.h"
#include "runtime/compile/ClangBackend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "runtime/candidates/PolicyRollout.h"
#include "runtime/measure/RegAllocCost.h"
#include "runtime/compile/RegAllocPortfolio.h"
#include "runtime/support/ScopedLLVMOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <chrono>
#include <limits>
#include <optional>
#include <csignal>
#include <random>
#include <tuple>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace smartcc;

// --corpus and --out are required, but checked after parsing rather than by cl::Required: a
// candidate that plays option actions re-parses LLVM's options in its process (as the
// compiler's candidate process does), and a cl::Required option of this tool would fail that.
static cl::OptionCategory EvalOptions("smartcc-eval options");
cl::opt<std::string>
    CorpusDir("corpus",
              cl::desc("a harvested corpus (index.jsonl) or a folder of .bc files (required)"),
              cl::cat(EvalOptions));
static cl::opt<std::string> Level("level",
                                  cl::desc("modules harvested at this level: Oz (default), or O0 "
                                           "for the CompilerGym-style setting"),
                                  cl::init("Oz"), cl::cat(EvalOptions));
static cl::opt<std::string> OutDir("out", cl::desc("output directory (required)"),
                                   cl::cat(EvalOptions));
static cl::list<std::string> Methods("method", cl::desc("method to evaluate (repeatable)"),
                                     cl::cat(EvalOptions));
cl::opt<std::string> SpaceName("space", cl::desc("action space for searches"),
                                      cl::init("macro+options"), cl::cat(EvalOptions));
static cl::opt<std::string> ObjectiveName("objective",
                                          cl::desc("objective of searches and candidates: "
                                                   "bytes, shipped (bytes as the ship rules let "
                                                   "them ship) or ir"),
                                          cl::init("bytes"), cl::cat(EvalOptions));
static cl::opt<std::string> HashesFile("hashes", cl::desc("evaluate only these module hashes"),
                                       cl::cat(EvalOptions));
// --objective, parsed once in main (a bad name is an error before any module runs).
Objective TheObjective = Objective::ObjectBytes;
static cl::opt<std::string> TargetFilter("target",
                                         cl::desc("only modules whose triple starts with this"),
                                         cl::cat(EvalOptions));
static cl::opt<unsigned> MaxModules("max-modules", cl::desc("at most this many modules"),
                                    cl::init(0), cl::cat(EvalOptions));
static cl::opt<unsigned> Jobs("jobs", cl::desc("modules evaluated at once"), cl::init(2),
                              cl::cat(EvalOptions));
cl::opt<unsigned> Seed("seed", cl::desc("random seed"), cl::init(1),
                              cl::cat(EvalOptions));
cl::opt<std::string> RegAllocLevel("regalloc-level",
                                          cl::desc("-O level of the regalloc method's compiles"),
                                          cl::init("O2"), cl::cat(EvalOptions));
static cl::opt<std::string> Title("title", cl::desc("report title"), cl::init("smartcc-eval"),
                                  cl::cat(EvalOptions));

namespace {

using namespace smartcc::eval;

Expected<EvalRow> runMethodContained(function_ref<Expected<EvalRow>()> Method) {
  ContainedText T = runContained(
      [&]() -> Expected<std::string> {
        Expected<EvalRow> R = Method();
        if (!R)
          return R.takeError();
        std::string Text;
        raw_string_ostream(Text) << json::Value(toJSON(*R));
        return Text;
      },
      /*TimeoutMs=*/~0u, /*SilenceStderr=*/false);
  if (!T.Text)
    return createStringError(inconvertibleErrorCode(), "%s",
                             (T.Died && StringRef(T.Error).starts_with("signal")
                                  ? "crashed (" + T.Error + ")"
                                  : T.Error)
                                 .c_str());
  Expected<json::Value> V = json::parse(*T.Text);
  if (!V)
    return V.takeError();
  EvalRow Row;
  if (!fromJSON(*V, Row))
    return createStringError(inconvertibleErrorCode(), "unreadable row from a method's process");
  return Row;
}

// The rows of a module's result file (none if there is none).
std::vector<EvalRow> readRows(const std::string &Path) {
  std::vector<EvalRow> Rows;
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
  if (!B)
    return Rows;
  for (StringRef L : split((*B)->getBuffer(), '\n')) {
    EvalRow R;
    if (Expected<json::Value> V = json::parse(L); V && fromJSON(*V, R))
      Rows.push_back(R);
    else if (!V)
      consumeError(V.takeError());
  }
  return Rows;
}

// Whether Rows answer every --method: a row each, or the module's failed baseline (then no
// method can run on it).
bool answersEveryMethod(const std::vector<EvalRow> &Rows) {
  if (Rows.size() == 1 && Rows[0].Method == "oz" && Rows[0].Failed)
    return true;
  return llvm::all_of(Methods, [&](const std::string &M) {
    return llvm::any_of(Rows, [&](const EvalRow &R) { return R.Method == M; });
  });
}

// Runs in a child process: every method on one module, rows written to Path. Rows of an
// earlier run for the same methods are kept (so adding a --method to a sweep measures only
// that method); the others are measured now.
int evalModule(const CorpusModule &C, const Config &Cfg, const std::string &Path) {
  const std::vector<EvalRow> Earlier = readRows(Path);
  EvalRow Base;
  Base.Module = C.Hash;
  Base.Package = C.Package;
  Base.Target = C.Target;
  CandidateSpec Clang; // stage "default": clang's own pipeline
  Clang.Name = "oz";
  auto Start = std::chrono::steady_clock::now();
  ObjectSize ClangSize;
  Expected<EvalRow> Oz = evalCandidate(C, Clang, Base, &ClangSize);
  if (Oz)
    ClangObject = ClangSize;
  std::error_code EC;
  raw_fd_ostream OS(Path + ".tmp", EC);
  if (!Oz) {
    Base.Method = "oz";
    Base.Failed = true;
    Base.Error = toString(Oz.takeError());
    OS << json::Value(toJSON(Base)) << "\n";
  } else {
    Base.ClangIR = Oz->IR;
    Base.ClangBytes = Oz->Bytes;
    Base.ClangSeconds = since(Start);
    for (const std::string &M : Methods) {
      auto Kept = llvm::find_if(Earlier, [&](const EvalRow &R) { return R.Method == M; });
      if (Kept != Earlier.end()) {
        OS << json::Value(toJSON(*Kept)) << "\n";
        continue;
      }
      EvalRow Row = Base;
      Row.Method = M;
      Expected<MethodSpec> Spec = parseMethod(M); // checked in main: cannot fail here
      if (!Spec)
        return 1;
      // Each method in its own child (the baseline row is already measured): a crash inside
      // one fails that row only.
      auto Method = [&] { return evalMethod(C, Cfg, *Spec, Base); };
      Expected<EvalRow> R = Spec->Kind == "oz" ? Method() : runMethodContained(Method);
      if (R) {
        Row = *R;
        Row.Method = M;
      } else {
        Row.Failed = true;
        Row.Error = toString(R.takeError());
      }
      OS << json::Value(toJSON(Row)) << "\n";
    }
  }
  OS.close();
  return sys::fs::rename(Path + ".tmp", Path) ? 1 : 0;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  // --help shows this tool's options, not LLVM's hundreds (they still parse: a candidate's
  // option actions set them).
  cl::HideUnrelatedOptions(EvalOptions);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "smartcc-eval: methods against clang-22 -Oz on harvested modules or a folder of .bc "
      "files\n\n"
      "  Methods: oz, os, o0, gcc-os, candidate:NAME, coreset:FILE[:K], random:TRIALSxLENGTH,\n"
      "  greedy:STEPS[,evals=N], agent[:MODEL]@EFFORT[,budget=N[,time=PERCENT]][,inliner[=MODEL]],\n"
      "  guided[:MODEL]@EVALS[,k=K][,first=N][,order=mined][,next=start][,mix],\n"
      "  funcmix[:MODEL]@EFFORT,\n"
      "  policy:MODEL, perfunc:OPTIONS, inliner[:MODEL], regalloc[:MODEL][,growth=PERCENT].\n"
      "  Rows go to OUT/rows/ (resumable), reports to OUT/report.md and OUT/report.html.\n");
  if (Expected<Objective> O = parseObjective(ObjectiveName)) {
    TheObjective = *O;
  } else {
    errs() << "smartcc-eval: error: --objective: " << toString(O.takeError()) << "\n";
    return 1;
  }
  for (const auto &[Name, Value] : {std::pair{"--corpus", &CorpusDir}, {"--out", &OutDir}})
    if (Value->empty()) {
      errs() << "smartcc-eval: error: " << Name << " is required\n";
      return 1;
    }
  if (Methods.empty())
    Methods.push_back("oz");
  for (const std::string &M : Methods)
    if (Expected<MethodSpec> Spec = parseMethod(M); !Spec) {
      errs() << "smartcc-eval: error: " << toString(Spec.takeError()) << "\n";
      return 1;
    }
  readGccSizes();
  Expected<std::vector<CorpusModule>> Corpus = readCorpus(CorpusDir, Level);
  ConfigEnvironment CE = ConfigEnvironment::fromProcess();
  Expected<Config> Cfg = loadConfig(CE, {});
  if (!Corpus || !Cfg) {
    errs() << "smartcc-eval: error: "
           << (Corpus ? toString(Cfg.takeError()) : toString(Corpus.takeError())) << "\n";
    return 1;
  }
  std::vector<CorpusModule> Modules = std::move(*Corpus);
  if (!HashesFile.empty())
    if (Error E = keepListedModules(Modules, HashesFile)) {
      errs() << "smartcc-eval: error: " << toString(std::move(E)) << "\n";
      return 1;
    }
  if (!TargetFilter.empty())
    llvm::erase_if(Modules, [&](const CorpusModule &C) {
      return !StringRef(C.Target).starts_with(TargetFilter);
    });
  if (MaxModules && Modules.size() > MaxModules) {
    std::mt19937_64 Rng(Seed);
    std::shuffle(Modules.begin(), Modules.end(), Rng);
    Modules.resize(MaxModules);
  }
  SmallString<256> RowDir(OutDir);
  sys::path::append(RowDir, "rows");
  sys::fs::create_directories(RowDir);

  PoolSummary Pool = runPerModule(Modules, RowDir.str().str(), Jobs,
                                  [&](const CorpusModule &C, const std::string &Path) {
                                    return evalModule(C, *Cfg, Path);
                                  },
                                  [](const std::string &Path) {
                                    return answersEveryMethod(readRows(Path));
                                  });
  outs() << Pool.Done << " modules (" << Pool.Resumed << " from earlier runs, " << Pool.Crashed
         << " failed)\n";
  auto RowPath = [&](const CorpusModule &C) { return resultPath(RowDir.str().str(), C); };

  // The methods asked for only: a result file may hold others from an earlier sweep.
  std::vector<EvalRow> Rows;
  for (const CorpusModule &C : Modules)
    for (EvalRow &R : readRows(RowPath(C)))
      if (is_contained(Methods, R.Method) || (R.Method == "oz" && R.Failed))
        Rows.push_back(std::move(R));
  std::error_code EC;
  raw_fd_ostream MD(OutDir + "/report.md", EC), HTML(OutDir + "/report.html", EC),
      All(OutDir + "/rows.jsonl", EC);
  for (const EvalRow &R : Rows)
    All << json::Value(toJSON(R)) << "\n";
  // What produced the numbers: LLVM's exact version and the command (seeds included).
  std::string Provenance = "Measured with LLVM " SMARTCC_LLVM_VERSION " (smartcc " SMARTCC_VERSION
                           "):";
  for (int I = 0; I < Argc; ++I)
    Provenance += std::string(" ") + (I ? Argv[I] : "smartcc-eval");
  writeMarkdown(Rows, Title, MD, Provenance);
  writeHTML(Rows, Title, HTML, Provenance);
  writeMarkdown(Rows, Title, outs(), Provenance);
  return 0;
}

