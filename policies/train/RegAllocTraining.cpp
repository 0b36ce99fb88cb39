#include "policies/train/RegAllocTraining.h"
#include "policies/regalloc/AllocatorOptions.h"
#include "policies/regalloc/RegAllocPolicy.h"
#include "policies/train/EvolutionStrategies.h"
#include "policies/train/TrainingCommon.h"
#include "runtime/config/CandidateSpec.h"
#include "runtime/compile/CodegenContext.h"
#include "runtime/compile/CompileLevel.h"
#include "runtime/observe/JSONLines.h"
#include "runtime/measure/RegAllocCost.h"
#include "runtime/compile/RegAllocPortfolio.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>

using namespace llvm;

namespace smartcc {

Expected<CodegenModule> prepareCodegenModule(const CorpusModule &C, StringRef Level,
                                             const std::string &Dir) {
  CodegenModule Out;
  Out.Hash = C.Hash;
  Out.Name = C.Bench.Name;
  Out.CC1Args = cc1ArgsAtLevel(C.Bench.CC1Args, Level);
  Out.OptimizedBitcodePath = Dir + "/" + C.Hash + ".bc";
  if (sys::fs::exists(Out.OptimizedBitcodePath))
    return Out;
  Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(Out.CC1Args);
  if (!CG)
    return CG.takeError();
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M = loadBitcodeFile(C.Bench.BitcodePath, Ctx);
  if (!M)
    return M.takeError();
  // The frontend marks every function for the level it compiled at (-Oz: minsize optsize);
  // a speed build's frontend would not have.
  setSizeAttributesForLevel(**M, Level);
  if (Error E = (*CG)->optimize(**M, CandidateSpec()))
    return std::move(E);
  SmallString<0> Bitcode;
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(**M, OS);
  if (Error E = writeFileAtomically(Out.OptimizedBitcodePath, Bitcode))
    return std::move(E);
  return Out;
}

Expected<OpenModule> openForCodegen(const CodegenModule &M) {
  OpenModule O;
  Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(M.CC1Args);
  if (!CG)
    return CG.takeError();
  O.CG = std::move(*CG);
  Expected<std::unique_ptr<Module>> Mod = loadBitcodeFile(M.OptimizedBitcodePath, *O.Ctx);
  if (!Mod)
    return Mod.takeError();
  O.M = std::move(*Mod);
  return std::move(O);
}

Expected<RegAllocMeasurement> measureRegAlloc(const CodegenModule &M,
                                              const RegAllocPolicy *Policy) {
  Expected<OpenModule> O = openForCodegen(M);
  if (!O)
    return O.takeError();
  RegAllocCost Cost;
  SmallVector<char, 0> Obj;
  Expected<ObjectSize> Size = O->CG->emitObject(*O->M, Obj, {Policy, nullptr, &Cost});
  if (!Size)
    return Size.takeError();
  Expected<StringMap<uint64_t>> Bytes = functionBytes(StringRef(Obj.data(), Obj.size()));
  if (!Bytes)
    return Bytes.takeError();
  return RegAllocMeasurement{Cost.weighted(), Size->linkedImageBytes(), std::move(Cost.PerFunction),
                             std::move(*Bytes)};
}

// Each head's figures on M, on the functions that cost anything under greedy (Greedy's
// per-function costs); none when nothing costs anything.
static Expected<std::vector<AllocationFigures>> headCostsOf(const CodegenModule &M,
                                                       const RegAllocMeasurement &Greedy,
                                                       const RegAllocPolicy &Policy) {
  const StringSet<> Costly = costlyFunctions(Greedy.PerFunction);
  if (Costly.empty())
    return std::vector<AllocationFigures>();
  Expected<OpenModule> O = openForCodegen(M);
  if (!O)
    return O.takeError();
  return headCosts(*O->M, Policy, Costly, [&](Module &X, SmallVectorImpl<char> &Obj) {
    return O->CG->emit(X, Obj);
  });
}

Expected<PerFunctionMeasurement> measurePerFunction(const CodegenModule &M,
                                                    const RegAllocMeasurement &Greedy,
                                                    const RegAllocPolicy &Policy,
                                                    double MaxGrowth) {
  Expected<std::vector<AllocationFigures>> Heads = headCostsOf(M, Greedy, Policy);
  if (!Heads)
    return Heads.takeError();
  HeadChoice C =
      chooseHeads(Greedy.PerFunction, Greedy.FunctionBytes, Greedy.Cost, *Heads, MaxGrowth);
  return PerFunctionMeasurement{C.Cost, C.HeadsOnlyCost, unsigned(C.Plan.Heads.size())};
}

namespace {

struct Prepared {
  CodegenModule Module;
  RegAllocMeasurement Greedy;
};

// Optimizes and measures Modules with the greedy allocator; the figures are cached in Path
// (one JSON line per module) and the optimized bitcode in Dir. Modules whose greedy cost is
// below MinCost (nothing to improve) are left out.
Expected<std::vector<Prepared>> prepare(const std::vector<CorpusModule> &Modules,
                                        const RegAllocTrainOptions &O, const std::string &Dir,
                                        const std::string &Path, double MinCost,
                                        size_t Want) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return errorCodeToError(EC);
  std::map<std::string, RegAllocMeasurement> Cached;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path))
    forEachJSONObject((*B)->getBuffer(), [&](const json::Object &J) {
      RegAllocMeasurement &M = Cached[J.getString("hash").value_or("").str()];
      M.Cost = J.getNumber("cost").value_or(-1);
      M.Bytes = uint64_t(J.getInteger("bytes").value_or(0));
      const json::Object *F = J.getObject("functions");
      const json::Object *B = J.getObject("function_bytes");
      if (F && B) {
        for (const auto &[Name, Cost] : *F)
          M.PerFunction[Name.str()] = Cost.getAsNumber().value_or(0);
        for (const auto &[Name, Bytes] : *B)
          M.FunctionBytes[Name.str()] = uint64_t(Bytes.getAsInteger().value_or(0));
      } else if (M.Cost >= 0) {
        M.Cost = -2; // written before per-function costs and bytes: measure again
      }
    });
  std::vector<Prepared> Out(Modules.size());
  std::vector<bool> Ok(Modules.size(), false);
  std::mutex Mu;
  std::error_code EC;
  raw_fd_ostream Log(Path, EC, sys::fs::OF_Append);
  if (EC)
    return createStringError(EC, "%s: %s", Path.c_str(), EC.message().c_str());
  size_t Done = 0;
  parallelFor(Modules.size(), O.Jobs, [&](size_t I) {
    Expected<CodegenModule> CM = prepareCodegenModule(Modules[I], O.Level, Dir);
    if (!CM) {
      consumeError(CM.takeError());
      return;
    }
    Out[I].Module = *CM;
    {
      std::lock_guard<std::mutex> Lock(Mu);
      if (auto It = Cached.find(Modules[I].Hash); It != Cached.end() && It->second.Cost != -2) {
        Out[I].Greedy = It->second;
        Ok[I] = It->second.Cost >= 0;
        return;
      }
    }
    Expected<RegAllocMeasurement> G = measureRegAlloc(*CM, nullptr);
    std::lock_guard<std::mutex> Lock(Mu);
    if (!G) {
      consumeError(G.takeError());
      Log << json::Value(json::Object{{"hash", Modules[I].Hash}, {"cost", -1}}) << "\n";
    } else {
      json::Object Functions, FunctionBytes;
      for (const auto &[Name, Cost] : G->PerFunction)
        Functions[Name] = Cost;
      for (const auto &[Name, Bytes] : G->FunctionBytes)
        FunctionBytes[Name] = int64_t(Bytes);
      Out[I].Greedy = std::move(*G);
      Ok[I] = true;
      Log << json::Value(json::Object{{"hash", Modules[I].Hash},
                                      {"cost", Out[I].Greedy.Cost},
                                      {"bytes", int64_t(Out[I].Greedy.Bytes)},
                                      {"functions", std::move(Functions)},
                                      {"function_bytes", std::move(FunctionBytes)}})
          << "\n";
    }
    if (++Done % 50 == 0)
      outs() << "prepared " << Done << " modules\n";
  });
  std::vector<Prepared> Kept;
  for (size_t I = 0; I < Out.size() && Kept.size() < Want; ++I)
    if (Ok[I] && Out[I].Greedy.Cost >= MinCost)
      Kept.push_back(std::move(Out[I]));
  return Kept;
}

struct CostFigures {
  // Geomeans over modules of cost / greedy's: each function at its cheapest head (the policy
  // alone, before any fallback), and at the cheapest of greedy and the heads (what ships).
  double HeadsOnly = 1, PerFunction = 1;
  unsigned Better = 0, Worse = 0, Failed = 0, FunctionsChanged = 0;
  json::Object toJSON() const {
    return json::Object{{"cost_ratio", HeadsOnly},
                        {"cost_ratio_after_fallback", PerFunction},
                        {"geomean", 1.0 / PerFunction},
                        {"better", int64_t(Better)},
                        {"worse", int64_t(Worse)},
                        {"failed", int64_t(Failed)},
                        {"functions_changed", int64_t(FunctionsChanged)}};
  }
};

CostFigures evaluate(const std::vector<Prepared> &Modules, const RegAllocPolicy &Policy,
                     unsigned Jobs, double MaxGrowth) {
  std::vector<std::optional<PerFunctionMeasurement>> M(Modules.size());
  parallelFor(Modules.size(), Jobs, [&](size_t I) {
    if (Expected<PerFunctionMeasurement> R =
            measurePerFunction(Modules[I].Module, Modules[I].Greedy, Policy, MaxGrowth))
      M[I] = *R;
    else
      consumeError(R.takeError());
  });
  CostFigures F;
  double LH = 0, LP = 0;
  for (size_t I = 0; I < Modules.size(); ++I) {
    if (!M[I]) {
      ++F.Failed; // the compiler would keep greedy's
      continue;
    }
    const double G = Modules[I].Greedy.Cost;
    LH += std::log(RegAllocCost::ratio(M[I]->HeadsOnlyCost, G));
    LP += std::log(RegAllocCost::ratio(M[I]->Cost, G));
    F.Better += M[I]->HeadsOnlyCost < G;
    F.Worse += M[I]->HeadsOnlyCost > G;
    F.FunctionsChanged += M[I]->FunctionsChanged;
  }
  if (!Modules.empty()) {
    F.HeadsOnly = std::exp(LH / double(Modules.size()));
    F.PerFunction = std::exp(LP / double(Modules.size()));
  }
  return F;
}

// The warm start: heads that are LLVM's default advisor (a zero output layer) plus, with
// InitSpread, two random features per head with weights of random sign and size up to
// InitSpread, so that the heads disagree from the first iteration. Hidden 0: linear heads;
// otherwise ReLU(Hidden) x 2 in front (the random features then go to random hidden units).
ExportedModel warmStart(const RegAllocTrainOptions &O) {
  const size_t N = regAllocFeatureCount(), H = O.Hidden, K = std::max(1u, O.Heads);
  std::mt19937_64 Rng(O.Seed);
  std::vector<float> W;
  json::Array Layers;
  auto Linear = [&](size_t In, size_t Out, bool Zero) {
    Layers.push_back(json::Object{{"kind", "linear"}, {"in", int64_t(In)}, {"out", int64_t(Out)},
                                  {"offset", int64_t(W.size())}});
    size_t Start = W.size();
    std::normal_distribution<float> D(0.f, 1.f / std::sqrt(float(In)));
    for (size_t I = 0; I < In * Out; ++I)
      W.push_back(Zero ? 0.f : D(Rng));
    W.insert(W.end(), Out, 0.f);
    return Start;
  };
  size_t In = N;
  if (H) {
    Linear(N, H, false);
    Layers.push_back(json::Object{{"kind", "relu"}});
    Linear(H, H, false);
    Layers.push_back(json::Object{{"kind", "relu"}});
    In = H;
  }
  size_t Out = Linear(In, K, true);
  if (O.InitSpread > 0) {
    std::uniform_int_distribution<size_t> Feature(0, In - 1);
    std::uniform_real_distribution<float> Size(0.25f * float(O.InitSpread), float(O.InitSpread));
    for (size_t Head = 0; Head < K; ++Head)
      for (int J = 0; J < 2; ++J)
        W[Out + Head * In + Feature(Rng)] = (Rng() & 1 ? 1.f : -1.f) * Size(Rng);
  }
  json::Array Names;
  for (const std::string &F : regAllocFeatureNames())
    Names.push_back(F);
  json::Object Meta{{"kind", "regalloc"},
                    {"input_size", int64_t(N)},
                    {"layers", std::move(Layers)},
                    {"features", std::move(Names)}};
  Expected<ExportedModel> M = ExportedModel::parse(ExportedModel::serialize(Meta, W), "warm start");
  cantFail(M.takeError());
  return std::move(*M);
}

// Per candidate head, its figures on a module's costly functions (cost and bytes of each).
using HeadCosts = std::vector<AllocationFigures>;

// Each head's figures for the functions that cost anything under greedy, on one module.
Expected<HeadCosts> measureHeads(const Prepared &PM, const RegAllocPolicy &Policy) {
  Expected<std::vector<AllocationFigures>> Heads = headCostsOf(PM.Module, PM.Greedy, Policy);
  if (!Heads)
    return Heads.takeError();
  HeadCosts Out(Policy.heads());
  for (size_t H = 0; H < Heads->size(); ++H)
    for (const auto &[Name, Cost] : PM.Greedy.PerFunction)
      if (Cost > 0) {
        Out[H].Cost.PerFunction[Name] = (*Heads)[H].Cost.costOf(Name);
        if (auto It = (*Heads)[H].Bytes.find(Name); It != (*Heads)[H].Bytes.end())
          Out[H].Bytes[Name] = It->second;
      }
  return Out;
}

// Every training module's HeadCosts under Policy, measured once per module and kept in Path
// (a line per module, appended as measured, so an interrupted run resumes). Key names the
// candidates: a line measured for other candidates is measured again.
Expected<std::map<std::string, HeadCosts>>
measureCandidates(const std::vector<Prepared> &Modules, const RegAllocPolicy &Policy,
                  const std::string &Path, const std::string &Key, unsigned Jobs) {
  std::map<std::string, HeadCosts> Costs;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path))
    forEachJSONObject((*B)->getBuffer(), [&](const json::Object &J) {
      const json::Array *Heads = J.getArray("heads"), *Bytes = J.getArray("bytes");
      // Lines without bytes were measured before bytes were a constraint: measured again.
      if (!Heads || !Bytes || Heads->size() != Policy.heads() ||
          Bytes->size() != Policy.heads() || J.getString("key").value_or("") != Key)
        return;
      HeadCosts &M = Costs[J.getString("hash").value_or("").str()];
      M.assign(Heads->size(), {});
      for (size_t H = 0; H < Heads->size(); ++H) {
        if (const json::Object *F = (*Heads)[H].getAsObject())
          for (const auto &[Name, Cost] : *F)
            M[H].Cost.PerFunction[Name.str()] = Cost.getAsNumber().value_or(0);
        if (const json::Object *F = (*Bytes)[H].getAsObject())
          for (const auto &[Name, Size] : *F)
            M[H].Bytes[Name.str()] = uint64_t(Size.getAsInteger().value_or(0));
      }
    });
  std::error_code EC;
  raw_fd_ostream Log(Path, EC, sys::fs::OF_Append);
  if (EC)
    return createStringError(EC, "%s: %s", Path.c_str(), EC.message().c_str());
  std::mutex Mu;
  size_t Done = 0, Todo = 0;
  for (const Prepared &PM : Modules)
    Todo += !Costs.count(PM.Module.Hash);
  auto Start = std::chrono::steady_clock::now();
  outs() << "measuring " << Policy.heads() << " candidate heads on " << Todo << " of "
         << Modules.size() << " training modules\n";
  outs().flush();
  parallelFor(Modules.size(), Jobs, [&](size_t I) {
    const Prepared &PM = Modules[I];
    {
      std::lock_guard<std::mutex> Lock(Mu);
      if (Costs.count(PM.Module.Hash))
        return;
    }
    Expected<HeadCosts> M = measureHeads(PM, Policy);
    std::lock_guard<std::mutex> Lock(Mu);
    if (!M) {
      consumeError(M.takeError());
      return; // the module takes no part in the choice
    }
    json::Array Heads, Bytes;
    for (const AllocationFigures &H : *M) {
      json::Object F, B;
      for (const auto &[Name, Cost] : H.Cost.PerFunction)
        F[Name] = Cost;
      for (const auto &[Name, Size] : H.Bytes)
        B[Name] = int64_t(Size);
      Heads.push_back(std::move(F));
      Bytes.push_back(std::move(B));
    }
    json::Object Line{{"hash", PM.Module.Hash}, {"heads", std::move(Heads)},
                      {"bytes", std::move(Bytes)}};
    if (!Key.empty())
      Line["key"] = Key;
    Log << json::Value(std::move(Line)) << "\n";
    Log.flush();
    Costs[PM.Module.Hash] = std::move(*M);
    if (++Done % 20 == 0 || Done == Todo) {
      double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
      outs() << format("  %zu/%zu modules measured  ETA %.0f s\n", Done, Todo,
                       S / double(Done) * double(Todo - Done));
      outs().flush();
    }
  });
  return Costs;
}

// The greedy choice on the training objective: sum over modules of log((greedy + 1) /
// (cost + 1)), each module allocated as the compiler would with the heads chosen so far
// (chooseHeads: each function at its cheapest, within the module's bytes); heads are added one
// at a time, the one that lowers it most, up to K or until none helps.
struct SelectionRow {
  const RegAllocMeasurement *Greedy;
  std::vector<const AllocationFigures *> Heads; // per candidate
};

std::vector<size_t> pickHeads(const std::vector<SelectionRow> &Rows, unsigned K, bool Print,
                              double MaxGrowth) {
  const size_t Candidates = Rows.empty() ? 0 : Rows.front().Heads.size();
  std::vector<size_t> Chosen;
  // The module's cost with Head added to the heads chosen so far.
  auto CostWith = [&](const SelectionRow &R, size_t Head) {
    std::vector<const AllocationFigures *> Set;
    for (size_t C : Chosen)
      Set.push_back(R.Heads[C]);
    Set.push_back(R.Heads[Head]);
    return chooseHeads(R.Greedy->PerFunction, R.Greedy->FunctionBytes, R.Greedy->Cost, Set,
                       MaxGrowth)
        .Cost;
  };
  double Objective = 0;
  for (unsigned Step = 0; Step < K; ++Step) {
    int BestHead = -1;
    double BestObjective = Objective;
    for (size_t H = 0; H < Candidates; ++H) {
      if (llvm::is_contained(Chosen, H))
        continue;
      double Sum = 0;
      for (const SelectionRow &R : Rows)
        Sum -= std::log(RegAllocCost::ratio(CostWith(R, H), R.Greedy->Cost));
      if (Sum > BestObjective + 1e-9)
        BestObjective = Sum, BestHead = int(H);
    }
    if (BestHead < 0)
      break; // no head helps any more
    Chosen.push_back(size_t(BestHead));
    Objective = BestObjective;
    if (Print)
      outs() << format("  head %u: candidate %d, training cost %.4f x greedy (geomean over "
                       "%zu modules)\n",
                       Step + 1, BestHead,
                       std::exp(-Objective / double(std::max<size_t>(Rows.size(), 1))),
                       Rows.size());
  }
  return Chosen;
}

// The selection's rows: the modules measured under every candidate (Parts, concatenated).
std::vector<SelectionRow> selectionRows(const std::vector<Prepared> &Modules,
                                        ArrayRef<const std::map<std::string, HeadCosts> *> Parts) {
  std::vector<SelectionRow> Rows;
  for (const Prepared &PM : Modules) {
    SelectionRow R{&PM.Greedy, {}};
    bool Measured = true;
    for (const std::map<std::string, HeadCosts> *Part : Parts) {
      auto It = Part->find(PM.Module.Hash);
      if (It == Part->end()) {
        Measured = false;
        break;
      }
      for (const AllocationFigures &H : It->second)
        R.Heads.push_back(&H);
    }
    if (Measured)
      Rows.push_back(std::move(R));
  }
  return Rows;
}

// One head of a linear model being assembled: a row of weights of another model (-1: a zero
// row, LLVM's priorities), the allocator options it sets and its eviction weights (null:
// LLVM's eviction).
struct HeadSpec {
  int Row = -1;
  json::Value Options = json::Array();
  json::Value Eviction = nullptr;
};

// The heads of a linear model From, as listed.
std::vector<HeadSpec> headsOf(const ExportedModel &From) {
  std::vector<HeadSpec> Out(From.outputSize());
  const json::Array *Options = From.metadata().getArray("head_options");
  const json::Array *Evictions = From.metadata().getArray("head_evictions");
  for (size_t H = 0; H < Out.size(); ++H) {
    Out[H].Row = int(H);
    if (Options && H < Options->size())
      Out[H].Options = (*Options)[H];
    if (Evictions && H < Evictions->size())
      Out[H].Eviction = (*Evictions)[H];
  }
  return Out;
}

// A linear model of Heads (rows of From), with "head_options" and "head_evictions" when any
// head has some.
ExportedModel linearHeads(const ExportedModel &From, ArrayRef<HeadSpec> Heads) {
  const size_t In = From.inputSize(), N = From.outputSize();
  ArrayRef<float> W = From.weights();
  std::vector<float> Out;
  json::Array Options, Evictions;
  bool AnyOptions = false, AnyEvictions = false;
  for (const HeadSpec &H : Heads) {
    if (H.Row < 0)
      Out.insert(Out.end(), In, 0.f);
    else
      Out.insert(Out.end(), W.begin() + size_t(H.Row) * In, W.begin() + size_t(H.Row + 1) * In);
    const json::Array *O = H.Options.getAsArray();
    AnyOptions |= O && !O->empty();
    AnyEvictions |= H.Eviction.kind() != json::Value::Null;
    Options.push_back(H.Options);
    Evictions.push_back(H.Eviction);
  }
  for (const HeadSpec &H : Heads)
    Out.push_back(H.Row < 0 ? 0.f : W[N * In + size_t(H.Row)]);
  json::Object Meta = From.metadata();
  Meta["layers"] = json::Array{json::Object{
      {"kind", "linear"}, {"in", int64_t(In)}, {"out", int64_t(Heads.size())}, {"offset", 0}}};
  Meta.erase("head_options");
  Meta.erase("head_evictions");
  if (AnyOptions)
    Meta["head_options"] = std::move(Options);
  if (AnyEvictions)
    Meta["head_evictions"] = std::move(Evictions);
  Expected<ExportedModel> M = ExportedModel::parse(ExportedModel::serialize(Meta, Out), "heads");
  cantFail(M.takeError());
  return std::move(*M);
}

// The heads of a linear model Rows picks, in that order, with their options and evictions.
ExportedModel keepHeads(const ExportedModel &From, ArrayRef<size_t> Rows) {
  std::vector<HeadSpec> All = headsOf(From), Kept;
  for (size_t R : Rows)
    Kept.push_back(All[R]);
  return linearHeads(From, Kept);
}

// Count seeded eviction scorers: LLVM's own rule in weights (the interference of least weight,
// few broken hints, a free register if there is one; the "evict nothing" position carries the
// live range's own weight, so it wins when every interference is heavier), each with two
// random features moved by up to Spread either way, so that the heads disagree.
std::vector<json::Value> drawEvictionScorers(unsigned Count, uint64_t Seed, double Spread) {
  std::mt19937_64 Rng(Seed);
  const std::vector<std::string> &Names = evictionFeatureNames();
  std::uniform_int_distribution<size_t> Feature(0, Names.size() - 1);
  std::uniform_real_distribution<double> Size(0.25 * Spread, Spread);
  std::vector<json::Value> Out;
  for (unsigned I = 0; I < Count; ++I) {
    std::map<std::string, double> W{
        {"use_def_density", -1.0}, {"nr_broken_hints", -2.0}, {"is_free", 4.0}};
    for (int J = 0; J < 2; ++J) {
      const std::string &N = Names[Feature(Rng)];
      W[N] += (Rng() & 1 ? 1.0 : -1.0) * Size(Rng);
    }
    json::Object O;
    for (const auto &[N, X] : W)
      O[N] = std::round(X * 1000.0) / 1000.0;
    Out.push_back(std::move(O));
  }
  return Out;
}

// See RegAllocTrainOptions::CandidateHeads and OptionHeads.
Expected<ExportedModel> selectHeads(const RegAllocTrainOptions &O,
                                    const std::vector<Prepared> &Modules,
                                    const std::string &Ckpt) {
  RegAllocTrainOptions Draw = O;
  Draw.Heads = O.CandidateHeads;
  Draw.Seed = O.Seed + 1000; // a stream of its own: the candidates, not ES's start
  ExportedModel Candidates = warmStart(Draw);
  RegAllocPolicy Policy = cantFail(RegAllocPolicy::fromModel(Candidates, "candidates"));
  // Measured once per module, cached: the measurement is the long part.
  Expected<std::map<std::string, HeadCosts>> Drawn = measureCandidates(
      Modules, Policy, Ckpt + "/candidate-heads.jsonl", "", O.Jobs);
  if (!Drawn)
    return Drawn.takeError();
  std::vector<const std::map<std::string, HeadCosts> *> Parts{&*Drawn};
  // The pool every candidate comes from, in the order the parts are measured: the drawn
  // heads, then (OptionHeads) allocator options on LLVM's priorities and on the best drawn
  // heads, then (EvictionHeads) eviction scorers on LLVM's priorities and on those heads.
  std::vector<HeadSpec> Pool = headsOf(Candidates);
  std::vector<size_t> Bases;
  if (O.OptionHeads || O.EvictionHeads)
    Bases = pickHeads(selectionRows(Modules, Parts), std::max(1u, O.OptionHeads), false,
                      O.MaxGrowth);
  // Measures Pool's heads from First on (a part of their own, cached in File under Key; What
  // says what they are). A deque: Parts points into it.
  std::deque<std::map<std::string, HeadCosts>> Measured;
  auto MeasurePart = [&](size_t First, const std::string &File, const std::string &Key,
                         const char *What) -> Error {
    std::vector<size_t> Rows(Pool.size() - First);
    std::iota(Rows.begin(), Rows.end(), First);
    RegAllocPolicy Part = cantFail(
        RegAllocPolicy::fromModel(keepHeads(linearHeads(Candidates, Pool), Rows), File));
    Expected<std::map<std::string, HeadCosts>> M =
        measureCandidates(Modules, Part, Ckpt + "/" + File, Key, O.Jobs);
    if (!M)
      return M.takeError();
    Measured.push_back(std::move(*M));
    Parts.push_back(&Measured.back());
    outs() << "candidates " << First << " to " << Pool.size() - 1 << ": " << What
           << " on LLVM's priorities and on candidates";
    for (size_t B : Bases)
      outs() << " " << B;
    outs() << "\n";
    return Error::success();
  };
  // A cache's key names the candidates it holds: the bases, then each candidate's settings.
  std::string BasesKey = "bases";
  for (size_t B : Bases)
    BasesKey += " " + std::to_string(B);
  if (O.OptionHeads) {
    const size_t First = Pool.size();
    std::string Key = BasesKey;
    for (const std::vector<std::string> &Set : allocatorOptionSets()) {
      Pool.push_back({-1, json::Array(Set), nullptr});
      for (size_t B : Bases)
        Pool.push_back({int(B), json::Array(Set), nullptr});
      Key += "; " + join(Set, " ");
    }
    if (Error E = MeasurePart(First, "candidate-options.jsonl", Key, "allocator options"))
      return std::move(E);
  }
  if (O.EvictionHeads) {
    const size_t First = Pool.size();
    std::vector<json::Value> Scorers =
        drawEvictionScorers(O.EvictionHeads, O.Seed + 2000, O.InitSpread);
    std::string Key = BasesKey;
    for (size_t I = 0; I < Scorers.size(); ++I) {
      // Alternately on LLVM's priorities and on one of the best drawn heads.
      int Row = (I % 2 == 0 || Bases.empty()) ? -1 : int(Bases[(I / 2) % Bases.size()]);
      Pool.push_back({Row, json::Array(), Scorers[I]});
      std::string Text;
      raw_string_ostream(Text) << Scorers[I];
      Key += "; " + std::to_string(Row) + " " + Text;
    }
    if (Error E = MeasurePart(First, "candidate-evictions.jsonl", Key, "eviction scorers"))
      return std::move(E);
  }
  std::vector<size_t> Chosen =
      pickHeads(selectionRows(Modules, Parts), O.Heads, true, O.MaxGrowth);
  if (Chosen.empty())
    return createStringError(inconvertibleErrorCode(), "no candidate head lowers the training "
                                                       "cost: draw more (--candidate-heads)");
  outs().flush();
  return keepHeads(linearHeads(Candidates, Pool), Chosen);
}

} // namespace

Error trainRegAllocES(const RegAllocTrainOptions &O, const std::vector<CorpusModule> &Train,
                      const std::vector<CorpusModule> &Validation) {
  const std::string Ckpt = O.RunDir + "/checkpoint";
  if (std::error_code EC = sys::fs::create_directories(Ckpt))
    return errorCodeToError(EC);
  // Training needs modules with something to improve; validation keeps every module with a
  // spill or copy, like the evaluation.
  Expected<std::vector<Prepared>> TrainM =
      prepare(Train, O, Ckpt + "/optimized", Ckpt + "/train-modules.jsonl", 1.0, SIZE_MAX);
  if (!TrainM)
    return TrainM.takeError();
  // The first modules of the (hash-ordered) list: a fixed sample, prepared only as needed.
  std::vector<CorpusModule> ValSample(
      Validation.begin(),
      Validation.begin() + std::min<size_t>(Validation.size(), 3 * size_t(O.ValidationModules)));
  Expected<std::vector<Prepared>> ValM = prepare(ValSample, O, Ckpt + "/optimized",
                                                 Ckpt + "/validation-modules.jsonl", 1e-9,
                                                 O.ValidationModules);
  if (!ValM)
    return ValM.takeError();
  if (TrainM->empty())
    return createStringError(inconvertibleErrorCode(),
                             "no training module spills or copies under the greedy allocator");
  ExportedModel Init = warmStart(O);
  if ((O.OptionHeads || O.EvictionHeads) && !O.CandidateHeads)
    return createStringError(inconvertibleErrorCode(),
                             "--option-heads and --eviction-heads need head selection "
                             "(--candidate-heads)");
  if (O.CandidateHeads) {
    if (O.Hidden)
      return createStringError(inconvertibleErrorCode(),
                               "head selection (--candidate-heads) needs linear heads (--hidden 0)");
    Expected<ExportedModel> Chosen = selectHeads(O, *TrainM, Ckpt);
    if (!Chosen)
      return Chosen.takeError();
    Init = std::move(*Chosen);
  }
  const unsigned Heads = unsigned(Init.outputSize());
  outs() << "evolution strategies on " << TrainM->size() << " training modules with a "
         << "register-allocation cost at -" << O.Level << " (" << ValM->size()
         << " for validation), " << Heads << " heads, " << Init.weights().size()
         << " weights\n";

  auto PolicyOf = [&](ArrayRef<float> W) {
    ExportedModel M = Init;
    M.setWeights(W);
    return cantFail(RegAllocPolicy::fromModel(std::move(M), "es"));
  };
  ESProblem P;
  P.TrainItems = TrainM->size();
  P.Sample = [&](ArrayRef<float> W, size_t Item) {
    const Prepared &PM = (*TrainM)[Item];
    RegAllocPolicy Policy = PolicyOf(W);
    Expected<PerFunctionMeasurement> R =
        measurePerFunction(PM.Module, PM.Greedy, Policy, O.MaxGrowth);
    ESSample S;
    if (!R) {
      consumeError(R.takeError());
      S.Gain = -10.0;
      return S;
    }
    S.Gain = -100.0 * std::log(RegAllocCost::ratio(R->Cost, PM.Greedy.Cost));
    S.Changed = R->FunctionsChanged;
    return S;
  };
  P.Validate = [&](ArrayRef<float> W) {
    CostFigures F = evaluate(*ValM, PolicyOf(W), O.Jobs, O.MaxGrowth);
    outs() << format("  validation: cost %.4f x greedy with each function at its cheapest of "
                     "greedy and %u heads (heads alone %.4f, %u better / %u worse), %u "
                     "functions by a head\n",
                     F.PerFunction, Heads, F.HeadsOnly, F.Better, F.Worse,
                     F.FunctionsChanged);
    outs().flush();
    // The shipped model is the best as the compiler uses it: per function, with greedy.
    return std::make_pair(-std::log(F.PerFunction), F.toJSON());
  };
  P.ModelMetadata = Init.metadata();
  P.ModelMetadata["target"] = O.TargetPrefix;
  P.ModelMetadata["level"] = O.Level;
  P.ModelMetadata["train_modules"] = int64_t(TrainM->size());
  P.ModelMetadata["validation_modules"] = int64_t(ValM->size());
  P.ModelMetadata["heads"] = int64_t(Heads);
  if (O.CandidateHeads)
    P.ModelMetadata["candidate_heads"] = int64_t(O.CandidateHeads);
  if (O.OptionHeads)
    P.ModelMetadata["option_heads"] = int64_t(O.OptionHeads);
  if (O.EvictionHeads)
    P.ModelMetadata["eviction_heads"] = int64_t(O.EvictionHeads);
  // What the heads were chosen for; the compiler's `regalloc_growth` decides at run time.
  P.ModelMetadata["regalloc_growth"] = O.MaxGrowth * 100.0;
  ESOptions E = O.ES;
  E.RunDir = O.RunDir;
  E.Seed = O.Seed;
  E.Jobs = O.Jobs;
  return runEvolutionStrategies(E, Init.weights(), P);
}

} // namespace smartcc
