// smartcc-envbench: how many environment steps per second smartcc's in-process environment
// takes, against the CompilerGym-era way of running `opt` as a process per step, on the same
// modules and the same random action sequences (fixed seed). Both sides compute the same
// observation after each step (IR instruction count and Autophase features).
//
//   smartcc-envbench --corpus DIR [--modules 20] [--steps 45] [--space autophase] [--seed 1]
#include "policies/env/Corpus.h"
#include "policies/env/CompilerEnv.h"
#include "runtime/candidates/CandidateRunner.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <random>

using namespace llvm;
using namespace smartcc;

static cl::opt<std::string> CorpusDir("corpus", cl::desc("harvested corpus directory"),
                                      cl::Required);
static cl::opt<std::string> Level("level", cl::desc("modules harvested at this level"),
                                  cl::init("Oz"));
static cl::opt<unsigned> Modules("modules", cl::desc("modules to use"), cl::init(20));
static cl::opt<unsigned> Steps("steps", cl::desc("random actions per module"), cl::init(45));
static cl::opt<std::string> SpaceName("space", cl::desc("action space (pass actions are used)"),
                                      cl::init("autophase"));
static cl::opt<unsigned> Seed("seed", cl::desc("random seed"), cl::init(1));
static cl::opt<std::string> Opt("opt", cl::desc("opt binary"),
                                cl::init("/usr/lib/llvm-22/bin/opt"));
static cl::opt<unsigned> MaxIR("max-ir", cl::desc("skip modules larger than this"),
                               cl::init(20000));
static cl::opt<unsigned> MinIR("min-ir", cl::desc("skip modules smaller than this"),
                               cl::init(50));

namespace {

double seconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

// One step the old way: write nothing new (the previous step's output is the input), run opt
// as a process, read its output back, compute the observation.
bool optStep(const std::string &In, const std::string &Out, const std::string &Pipeline,
             LLVMContext &Ctx, uint64_t &IR) {
  std::string Passes = "-passes=" + Pipeline;
  std::vector<StringRef> Args{Opt, Passes, In, "-o", Out};
  if (sys::ExecuteAndWait(Opt, Args, std::nullopt, {std::nullopt, std::string("/dev/null"),
                                                   std::string("/dev/null")}) != 0)
    return false;
  Expected<std::unique_ptr<Module>> M = loadBitcodeFile(Out, Ctx);
  if (!M) {
    consumeError(M.takeError());
    return false;
  }
  IR = countIRInstructions(**M);
  (void)computeAutophase(**M);
  return true;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "smartcc environment step-rate benchmark\n");
  Expected<std::vector<CorpusModule>> Corpus = readCorpus(CorpusDir, Level);
  Expected<ActionSpace> Space = loadActionSpaces(SpaceName);
  if (!Corpus || !Space) {
    errs() << "smartcc-envbench: error: "
           << (Corpus ? toString(Space.takeError()) : toString(Corpus.takeError())) << "\n";
    return 1;
  }
  std::vector<size_t> PassActions;
  for (size_t I = 0; I < Space->size(); ++I)
    if (Space->Actions[I].Kind == ActionKind::Pass)
      PassActions.push_back(I);
  std::mt19937_64 Rng(Seed);
  std::vector<CorpusModule> Chosen;
  for (const CorpusModule &C : *Corpus)
    if (C.IRInstructions >= MinIR && C.IRInstructions <= MaxIR)
      Chosen.push_back(C);
  std::shuffle(Chosen.begin(), Chosen.end(), Rng);
  if (Chosen.size() > Modules)
    Chosen.resize(Modules);

  SmallString<128> Tmp;
  sys::fs::createUniqueDirectory("smartcc-envbench", Tmp);
  double InProcess = 0, ByOpt = 0;
  uint64_t InSteps = 0, OptSteps = 0, Mismatches = 0, Hits = 0;
  // Per module-size band: the ratio depends on size (opt's process start-up dominates on small
  // modules, the passes themselves on large ones), so one aggregate hides the distribution.
  struct Band { const char *Name; uint64_t Max; double In = 0, Opt = 0; uint64_t Steps = 0; };
  Band Bands[] = {{"< 500", 500}, {"500-2k", 2000}, {"2k-5k", 5000}, {">= 5k", UINT64_MAX}};
  CompilerEnv Env(*Space, EnvOptions{RewardKind::IRInstructions, Steps});
  for (size_t K = 0; K < Chosen.size(); ++K) {
    const CorpusModule &C = Chosen[K];
    std::vector<size_t> Seq;
    for (unsigned S = 0; S < Steps; ++S)
      Seq.push_back(PassActions[Rng() % PassActions.size()]);
    if (Error E = Env.reset(C.Bench)) {
      errs() << "skip " << C.Bench.Name << ": " << toString(std::move(E)) << "\n";
      continue;
    }
    auto Start = std::chrono::steady_clock::now();
    std::vector<uint64_t> InIR;
    for (size_t A : Seq) {
      StepResult R = Env.step(A);
      Hits += R.CacheHit;
      InIR.push_back(Env.irInstructions());
    }
    double InSeconds = seconds(Start);
    InProcess += InSeconds;
    InSteps += Seq.size();
    Band &B = *llvm::find_if(Bands, [&](const Band &X) { return C.IRInstructions < X.Max; });
    B.In += InSeconds;

    LLVMContext Ctx;
    std::string Cur = (Tmp + "/in.bc").str(), Next = (Tmp + "/out.bc").str();
    sys::fs::copy_file(C.Bench.BitcodePath, Cur);
    Start = std::chrono::steady_clock::now();
    for (size_t S = 0; S < Seq.size(); ++S) {
      uint64_t IR = 0;
      if (!optStep(Cur, Next, Space->Actions[Seq[S]].Pipeline, Ctx, IR))
        break;
      Mismatches += IR != InIR[S];
      std::swap(Cur, Next);
      ++OptSteps;
    }
    double OptSeconds = seconds(Start);
    ByOpt += OptSeconds;
    B.Opt += OptSeconds;
    B.Steps += Seq.size();
    outs() << format("[%zu/%zu] %-50s %6llu IR  in-process %7.1f steps/s  opt %6.1f steps/s\n",
                     K + 1, Chosen.size(), C.Bench.Name.substr(0, 50).c_str(),
                     (unsigned long long)C.IRInstructions, InSteps / std::max(1e-9, InProcess),
                     OptSteps / std::max(1e-9, ByOpt));
  }
  sys::fs::remove_directories(Tmp);
  for (const Band &B : Bands)
    if (B.Steps)
      outs() << format("IR %-7s %5llu steps: in-process %7.1f steps/s, opt %6.1f steps/s, "
                       "ratio %5.1fx\n",
                       B.Name, (unsigned long long)B.Steps, B.Steps / B.In, B.Steps / B.Opt,
                       B.Opt / B.In);
  double InRate = InSteps / std::max(1e-9, InProcess), OptRate = OptSteps / std::max(1e-9, ByOpt);
  outs() << format("in-process: %llu steps in %.2f s = %.1f steps/s (%llu state-cache hits)\n",
                   (unsigned long long)InSteps, InProcess, InRate, (unsigned long long)Hits)
         << format("opt per step: %llu steps in %.2f s = %.1f steps/s\n",
                   (unsigned long long)OptSteps, ByOpt, OptRate)
         << format("ratio: %.1fx; IR counts differing between the two: %llu of %llu steps\n",
                   InRate / std::max(1e-9, OptRate), (unsigned long long)Mismatches,
                   (unsigned long long)OptSteps);
  return 0;
}
