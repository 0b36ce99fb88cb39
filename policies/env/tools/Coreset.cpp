// smartcc-coreset: mines a core set of action sequences on TRAINING modules (the Coreset
// baseline of the CompilerGym leaderboard literature): (1) random search on each module keeps
// its best distinct sequences (or greedy search its one best); (2) every collected sequence is measured on every module;
// (3) sequences are picked greedily, each maximizing the never-worse geomean gain over clang
// -Oz given those already picked. smartcc-eval's `coreset:FILE[:K]` evaluates best-of-K on
// held-out modules. Optionally (4) the core set is measured on more training modules, with
// each module's observation: the table smartcc-train's value model learns from. Stages (1),
// (2) and (4) keep one result file per module and resume.
//
//   smartcc-coreset --corpus DIR --hashes TRAIN.txt --out DIR [--modules 100] [--trials 20]
//                   [--length 20] [--top 3] [--k 20] [--space autophase+macro+options]
//                   [--search random|greedy:N] [--table-modules N] [--coreset FILE]
//                   [--objective bytes|shipped|ir] [--jobs 2] [--seed 1]
#include "ModulePool.h"
#include "policies/Observation.h"
#include "policies/env/Search.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
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
static cl::opt<std::string> ObjectiveName("objective",
                                          cl::desc("bytes, shipped (bytes as the compiler's "
                                                   "ship rules let them ship) or ir"),
                                          cl::init("bytes"));
static cl::opt<unsigned> Jobs("jobs", cl::desc("modules at once"), cl::init(2));
static cl::opt<std::string> SearchName("search",
                                       cl::desc("stage 1 search: random (--trials x --length) "
                                                "or greedy:STEPS"),
                                       cl::init("random"));
static cl::opt<std::string> CoreSetFile("coreset",
                                        cl::desc("skip stages 1-3: measure this core set's "
                                                 "sequences (stage 4 only)"));
static cl::opt<unsigned> TableModules("table-modules",
                                      cl::desc("stage 4: measure the core set on this many "
                                               "training modules (the value model's table)"),
                                      cl::init(0));
static cl::opt<unsigned> Seed("seed", cl::desc("random seed"), cl::init(1));

namespace {

Objective TheObjective = Objective::ObjectBytes; // --objective, checked in main
Objective objective() { return TheObjective; }

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

// One line of the value table (stage 4), or "" when the module cannot be measured:
//   {"hash", "package", "target", "ir", "obs": [Autophase, log1p], "clang": V,
//    "values": [V per sequence, 0 = failed]}
// The observation is computed on the harvested module itself: the module smartcc's pipeline
// hook sees, before anything runs.
std::string tableRow(const ActionSpace &Space, const CorpusModule &C,
                     const std::vector<std::string> &Sequences) {
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M = loadBitcodeFile(C.Bench.BitcodePath, Ctx);
  if (!M) {
    consumeError(M.takeError());
    return "";
  }
  json::Array Obs;
  for (float F : observationVector(computeAutophase(**M), {}, 0, 1))
    Obs.push_back(double(F));
  CompilerEnv Env(Space, EnvOptions{RewardKind::IRInstructions, 1000});
  if (Error E = Env.reset(C.Bench)) {
    consumeError(std::move(E));
    return "";
  }
  json::Array Values;
  for (const std::string &S : Sequences) {
    if (Error E = Env.reset(C.Bench)) {
      consumeError(std::move(E));
      return "";
    }
    for (size_t A : indices(Space, S))
      Env.step(A);
    Expected<uint64_t> V = objectiveValue(Env, objective());
    Values.push_back(V ? int64_t(*V) : int64_t(0));
    if (!V)
      consumeError(V.takeError());
  }
  Expected<uint64_t> Clang = objective() == Objective::IRInstructions
                                 ? Expected<uint64_t>(Env.clangIR())
                                 : Env.clangObjectBytes();
  if (!Clang) {
    consumeError(Clang.takeError());
    return "";
  }
  json::Object Row{{"hash", C.Hash},     {"package", C.Package},     {"target", C.Target},
                   {"ir", int64_t(C.IRInstructions)}, {"obs", std::move(Obs)},
                   {"clang", int64_t(*Clang)},       {"values", std::move(Values)}};
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Row)) << "\n";
  return Text;
}

// (4) The value model's table: for each training module, its observation (what the compiler
// sees at the start of the middle-end) and the measured objective of every core-set sequence,
// so that a model can learn which sequences pay off where.
void measureTable(const ActionSpace &Space, const std::vector<CorpusModule> &Mods,
                  const std::vector<std::string> &CoreSet) {
  if (Mods.empty())
    return;
  outs() << "stage 4: measuring the core set (" << CoreSet.size() << " sequences) on "
         << Mods.size() << " modules\n";
  runPerModule(Mods, OutDir + "/table", Jobs, [&](const CorpusModule &C, const std::string &P) {
    return writeAtomically(P, tableRow(Space, C, CoreSet)) ? 0 : 1;
  });
}

// The sequences of a core set written by an earlier run.
Expected<std::vector<std::string>> readCoreSet(const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
  if (!B)
    return createStringError(B.getError(), "cannot read %s", Path.c_str());
  Expected<json::Value> V = json::parse((*B)->getBuffer());
  if (!V)
    return createStringError(inconvertibleErrorCode(), "%s: %s", Path.c_str(),
                             toString(V.takeError()).c_str());
  const json::Object *O = V->getAsObject();
  const json::Array *A = O ? O->getArray("sequences") : nullptr;
  if (!A)
    return createStringError(inconvertibleErrorCode(), "%s: no \"sequences\" array",
                             Path.c_str());
  std::vector<std::string> Out;
  for (const json::Value &S : *A)
    Out.push_back(S.getAsString().value_or("").str());
  return Out;
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
  if (Expected<Objective> O = parseObjective(ObjectiveName)) {
    TheObjective = *O;
  } else {
    errs() << "smartcc-coreset: error: " << toString(O.takeError()) << "\n";
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
  std::vector<CorpusModule> TableMods(Mods.begin(),
                                      Mods.begin() + std::min<size_t>(TableModules, Mods.size()));
  if (Mods.size() > Modules)
    Mods.resize(Modules);

  if (!CoreSetFile.empty()) { // stage 4 alone, e.g. on validation modules
    Expected<std::vector<std::string>> CoreSet = readCoreSet(CoreSetFile);
    if (!CoreSet) {
      errs() << "smartcc-coreset: error: " << toString(CoreSet.takeError()) << "\n";
      return 1;
    }
    // The table's own copy of its core set, so that the directory is self-describing; its
    // "objective" says what the table measured (a set mined in bytes may be measured as
    // shipped).
    sys::fs::create_directories(OutDir);
    if (CoreSetFile != OutDir + "/coreset.json") {
      ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(CoreSetFile);
      Expected<json::Value> V = B ? json::parse((*B)->getBuffer())
                                  : Expected<json::Value>(errorCodeToError(B.getError()));
      if (!V || !V->getAsObject()) {
        errs() << "smartcc-coreset: error: " << CoreSetFile << ": "
               << (V ? "not a JSON object" : toString(V.takeError())) << "\n";
        return 1;
      }
      (*V->getAsObject())["objective"] = ObjectiveName.getValue();
      std::string Text;
      raw_string_ostream(Text) << *V << "\n";
      if (!writeAtomically(OutDir + "/coreset.json", Text)) {
        errs() << "smartcc-coreset: error: cannot write " << OutDir << "/coreset.json\n";
        return 1;
      }
    }
    measureTable(*Space, TableMods, *CoreSet);
    return 0;
  }

  // (1) Random search per module; keep the best distinct sequences that beat the start.
  outs() << "stage 1: " << SearchName << " search on " << Mods.size() << " modules\n";
  runPerModule(Mods, OutDir + "/search", Jobs, [&](const CorpusModule &C, const std::string &P) {
    CompilerEnv Env(*Space, EnvOptions{RewardKind::IRInstructions, 1000});
    std::string Text;
    std::mt19937_64 R(Seed ^ std::hash<std::string>()(C.Hash));
    std::map<uint64_t, std::string> Best; // value -> sequence (ascending)
    if (StringRef(SearchName).starts_with("greedy:")) {
      unsigned Steps = 3;
      StringRef(SearchName).drop_front(7).getAsInteger(10, Steps);
      Expected<SearchResult> S = greedySearch(Env, C.Bench, Steps, objective());
      if (!S) {
        consumeError(S.takeError());
        return 1;
      }
      std::string Text = S->Best.empty() ? "" : Space->namesOf(S->Best) + "\n";
      return writeAtomically(P, Text) ? 0 : 1;
    }
    std::vector<std::vector<size_t>> Tries(Trials);
    for (std::vector<size_t> &Try : Tries)
      for (unsigned I = 0; I < Length; ++I)
        Try.push_back(size_t(R() % Space->size()));
    Expected<SearchResult> S = bestOf(Env, C.Bench, Tries, objective());
    if (!S) {
      consumeError(S.takeError());
      return 1;
    }
    for (size_t T = 0; T < Tries.size(); ++T)
      if (S->Values[T] && *S->Values[T] < S->StartValue)
        Best.emplace(*S->Values[T], Space->namesOf(Tries[T]));
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
    std::vector<std::vector<size_t>> All;
    for (const std::string &S : Sequences)
      All.push_back(indices(*Space, S));
    // 0: not better than the start, or rejected (crashed, failed, timed out).
    Expected<SearchResult> R = bestOf(Env, C.Bench, All, objective());
    if (!R)
      consumeError(R.takeError());
    for (size_t I = 0; I < All.size(); ++I) {
      std::optional<uint64_t> V = R ? R->Values[I] : std::nullopt;
      Ratios.push_back(V && *V < R->StartValue ? double(R->ClangValue) / double(*V) : 0.0);
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
  std::vector<std::string> CoreSet;
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
    CoreSet.push_back(Sequences[*BestSeq]);
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
  measureTable(*Space, TableMods, CoreSet);
  return 0;
}
