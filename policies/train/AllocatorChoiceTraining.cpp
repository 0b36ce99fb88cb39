#include "policies/train/AllocatorChoiceTraining.h"
#include "policies/regalloc/AllocatorFeatures.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/AllocatorPlan.h"
#include "policies/model/ExportedModel.h"
#include "policies/train/EvolutionStrategies.h"
#include "policies/train/RegAllocTraining.h"
#include "policies/train/TrainingCommon.h"
#include "runtime/compile/AllocatorsByBytes.h"
#include "runtime/compile/CodegenContext.h"
#include "runtime/observe/JSONLines.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <mutex>

using namespace llvm;

namespace smartcc {
namespace {

// One function: its features and its bytes under each allocator (-1: that allocator failed).
struct FunctionRow {
  std::vector<float> X;
  std::vector<double> Bytes;
};

struct ModuleRows {
  std::string Hash;
  std::vector<FunctionRow> Rows;
};

json::Value toJSON(const ModuleRows &M) {
  json::Array Functions;
  for (const FunctionRow &R : M.Rows)
    Functions.push_back(json::Object{{"f", json::Array(R.X)}, {"b", json::Array(R.Bytes)}});
  return json::Object{{"hash", M.Hash}, {"functions", std::move(Functions)}};
}

// One cache line back; false for a line that is not one (another format).
bool fromJSON(const json::Object &O, ModuleRows &M) {
  std::optional<StringRef> Hash = O.getString("hash");
  const json::Array *Functions = O.getArray("functions");
  if (!Hash || !Functions)
    return false;
  M.Hash = Hash->str();
  for (const json::Value &F : *Functions) {
    FunctionRow R;
    std::vector<double> X;
    json::Path::Root Root;
    json::ObjectMapper FO(F, Root);
    if (!FO || !FO.map("f", X) || !FO.map("b", R.Bytes))
      return false;
    R.X.assign(X.begin(), X.end());
    M.Rows.push_back(std::move(R));
  }
  return true;
}

Expected<ModuleRows> measureModule(const CorpusModule &C, ArrayRef<AllocatorChoice> Allocators,
                                   const std::string &BitcodeDir) {
  Expected<CodegenModule> CM = prepareCodegenModule(C, "Oz", BitcodeDir);
  if (!CM)
    return CM.takeError();
  Expected<OpenModule> O = openForCodegen(*CM);
  if (!O)
    return O.takeError();
  // Without a handler an error diagnostic (inline assembly of another ISA, in a module
  // harvested for a second target) would end the process: it fails this module instead.
  std::string FirstError;
  O->Ctx->setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *DI, void *Context) {
        std::string &First = *static_cast<std::string *>(Context);
        if (DI->getSeverity() != DS_Error || !First.empty())
          return;
        raw_string_ostream OS(First);
        DiagnosticPrinterRawOStream DP(OS);
        DI->print(DP);
      },
      &FirstError);
  Expected<BytesAllocation> A = allocateByBytes(
      *O->M, Allocators,
      [&](Module &Mod, SmallVectorImpl<char> &Obj) { return O->CG->emit(Mod, Obj); },
      /*RecordFeatures=*/true);
  if (!A)
    return A.takeError();
  if (!FirstError.empty())
    return createStringError(inconvertibleErrorCode(), FirstError);
  ModuleRows Out;
  Out.Hash = C.Hash;
  for (const auto &[Name, Reference] : *A->Bytes[0]) {
    auto F = A->Features.find(Name);
    if (F == A->Features.end())
      continue; // (a function no allocator saw: none here, but a symbol might alias)
    FunctionRow R;
    R.X = F->second;
    for (const auto &B : A->Bytes) {
      auto It = B ? B->find(Name) : std::map<std::string, uint64_t>::const_iterator();
      R.Bytes.push_back(B && It != B->end() ? double(It->second) : -1.0);
    }
    Out.Rows.push_back(std::move(R));
  }
  return Out;
}

// Every module's rows, from the cache where measured before; the rest are measured now (and
// appended to the cache as each ends, so an interrupted run resumes).
Expected<std::vector<ModuleRows>> measureAll(const AllocatorChoiceOptions &O,
                                             const std::vector<const CorpusModule *> &Modules,
                                             ArrayRef<AllocatorChoice> Allocators) {
  const std::string Ckpt = O.RunDir + "/checkpoint", Cache = Ckpt + "/allocator-data.jsonl";
  if (std::error_code EC = sys::fs::create_directories(Ckpt + "/optimized"))
    return errorCodeToError(EC);
  StringMap<ModuleRows> Known;
  // (A line cut by an interruption is skipped: that module is measured again.)
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Cache))
    forEachJSONObject((*B)->getBuffer(), [&](const json::Object &Line) {
      ModuleRows M;
      if (fromJSON(Line, M))
        Known[M.Hash] = std::move(M);
    });
  std::vector<size_t> Todo;
  for (size_t I = 0; I < Modules.size(); ++I)
    if (!Known.count(Modules[I]->Hash))
      Todo.push_back(I);
  outs() << "allocator data: " << Modules.size() - Todo.size() << " modules cached, "
         << Todo.size() << " to measure\n";
  std::mutex Lock;
  std::error_code EC;
  raw_fd_ostream Out(Cache, EC, sys::fs::OF_Append);
  if (EC)
    return errorCodeToError(EC);
  size_t Done = 0, Failed = 0;
  auto Start = std::chrono::steady_clock::now();
  parallelFor(Todo.size(), O.Jobs, [&](size_t K) {
    const CorpusModule &C = *Modules[Todo[K]];
    Expected<ModuleRows> R = measureModule(C, Allocators, Ckpt + "/optimized");
    std::lock_guard<std::mutex> G(Lock);
    ++Done;
    if (!R) {
      ++Failed;
      errs() << "  " << C.Hash << " (" << C.Source << "): " << toString(R.takeError()) << "\n";
    } else {
      Out << json::Value(toJSON(*R)) << "\n";
      Out.flush();
      Known[R->Hash] = std::move(*R);
    }
    if (Done % 20 == 0 || Done == Todo.size()) {
      double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
      outs() << format("  measured %zu/%zu modules (%zu failed), ETA %.0f s\n", Done,
                       Todo.size(), Failed, S / Done * double(Todo.size() - Done));
      outs().flush();
    }
  });
  std::vector<ModuleRows> All;
  for (const CorpusModule *C : Modules)
    if (auto It = Known.find(C->Hash); It != Known.end())
      All.push_back(It->second);
  return All;
}

// Features and each allocator's bytes relative to the reference's (a failed allocator costs as
// if it added a kilobyte: never worth choosing).
// Rows stay in module order: ModuleRowCounts[I] rows of module I (the per-module figures of
// checked proposals, below), each with its reference bytes.
struct Table {
  torch::Tensor X, D;
  size_t Rows = 0;
  std::vector<size_t> ModuleRowCounts;
  std::vector<double> ReferenceBytes;
};
Table tableOf(const std::vector<ModuleRows> &Modules, size_t K) {
  std::vector<float> X, D;
  std::vector<size_t> Counts;
  std::vector<double> Reference;
  size_t N = 0, F = allocatorFeatureNames().size();
  for (const ModuleRows &M : Modules) {
    Counts.push_back(0);
    for (const FunctionRow &R : M.Rows) {
      if (R.X.size() != F || R.Bytes.size() != K || R.Bytes[0] < 0)
        continue;
      X.insert(X.end(), R.X.begin(), R.X.end());
      for (size_t A = 0; A < K; ++A)
        D.push_back(R.Bytes[A] < 0 ? 1024.f : float(R.Bytes[A] - R.Bytes[0]));
      Reference.push_back(R.Bytes[0]);
      ++Counts.back();
      ++N;
    }
  }
  Table T;
  T.ModuleRowCounts = std::move(Counts);
  T.ReferenceBytes = std::move(Reference);
  T.Rows = N;
  T.X = torch::from_blob(X.data(), {int64_t(N), int64_t(F)}, torch::kFloat32).clone();
  T.D = torch::from_blob(D.data(), {int64_t(N), int64_t(K)}, torch::kFloat32).clone();
  return T;
}

struct Figures {
  double Oracle = 0, Saved = 0; // bytes saved: every allocator tried; the model's choices
  size_t Functions = 0, Moved = 0, WrongMoves = 0;
  double fraction() const { return Oracle > 0 ? Saved / Oracle : 0; }
};

// One function's row: the best-scoring allocator from From on (the first on ties), and what
// trying every allocator saves there (-min(0, D) over the allocators other than the reference).
struct RowChoice {
  int64_t Best;
  float Oracle;
};
template <typename Row>
RowChoice choiceOf(const Row &S, const Row &D, int64_t Allocators, int64_t From) {
  RowChoice C{From, 0};
  for (int64_t A = From + 1; A < Allocators; ++A)
    if (S[A] > S[C.Best])
      C.Best = A;
  float Min = 0;
  for (int64_t A = 1; A < Allocators; ++A)
    Min = std::min(Min, D[A]);
  C.Oracle = -Min;
  return C;
}

Figures evaluate(const torch::Tensor &Scores, const torch::Tensor &D, double Margin) {
  Figures F;
  auto S = Scores.accessor<float, 2>();
  auto Dd = D.accessor<float, 2>();
  for (int64_t I = 0; I < Scores.size(0); ++I) {
    ++F.Functions;
    const auto [Best, Oracle] = choiceOf(S[I], Dd[I], Scores.size(1), 0);
    F.Oracle += Oracle;
    if (Best != 0 && S[I][Best] - S[I][0] > Margin) {
      ++F.Moved;
      F.Saved += -Dd[I][Best];
      F.WrongMoves += Dd[I][Best] > 0;
    }
  }
  return F;
}

// Checked proposals: each function tries the best-scoring allocator other than the reference
// (Fixed: that allocator for every function instead) and keeps it only where it was smaller.
Figures evaluateProposals(const torch::Tensor &Scores, const torch::Tensor &D,
                          std::optional<int64_t> Fixed = std::nullopt) {
  Figures F;
  auto S = Scores.accessor<float, 2>();
  auto Dd = D.accessor<float, 2>();
  for (int64_t I = 0; I < Scores.size(0); ++I) {
    ++F.Functions;
    const RowChoice C = choiceOf(S[I], Dd[I], Scores.size(1), 1);
    const int64_t Best = Fixed ? *Fixed : C.Best;
    F.Oracle += C.Oracle;
    if (Dd[I][Best] < 0) {
      ++F.Moved;
      F.Saved += -Dd[I][Best];
    }
  }
  return F;
}

// Checked proposals per module, as the compiler makes them (allocateByProposals) under Gates:
// the bytes saved, and the code generations beyond the reference's (the proposals' and the
// mix's). Functions' bytes add up, so a mix saves the sum of its functions' savings.
struct ModuleFigures {
  double Oracle = 0, Saved = 0;
  size_t Modules = 0, ExtraCodegens = 0;
  double fraction() const { return Oracle > 0 ? Saved / Oracle : 0; }
  double extraPerModule() const { return Modules ? double(ExtraCodegens) / Modules : 0; }
};

ModuleFigures evaluateModules(const Table &T, const torch::Tensor &Scores,
                              const ProposalGates &Gates) {
  ModuleFigures F;
  auto S = Scores.accessor<float, 2>();
  auto Dd = T.D.accessor<float, 2>();
  size_t Row = 0;
  for (size_t Count : T.ModuleRowCounts) {
    if (Count == 0)
      continue;
    ++F.Modules;
    double Reference = 0, Mix = 0, Whole = 0;
    size_t Kept = 0, Larger = 0;
    for (size_t I = Row; I != Row + Count; ++I) {
      const auto [Best, Oracle] = choiceOf(S[I], Dd[I], Scores.size(1), 1);
      F.Oracle += Oracle;
      Reference += T.ReferenceBytes[I];
      Whole += -Dd[I][Best];
      if (Dd[I][Best] < 0) {
        Mix += -Dd[I][Best];
        ++Kept;
      } else if (Dd[I][Best] > 0) {
        ++Larger;
      }
    }
    Row += Count;
    if (Reference < double(Gates.MinReferenceBytes))
      continue;
    ++F.ExtraCodegens;
    Whole = std::max(Whole, 0.0);
    // (No proposal kept, or none larger: the whole object is the mix.)
    const bool Partial = Kept != 0 && Larger != 0;
    if (Partial && Mix - Whole >= double(Gates.MinMixGainBytes)) {
      ++F.ExtraCodegens;
      F.Saved += Mix;
    } else {
      F.Saved += Whole;
    }
  }
  return F;
}

// The gates, from a fixed grid, under which checked proposals save the most on Train at no
// more than MaxExtra code generations per module beyond the reference's (ties: the fewer).
ProposalGates chooseGates(const Table &T, const torch::Tensor &Scores, double MaxExtra) {
  ProposalGates Best;
  std::optional<ModuleFigures> BestFigures;
  for (uint64_t Bytes : {0, 200, 400, 600, 800, 1000, 1250, 1500, 2000, 3000, 4000, 6000})
    for (uint64_t Gain : {0, 1, 2, 4, 8, 16, 32, 64}) {
      ProposalGates G{Bytes, Gain};
      ModuleFigures F = evaluateModules(T, Scores, G);
      if (F.extraPerModule() > MaxExtra)
        continue;
      if (!BestFigures || F.Saved > BestFigures->Saved ||
          (F.Saved == BestFigures->Saved && F.ExtraCodegens < BestFigures->ExtraCodegens)) {
        Best = G;
        BestFigures = F;
      }
    }
  // (None within the bound: the largest gates of the grid.)
  if (!BestFigures)
    Best = ProposalGates{6000, 64};
  return Best;
}

json::Object moduleFiguresJSON(const ModuleFigures &F) {
  return json::Object{{"modules", int64_t(F.Modules)},
                      {"best_of_all_saved_bytes", F.Oracle},
                      {"checked_saved_bytes", F.Saved},
                      {"fraction_of_best", F.fraction()},
                      {"extra_codegens_per_module", F.extraPerModule()}};
}

json::Object figuresJSON(const Figures &F) {
  return json::Object{{"functions", int64_t(F.Functions)},
                      {"best_of_all_saved_bytes", F.Oracle},
                      {"model_saved_bytes", F.Saved},
                      {"fraction_of_best", F.fraction()},
                      {"moved", int64_t(F.Moved)},
                      {"moves_that_cost_bytes", int64_t(F.WrongMoves)}};
}

// The bytes a checked proposal changes, expected under the softmax of the other allocators'
// scores: only savings count (min(0, D)), since a proposal that costs bytes is not kept.
torch::Tensor expectedProposalBytes(const torch::Tensor &Scores, const torch::Tensor &D) {
  using torch::indexing::Slice;
  torch::Tensor Others = Scores.index({Slice(), Slice(1, torch::indexing::None)});
  torch::Tensor Gains = D.index({Slice(), Slice(1, torch::indexing::None)}).clamp_max(0);
  return (torch::softmax(Others, 1) * Gains).sum(1).mean();
}

} // namespace

Error trainAllocatorChoice(const AllocatorChoiceOptions &O, const std::vector<CorpusModule> &Train,
                           const std::vector<CorpusModule> &Validation) {
  Expected<std::vector<AllocatorChoice>> Parsed = parseAllocatorChoices(O.Allocators);
  if (!Parsed)
    return Parsed.takeError();
  const std::vector<AllocatorChoice> Allocators = std::move(*Parsed);
  auto OfTarget = [&](const std::vector<CorpusModule> &Ms) {
    std::vector<const CorpusModule *> Out;
    for (const CorpusModule &M : Ms)
      if (StringRef(M.Target).starts_with(O.TargetPrefix))
        Out.push_back(&M);
    return Out;
  };
  std::vector<const CorpusModule *> TrainMs = OfTarget(Train), ValMs = OfTarget(Validation);
  std::vector<const CorpusModule *> Both = TrainMs;
  Both.insert(Both.end(), ValMs.begin(), ValMs.end());
  Expected<std::vector<ModuleRows>> All = measureAll(O, Both, Allocators);
  if (!All)
    return All.takeError();
  StringSet<> ValHashes;
  for (const CorpusModule *M : ValMs)
    ValHashes.insert(M->Hash);
  std::vector<ModuleRows> TrainRows, ValRows;
  for (ModuleRows &M : *All)
    (ValHashes.contains(M.Hash) ? ValRows : TrainRows).push_back(std::move(M));
  const size_t K = Allocators.size(), F = allocatorFeatureNames().size();
  Table T = tableOf(TrainRows, K), V = tableOf(ValRows, K);
  if (T.Rows == 0 || V.Rows == 0)
    return createStringError(inconvertibleErrorCode(),
                             "no functions to learn from (training %zu, validation %zu)", T.Rows,
                             V.Rows);
  outs() << "training on " << T.Rows << " functions of " << TrainRows.size()
         << " modules, validating on " << V.Rows << " of " << ValRows.size() << "\n";

  torch::manual_seed(O.Seed);
  torch::Tensor Mean = T.X.mean(0), Std = T.X.std(0).clamp_min(1e-6);
  torch::Tensor Xs = (T.X - Mean) / Std, Vs = (V.X - Mean) / Std;
  // Linear scores, or one hidden ReLU layer (both are layers the shipped format evaluates).
  // The last layer starts at zero: every allocator scores the same, so no function moves.
  torch::nn::Sequential Net;
  if (O.Hidden) {
    Net->push_back(torch::nn::Linear(int64_t(F), int64_t(O.Hidden)));
    Net->push_back(torch::nn::ReLU());
  }
  torch::nn::Linear Last{torch::nn::LinearOptions(int64_t(O.Hidden ? O.Hidden : F), int64_t(K))};
  Net->push_back(Last);
  {
    torch::NoGradGuard G;
    Last->weight.zero_();
    Last->bias.zero_();
  }
  torch::optim::Adam Opt(Net->parameters(), torch::optim::AdamOptions(O.LearningRate));
  const std::string Metrics = O.RunDir + "/metrics.jsonl";
  // The loss: the expected bytes relative to the reference under the scores' softmax (a
  // proposal's: only its savings).
  auto ExpectedBytes = [&](const torch::Tensor &X, const torch::Tensor &D) {
    torch::Tensor Scores = Net->forward(X);
    return O.Proposal ? expectedProposalBytes(Scores, D)
                      : (torch::softmax(Scores, 1) * D).sum(1).mean();
  };
  for (unsigned Epoch = 1; Epoch <= O.Epochs; ++Epoch) {
    Opt.zero_grad();
    torch::Tensor Expected = ExpectedBytes(Xs, T.D);
    torch::Tensor Loss = Expected + O.L2 * Last->weight.pow(2).sum();
    Loss.backward();
    Opt.step();
    if (Epoch % 250 == 0 || Epoch == O.Epochs) {
      torch::NoGradGuard G;
      torch::Tensor VE = ExpectedBytes(Vs, V.D);
      outs() << format("epoch %u/%u: expected bytes per function %.3f (validation %.3f)\n",
                       Epoch, O.Epochs, Expected.item<float>(), VE.item<float>());
      appendMetrics(Metrics, json::Object{{"epoch", int64_t(Epoch)},
                                          {"train_expected_bytes", double(Expected.item<float>())},
                                          {"validation_expected_bytes", double(VE.item<float>())}});
    }
  }
  torch::NoGradGuard G;
  torch::Tensor TrainScores = Net->forward(Xs).contiguous(),
                ValScores = Net->forward(Vs).contiguous();
  // The margin that saves most on validation (ties: the larger, fewer moves). Proposals have
  // none: they are checked.
  double Margin = 0;
  std::optional<Figures> BestSoFar;
  if (O.Proposal) {
    BestSoFar = evaluateProposals(ValScores, V.D);
    for (int64_t A = 1; A < int64_t(K); ++A) {
      Figures Fixed = evaluateProposals(ValScores, V.D, A);
      outs() << format("validation, proposing %s everywhere: saves %.0f of %.0f bytes (%.1f %%)\n",
                       Allocators[A].name().c_str(), Fixed.Saved, Fixed.Oracle,
                       100 * Fixed.fraction());
    }
  }
  for (double M : {0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}) {
    if (O.Proposal)
      break;
    Figures Fv = evaluate(ValScores, V.D, M);
    outs() << format("margin %.2f: validation saves %.0f of %.0f bytes (%.1f %%), %zu moves, "
                     "%zu cost bytes\n",
                     M, Fv.Saved, Fv.Oracle, 100 * Fv.fraction(), Fv.Moved, Fv.WrongMoves);
    if (!BestSoFar || Fv.Saved >= BestSoFar->Saved) {
      BestSoFar = Fv;
      Margin = M;
    }
  }
  // A model that saves nothing on validation at any margin moves no function.
  if (!O.Proposal && BestSoFar->Saved <= 0) {
    Margin = 1e9;
    BestSoFar = evaluate(ValScores, V.D, Margin);
  }
  const Figures &Best = *BestSoFar;
  // Proposals: where checking is worth its code generations, per module (the gates), chosen
  // on the training split and reported on validation, with the ungated figures beside them.
  ProposalGates Gates;
  json::Object PerModule;
  if (O.Proposal) {
    Gates = chooseGates(T, TrainScores, O.MaxExtraCodegens);
    ModuleFigures Tg = evaluateModules(T, TrainScores, Gates),
                  Vg = evaluateModules(V, ValScores, Gates),
                  Vu = evaluateModules(V, ValScores, ProposalGates{});
    outs() << format("gates (training split, <= %.2f extra code generations per module): "
                     "reference >= %llu bytes, mix gain >= %llu bytes\n",
                     O.MaxExtraCodegens, (unsigned long long)Gates.MinReferenceBytes,
                     (unsigned long long)Gates.MinMixGainBytes);
    for (auto [Label, F] : {std::pair{"training, gated", &Tg}, std::pair{"validation, gated", &Vg},
                            std::pair{"validation, ungated", &Vu}})
      outs() << format("  %s: per module %.1f %% of the tried saving, %.2f extra code "
                       "generations per module (%zu modules)\n",
                       Label, 100 * F->fraction(), F->extraPerModule(), F->Modules);
    PerModule = json::Object{{"gates", json::Object{{"min_reference_bytes",
                                                     int64_t(Gates.MinReferenceBytes)},
                                                    {"min_mix_gain_bytes",
                                                     int64_t(Gates.MinMixGainBytes)}}},
                             {"max_extra_codegens", O.MaxExtraCodegens},
                             {"train", moduleFiguresJSON(Tg)},
                             {"validation", moduleFiguresJSON(Vg)},
                             {"validation_ungated", moduleFiguresJSON(Vu)}};
  }
  Figures TrainFigures =
      O.Proposal ? evaluateProposals(TrainScores, T.D) : evaluate(TrainScores, T.D, Margin);
  json::Object Card{{"trainer", O.Proposal ? "allocator-proposal" : "allocator-choice"},
                    {"seed", int64_t(O.Seed)},
                    {"epochs", int64_t(O.Epochs)},
                    {"hidden", int64_t(O.Hidden)},
                    {"train_modules", int64_t(TrainRows.size())},
                    {"validation_modules", int64_t(ValRows.size())},
                    {"train", figuresJSON(TrainFigures)},
                    {"validation", figuresJSON(Best)}};
  if (O.Proposal)
    Card["per_module"] = std::move(PerModule);
  appendMetrics(Metrics, json::Object{{"margin", Margin}, {"card", json::Object(Card)}});

  json::Array Names, AllocatorNames, MeanA, StdA;
  for (const std::string &N : allocatorFeatureNames())
    Names.push_back(N);
  for (const AllocatorChoice &C : Allocators)
    AllocatorNames.push_back(C.name());
  for (int64_t I = 0; I < int64_t(F); ++I) {
    MeanA.push_back(double(Mean[I].item<float>()));
    StdA.push_back(double(Std[I].item<float>()));
  }
  // Each linear layer's weights (out x in, row-major) then its biases, in order.
  json::Array Layers;
  std::vector<float> Weights;
  for (const std::shared_ptr<torch::nn::Module> &Child : Net->children()) {
    auto *L = Child->as<torch::nn::Linear>();
    if (!L) {
      Layers.push_back(json::Object{{"kind", "relu"}});
      continue;
    }
    torch::Tensor W = L->weight.contiguous(), B = L->bias.contiguous();
    Layers.push_back(json::Object{{"kind", "linear"},
                                  {"in", int64_t(W.size(1))},
                                  {"out", int64_t(W.size(0))},
                                  {"offset", int64_t(Weights.size())}});
    Weights.insert(Weights.end(), W.data_ptr<float>(), W.data_ptr<float>() + W.numel());
    Weights.insert(Weights.end(), B.data_ptr<float>(), B.data_ptr<float>() + B.numel());
  }
  json::Object Meta{{"kind", "allocator-choice"},
                    {"use", O.Proposal ? "proposal" : "choice"},
                    {"input_size", int64_t(F)},
                    {"features", std::move(Names)},
                    {"allocators", std::move(AllocatorNames)},
                    {"margin", Margin},
                    {"input_mean", std::move(MeanA)},
                    {"input_std", std::move(StdA)},
                    {"layers", std::move(Layers)},
                    {"card", std::move(Card)}};
  if (O.Proposal)
    Meta["gates"] = json::Object{{"min_reference_bytes", int64_t(Gates.MinReferenceBytes)},
                                 {"min_mix_gain_bytes", int64_t(Gates.MinMixGainBytes)}};

  if (Error E = writeFileAtomically(O.RunDir + "/model.smm",
                                    ExportedModel::serialize(Meta, Weights)))
    return E;
  outs() << format("validation: the model%s saves %.0f bytes of the %.0f that every allocator "
                   "tried per function saves (%.1f %%), margin %.2f\n",
                   O.Proposal ? "'s checked proposals" : "", Best.Saved, Best.Oracle,
                   100 * Best.fraction(), O.Proposal ? 0.0 : Margin);
  return Error::success();
}

} // namespace smartcc
