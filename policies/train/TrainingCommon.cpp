#include "policies/train/TrainingCommon.h"
#include "llvm/Support/Format.h"
#include "policies/train/TorchExport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace llvm;

namespace smartcc {

Expected<TrainingSetup> setUpTraining(const TrainerOptions &O,
                                      const std::vector<CorpusModule> &Train) {
  if (Train.empty())
    return createStringError(inconvertibleErrorCode(), "no training modules");
  Expected<ActionSpace> Space = loadActionSpaces(O.SpaceName);
  if (!Space)
    return Space.takeError();
  TrainingSetup S;
  S.Stop = int64_t(Space->size());
  S.NumActions = S.Stop + 1;
  EnvOptions EO;
  EO.Reward = O.Reward;
  EO.MaxSteps = O.Horizon;
  EO.Observation = O.Observation;
  if (usesIR2Vec(O.Observation)) {
    EO.Vocab = IR2VecVocabulary::builtin();
    if (!EO.Vocab)
      return createStringError(inconvertibleErrorCode(),
                               "this smartcc has no built-in IR2Vec vocabulary");
  }
  Expected<std::unique_ptr<EnvWorker>> Env = EnvWorker::spawn(*Space, EO);
  if (!Env)
    return Env.takeError();
  S.Env = std::move(*Env);
  S.Space = std::move(*Space);
  if (Error E = S.Env->reset(Train[0].Bench))
    return std::move(E);
  S.InputSize = int64_t(S.Env->observation().size());
  S.CheckpointDir = O.RunDir + "/checkpoint";
  S.MetricsPath = O.RunDir + "/metrics.jsonl";
  if (std::error_code EC = sys::fs::create_directories(S.CheckpointDir))
    return errorCodeToError(EC);
  return std::move(S);
}

Error guardLibTorch(const std::function<Error()> &Train) {
  try {
    return Train();
  } catch (const std::exception &E) {
    return createStringError(inconvertibleErrorCode(), "LibTorch: %s", E.what());
  }
}

json::Value toJSON(const Progress &P) {
  json::Array Mean, M2;
  for (double V : P.Stats.Mean)
    Mean.push_back(V);
  for (double V : P.Stats.M2)
    M2.push_back(V);
  return json::Object{{"step", int64_t(P.Step)},
                      {"episode", int64_t(P.Episode)},
                      {"validations", int64_t(P.Validations)},
                      {"welford_n", int64_t(P.Stats.N)},
                      {"welford_mean", std::move(Mean)},
                      {"welford_m2", std::move(M2)}};
}

bool fromJSON(const json::Value &V, Progress &P) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  P.Step = uint64_t(O->getInteger("step").value_or(0));
  P.Episode = uint64_t(O->getInteger("episode").value_or(0));
  P.Validations = uint64_t(O->getInteger("validations").value_or(0));
  P.Stats.N = uint64_t(O->getInteger("welford_n").value_or(0));
  if (const json::Array *A = O->getArray("welford_mean"))
    for (const json::Value &X : *A)
      P.Stats.Mean.push_back(X.getAsNumber().value_or(0));
  if (const json::Array *A = O->getArray("welford_m2"))
    for (const json::Value &X : *A)
      P.Stats.M2.push_back(X.getAsNumber().value_or(0));
  return true;
}

void printStepProgress(uint64_t Step, uint64_t Total, double Rate,
                       std::optional<uint64_t> Episode) {
  outs() << format("step %llu/%llu  ", (unsigned long long)Step, (unsigned long long)Total);
  if (Episode)
    outs() << format("episode %llu  ", (unsigned long long)*Episode);
  outs() << format("%.1f steps/s  ETA %.0f s\n", Rate,
                   double(Total - std::min(Step, Total)) / std::max(1e-9, Rate));
  outs().flush();
}

Error writeFileAtomically(const std::string &Path, StringRef Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path + ".tmp", EC);
  if (EC)
    return createStringError(EC, "%s: %s", Path.c_str(), EC.message().c_str());
  OS << Bytes;
  OS.close();
  if (std::error_code RC = sys::fs::rename(Path + ".tmp", Path))
    return createStringError(RC, "%s: %s", Path.c_str(), RC.message().c_str());
  return Error::success();
}

Error saveProgress(const std::string &Dir, const Progress &P) {
  std::string Text;
  raw_string_ostream(Text) << toJSON(P);
  return writeFileAtomically(Dir + "/state.json", Text);
}

Expected<bool> loadProgress(const std::string &Dir, Progress &P) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> State = MemoryBuffer::getFile(Dir + "/state.json");
  if (!State)
    return false;
  Expected<json::Value> V = json::parse((*State)->getBuffer());
  if (!V || !fromJSON(*V, P)) {
    consumeError(V.takeError());
    return createStringError(inconvertibleErrorCode(), "%s/state.json: malformed", Dir.c_str());
  }
  return true;
}

double loadBestScore(const std::string &Dir, double Default) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Dir + "/best.json");
  if (!B)
    return Default;
  Expected<json::Value> V = json::parse((*B)->getBuffer());
  if (!V) {
    consumeError(V.takeError());
    return Default;
  }
  const json::Object *O = V->getAsObject();
  return O ? O->getNumber("score").value_or(Default) : Default;
}

Error saveBestScore(const std::string &Dir, double Score, int64_t Step) {
  std::string Text;
  raw_string_ostream(Text) << json::Value(json::Object{{"score", Score}, {"step", Step}});
  return writeFileAtomically(Dir + "/best.json", Text);
}

Error exportIfBest(double Score, const std::string &Dir, int64_t Step,
                   const std::function<Error()> &Export) {
  if (Score <= loadBestScore(Dir, -1))
    return Error::success();
  if (Error E = Export())
    return E;
  return saveBestScore(Dir, Score, Step);
}

Error exportIfNeverValidated(const std::string &Dir, const std::function<Error()> &Export) {
  return loadBestScore(Dir, -1) < 0 ? Export() : Error::success();
}

torch::nn::Sequential reluMLP(int64_t In, int64_t Hidden, int64_t Out) {
  return torch::nn::Sequential(torch::nn::Linear(In, Hidden), torch::nn::ReLU(),
                               torch::nn::Linear(Hidden, Hidden), torch::nn::ReLU(),
                               torch::nn::Linear(Hidden, Out));
}

torch::Tensor standardizedBatch(const std::vector<const std::vector<float> *> &Rows,
                                const Welford &S) {
  std::vector<float> Flat;
  for (const std::vector<float> *R : Rows) {
    std::vector<float> X = S.standardize(*R);
    Flat.insert(Flat.end(), X.begin(), X.end());
  }
  return torch::from_blob(Flat.data(), {int64_t(Rows.size()), int64_t(Rows[0]->size())},
                          torch::kFloat32)
      .clone();
}

void appendMetrics(const std::string &Path, const json::Value &Line) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Append);
  OS << Line << "\n";
}

double validateGreedy(EnvWorker &Env, const std::vector<CorpusModule> &Modules, unsigned Count,
                      RewardKind Measure, unsigned Horizon, int64_t Stop,
                      const std::function<int64_t(const std::vector<float> &)> &Pick) {
  double Log = 0;
  unsigned N = 0;
  for (unsigned I = 0; I < Count && I < Modules.size(); ++I) {
    if (Error E = Env.reset(Modules[I].Bench)) {
      consumeError(std::move(E));
      continue;
    }
    for (unsigned T = 0; T < Horizon; ++T) {
      int64_t A = Pick(Env.observation());
      if (A == Stop || Env.step(size_t(A)).Done)
        break;
    }
    if (Measure == RewardKind::ObjectBytes) {
      Expected<uint64_t> Bytes = Env.objectBytes();
      Expected<uint64_t> Clang = Env.clangObjectBytes();
      if (Bytes && Clang && *Bytes && *Clang) {
        Log += std::log(double(*Clang) / double(*Bytes));
        ++N;
      }
      consumeError(Bytes.takeError());
      consumeError(Clang.takeError());
    } else if (Env.irInstructions() && Env.clangIR()) {
      Log += std::log(double(Env.clangIR()) / double(Env.irInstructions()));
      ++N;
    }
  }
  return N ? std::exp(Log / N) : 0.0;
}

Error exportPolicy(torch::nn::Sequential &Net, size_t InputSize, const std::string &Trainer,
                   const std::string &SpaceName, const ActionSpace &Space, unsigned Horizon,
                   const Progress &P, uint64_t Seed, const std::string &Path,
                   ObservationKind Observation) {
  json::Array Names;
  for (const Action &A : Space.Actions)
    Names.push_back(A.Name);
  Names.push_back("stop");
  json::Object Meta{{"trainer", Trainer},
                    {"space", SpaceName},
                    {"actions", std::move(Names)},
                    {"observation", policyObservationName(Observation)},
                    {"horizon", int64_t(Horizon)},
                    {"steps", int64_t(P.Step)},
                    {"seed", int64_t(Seed)}};
  if (usesIR2Vec(Observation) && IR2VecVocabulary::builtin())
    Meta["ir2vec_vocabulary"] = IR2VecVocabulary::builtin()->digest();
  Expected<std::string> Model =
      exportSequential(Net, InputSize, std::move(Meta), P.Stats.mean(), P.Stats.stddev());
  if (!Model)
    return Model.takeError();
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC)
    return errorCodeToError(EC);
  OS << *Model;
  return Error::success();
}

} // namespace smartcc
