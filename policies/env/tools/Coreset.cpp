// smartcc-coreset: mines a core set of action sequences on TRAINING modules (the Coreset
// baseline of the CompilerGym leaderboard literature): (1) random search on each module keeps
// its best distinct sequences; (2) every collected sequence is measured on every module;
// (3) sequences are picked greedily, each maximizing the never-worse geomean gain over clang
// -Oz given those already picked. smartcc-eval's `coreset:FILE[:K]` evaluates best-of-K on
// held-out modules. Stages (1) and (2) keep one result file per module and resume.
//
//   smartcc-coreset --corpus DIR --hashes TRAIN.txt --out DIR [--modules 100] [--trials 20]
//                   [--length 20] [--top 3] [--k 20] [--space autophase+macro+options]
//                   [--objective bytes|ir] [--jobs 2] [--seed 1]
#include "ModulePool.h"
#include "policies/env/Search.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <map>
#include <random>

using namespace llvm;
using namespace smartcc;

static cl::opt<std::string> CorpusDir("corpus", cl::desc("harvested corpus"), cl::Required);
static cl::opt<std::string> OutDir("out", cl::desc("output directory"), cl::Required);
static cl::opt<std::string> HashesFile("hashes", cl::desc("training module hashes (one a line)"));
static cl::opt<std::string> Level("level", cl::desc("harvest level"), cl::init("Oz"));
static cl::opt<unsigned> Modules("modules", cl::desc("training modules to sample"),
                                 cl::init(100));
static cl::opt<unsigned> Trials("trials", cl::desc("random sequences per module"), cl::init(20));
static cl::opt<unsigned> Length("length", cl::desc("sequence length"), cl::init(20));
static cl::opt<unsigned> Top("top", cl::desc("best sequences kept per module"), cl::init(3));
static cl::opt<unsigned> K("k", cl::desc("core set size"), cl::init(20));
static cl::opt<std::string> SpaceName("space", cl::desc("action space"),
                                      cl::init("autophase+macro+options"));
static cl::opt<std::string> ObjectiveName("objective", cl::desc("bytes or ir"),
                                          cl::init("bytes"));
static cl::opt<unsigned> Jobs("jobs", cl::desc("modules at once"), cl::init(2));
static cl::opt<unsigned> Seed("seed", cl::desc("random seed"), cl::init(1));

namespace {

Objective objective() {
  return ObjectiveName == "ir" ? Objective::IRInstructions : Objective::ObjectBytes;
}

std::string names(const ActionSpace &S, const std::vector<size_t> &Seq) {
  std::string Out;
  for (size_t A : Seq)
    Out += (Out.empty() ? "" : " ") + S.Actions[A].Name;
  return Out;
}

std::vector<size_t> indices(const ActionSpace &S, StringRef Names) {
  std::vector<size_t> Seq;
  SmallVector<StringRef, 64> Parts;
  Names.split(Parts, ' ', -1, false);
  for (StringRef N : Parts)
    Seq.push_back(size_t(S.indexOf(N)));
  return Seq;
}

bool writeAtomically(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path + ".tmp", EC);
  if (EC)
    return false;
  OS << Text;
  OS.close();
  return !sys::fs::rename(Path + ".tmp", Path);
}

std::vector<std::string> readLines(const std::string &Path) {
  std::vector<std::string> Lines;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path))
    for (StringRef L : split((*B)->getBuffer(), '\n'))
      if (!L.trim().empty())
        Lines.push_back(L.str());
  return Lines;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "smartcc core-set miner\n");
  Expected<std::vector<CorpusModule>> Corpus = readCorpus(CorpusDir, Level);
  Expected<ActionSpace> Space = loadActionSpaces(SpaceName);
  if (!Corpus || !Space) {
    errs() << "smartcc-coreset: error: "
           << (Corpus ? toString(Space.takeError()) : toString(Corpus.takeError())) << "\n";
    return 1;
  }
  std::vector<CorpusModule> Mods = std::move(*Corpus);
  if (!HashesFile.empty())
    if (Error E = keepListedModules(Mods, HashesFile)) {
      errs() << "smartcc-coreset: error: " << toString(std::move(E)) << "\n";
      return 1;
    }
  std::mt19937_64 Rng(Seed);
  std::shuffle(Mods.begin(), Mods.end(), Rng);
  if (Mods.size() > Modules)
    Mods.resize(Modules);

  // (1) Random search per module; keep the best distinct sequences that beat the start.
  outs() << "stage 1: random search on " << Mods.size() << " modules\n";
  runPerModule(Mods, OutDir + "/search", Jobs, [&](const CorpusModule &C, const std::string &P) {
    CompilerEnv Env(*Space, EnvOptions{RewardKind::IRInstructions, 1000});
    std::string Text;
    std::mt19937_64 R(Seed ^ std::hash<std::string>()(C.Hash));
    std::map<uint64_t, std::string> Best; // value -> sequence (ascending)
    for (unsigned T = 0; T < Trials; ++T) {
      std::vector<std::vector<size_t>> One(1);
      for (unsigned I = 0; I < Length; ++I)
        One[0].push_back(size_t(R() % Space->size()));
      Expected<SearchResult> S = bestOf(Env, C.Bench, One, objective());
      if (!S) {
        consumeError(S.takeError());
        return 1;
      }
      if (!S->Best.empty())
        Best.emplace(S->BestValue, names(*Space, S->Best));
    }
    unsigned Kept = 0;
    for (const auto &[Value, Seq] : Best) {
      if (Kept++ == Top)
        break;
      Text += Seq + "\n";
    }
    return writeAtomically(P, Text) ? 0 : 1;
  });
  std::vector<std::string> Sequences;
  StringSet<> Seen;
  for (const CorpusModule &C : Mods)
    for (const std::string &S : readLines(resultPath(OutDir + "/search", C)))
      if (Seen.insert(S).second)
        Sequences.push_back(S);
  outs() << Sequences.size() << " distinct sequences collected\n";

  // (2) Every sequence on every module: clang/value ratios (>1 = smaller than clang).
  outs() << "stage 2: measuring " << Sequences.size() << " sequences on " << Mods.size()
         << " modules\n";
  runPerModule(Mods, OutDir + "/matrix", Jobs, [&](const CorpusModule &C, const std::string &P) {
    CompilerEnv Env(*Space, EnvOptions{RewardKind::IRInstructions, 1000});
    json::Array Ratios;
    for (const std::string &S : Sequences) {
      Expected<SearchResult> R = bestOf(Env, C.Bench, {indices(*Space, S)}, objective());
      if (!R) {
        consumeError(R.takeError());
        Ratios.push_back(0.0);
        continue;
      }
      uint64_t V = R->Best.empty() ? 0 : R->BestValue; // 0: not better than the start
      Ratios.push_back(V ? double(R->ClangValue) / double(V) : 0.0);
    }
    std::string Text;
    raw_string_ostream(Text) << json::Value(std::move(Ratios)) << "\n";
    return writeAtomically(P, Text) ? 0 : 1;
  });
  std::vector<std::vector<double>> Matrix; // [module][sequence]
  for (const CorpusModule &C : Mods) {
    std::vector<std::string> L = readLines(resultPath(OutDir + "/matrix", C));
    Expected<json::Value> V = L.empty() ? json::Value(nullptr) : json::parse(L[0]);
    const json::Array *A = V ? V->getAsArray() : nullptr;
    if (!A || A->size() != Sequences.size()) {
      consumeError(V.takeError());
      continue;
    }
    std::vector<double> Row;
    for (const json::Value &X : *A)
      Row.push_back(X.getAsNumber().value_or(0));
    Matrix.push_back(std::move(Row));
  }

  // (3) Greedy selection by never-worse geomean gain.
  std::vector<double> Current(Matrix.size(), 1.0); // best ratio so far, never below -Oz
  std::vector<size_t> Chosen;
  json::Array Picked, Curve;
  for (unsigned Step = 0; Step < K && Step < Sequences.size(); ++Step) {
    double BestGain = 0;
    std::optional<size_t> BestSeq;
    for (size_t S = 0; S < Sequences.size(); ++S) {
      double Gain = 0;
      for (size_t M = 0; M < Matrix.size(); ++M)
        Gain += std::log(std::max(Current[M], Matrix[M][S])) - std::log(Current[M]);
      if (Gain > BestGain + 1e-12) {
        BestGain = Gain;
        BestSeq = S;
      }
    }
    if (!BestSeq)
      break;
    double Log = 0;
    for (size_t M = 0; M < Matrix.size(); ++M) {
      Current[M] = std::max(Current[M], Matrix[M][*BestSeq]);
      Log += std::log(Current[M]);
    }
    double Geo = Matrix.empty() ? 1.0 : std::exp(Log / double(Matrix.size()));
    Picked.push_back(Sequences[*BestSeq]);
    Curve.push_back(Geo);
    outs() << format("k=%2u  train geomean %.4f  %s\n", Step + 1, Geo,
                     Sequences[*BestSeq].substr(0, 90).c_str());
  }
  json::Object Out{{"space", SpaceName.getValue()},
                   {"objective", ObjectiveName.getValue()},
                   {"level", Level.getValue()},
                   {"modules", int64_t(Matrix.size())},
                   {"seed", int64_t(Seed)},
                   {"sequences", std::move(Picked)},
                   {"train_geomean_by_k", std::move(Curve)}};
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Out)) << "\n";
  if (!writeAtomically(OutDir + "/coreset.json", Text)) {
    errs() << "smartcc-coreset: error: cannot write " << OutDir << "/coreset.json\n";
    return 1;
  }
  outs() << "wrote " << OutDir << "/coreset.json\n";
  return 0;
}
