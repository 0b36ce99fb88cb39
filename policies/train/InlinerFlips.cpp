// --trainer inliner-flips: what would each inlining decision of clang -Oz be worth the other
// way round, in real object bytes?
//
// Why: evolution strategies on the cloned policy found nothing (perturbed policies were 1-3 %
// larger than -Oz, the best perturbation +0.4 % on its sample): random moves in weight space
// change many decisions at once, most of them for the worse. Here each call site gets its own
// answer. The module is compiled with LLVM's heuristic through smartcc's advisor, once per
// decision with that one decision reversed (the decisions before it are the same call sites, so
// "decision k" is a call site), after the whole -Oz pipeline and codegen. That gives:
//   - the headroom: the best single flip per module, and all helpful flips together;
//   - labels: inline = the heuristic's answer, reversed where reversing it made the object
//     smaller; weighted by how many bytes were at stake either way;
//   - classifiers fitted on them (fitInlineClassifier; two forms, see examples()), judged by
//     real bytes on validation modules they never saw.
// Resumable: each module's flips are one line of RUN/checkpoint/flips.jsonl.
#include "policies/train/InlinerTraining.h"
#include "policies/model/ExportedModel.h"
#include "policies/train/EvolutionStrategies.h"
#include "policies/train/TrainingCommon.h"
#include "policies/train/TrainingReport.h"
#include "runtime/observe/JSONLines.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>

using namespace llvm;

namespace smartcc {

namespace {

// One call site: its features, the heuristic's answer, and the module's bytes with that one
// answer reversed (0: that compile failed).
struct FlippedSite {
  std::vector<int64_t> Features;
  bool Default = false;
  uint64_t FlippedBytes = 0;
};

struct FlippedModule {
  std::string Hash;
  uint64_t ClangBytes = 0;
  std::vector<FlippedSite> Sites;
  bool helps(const FlippedSite &S) const { return S.FlippedBytes && S.FlippedBytes < ClangBytes; }
};

json::Value toJSON(const FlippedModule &M) {
  json::Array Sites;
  for (const FlippedSite &S : M.Sites) {
    json::Array F;
    for (int64_t V : S.Features)
      F.push_back(V);
    Sites.push_back(json::Object{{"features", std::move(F)},
                                 {"default", S.Default},
                                 {"flipped_bytes", int64_t(S.FlippedBytes)}});
  }
  return json::Object{
      {"hash", M.Hash}, {"clang_bytes", int64_t(M.ClangBytes)}, {"sites", std::move(Sites)}};
}

FlippedModule fromJSONObject(const json::Object &O) {
  FlippedModule M;
  M.Hash = O.getString("hash").value_or("").str();
  M.ClangBytes = uint64_t(O.getInteger("clang_bytes").value_or(0));
  if (const json::Array *Sites = O.getArray("sites"))
    for (const json::Value &V : *Sites) {
      const json::Object *S = V.getAsObject();
      if (!S)
        continue;
      FlippedSite F;
      F.Default = S->getBoolean("default").value_or(false);
      F.FlippedBytes = uint64_t(S->getInteger("flipped_bytes").value_or(0));
      if (const json::Array *Feat = S->getArray("features"))
        for (const json::Value &X : *Feat)
          F.Features.push_back(X.getAsInteger().value_or(0));
      M.Sites.push_back(std::move(F));
    }
  return M;
}

// Flips the first MaxFlips decisions of each module one at a time; appends each finished module
// to Path and returns all of them (those already in Path are read, not measured again).
Expected<std::vector<FlippedModule>> flipAll(const std::vector<InlinerModule> &Modules,
                                             const InlinerTrainOptions &O,
                                             const std::string &Path, const char *Label) {
  std::map<std::string, FlippedModule> Done;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path))
    forEachJSONObject((*B)->getBuffer(), [&](const json::Object &O) {
      FlippedModule M = fromJSONObject(O);
      Done[M.Hash] = std::move(M);
    });
  std::vector<const InlinerModule *> Todo;
  for (const InlinerModule &IM : Modules)
    if (!Done.count(IM.Module.Hash))
      Todo.push_back(&IM);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Append);
  if (EC)
    return createStringError(EC, "%s: %s", Path.c_str(), EC.message().c_str());
  auto Heuristic = std::make_shared<const InlinePolicy>(InlinePolicy::heuristic());
  std::mutex Mu;
  size_t Finished = 0, Compiles = 0;
  auto Start = std::chrono::steady_clock::now();
  outs() << Label << ": " << Done.size() << " modules flipped already, " << Todo.size()
         << " to go\n";
  // One module per job: its compiles are sequential, so the decisions keep their order.
  parallelFor(Todo.size(), O.Jobs, [&](size_t I) {
    const InlinerModule &IM = *Todo[I];
    FlippedModule M;
    M.Hash = IM.Module.Hash;
    InlineLog Base;
    Base.KeepRecords = true;
    Expected<uint64_t> B = compileWithInliner(IM.Module, Heuristic, &Base);
    if (!B) {
      consumeError(B.takeError());
    } else {
      M.ClangBytes = *B;
      size_t K = std::min<size_t>(Base.Records.size(), O.MaxFlipsPerModule);
      for (size_t D = 0; D < K; ++D) {
        InlineLog Flip;
        Flip.FlipAt = {unsigned(D)};
        Expected<uint64_t> F = compileWithInliner(IM.Module, Heuristic, &Flip);
        FlippedSite S{Base.Records[D].Features, Base.Records[D].Default, 0};
        if (F)
          S.FlippedBytes = *F;
        else
          consumeError(F.takeError());
        M.Sites.push_back(std::move(S));
      }
    }
    std::lock_guard<std::mutex> Lock(Mu);
    OS << json::Value(toJSON(M)) << "\n";
    OS.flush();
    Compiles += M.Sites.size() + 1;
    double Elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    ++Finished;
    outs() << format("%s: [%zu/%zu] %zu compiles, %.0f s, ETA %.0f s\n", Label, Finished,
                     Todo.size(), Compiles, Elapsed,
                     Elapsed / double(Finished) * double(Todo.size() - Finished));
    outs().flush();
    Done[M.Hash] = std::move(M);
  });
  std::vector<FlippedModule> Out;
  for (const InlinerModule &IM : Modules)
    if (Done.count(IM.Module.Hash) && Done[IM.Module.Hash].ClangBytes)
      Out.push_back(Done[IM.Module.Hash]);
  return Out;
}

// The headroom the flips show, per module, in clang/bytes geomeans (never worse: at least 1):
// the best single flip; every helpful flip at once; and greedy accumulation (helpful flips by
// gain, each kept only if the module compiled with it and the kept ones gets smaller). All
// compiled for real: flips interact, and a flip's index may name another call site once an
// earlier decision changed.
json::Object headroom(const std::vector<FlippedModule> &Flipped,
                      const std::vector<InlinerModule> &Modules, const InlinerTrainOptions &O,
                      const char *Label) {
  std::map<std::string, const CorpusModule *> ByHash;
  for (const InlinerModule &IM : Modules)
    ByHash[IM.Module.Hash] = &IM.Module;
  std::vector<double> Single(Flipped.size(), 0), Together(Flipped.size(), 0),
      Greedy(Flipped.size(), 0);
  unsigned Sites = 0, Helpful = 0, HelpfulInline = 0, HelpfulNoInline = 0, DefaultInline = 0;
  auto Heuristic = std::make_shared<const InlinePolicy>(InlinePolicy::heuristic());
  parallelFor(Flipped.size(), O.Jobs, [&](size_t I) {
    const FlippedModule &M = Flipped[I];
    std::vector<unsigned> HelpfulFlips; // in decision order
    uint64_t Best = M.ClangBytes;
    for (size_t D = 0; D < M.Sites.size(); ++D)
      if (M.helps(M.Sites[D])) {
        HelpfulFlips.push_back(unsigned(D));
        Best = std::min(Best, M.Sites[D].FlippedBytes);
      }
    Single[I] = std::log(double(M.ClangBytes) / double(Best));
    if (HelpfulFlips.empty())
      return;
    auto Compile = [&](std::vector<unsigned> FlipAt) -> uint64_t {
      llvm::sort(FlipAt);
      InlineLog L;
      L.FlipAt = std::move(FlipAt);
      Expected<uint64_t> B = compileWithInliner(*ByHash[M.Hash], Heuristic, &L);
      if (B)
        return *B;
      consumeError(B.takeError());
      return 0;
    };
    if (uint64_t B = Compile(HelpfulFlips))
      Together[I] = std::max(0.0, std::log(double(M.ClangBytes) / double(B)));
    std::vector<unsigned> Order = HelpfulFlips, Kept;
    llvm::stable_sort(Order, [&](unsigned A, unsigned B) {
      return M.Sites[A].FlippedBytes < M.Sites[B].FlippedBytes;
    });
    uint64_t Now = M.ClangBytes;
    for (unsigned D : Order) {
      std::vector<unsigned> Try = Kept;
      Try.push_back(D);
      uint64_t B = Kept.empty() ? M.Sites[D].FlippedBytes : Compile(Try);
      if (B && B < Now)
        Now = B, Kept = std::move(Try);
    }
    Greedy[I] = std::log(double(M.ClangBytes) / double(Now));
  });
  for (const FlippedModule &M : Flipped)
    for (const FlippedSite &S : M.Sites) {
      ++Sites;
      DefaultInline += S.Default;
      if (M.helps(S)) {
        ++Helpful;
        (S.Default ? HelpfulNoInline : HelpfulInline) += 1;
      }
    }
  auto Geo = [](const std::vector<double> &L) {
    double Sum = 0;
    for (double X : L)
      Sum += X;
    return L.empty() ? 1.0 : std::exp(Sum / double(L.size()));
  };
  unsigned Improvable = 0;
  for (double X : Single)
    Improvable += X > 0;
  outs() << format("%s headroom over clang -Oz (%zu modules, %u call sites, %u inlined by the "
                   "heuristic): best single flip %.4f, all helpful flips together %.4f, "
                   "greedy accumulation %.4f (never worse); %u modules improvable; %u helpful "
                   "flips (%u to inline, %u not to inline)\n",
                   Label, Flipped.size(), Sites, DefaultInline, Geo(Single), Geo(Together),
                   Geo(Greedy),
                   Improvable, Helpful, HelpfulInline, HelpfulNoInline);
  return json::Object{{"modules", int64_t(Flipped.size())},
                      {"call_sites", int64_t(Sites)},
                      {"default_inlined", int64_t(DefaultInline)},
                      {"best_single_flip", Geo(Single)},
                      {"helpful_flips_together", Geo(Together)},
                      {"greedy_accumulation", Geo(Greedy)},
                      {"improvable_modules", int64_t(Improvable)},
                      {"helpful_flips", int64_t(Helpful)},
                      {"helpful_to_inline", int64_t(HelpfulInline)},
                      {"helpful_not_to_inline", int64_t(HelpfulNoInline)}};
}

// Two ways to learn from the flips, each example weighted 1 + 100 x |log(clang bytes /
// flipped bytes)|, the bytes at stake at that call site:
//   decide  label = the heuristic's answer, reversed where reversing it alone made the object
//           smaller; the model decides every call site;
//   flip    label = reversing helped; the model only says where to overrule the heuristic
//           ("decides": "flip").
InlineExamples examples(const std::vector<FlippedModule> &Flipped, bool FlipLabels) {
  InlineExamples E;
  for (const FlippedModule &M : Flipped)
    for (const FlippedSite &S : M.Sites) {
      double Stake = S.FlippedBytes
                         ? std::abs(std::log(double(M.ClangBytes) / double(S.FlippedBytes)))
                         : 0.0;
      bool Label = FlipLabels ? M.helps(S) : S.Default != M.helps(S);
      E.add(S.Features, Label, float(1.0 + 100.0 * Stake));
    }
  return E;
}

// The model with Shift added to its output (the bias of its last linear layer).
Expected<ExportedModel> withOutputShift(const ExportedModel &M, float Shift) {
  const json::Array *Layers = M.metadata().getArray("layers");
  std::optional<size_t> Bias;
  if (Layers)
    for (const json::Value &L : *Layers)
      if (const json::Object *O = L.getAsObject(); O && O->getString("kind") == "linear")
        Bias = size_t(O->getInteger("offset").value_or(0) +
                      O->getInteger("in").value_or(0) * O->getInteger("out").value_or(0));
  if (!Bias || *Bias >= M.weights().size())
    return createStringError(inconvertibleErrorCode(), "the model has no output layer to shift");
  std::vector<float> W(M.weights().begin(), M.weights().end());
  W[*Bias] += Shift;
  ExportedModel Out = M;
  Out.setWeights(W);
  return Out;
}

} // namespace

Error trainInlinerFlips(const InlinerTrainOptions &O, const std::vector<CorpusModule> &Train,
                        const std::vector<CorpusModule> &Validation) {
  const std::string Ckpt = O.RunDir + "/checkpoint";
  if (std::error_code EC = sys::fs::create_directories(Ckpt))
    return errorCodeToError(EC);
  Expected<InlinerSplit> Split = inlinerSplit(O, Train, Validation, Ckpt, O.FlipModules);
  if (!Split)
    return Split.takeError();
  const std::vector<InlinerModule> &TrainM = Split->Train, &ValM = Split->Validation;

  Expected<std::vector<FlippedModule>> TF = flipAll(TrainM, O, Ckpt + "/flips.jsonl", "train");
  if (!TF)
    return TF.takeError();
  Expected<std::vector<FlippedModule>> VF =
      flipAll(ValM, O, Ckpt + "/flips-validation.jsonl", "validation");
  if (!VF)
    return VF.takeError();
  // The headroom costs a compile per helpful flip: kept in the checkpoint for a rerun.
  auto Headroom = [&](const std::vector<FlippedModule> &F, const std::vector<InlinerModule> &M,
                      const char *Label) -> Expected<json::Value> {
    std::string Path = Ckpt + "/headroom-" + Label + ".json";
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path)) {
      Expected<json::Value> V = json::parse((*B)->getBuffer());
      if (!V)
        consumeError(V.takeError()); // measured again below
      else if (const json::Object *Obj = V->getAsObject();
               Obj && Obj->getInteger("modules") == int64_t(F.size())) {
        outs() << Label << " headroom (measured before): " << *V << "\n";
        return std::move(*V);
      }
    }
    json::Value V = headroom(F, M, O, Label);
    std::string Text;
    raw_string_ostream(Text) << V << "\n";
    if (Error E = writeFileAtomically(Path, Text))
      return std::move(E);
    return V;
  };
  Expected<json::Value> HT = Headroom(*TF, TrainM, "train");
  if (!HT)
    return HT.takeError();
  Expected<json::Value> HV = Headroom(*VF, ValM, "validation");
  if (!HV)
    return HV.takeError();
  json::Object Summary{{"train", std::move(*HT)}, {"validation", std::move(*HV)}};

  // Both forms, each in its own run directory; the one better on validation before fallback
  // (the inliner's target) becomes RUN/model.smm.
  double BestValidation = 0;
  for (bool FlipLabels : {false, true}) {
    InlinerTrainOptions Form = O;
    const char *Name = FlipLabels ? "flip" : "decide";
    Form.RunDir = O.RunDir + "/" + Name;
    json::Object Meta{{"flip_modules", int64_t(TF->size())},
                      {"decides", FlipLabels ? "flip" : "inline"}};
    // Both fits weigh the classes to balance and keep the epoch best by balanced accuracy:
    // otherwise the flip form learns "never flip" (8.9 % of call sites are helpful flips).
    // How eager the policy is to act is then chosen on validation modules by real bytes: the
    // output bias is moved by +2..-3.
    if (Error E = fitInlineClassifier(Form, "inliner-flips", examples(*TF, FlipLabels),
                                      examples(*VF, FlipLabels), std::move(Meta), "fit.smm"))
      return E;
    if (Error E = writeTrainingReport(Form.RunDir))
      return E;
    Expected<ExportedModel> Fit = ExportedModel::load(Form.RunDir + "/fit.smm");
    if (!Fit)
      return Fit.takeError();
    std::shared_ptr<const InlinePolicy> Policy;
    double BestShiftValidation = 0, ChosenShift = 0;
    for (float Shift : {2.f, 1.f, 0.f, -1.f, -2.f, -3.f}) {
      Expected<ExportedModel> Shifted = withOutputShift(*Fit, Shift);
      if (!Shifted)
        return Shifted.takeError();
      Expected<InlinePolicy> P = InlinePolicy::fromModel(*Shifted, Form.RunDir + "/model.smm");
      if (!P)
        return P.takeError();
      auto Candidate = std::make_shared<const InlinePolicy>(std::move(*P));
      BytesFigures F = evaluatePolicy(ValM, Candidate, O.Jobs);
      outs() << format("%s policy, output shift %+.0f, on validation modules: geomean %.4f, %u of "
                       "%u decisions differ from the heuristic\n",
                       Name, Shift, F.Raw, F.Changed, F.Decisions);
      if (!Policy || F.Raw > BestShiftValidation) { // ties keep the more eager shift
        BestShiftValidation = F.Raw, ChosenShift = Shift, Policy = Candidate;
        json::Object M = Shifted->metadata();
        M["output_shift"] = Shift;
        if (Error E = writeFileAtomically(Form.RunDir + "/model.smm",
                                          ExportedModel::serialize(M, Shifted->weights())))
          return E;
      }
    }
    outs() << format("%s policy: output shift %+.0f chosen on validation\n", Name, ChosenShift);
    json::Object Figures;
    double Validation = 0;
    for (auto [Set, Modules] : {std::pair<const char *, const std::vector<InlinerModule> *>{
                                    "train", &TrainM},
                                {"validation", &ValM}}) {
      BytesFigures F = evaluatePolicy(*Modules, Policy, O.Jobs);
      outs() << format("%s policy on %s modules: geomean %.4f (never worse %.4f), %u smaller / "
                       "%u larger, %u of %u decisions differ from the heuristic\n",
                       Name, Set, F.Raw, F.NeverWorse, F.Smaller, F.Larger, F.Changed,
                       F.Decisions);
      Figures[Set] = figuresJSON(F);
      Validation = F.Raw;
    }
    Summary[std::string("policy_") + Name] = std::move(Figures);
    if (Validation > BestValidation) {
      BestValidation = Validation;
      if (std::error_code EC =
              sys::fs::copy_file(Form.RunDir + "/model.smm", O.RunDir + "/model.smm"))
        return errorCodeToError(EC);
      Summary["shipped_form"] = Name;
    }
  }
  appendMetrics(O.RunDir + "/metrics.jsonl",
                json::Object{{"trainer", "inliner-flips"}, {"step", 0}, {"summary", json::Object(Summary)}});
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Summary)) << "\n";
  return writeFileAtomically(O.RunDir + "/flips-summary.json", Text);
}

} // namespace smartcc
