// smartcc-train: trains a policy on harvested modules, resumably, and exports it in the
// shipped format. Every run directory records its command (command.txt) and options.
//
//   smartcc-train --trainer dqn|ppo|dreamer --corpus DIR --hashes TRAIN.txt
//                 [--validation-hashes VAL.txt] --run DIR [--steps 20000] [--space autophase]
//                 [--reward ir|bytes] [--seed 1] ...
//   smartcc-train --trainer value --table CORESET_DIR --validation-table VAL_DIR --run DIR
//                 [--epochs 200] [--target x86_64]   (the sequence-value agent, SequenceValue.h)
//   smartcc-train --trainer inliner-bc|inliner-es|inliner-flips --corpus DIR --hashes TRAIN.txt
//                 --validation-hashes VAL.txt --run DIR [--target x86_64] [--init BC.smm]
//                 (the ML inliner, InlinerTraining.h)
//   smartcc-train --trainer value --score MODEL.smm --table DIR [--fixed-order]
//                 (scores a value model on a table: held-out figures and calibration)
//   smartcc-train --trainer ir2vec-vocab --triplets T1.txt[,T2.txt...]
//                 --validation-triplets V.txt --run DIR [--dim 64] [--epochs 300]
//                 (the IR2Vec vocabulary: TransE over llvm-ir2vec triplets, IR2VecVocabTraining.h)
//   smartcc-train --embed MODULE.bc [--vocabulary V.json] [--embed-kind symbolic|flow-aware]
//                 (in-process IR2Vec embeddings: each function's, then the module's sum)
//   smartcc-train --inspect MODEL.smm
#include "policies/IR2VecEmbedding.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include <chrono>
#include <optional>
#include "policies/model/ExportedModel.h"
#include "policies/inliner/InlineFeatures.h"
#include "policies/regalloc/RegAllocPolicy.h"
#include "policies/train/AllocatorChoiceTraining.h"
#include "policies/train/DQN.h"
#include "policies/train/IR2VecVocabTraining.h"
#include "policies/train/InlinerTraining.h"
#include "policies/train/RegAllocTraining.h"
#include "policies/train/PPO.h"
#include "policies/train/SequenceKernel.h"
#include "policies/train/SequenceValue.h"
#include "policies/train/TableObservations.h"
#include "policies/train/TrainingReport.h"
#include "policies/train/WorldModel.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;
using namespace smartcc;

static cl::opt<std::string> Inspect("inspect", cl::desc("print an exported model's metadata"));
static cl::opt<bool> PrintInlinerFeatures("print-inliner-features",
                                          cl::desc("print the ML inliner's input features, one "
                                                   "a line (an inliner model's inputs)"));
static cl::opt<bool> PrintRegAllocFeatures("print-regalloc-features",
                                           cl::desc("list the register-allocation policy's "
                                                    "input features, in order, and exit"));
static cl::opt<std::string> Report("report", cl::desc("render RUN/metrics.jsonl into RUN/report.html"));
static cl::opt<std::string> Trainer("trainer",
                                    cl::desc("dqn, ppo, dreamer (world model) or value "
                                             "(sequence values over a core set)"),
                                    cl::init("dqn"));
static cl::opt<std::string> Table("table", cl::desc("value: smartcc-coreset output directory "
                                                    "with the training value table"));
static cl::opt<std::string> ValTable("validation-table",
                                     cl::desc("value: directory with the validation table"));
static cl::opt<std::string> RewardName("reward", cl::desc("ir (the papers') or bytes"),
                                       cl::init("ir"));
static cl::opt<std::string> ScoreModel("score",
                                       cl::desc("value: score this model on --table (no "
                                                "training): geomeans, calibration, regret"));
static cl::opt<bool> FixedOrder("fixed-order",
                                cl::desc("with --score: also score the table's own column order "
                                         "(link candidates in library order) as a ranking"));
static cl::opt<std::string> ScoresOut("scores-out",
                                      cl::desc("with --score: write each row's hash, package "
                                               "and predictions (in the model's column "
                                               "order, named) as JSON lines, for offline "
                                               "studies"));
static cl::opt<bool> PrintEntities("print-ir2vec-entities",
                                   cl::desc("list the IR2Vec entities in llvm-ir2vec's "
                                            "entity2id format (count, then NAME<tab>ID)"));
static cl::opt<std::string> EmbedModule("embed",
                                        cl::desc("print the IR2Vec embeddings of a module's "
                                                 "functions and their sum, as the compiler "
                                                 "computes them"));
static cl::opt<std::string> VocabularyPath("vocabulary",
                                           cl::desc("IR2Vec vocabulary (default: the built-in "
                                                    "one)"));
static cl::opt<std::string> EmbedKind("embed-kind", cl::desc("symbolic or flow-aware"),
                                      cl::init("symbolic"));
static cl::opt<std::string> ObservationName(
    "observation",
    cl::desc("value, dqn, ppo, dreamer: what the model reads: autophase-log1p (the tables' own), ir2vec or "
             "autophase-log1p+ir2vec (re-observed from the --corpus modules with the IR2Vec "
             "vocabulary)"),
    cl::init("autophase-log1p"));
static cl::opt<unsigned> PretrainEpochs("pretrain-epochs", cl::init(0),
                                        cl::desc("value: pretrain the hidden layers as a "
                                                 "denoising autoencoder for N epochs first"));
static cl::opt<double> NegativeGainWeight(
    "negative-gain-weight", cl::init(0),
    cl::desc("value: train on W * gain where a sequence measured larger than -Oz (0: losses "
             "are clipped to 0, every loser a tie); recorded in the model"));
static cl::opt<bool> RemineOrder(
    "remine-order",
    cl::desc("value: re-mine the core set's order (effort 1's fixed proposals) greedily on the "
             "training table; kept if the prior's validation effort-1 is better with it"));
static cl::opt<bool> KernelChooser(
    "kernel",
    cl::desc("value: fit the kernel chooser (each sequence's gain averaged over similar "
             "training modules, the bandwidth chosen on validation; SequenceKernel.h) instead "
             "of training a network"));
static cl::opt<double> MaxExtraCodegens(
    "max-extra-codegens", cl::init(AllocatorChoiceOptions().MaxExtraCodegens),
    cl::desc("allocator-proposal: the bound on code generations per module beyond the "
             "reference's under which the proposals' gates are chosen (training split)"));
static cl::opt<double> ListwiseWeight(
    "listwise-weight", cl::init(0),
    cl::desc("value: add a listwise ranking loss (softmax cross-entropy of each row's measured "
             "and predicted gains) with this weight; 0: the regression alone"));
static cl::opt<double> ListwiseTemperature(
    "listwise-temperature", cl::init(1),
    cl::desc("value: the listwise loss's softmax temperature, in percent of gain"));
static cl::opt<double> ValueLearningRate("value-lr", cl::init(SequenceValueOptions().LearningRate),
                                         cl::desc("value: AdamW learning rate"));
static cl::opt<double> ValueWeightDecay("value-weight-decay",
                                        cl::init(SequenceValueOptions().WeightDecay),
                                        cl::desc("value: AdamW weight decay"));
static cl::opt<std::string> UnlabeledHashes("unlabeled-hashes",
                                            cl::desc("value, with --pretrain-epochs: more "
                                                     "modules of --corpus (hashes, one a line) "
                                                     "for the autoencoder"));
static cl::opt<std::string> TripletFiles("triplets",
                                         cl::desc("ir2vec-vocab: training triplet files "
                                                  "(llvm-ir2vec triplets), comma-separated"));
static cl::opt<std::string> ValTripletFiles("validation-triplets",
                                            cl::desc("ir2vec-vocab: validation triplet files"));
static cl::opt<unsigned> Dimension("dim", cl::desc("ir2vec-vocab: vector dimension"),
                                   cl::init(VocabTrainOptions().Dimension));
static cl::opt<double> Margin("margin", cl::desc("ir2vec-vocab: TransE margin"),
                              cl::init(VocabTrainOptions().Margin));
static cl::opt<unsigned> Epochs("epochs", cl::desc("value: training epochs"), cl::init(200));
static cl::opt<std::string> CorpusDir("corpus", cl::desc("harvested corpus"));
static cl::opt<std::string> Hashes("hashes", cl::desc("training module hashes"));
static cl::opt<std::string> ValHashes("validation-hashes", cl::desc("validation module hashes"));
static cl::opt<std::string> RunDir("run", cl::desc("run directory (resumed if it exists)"));
static cl::opt<std::string> Level("level", cl::desc("harvest level"), cl::init("Oz"));
static cl::opt<std::string> TargetPrefix("target", cl::desc("module triple prefix"),
                                         cl::init("x86_64"));
static cl::opt<std::string> Space("space", cl::desc("action space"), cl::init("autophase"));
static cl::opt<unsigned long long> Steps("steps", cl::desc("environment steps"), cl::init(20000));
static cl::opt<unsigned> Horizon("horizon", cl::desc("steps per episode"), cl::init(45));
static cl::opt<unsigned long long> LearnStart("learn-start",
                                              cl::desc("steps before learning (dqn, dreamer)"),
                                              cl::init(500));
static cl::opt<unsigned long long> CheckpointEvery("checkpoint-every", cl::init(1000),
                                                   cl::desc("steps between checkpoints"));
static cl::opt<unsigned long long> ValidateEvery("validate-every", cl::init(5000),
                                                 cl::desc("steps between validations"));
static cl::opt<unsigned long long> EpsilonDecay("epsilon-decay", cl::init(10000),
                                                cl::desc("steps of epsilon decay"));
static cl::opt<unsigned> Seed("seed", cl::desc("random seed"), cl::init(1));
static cl::opt<unsigned> RolloutSteps("rollout-steps",
                                      cl::desc("PPO: steps per rollout (512); dreamer: steps "
                                               "collected per iteration (256)"),
                                      cl::init(512));
// The world-model agent's own options (defaults: WorldModelOptions).
static WorldModelOptions DreamerDefaults;
static cl::opt<unsigned> TrainUpdates("train-updates", cl::init(DreamerDefaults.TrainUpdates),
                                      cl::desc("dreamer: gradient steps per iteration"));
static cl::opt<unsigned> BatchSequences("batch-sequences",
                                        cl::init(DreamerDefaults.BatchSequences),
                                        cl::desc("dreamer: replayed windows per gradient step"));
static cl::opt<unsigned> SequenceLength("sequence-length",
                                        cl::init(DreamerDefaults.SequenceLength),
                                        cl::desc("dreamer: steps per replayed window"));
static cl::opt<unsigned> ImagineHorizon("imagine-horizon",
                                        cl::init(DreamerDefaults.ImagineHorizon),
                                        cl::desc("dreamer: imagined steps per rollout"));
static cl::opt<unsigned> ModelHidden("model-hidden", cl::init(DreamerDefaults.ModelHidden),
                                     cl::desc("dreamer: width of the world model, latent actor "
                                              "and critic"));
static cl::opt<unsigned long long> ReplaySize("replay-size", cl::init(DreamerDefaults.ReplaySize),
                                              cl::desc("dreamer: replayed steps kept"));
static cl::opt<double> ModelLR("model-lr", cl::init(DreamerDefaults.ModelLearningRate),
                               cl::desc("dreamer: world-model learning rate"));
static cl::opt<double> ActorLR("actor-lr", cl::init(DreamerDefaults.ActorLearningRate),
                               cl::desc("dreamer: latent actor learning rate"));
static cl::opt<double> CriticLR("critic-lr", cl::init(DreamerDefaults.CriticLearningRate),
                                cl::desc("dreamer: critic learning rate"));
static cl::opt<double> DistillLR("distill-lr", cl::init(DreamerDefaults.DistillLearningRate),
                                 cl::desc("dreamer: learning rate of the shipped (distilled) "
                                          "actor"));
static cl::opt<double> EntropyCoef("entropy-coef", cl::init(DreamerDefaults.EntropyCoef),
                                   cl::desc("dreamer: latent actor entropy bonus"));
static cl::opt<double> RewardSmoothing("reward-smoothing",
                                       cl::init(DreamerDefaults.RewardSmoothing),
                                       cl::desc("dreamer: Gaussian reward smoothing width in "
                                                "steps (0: off)"));
static cl::opt<unsigned> MaxIR("max-ir", cl::desc("skip larger modules"), cl::init(20000));
// The ML inliner's trainers (defaults: InlinerTrainOptions).
static InlinerTrainOptions InlinerDefaults;
static cl::opt<std::string> InitModel("init", cl::desc("inliner-es: the cloned model to start from"));
static cl::opt<unsigned> Iterations("iterations", cl::init(InlinerDefaults.ES.Iterations),
                                    cl::desc("inliner-es: iterations"));
static cl::opt<unsigned> Pairs("pairs", cl::init(InlinerDefaults.ES.Pairs),
                               cl::desc("inliner-es: antithetic perturbation pairs per iteration"));
static cl::opt<unsigned> ModulesPerIteration("modules-per-iteration",
                                             cl::init(InlinerDefaults.ES.ItemsPerIteration),
                                             cl::desc("inliner-es: sampled modules per iteration"));
static cl::opt<double> Sigma("sigma", cl::init(InlinerDefaults.ES.Sigma),
                             cl::desc("inliner-es: perturbation scale"));
static cl::opt<double> StepSize("step-size", cl::init(InlinerDefaults.ES.StepSize),
                                cl::desc("inliner-es: Adam step size"));
static cl::opt<unsigned> InlinerHidden("hidden", cl::init(InlinerDefaults.Hidden),
                                       cl::desc("inliner-bc: width of the two hidden layers"));
static cl::opt<unsigned> Jobs("jobs", cl::init(InlinerDefaults.Jobs),
                              cl::desc("inliner-*: modules compiled at once"));
static cl::opt<unsigned> MaxModules("max-modules", cl::init(0),
                                    cl::desc("use at most this many training modules (0: all)"));
static cl::opt<unsigned> ValidationModules("validation-modules",
                                           cl::init(InlinerDefaults.ValidationModules),
                                           cl::desc("inliner-es, inliner-flips: validation "
                                                    "modules measured"));
static cl::opt<unsigned> FlipModules("flip-modules", cl::init(InlinerDefaults.FlipModules),
                                     cl::desc("inliner-flips: training modules whose decisions "
                                              "are reversed one at a time"));
static cl::opt<unsigned> MaxFlips("max-flips", cl::init(InlinerDefaults.MaxFlipsPerModule),
                                  cl::desc("inliner-flips: the first decisions of each module "
                                           "that are reversed"));

static const RegAllocTrainOptions RegAllocDefaults;
static cl::opt<unsigned> Heads("heads", cl::init(RegAllocDefaults.Heads),
                               cl::desc("regalloc-es: policy heads; the compiler allocates "
                                        "each function with the cheapest of LLVM's priorities "
                                        "and these"));
static cl::opt<double> InitSpread("init-spread", cl::init(RegAllocDefaults.InitSpread),
                                  cl::desc("regalloc-es: largest starting weight of each "
                                           "head's two random features (0: every head starts "
                                           "as LLVM's advisor)"));
static cl::opt<unsigned> CandidateHeads("candidate-heads", cl::init(0),
                                        cl::desc("regalloc-es: choose the starting heads among "
                                                 "this many seeded random ones by their measured "
                                                 "worth on the training modules (0: take them as "
                                                 "drawn)"));
static cl::opt<unsigned> OptionHeads("option-heads", cl::init(0),
                                     cl::desc("regalloc-es (with --candidate-heads): also "
                                              "candidates carrying greedy allocator options, on "
                                              "LLVM's priorities and on the first N heads chosen "
                                              "among the drawn ones (0: none)"));
static cl::opt<unsigned> EvictionHeads("eviction-heads", cl::init(0),
                                       cl::desc("regalloc-es (with --candidate-heads): also "
                                                "this many candidates that decide evictions "
                                                "(seeded random eviction scorers, on LLVM's "
                                                "priorities and on the first --option-heads "
                                                "heads chosen among the drawn ones; 0: none)"));
static cl::opt<double> RegAllocGrowth("regalloc-growth", cl::init(0),
                                      cl::desc("regalloc-es: percent of a module's code bytes "
                                               "the per-function choice may add over greedy's, "
                                               "as the compiler's regalloc_growth (default 0)"));
static cl::opt<std::string> CompileLevel("compile-level", cl::init("O2"),
                                         cl::desc("regalloc-es: the -O level whose codegen is "
                                                  "trained (O1, O2, O3, Os, Oz)"));

namespace {

// The listed modules of the wanted target and size, in a fixed order (by hash).
Expected<std::vector<CorpusModule>> select(std::vector<CorpusModule> All, const std::string &File) {
  if (File.empty())
    return std::vector<CorpusModule>();
  if (Error E = keepListedModules(All, File))
    return std::move(E);
  llvm::erase_if(All, [](const CorpusModule &C) {
    return !StringRef(C.Target).starts_with(TargetPrefix) || C.IRInstructions > MaxIR;
  });
  std::sort(All.begin(), All.end(),
            [](const CorpusModule &A, const CorpusModule &B) { return A.Hash < B.Hash; });
  return All;
}

// The training and validation modules named by --hashes and --validation-hashes.
struct Splits {
  std::vector<CorpusModule> Train, Validation;
};
Expected<Splits> readSplits() {
  Expected<std::vector<CorpusModule>> Corpus = readCorpus(CorpusDir, Level);
  if (!Corpus)
    return Corpus.takeError();
  Expected<std::vector<CorpusModule>> Train = select(*Corpus, Hashes);
  if (!Train)
    return Train.takeError();
  Expected<std::vector<CorpusModule>> Validation = select(*Corpus, ValHashes);
  if (!Validation)
    return Validation.takeError();
  return Splits{std::move(*Train), std::move(*Validation)};
}

int fail(const Twine &Message) {
  errs() << "smartcc-train: error: " << Message << "\n";
  return 1;
}

void recordCommand(int Argc, const char **Argv) {
  sys::fs::create_directories(RunDir);
  std::error_code EC;
  raw_fd_ostream Cmd(RunDir + "/command.txt", EC, sys::fs::OF_Append);
  for (int I = 0; I < Argc; ++I)
    Cmd << (I ? " " : "") << Argv[I];
  Cmd << "\n";
}

// The IR2Vec vocabulary: --vocabulary (read once), else the built-in one.
Expected<const IR2VecVocabulary *> vocabulary() {
  static std::optional<IR2VecVocabulary> Loaded;
  if (VocabularyPath.empty()) {
    if (const IR2VecVocabulary *V = IR2VecVocabulary::builtin())
      return V;
    return createStringError(inconvertibleErrorCode(),
                             "this smartcc has no built-in IR2Vec vocabulary: give --vocabulary");
  }
  if (Loaded)
    return &*Loaded;
  Expected<IR2VecVocabulary> L = IR2VecVocabulary::load(VocabularyPath);
  if (!L)
    return L.takeError();
  Loaded.emplace(std::move(*L));
  return &*Loaded;
}

// Re-observes a table for K (TableObservations.h); the vocabulary's digest goes to Digest.
Error observe(ValueTable &T, ObservationKind K, std::string *Digest = nullptr) {
  if (!usesIR2Vec(K))
    return Error::success();
  Expected<const IR2VecVocabulary *> V = vocabulary();
  if (!V)
    return V.takeError();
  if (Digest)
    *Digest = (*V)->digest();
  return observeTable(T, K, CorpusDir, *V);
}

// The sequence-value agent learns from value tables, not from the environment directly.
void printFigures(StringRef Name, const ChoiceFigures &F) {
  outs() << format("%-14s top-1 %.4f  effort-1 %.4f  top-3 %.4f  oracle %.4f (%.0f %% of it)  "
                   "single trial %.4f: %u won, %u tied, %u lost; top-1 accuracy %.2f, "
                   "Spearman %.2f over %u rows, mean regret %.2f %%; effort-1 in total bytes "
                   "%.4f\n",
                   Name.str().c_str(), F.Top1, F.Effort1, F.Top3, F.Oracle,
                   100.0 * F.OracleShare, F.Top1Raw, F.Wins, F.Ties, F.Losses, F.Top1Accuracy,
                   F.Spearman, F.SpearmanRows, F.MeanRegret, F.Effort1Total);
}

// --score: a trained model (or the table's fixed column order) on a table it never saw.
int scoreValue() {
  Expected<ValueTable> T = readValueTable(Table);
  if (!T)
    return fail(toString(T.takeError()));
  Expected<ExportedModel> M = ExportedModel::load(ScoreModel);
  if (!M)
    return fail(toString(M.takeError()));
  const json::Array *Seqs = M->metadata().getArray("sequences");
  std::vector<std::string> Names;
  if (Seqs)
    for (const json::Value &S : *Seqs)
      Names.push_back(S.getAsString().value_or("").str());
  if (Names != T->Sequences) {
    // The same core set in another order (--remine-order): the table follows the model.
    std::vector<size_t> Order;
    for (const std::string &N : Names) {
      auto It = std::find(T->Sequences.begin(), T->Sequences.end(), N);
      if (It == T->Sequences.end())
        break;
      Order.push_back(size_t(It - T->Sequences.begin()));
    }
    std::vector<size_t> Sorted = Order;
    std::sort(Sorted.begin(), Sorted.end());
    if (Order.size() != T->Sequences.size() ||
        std::adjacent_find(Sorted.begin(), Sorted.end()) != Sorted.end())
      return fail(ScoreModel + ": the model's columns are not the table's (another core set or "
                               "link candidate library)");
    permuteColumns(*T, Order);
  }
  Expected<ObservationKind> K =
      parseObservationKind(M->metadata().getString("observation").value_or("autophase-log1p"));
  if (!K)
    return fail(ScoreModel + ": " + toString(K.takeError()));
  std::string Digest;
  if (Error E = observe(*T, *K, &Digest))
    return fail(toString(std::move(E)));
  if (usesIR2Vec(*K) &&
      M->metadata().getString("ir2vec_vocabulary").value_or("") != StringRef(Digest))
    return fail(ScoreModel + ": trained with another IR2Vec vocabulary than " + Digest);
  if (!T->Rows.empty() && T->Rows[0].Obs.size() != M->inputSize())
    return fail(ScoreModel + ": the model reads " + Twine(M->inputSize()) +
                " inputs, the table's rows have " + Twine(T->Rows[0].Obs.size()));
  std::vector<std::vector<float>> Scores, Fixed;
  for (const ValueTableRow &R : T->Rows) {
    Scores.push_back(M->forward(R.Obs));
    std::vector<float> F(R.Values.size());
    for (size_t I = 0; I < F.size(); ++I) // library candidates first, in their order
      F[I] = StringRef(T->Sequences[I]).starts_with("link:") ? -float(I) : -1e6f - float(I);
    Fixed.push_back(std::move(F));
  }
  if (!ScoresOut.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ScoresOut, EC);
    if (EC)
      return fail(ScoresOut + ": " + EC.message());
    for (size_t I = 0; I < T->Rows.size(); ++I) {
      json::Array P;
      for (float V : Scores[I])
        P.push_back(double(V));
      OS << json::Value(json::Object{{"hash", T->Rows[I].Hash},
                                     {"package", T->Rows[I].Package},
                                     {"sequences", json::Array(T->Sequences)},
                                     {"scores", std::move(P)}})
         << "\n";
    }
  }
  outs() << T->Rows.size() << " rows, " << T->Sequences.size() << " columns\n";
  printFigures("model", scoreChoices(*T, Scores));
  // The model's training prior (each sequence's mean target; SequenceValue.h valuePrior):
  // the fixed ranking it must beat to have learned anything about a TU.
  if (const json::Array *Prior = M->metadata().getArray("prior");
      Prior && Prior->size() == T->Sequences.size()) {
    std::vector<float> P;
    for (const json::Value &V : *Prior)
      P.push_back(float(V.getAsNumber().value_or(0)));
    printFigures("prior", scoreFixedRanking(*T, P));
  }
  // Confidence: how much of effort 1 the first choice alone keeps when the model is sure.
  for (double Margin : {0.5, 1.0, 2.0, 4.0, 8.0}) {
    ConfidenceCut C = confidenceCut(*T, Scores, Margin);
    outs() << format("confidence margin %4.1f %%: effort-1 %.4f with %.2f candidates a row; "
                     "first choice alone on %.0f %% of rows, as good as all three on %.0f %% "
                     "of those\n",
                     Margin, C.Geomean, C.Candidates, 100 * C.AloneShare,
                     100 * C.AloneRightShare);
  }
  if (FixedOrder)
    printFigures("fixed order", scoreChoices(*T, Fixed));
  return 0;
}

// Whether the user gave an option (its default stays the trainer's own otherwise).
bool given(const cl::Option &Opt) { return Opt.getNumOccurrences() > 0; }

int trainValue(int Argc, const char **Argv) {
  if (!ScoreModel.empty()) {
    if (Table.empty())
      return fail("--score needs --table");
    return scoreValue();
  }
  if (Table.empty() || ValTable.empty() || RunDir.empty())
    return fail("--trainer value needs --table, --validation-table and --run");
  Expected<ValueTable> T = readValueTable(Table);
  if (!T)
    return fail(toString(T.takeError()));
  Expected<ValueTable> V = readValueTable(ValTable);
  if (!V)
    return fail(toString(V.takeError()));
  Expected<ObservationKind> K = parseObservationKind(ObservationName);
  if (!K)
    return fail(toString(K.takeError()));
  SequenceValueOptions O;
  O.Observation = observationName(*K).str();
  if (Error E = observe(*T, *K, &O.IR2VecVocabularyDigest))
    return fail(toString(std::move(E)));
  if (Error E = observe(*V, *K))
    return fail(toString(std::move(E)));
  O.PretrainEpochs = PretrainEpochs;
  if (NegativeGainWeight < 0 || NegativeGainWeight > 1)
    return fail("--negative-gain-weight must be within [0, 1]");
  O.NegativeGainWeight = NegativeGainWeight;
  O.LearningRate = ValueLearningRate;
  O.RemineOrder = RemineOrder;
  if (ListwiseWeight < 0 || ListwiseTemperature <= 0)
    return fail("--listwise-weight must be >= 0 and --listwise-temperature > 0");
  O.ListwiseWeight = ListwiseWeight;
  O.ListwiseTemperature = ListwiseTemperature;
  O.WeightDecay = ValueWeightDecay;
  if (given(InlinerHidden)) // --hidden: the value network's width too
    O.Hidden = InlinerHidden;
  if (!UnlabeledHashes.empty()) {
    // Modules of the training split with no table row: unlabeled data for the encoder.
    Expected<std::vector<CorpusModule>> C = readCorpus(CorpusDir, Level);
    if (!C)
      return fail(toString(C.takeError()));
    if (Error E = keepListedModules(*C, UnlabeledHashes))
      return fail(toString(std::move(E)));
    Expected<const IR2VecVocabulary *> Vocab =
        usesIR2Vec(*K) ? vocabulary() : Expected<const IR2VecVocabulary *>(nullptr);
    if (!Vocab)
      return fail(toString(Vocab.takeError()));
    StringSet<> InTable;
    for (const ValueTableRow &R : T->Rows)
      InTable.insert(R.Hash);
    for (const CorpusModule &CM : *C) {
      if (InTable.count(CM.Hash) || !StringRef(CM.Target).starts_with(TargetPrefix))
        continue;
      LLVMContext Ctx;
      SMDiagnostic Diag;
      std::unique_ptr<Module> M = parseIRFile(CM.Bench.BitcodePath, Diag, Ctx);
      if (!M)
        return fail("unlabeled module " + CM.Hash + ": " + Diag.getMessage());
      O.Unlabeled.push_back(moduleObservation(*M, *K, *Vocab));
    }
  }
  recordCommand(Argc, Argv);
  outs() << "observation " << O.Observation << " (" << T->Rows[0].Obs.size() << " inputs)\n";
  O.RunDir = RunDir;
  O.Seed = Seed;
  O.TargetPrefix = TargetPrefix;
  if (KernelChooser) {
    if (Error E = trainSequenceKernel(O, *T, *V))
      return fail(toString(std::move(E)));
    outs() << "model: " << RunDir << "/model.smm\n";
    return 0;
  }
  outs() << "training value on " << T->Rows.size() << " modules (" << V->Rows.size()
         << " for validation), " << T->Sequences.size() << " sequences\n";
  O.Epochs = Epochs;
  if (Error E = guardLibTorch([&] { return trainSequenceValue(O, *T, *V); }))
    return fail(toString(std::move(E)));
  if (Error R = writeTrainingReport(RunDir))
    return fail(toString(std::move(R)));
  outs() << "model: " << RunDir << "/model.smm\n";
  return 0;
}

// The IR2Vec vocabulary learns from llvm-ir2vec's triplets (scripts/ir2vec-triplets.py).
int trainVocabulary(int Argc, const char **Argv) {
  if (TripletFiles.empty() || ValTripletFiles.empty() || RunDir.empty())
    return fail("--trainer ir2vec-vocab needs --triplets, --validation-triplets and --run");
  if (Dimension < 2 || Dimension > 1024)
    return fail("--dim must be 2 to 1024");
  auto Files = [](StringRef List) {
    SmallVector<StringRef, 4> Parts;
    List.split(Parts, ',', -1, false);
    return std::vector<std::string>(Parts.begin(), Parts.end());
  };
  const int64_t Entities = int64_t(IR2VecVocabulary::entities().size());
  Expected<TripletSet> T = readTriplets(Files(TripletFiles), Entities);
  if (!T)
    return fail(toString(T.takeError()));
  Expected<TripletSet> V = readTriplets(Files(ValTripletFiles), Entities);
  if (!V)
    return fail(toString(V.takeError()));
  recordCommand(Argc, Argv);
  VocabTrainOptions O;
  O.RunDir = RunDir;
  O.Dimension = Dimension;
  O.Margin = Margin;
  O.Seed = Seed;
  if (given(Epochs))
    O.Epochs = Epochs;
  if (given(ValidateEvery))
    O.ValidateEvery = unsigned(ValidateEvery);
  if (Error E = guardLibTorch([&] { return trainIR2VecVocabulary(O, *T, *V); }))
    return fail(toString(std::move(E)));
  if (Error R = writeTrainingReport(RunDir))
    return fail(toString(std::move(R)));
  outs() << "vocabulary: " << RunDir << "/vocabulary.json\n";
  return 0;
}

// --embed: what IR2VecEmbedding.h computes, printed like llvm-ir2vec --level=func.
int embed() {
  Expected<const IR2VecVocabulary *> Vocab = vocabulary();
  if (!Vocab)
    return fail(toString(Vocab.takeError()));
  const IR2VecVocabulary *V = *Vocab;
  if (EmbedKind != "symbolic" && EmbedKind != "flow-aware")
    return fail("--embed-kind must be symbolic or flow-aware");
  IR2VecKind Kind = EmbedKind == "symbolic" ? IR2VecKind::Symbolic : IR2VecKind::FlowAware;
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(EmbedModule, Diag, Ctx);
  if (!M)
    return fail(EmbedModule + ": " + Diag.getMessage());
  auto Print = [](const std::vector<double> &X) {
    outs() << " [";
    for (double D : X)
      outs() << " " << format("%.2f", D) << " ";
    outs() << "]\n";
  };
  for (const Function &F : *M) {
    if (F.isDeclaration())
      continue;
    std::unique_ptr<ir2vec::Embedder> E = ir2vec::Embedder::create(Kind, F, V->vocabulary());
    outs() << "Function: " << F.getName() << "\n";
    Print(E->getFunctionVector().getData());
  }
  auto Start = std::chrono::steady_clock::now();
  ModuleEmbedding ME = embedModule(*M, *V, Kind);
  double Ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
                  .count();
  outs() << "Module: " << ME.Functions << " functions, " << ME.Instructions
         << " instructions, vocabulary " << V->digest() << "\n";
  Print(ME.Sum);
  errs() << format("embedded in %.3f ms\n", Ms);
  return 0;
}

// A trainer over the corpus splits (--corpus, --hashes, --validation-hashes, --run): reads
// the splits, records the command, runs Train and renders its report.
int trainOnSplits(int Argc, const char **Argv,
                  const std::function<Error(const Splits &)> &Train) {
  if (CorpusDir.empty() || Hashes.empty() || ValHashes.empty() || RunDir.empty())
    return fail("--trainer " + Trainer +
                " needs --corpus, --hashes, --validation-hashes and --run");
  Expected<Splits> S = readSplits();
  if (!S)
    return fail(toString(S.takeError()));
  if (MaxModules && S->Train.size() > MaxModules)
    S->Train.resize(MaxModules);
  recordCommand(Argc, Argv);
  outs() << "training " << Trainer << " on " << S->Train.size() << " modules ("
         << S->Validation.size() << " for validation)\n";
  if (Error E = guardLibTorch([&] { return Train(*S); }))
    return fail(toString(std::move(E)));
  if (Error R = writeTrainingReport(RunDir))
    return fail(toString(std::move(R)));
  outs() << "model: " << RunDir << "/model.smm\n";
  return 0;
}

// The evolution-strategies flags over a trainer's defaults (the flags' own defaults are the
// inliner's, so a flag only counts when given).
ESOptions esOptions(ESOptions O) {
  if (given(Iterations))
    O.Iterations = Iterations;
  if (given(Pairs))
    O.Pairs = Pairs;
  if (given(ModulesPerIteration))
    O.ItemsPerIteration = ModulesPerIteration;
  if (given(Sigma))
    O.Sigma = Sigma;
  if (given(StepSize))
    O.StepSize = StepSize;
  if (given(ValidateEvery))
    O.ValidateEvery = unsigned(ValidateEvery);
  return O;
}

// The ML inliner learns from whole-module compiles, not from the pass-ordering environment.
int trainInliner(int Argc, const char **Argv) {
  InlinerTrainOptions O;
  O.RunDir = RunDir;
  O.TargetPrefix = TargetPrefix;
  O.Seed = Seed;
  O.Jobs = Jobs;
  O.Hidden = InlinerHidden;
  if (given(Epochs))
    O.Epochs = Epochs;
  O.InitModel = InitModel;
  O.ES = esOptions(O.ES);
  O.ValidationModules = ValidationModules;
  O.FlipModules = FlipModules;
  O.MaxFlipsPerModule = MaxFlips;
  return trainOnSplits(Argc, Argv, [&](const Splits &S) {
    if (Trainer == "inliner-bc")
      return trainInlinerBC(O, S.Train, S.Validation);
    if (Trainer == "inliner-flips")
      return trainInlinerFlips(O, S.Train, S.Validation);
    return trainInlinerES(O, S.Train, S.Validation);
  });
}

// The allocator-choice and allocator-proposal models learn from each function's bytes under
// every allocator.
int trainAllocatorChoiceModel(int Argc, const char **Argv) {
  AllocatorChoiceOptions O;
  O.RunDir = RunDir;
  O.TargetPrefix = TargetPrefix;
  O.Seed = Seed;
  O.Jobs = Jobs;
  if (given(Epochs))
    O.Epochs = Epochs;
  if (given(InlinerHidden))
    O.Hidden = InlinerHidden;
  if (given(StepSize))
    O.LearningRate = StepSize;
  O.Proposal = Trainer == "allocator-proposal";
  O.MaxExtraCodegens = MaxExtraCodegens;
  return trainOnSplits(Argc, Argv, [&](const Splits &S) {
    return trainAllocatorChoice(O, S.Train, S.Validation);
  });
}

// The register-allocation policy learns from codegen of clang's optimized modules.
int trainRegAlloc(int Argc, const char **Argv) {
  if (!is_contained(std::vector<std::string>{"O1", "O2", "O3", "Os", "Oz"}, CompileLevel))
    return fail("--compile-level must be O1, O2, O3, Os or Oz");
  RegAllocTrainOptions O;
  O.RunDir = RunDir;
  O.TargetPrefix = TargetPrefix;
  O.Level = CompileLevel;
  O.Seed = Seed;
  O.Jobs = Jobs;
  if (given(InlinerHidden))
    O.Hidden = InlinerHidden;
  if (Heads < 1 || Heads > 16)
    return fail("--heads must be 1 to 16");
  O.Heads = Heads;
  O.InitSpread = InitSpread;
  O.CandidateHeads = CandidateHeads;
  O.OptionHeads = OptionHeads;
  O.EvictionHeads = EvictionHeads;
  if (!(RegAllocGrowth >= 0 && RegAllocGrowth <= 100))
    return fail("--regalloc-growth: expected a percentage from 0 to 100");
  O.MaxGrowth = RegAllocGrowth / 100.0;
  O.ES = esOptions(O.ES);
  if (given(ValidationModules))
    O.ValidationModules = ValidationModules;
  return trainOnSplits(Argc, Argv, [&](const Splits &S) {
    return trainRegAllocES(O, S.Train, S.Validation);
  });
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "smartcc policy trainer: dqn (baseline), ppo, or dreamer (a "
                              "world-model agent whose distilled actor ships)\n");
  if (!Report.empty()) {
    if (Error E = writeTrainingReport(Report))
      return fail(toString(std::move(E)));
    outs() << "wrote " << Report << "/report.html\n";
    return 0;
  }
  if (PrintInlinerFeatures) {
    for (const std::string &Name : inlineFeatureNames())
      outs() << Name << "\n";
    return 0;
  }
  if (PrintRegAllocFeatures) {
    for (const std::string &Name : regAllocFeatureNames())
      outs() << Name << "\n";
    return 0;
  }
  if (!EmbedModule.empty())
    return embed();
  if (PrintEntities) {
    const std::vector<IR2VecVocabulary::Entity> &E = IR2VecVocabulary::entities();
    outs() << E.size() << "\n";
    for (size_t I = 0; I < E.size(); ++I)
      outs() << E[I].Name << "\t" << I << "\n";
    return 0;
  }
  if (!Inspect.empty()) {
    Expected<ExportedModel> M = ExportedModel::load(Inspect);
    if (!M)
      return fail(toString(M.takeError()));
    json::Object Meta = M->metadata();
    Meta.erase("input_mean");
    Meta.erase("input_std");
    Meta.erase("layers");
    outs() << "inputs " << M->inputSize() << ", outputs " << M->outputSize() << "\n"
           << json::Value(std::move(Meta)) << "\n";
    return 0;
  }
  if (Trainer == "value")
    return trainValue(Argc, Argv);
  if (Trainer == "ir2vec-vocab")
    return trainVocabulary(Argc, Argv);
  if (Trainer == "inliner-bc" || Trainer == "inliner-es" || Trainer == "inliner-flips")
    return trainInliner(Argc, Argv);
  if (Trainer == "regalloc-es")
    return trainRegAlloc(Argc, Argv);
  if (Trainer == "allocator-choice" || Trainer == "allocator-proposal")
    return trainAllocatorChoiceModel(Argc, Argv);
  if (RewardName != "ir" && RewardName != "bytes")
    return fail("--reward must be ir or bytes");
  if (CorpusDir.empty() || Hashes.empty() || RunDir.empty())
    return fail("--corpus, --hashes and --run are required (see --help)");
  if (Trainer != "dqn" && Trainer != "ppo" && Trainer != "dreamer")
    return fail("unknown trainer '" + Trainer +
                "' (available: dqn, ppo, dreamer, value, ir2vec-vocab, inliner-bc, inliner-es, inliner-flips, regalloc-es, allocator-choice, allocator-proposal)");
  Expected<Splits> S = readSplits();
  if (!S)
    return fail(toString(S.takeError()));
  std::vector<CorpusModule> Train = std::move(S->Train), Val = std::move(S->Validation);
  recordCommand(Argc, Argv);
  outs() << "training " << Trainer << " on " << Train.size() << " modules (" << Val.size()
         << " for validation)\n";
  Expected<ObservationKind> PolicyObs = parseObservationKind(ObservationName);
  if (!PolicyObs)
    return fail(toString(PolicyObs.takeError()));
  auto Common = [&](TrainerOptions &T) {
    T.RunDir = RunDir;
    T.SpaceName = Space;
    T.TotalSteps = Steps;
    T.Horizon = Horizon;
    T.ValidateEvery = ValidateEvery;
    T.Seed = Seed;
    T.Reward = RewardName == "bytes" ? RewardKind::ObjectBytes : RewardKind::IRInstructions;
    T.Observation = *PolicyObs;
  };
  Error E = Error::success();
  if (Trainer == "ppo") {
    PPOOptions P;
    Common(P);
    P.RolloutSteps = RolloutSteps;
    E = trainPPO(P, Train, Val);
  } else if (Trainer == "dreamer") {
    WorldModelOptions W;
    Common(W);
    if (RolloutSteps.getNumOccurrences())
      W.RolloutSteps = RolloutSteps;
    W.LearnStart = LearnStart;
    W.TrainUpdates = TrainUpdates;
    W.BatchSequences = BatchSequences;
    W.SequenceLength = SequenceLength;
    W.ImagineHorizon = ImagineHorizon;
    W.ModelHidden = ModelHidden;
    W.ReplaySize = ReplaySize;
    W.ModelLearningRate = ModelLR;
    W.ActorLearningRate = ActorLR;
    W.CriticLearningRate = CriticLR;
    W.DistillLearningRate = DistillLR;
    W.EntropyCoef = EntropyCoef;
    W.RewardSmoothing = RewardSmoothing;
    E = trainWorldModel(W, Train, Val);
  } else {
    DQNOptions D;
    Common(D);
    D.LearnStart = LearnStart;
    D.CheckpointEvery = CheckpointEvery;
    D.EpsilonDecaySteps = EpsilonDecay;
    E = trainDQN(D, Train, Val);
  }
  if (E)
    return fail(toString(std::move(E)));
  if (Error R = writeTrainingReport(RunDir))
    return fail(toString(std::move(R)));
  outs() << "model: " << RunDir << "/model.smm\n";
  return 0;
}
