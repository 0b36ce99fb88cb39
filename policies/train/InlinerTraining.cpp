#include "policies/train/InlinerTraining.h"
#include "policies/inliner/InlineFeatures.h"
#include "policies/train/EvolutionStrategies.h"
#include "policies/train/TorchExport.h"
#include "policies/train/TrainingCommon.h"
#include "runtime/config/CandidateSpec.h"
#include "runtime/compile/CodegenContext.h"
#include "runtime/observe/JSONLines.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <mutex>
#include <numeric>
#include <random>

using namespace llvm;

namespace smartcc {

Expected<uint64_t> compileWithInliner(const CorpusModule &M,
                                      std::shared_ptr<const InlinePolicy> Policy,
                                      InlineLog *Log) {
  Expected<std::unique_ptr<CodegenContext>> CG = CodegenContext::fromCC1Args(M.Bench.CC1Args);
  if (!CG)
    return CG.takeError();
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> Mod = loadBitcodeFile(M.Bench.BitcodePath, Ctx);
  if (!Mod)
    return Mod.takeError();
  CandidateSpec Spec; // clang's -Oz pipeline ("default")
  Spec.Inliner = std::move(Policy);
  if (Error E = (*CG)->optimize(**Mod, Spec, Log))
    return std::move(E);
  SmallVector<char, 0> Obj;
  Expected<ObjectSize> Size = (*CG)->emitObject(**Mod, Obj);
  if (!Size)
    return Size.takeError();
  return Size->linkedImageBytes();
}

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

} // namespace

// Compiles every module with Policy, Jobs at a time; progress is printed when Label is given.
std::vector<Measured> compileAll(const std::vector<const CorpusModule *> &Modules,
                                 std::shared_ptr<const InlinePolicy> Policy, unsigned Jobs,
                                 bool KeepRecords, const char *Label) {
  std::vector<Measured> Out(Modules.size());
  std::mutex Mu;
  size_t Done = 0;
  Clock::time_point Start = Clock::now();
  parallelFor(Modules.size(), Jobs, [&](size_t I) {
    Out[I].Log.KeepRecords = KeepRecords;
    Expected<uint64_t> B = compileWithInliner(*Modules[I], Policy, &Out[I].Log);
    if (!B) {
      consumeError(B.takeError());
      Out[I].Failed = true;
    } else {
      Out[I].Bytes = *B;
    }
    std::lock_guard<std::mutex> Lock(Mu);
    if (Label && (++Done % 50 == 0 || Done == Modules.size()))
      outs() << format("measured %zu/%zu modules with %s, ETA %.0f s\n", Done, Modules.size(),
                       Label, secondsSince(Start) / double(Done) * double(Modules.size() - Done));
  });
  return Out;
}

// The heuristic through the advisor: clang -Oz's object, and its decisions.
std::vector<Measured> measureHeuristic(const std::vector<CorpusModule> &Modules, unsigned Jobs,
                                       bool KeepRecords) {
  std::vector<const CorpusModule *> Ptrs;
  for (const CorpusModule &C : Modules)
    Ptrs.push_back(&C);
  return compileAll(Ptrs, std::make_shared<const InlinePolicy>(InlinePolicy::heuristic()), Jobs,
                    KeepRecords, "the heuristic");
}

BytesFigures evaluatePolicy(const std::vector<InlinerModule> &Modules,
                            std::shared_ptr<const InlinePolicy> Policy, unsigned Jobs) {
  std::vector<const CorpusModule *> Ptrs;
  for (const InlinerModule &IM : Modules)
    Ptrs.push_back(&IM.Module);
  std::vector<Measured> M = compileAll(Ptrs, std::move(Policy), Jobs, /*KeepRecords=*/false);
  BytesFigures F;
  double LRaw = 0, LNW = 0;
  for (size_t I = 0; I < Modules.size(); ++I) {
    F.Decisions += M[I].Log.Decisions;
    F.Changed += M[I].Log.Changed;
    F.Inlined += M[I].Log.Inlined;
    F.DefaultInlined += M[I].Log.DefaultInlined;
    if (M[I].Failed || !M[I].Bytes) {
      ++F.Failed; // counted as clang's (the compiler would fall back)
      continue;
    }
    double R = std::log(double(Modules[I].ClangBytes) / double(M[I].Bytes));
    LRaw += R;
    LNW += std::max(R, 0.0);
    F.Smaller += M[I].Bytes < Modules[I].ClangBytes;
    F.Larger += M[I].Bytes > Modules[I].ClangBytes;
  }
  if (!Modules.empty()) {
    F.Raw = std::exp(LRaw / double(Modules.size()));
    F.NeverWorse = std::exp(LNW / double(Modules.size()));
  }
  return F;
}

json::Object figuresJSON(const BytesFigures &F) {
  return json::Object{{"geomean", F.Raw},          {"never_worse", F.NeverWorse},
                      {"smaller", int64_t(F.Smaller)}, {"larger", int64_t(F.Larger)},
                      {"failed", int64_t(F.Failed)},   {"decisions", int64_t(F.Decisions)},
                      {"changed", int64_t(F.Changed)}, {"inlined", int64_t(F.Inlined)},
                      {"default_inlined", int64_t(F.DefaultInlined)}};
}

namespace {

// The modules the inliner can matter for (a call site reaches the policy), with clang's bytes.
// Cached in Path (one JSON line per module), so a resumed run does not measure them again.
Expected<std::vector<InlinerModule>> inlinerModules(const std::vector<CorpusModule> &Modules,
                                                    unsigned Jobs, const std::string &Path) {
  std::map<std::string, std::pair<uint64_t, unsigned>> Cached;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path))
    forEachJSONObject((*B)->getBuffer(), [&](const json::Object &O) {
      Cached[O.getString("hash").value_or("").str()] = {
          uint64_t(O.getInteger("clang_bytes").value_or(0)),
          unsigned(O.getInteger("call_sites").value_or(0))};
    });
  std::vector<CorpusModule> ToMeasure;
  for (const CorpusModule &C : Modules)
    if (!Cached.count(C.Hash))
      ToMeasure.push_back(C);
  if (!ToMeasure.empty()) {
    std::vector<Measured> M = measureHeuristic(ToMeasure, Jobs, false);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_Append);
    if (EC)
      return createStringError(EC, "%s: %s", Path.c_str(), EC.message().c_str());
    for (size_t I = 0; I < ToMeasure.size(); ++I) {
      unsigned Sites = M[I].Failed ? 0 : M[I].Log.Decisions;
      Cached[ToMeasure[I].Hash] = {M[I].Bytes, Sites};
      OS << json::Value(json::Object{{"hash", ToMeasure[I].Hash},
                                     {"clang_bytes", int64_t(M[I].Bytes)},
                                     {"call_sites", int64_t(Sites)}})
         << "\n";
    }
  }
  std::vector<InlinerModule> Out;
  for (const CorpusModule &C : Modules) {
    auto [Bytes, Sites] = Cached[C.Hash];
    if (Bytes && Sites)
      Out.push_back({C, Bytes, Sites});
  }
  return Out;
}

namespace {
json::Array featureNames() {
  json::Array A;
  for (const std::string &N : inlineFeatureNames())
    A.push_back(N);
  return A;
}
} // namespace

// The first Count (the list is sorted by hash: a fixed sample).
std::vector<InlinerModule> firstN(std::vector<InlinerModule> V, unsigned Count) {
  if (V.size() > Count)
    V.resize(Count);
  return V;
}

} // namespace

Expected<InlinerSplit> inlinerSplit(const InlinerTrainOptions &O,
                                    const std::vector<CorpusModule> &Train,
                                    const std::vector<CorpusModule> &Validation,
                                    const std::string &CheckpointDir, unsigned TrainCap) {
  Expected<std::vector<InlinerModule>> TrainAll =
      inlinerModules(Train, O.Jobs, CheckpointDir + "/train-modules.jsonl");
  if (!TrainAll)
    return TrainAll.takeError();
  Expected<std::vector<InlinerModule>> ValAll =
      inlinerModules(Validation, O.Jobs, CheckpointDir + "/validation-modules.jsonl");
  if (!ValAll)
    return ValAll.takeError();
  InlinerSplit S{firstN(std::move(*TrainAll), TrainCap),
                 firstN(std::move(*ValAll), O.ValidationModules)};
  if (S.Train.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no training module has a call site for the inliner");
  return S;
}

void InlineExamples::add(ArrayRef<int64_t> Features, bool Label, float Weight) {
  std::vector<float> T = transformInlineFeatures(Features);
  X.insert(X.end(), T.begin(), T.end());
  Y.push_back(Label ? 1.f : 0.f);
  W.push_back(Weight);
}

Error fitInlineClassifier(const InlinerTrainOptions &O, const std::string &Trainer,
                          const InlineExamples &Train, const InlineExamples &Val,
                          json::Object ExtraMetadata, const std::string &ModelFile) {
  const std::string Ckpt = O.RunDir + "/checkpoint", Metrics = O.RunDir + "/metrics.jsonl";
  if (std::error_code EC = sys::fs::create_directories(Ckpt))
    return errorCodeToError(EC);
  torch::manual_seed(O.Seed);
  const int64_t In = int64_t(inlineFeatureCount());
  if (Train.Y.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no call site reached the inliner in the training modules");
  const int64_t NT = int64_t(Train.Y.size()), NV = int64_t(Val.Y.size());
  auto Tensor = [](const std::vector<float> &V, int64_t Rows, int64_t Cols) {
    return torch::from_blob(const_cast<float *>(V.data()), {Rows, Cols}).clone();
  };
  torch::Tensor X = Tensor(Train.X, NT, In), Y = Tensor(Train.Y, NT, 1);
  torch::Tensor W = Train.W.empty() ? torch::ones({NT, 1}) : Tensor(Train.W, NT, 1);
  torch::Tensor Mean = X.mean(0), Std = X.std(0).clamp_min(1e-3);
  X = (X - Mean) / Std;
  torch::Tensor XVal = NV ? (Tensor(Val.X, NV, In) - Mean) / Std : torch::zeros({0, In});
  torch::Tensor YVal = NV ? Tensor(Val.Y, NV, 1) : torch::zeros({0, 1});
  double PositiveRate = Y.mean().item<double>();
  outs() << format("%s: fitting %lld call sites (%.1f %% labelled inline), %lld for validation\n",
                   Trainer.c_str(), (long long)NT, 100 * PositiveRate, (long long)NV);
  const char *Agreement = Trainer == "inliner-bc" ? "with the heuristic" : "with the labels";

  torch::nn::Sequential Net = reluMLP(In, O.Hidden, 1);
  torch::optim::Adam Optimizer(Net->parameters(), torch::optim::AdamOptions(O.LearningRate));
  Progress P;
  Expected<bool> Resumed = loadProgress(Ckpt, P);
  if (!Resumed)
    return Resumed.takeError();
  if (*Resumed) {
    torch::load(Net, Ckpt + "/" + Trainer + ".pt");
    torch::load(Optimizer, Ckpt + "/" + Trainer + "-optimizer.pt");
    outs() << "resuming at epoch " << P.Step << "\n";
  }
  // The labels are imbalanced (most call sites are not inlined at -Oz): weigh the positives
  // so that the classifier does not learn "never".
  torch::Tensor PosWeight =
      torch::full({1}, float(std::max(1.0, (1 - PositiveRate) / std::max(PositiveRate, 1e-3))));
  auto Accuracy = [&](const torch::Tensor &Xs, const torch::Tensor &Ys) {
    torch::NoGradGuard NoGrad;
    if (Xs.size(0) == 0)
      return 1.0;
    return ((Net->forward(Xs) > 0).to(torch::kFloat) == Ys).to(torch::kFloat).mean().item<double>();
  };
  // The kept epoch is chosen by balanced accuracy (the mean of both classes' recall): with
  // rare positives, plain agreement prefers the epoch that never says yes.
  auto Balanced = [&](const torch::Tensor &Xs, const torch::Tensor &Ys) {
    torch::NoGradGuard NoGrad;
    if (Xs.size(0) == 0)
      return 1.0;
    torch::Tensor Pred = (Net->forward(Xs) > 0).to(torch::kFloat);
    double Sum = 0;
    int Classes = 0;
    for (float C : {0.f, 1.f}) {
      torch::Tensor Mask = Ys == C;
      if (Mask.sum().item<int64_t>() == 0)
        continue;
      Sum += (Pred.masked_select(Mask) == C).to(torch::kFloat).mean().item<double>();
      ++Classes;
    }
    return Classes ? Sum / Classes : 1.0;
  };
  Clock::time_point Start = Clock::now();
  const uint64_t First = P.Step;
  const int64_t Batch = 256;
  // A resumed run keeps the model it has unless an epoch beats it.
  double BestVal = loadBestScore(Ckpt, -1);
  for (; P.Step < O.Epochs;) {
    torch::Tensor Perm = torch::randperm(NT);
    double LossSum = 0;
    int64_t Batches = 0;
    for (int64_t B = 0; B < NT; B += Batch) {
      torch::Tensor Idx = Perm.slice(0, B, std::min(NT, B + Batch));
      torch::Tensor Loss = torch::binary_cross_entropy_with_logits(
          Net->forward(X.index_select(0, Idx)), Y.index_select(0, Idx), W.index_select(0, Idx),
          PosWeight);
      Optimizer.zero_grad();
      Loss.backward();
      Optimizer.step();
      LossSum += Loss.item<double>();
      ++Batches;
    }
    ++P.Step;
    double TrainAcc = Accuracy(X, Y), ValAcc = Accuracy(XVal, YVal),
           ValBalanced = Balanced(XVal, YVal);
    double Eta = secondsSince(Start) / double(P.Step - First) * double(O.Epochs - P.Step);
    outs() << format("epoch %3llu/%u  loss %.4f  agreement %s: train %.4f, validation %.4f  "
                     "ETA %.0f s\n",
                     (unsigned long long)P.Step, O.Epochs, LossSum / double(Batches), Agreement,
                     TrainAcc, ValAcc, Eta);
    outs().flush();
    appendMetrics(Metrics, json::Object{{"trainer", Trainer},
                                        {"step", int64_t(P.Step)},
                                        {"loss", LossSum / double(Batches)},
                                        {"train_agreement", TrainAcc},
                                        {"validation_agreement", ValAcc},
                        {"validation_balanced_accuracy", ValBalanced},
                                        {"validation_balanced_accuracy", ValBalanced}});
    // The kept model is the best on validation; the last epoch wins a tie.
    if (ValBalanced > BestVal || (P.Step == O.Epochs && ValBalanced >= BestVal)) {
      BestVal = ValBalanced;
      std::vector<float> M(Mean.data_ptr<float>(), Mean.data_ptr<float>() + In),
          S(Std.data_ptr<float>(), Std.data_ptr<float>() + In);
      json::Object Meta{{"trainer", Trainer},
                        {"kind", "inliner"},
                        {"features", featureNames()},
                        {"feature_transform", "sign(x)*log(1+|x|)"},
                        {"outputs", "logit: inline when > 0"},
                        {"target", O.TargetPrefix},
                        {"epoch", int64_t(P.Step)},
                        {"seed", int64_t(O.Seed)},
                        {"train_call_sites", NT},
                        {"validation_call_sites", NV},
                        {"validation_agreement", ValAcc},
                        {"validation_balanced_accuracy", ValBalanced},
                        {"train_agreement", TrainAcc}};
      for (auto &KV : ExtraMetadata)
        Meta[KV.first] = KV.second;
      Expected<std::string> Model = exportSequential(Net, size_t(In), std::move(Meta), M, S);
      if (!Model)
        return Model.takeError();
      if (Error E = writeFileAtomically(O.RunDir + "/" + ModelFile, *Model))
        return E;
      if (Error E = saveBestScore(Ckpt, BestVal, int64_t(P.Step)))
        return E;
    }
    torch::save(Net, Ckpt + "/" + Trainer + ".pt");
    torch::save(Optimizer, Ckpt + "/" + Trainer + "-optimizer.pt");
    if (Error E = saveProgress(Ckpt, P))
      return E;
  }
  return Error::success();
}

Error trainInlinerBC(const InlinerTrainOptions &O, const std::vector<CorpusModule> &Train,
                     const std::vector<CorpusModule> &Validation) {
  // The heuristic's decisions on every training and validation module.
  auto Collect = [&](const std::vector<CorpusModule> &Modules) {
    InlineExamples E;
    std::vector<Measured> M = measureHeuristic(Modules, O.Jobs, /*KeepRecords=*/true);
    for (const Measured &R : M)
      for (const InlineDecisionRecord &D : R.Log.Records)
        E.add(D.Features, D.Default);
    return E;
  };
  return fitInlineClassifier(O, "inliner-bc", Collect(Train), Collect(Validation), {});
}

Error trainInlinerES(const InlinerTrainOptions &O, const std::vector<CorpusModule> &Train,
                     const std::vector<CorpusModule> &Validation) {
  if (O.InitModel.empty())
    return createStringError(inconvertibleErrorCode(),
                             "--trainer inliner-es starts from a cloned model: --init MODEL.smm "
                             "(from --trainer inliner-bc)");
  Expected<ExportedModel> Init = ExportedModel::load(O.InitModel);
  if (!Init)
    return Init.takeError();
  if (Expected<InlinePolicy> Check = InlinePolicy::fromModel(*Init, O.InitModel); !Check)
    return Check.takeError();
  const std::string Ckpt = O.RunDir + "/checkpoint";
  if (std::error_code EC = sys::fs::create_directories(Ckpt))
    return errorCodeToError(EC);

  Expected<InlinerSplit> Split = inlinerSplit(O, Train, Validation, Ckpt);
  if (!Split)
    return Split.takeError();
  const std::vector<InlinerModule> &TrainM = Split->Train;
  const std::vector<InlinerModule> &ValM = Split->Validation;
  outs() << "evolution strategies on " << TrainM.size() << " training modules with call sites ("
         << ValM.size() << " for validation), " << Init->weights().size() << " weights\n";

  auto PolicyOf = [&](ArrayRef<float> Weights) {
    ExportedModel M = *Init;
    M.setWeights(Weights);
    Expected<InlinePolicy> P = InlinePolicy::fromModel(std::move(M), "es");
    return std::make_shared<const InlinePolicy>(std::move(*P));
  };
  ESProblem P;
  P.TrainItems = TrainM.size();
  P.Sample = [&](ArrayRef<float> W, size_t Item) {
    const InlinerModule &IM = TrainM[Item];
    InlineLog Log;
    Expected<uint64_t> B = compileWithInliner(IM.Module, PolicyOf(W), &Log);
    ESSample S;
    S.Changed = Log.Changed;
    if (B)
      S.Gain = 100.0 * std::log(double(IM.ClangBytes) / double(*B));
    else {
      consumeError(B.takeError());
      S.Gain = -10.0; // a failed compile is a bad policy
    }
    return S;
  };
  P.Validate = [&](ArrayRef<float> W) {
    BytesFigures V = evaluatePolicy(ValM, PolicyOf(W), O.Jobs);
    outs() << format("  validation: geomean %.4f (never worse %.4f), %u smaller / %u larger, "
                     "%u of %u decisions differ from the heuristic\n",
                     V.Raw, V.NeverWorse, V.Smaller, V.Larger, V.Changed, V.Decisions);
    // The shipped model is the best before fallback on validation (the inliner's target).
    return std::make_pair(V.Raw, figuresJSON(V));
  };
  P.ModelMetadata = Init->metadata();
  P.ModelMetadata["init_model"] = O.InitModel;
  P.ModelMetadata["target"] = O.TargetPrefix;
  P.ModelMetadata["validation_modules"] = int64_t(ValM.size());
  P.ModelMetadata["train_modules"] = int64_t(TrainM.size());
  ESOptions E = O.ES;
  E.RunDir = O.RunDir;
  E.Seed = O.Seed;
  E.Jobs = O.Jobs;
  return runEvolutionStrategies(E, Init->weights(), P);
}

} // namespace smartcc
