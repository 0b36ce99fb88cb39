// The sequence-value agent ("value prediction over a core set", the CodeZero/CompilerDream idea
// of a core set of good sequences, with a learned model choosing among them): a network maps
// a translation unit's observation (log Autophase features of its pre-optimization module) to
// the predicted gain of every core-set sequence, log(clang -Oz bytes / sequence bytes). The
// compiler runs the best-predicted sequences as candidates and measures them (effort levels
// decide how many), so the model only has to rank, and a wrong guess costs time, never bytes.
//
// It learns from smartcc-coreset's value tables (stage 4): rows of (observation, clang's
// value, each sequence's measured value) on training modules, and is validated on a table of
// validation-package modules. Supervised regression (masked Huber loss on the log gains).
#pragma once
#include "policies/RankCorrelation.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace smartcc {

struct ValueTableRow {
  std::string Hash, Package;
  std::vector<float> Obs;
  double Clang = 0;
  std::vector<double> Values; // per sequence; 0 = the sequence failed on this module
};

struct ValueTable {
  std::string Space, Objective;
  std::string Kind = "sequence-value"; // or "link-value": columns are link candidates too
  std::vector<std::string> Sequences;
  std::vector<ValueTableRow> Rows; // sorted by hash
};

// Reads DIR/coreset.json (or CoresetFile when given) and DIR/table/*.jsonl.
llvm::Expected<ValueTable> readValueTable(const std::string &Dir,
                                          const std::string &CoresetFile = "");

struct SequenceValueOptions {
  std::string RunDir;
  unsigned Epochs = 200, Hidden = 128, Minibatch = 64;
  double LearningRate = 1e-3, WeightDecay = 1e-4;
  unsigned ValidateEvery = 10; // epochs
  uint64_t Seed = 1;
  std::string TargetPrefix; // recorded in the model ("x86_64", "aarch64")
  // What the rows' observations are (recorded in the model: the compiler computes the same);
  // an IR2Vec observation also records the vocabulary's digest.
  std::string Observation = "autophase-log1p";
  std::string IR2VecVocabularyDigest;
  // A learned encoder (issue 21): the network's two hidden layers are first trained as the
  // encoder of a denoising autoencoder for PretrainEpochs epochs on the training rows'
  // observations and Unlabeled ones (modules with no measured values), then the whole network
  // learns the values. 0: no pretraining.
  unsigned PretrainEpochs = 0;
  std::vector<std::vector<float>> Unlabeled;
  // Losing sequences (measured larger than -Oz) are worth 0 to a TU (clang's object is kept),
  // and with weight 0 the model learns exactly that: every loser is a tie at 0, ranked among
  // themselves at random. A small weight w > 0 trains on w * gain for losses instead (recorded
  // in the model as "negative_gain_weight", SequenceAgent divides it back out), so the model
  // also orders the losers (calibration, issue 21) while the winners still dominate the loss.
  double NegativeGainWeight = 0;
  // Re-mine the column order on the training table (greedyColumnOrder) and keep it when the
  // prior's effort 1 on validation is better with it than with the table's own order.
  bool RemineOrder = false;
  // A listwise ranking loss added to the regression (weight; 0: regression alone): per row,
  // the cross-entropy between softmax(measured gains / T) and softmax(predicted / T), T the
  // temperature in percent of gain. Recorded in the model ("listwise_loss").
  double ListwiseWeight = 0, ListwiseTemperature = 1;
};

// The training target of one measured column: 100 * log(clang / value) in percent, clipped to
// +-50 (beyond that a module is an outlier whose exact size teaches nothing about ranking);
// a loss is multiplied by NegativeWeight (0: clipped to 0).
double valueTarget(double Clang, double Value, double NegativeWeight);

// Effort 1 runs the model's first choice and then the core set's first columns (SequenceAgent.h,
// "mined order"), so the column order is part of the policy. The greedy order on T: each next
// column the one that most raises the never-worse geomean of the best column so far.
std::vector<size_t> greedyColumnOrder(const ValueTable &T);
// T's columns (names and every row's values) in Order.
void permuteColumns(ValueTable &T, const std::vector<size_t> &Order);

// The prior: each column's mean training target, i.e. the best fixed ranking, which knows
// nothing of the TU. The network starts from it, the model records it ("prior"), and every
// score reports it beside the model's figures: a chooser that does not beat it has learned
// nothing that transfers.
std::vector<float> valuePrior(const ValueTable &T, double NegativeWeight);

llvm::Error trainSequenceValue(const SequenceValueOptions &O, const ValueTable &Train,
                               const ValueTable &Validation);

// What a choice rule achieves on a table (never worse: -Oz's value is kept when smaller).
struct ChoiceFigures {
  double Top1 = 1, Top3 = 1, Oracle = 1; // geomean clang / chosen (best of the first k)
  double Top1Raw = 1;                    // top-1 before the -Oz fallback (single trial)
  double Effort1 = 1;                    // the effort-1 rule (SequenceAgent.h)
  double Effort1Total = 1;               // the same, byte-weighted: sum clang / sum chosen
  unsigned Wins = 0, Ties = 0, Losses = 0; // top-1 single trial vs clang
  // Calibration (issue: a chooser must know when it is right):
  double Top1Accuracy = 0;  // share of rows whose first choice is a best column (-Oz kept)
  double Spearman = 0;      // rank correlation of predicted and measured gains, mean over rows
  unsigned SpearmanRows = 0; // rows with at least three measured columns that differ
  double OracleShare = 1;   // effort 1's log gain over the oracle's (1 = all of it)
  double MeanRegret = 0;    // mean of 100*log(effort 1's bytes / the oracle's), >= 0
};
// Confidence: at effort 1 the compiler runs the model's first choice and the core set's first
// sequences; when the first choice is predicted to beat the other proposals by at least Margin
// (percent), running it alone saves their compile time. What that rule achieves on a table:
struct ConfidenceCut {
  double Margin = 0;
  double Geomean = 1;      // never worse, as Effort1
  double Candidates = 0;   // mean proposals run per row
  double AloneShare = 0;   // rows where the first choice ran alone
  double AloneRightShare = 0; // of those, rows where the others would not have been smaller
};
ConfidenceCut confidenceCut(const ValueTable &T, const std::vector<std::vector<float>> &Scores,
                            double Margin);

// Model selection on validation: effort 1 (what the default effort does with a model), top-1
// breaking ties. The figures as a model's metadata records them (keys prefixed).
double choiceScore(const ChoiceFigures &F);
llvm::json::Object figuresJSON(const ChoiceFigures &F, llvm::StringRef Prefix);

// Checks that both tables measure the same core set; with O.RemineOrder, permutes both tables'
// columns into the greedy order mined on Train when the prior's validation effort 1 prefers
// it. Returns which order the columns are in.
llvm::Expected<std::string> chooseColumnOrder(const SequenceValueOptions &O, ValueTable &Train,
                                              ValueTable &Validation);
// The metadata every sequence-value model carries (SequenceAgent reads kind, space,
// sequences, observation, negative_gain_weight; the rest is its card).
llvm::json::Object valueModelMetadata(const SequenceValueOptions &O, const ValueTable &Train,
                                      const ValueTable &Validation,
                                      const std::vector<float> &Prior,
                                      const std::string &ColumnOrder);

// Scores: one row of predicted gains per table row.
ChoiceFigures scoreChoices(const ValueTable &T, const std::vector<std::vector<float>> &Scores);
// A fixed ranking (the same scores for every row, as a prior's) on T.
ChoiceFigures scoreFixedRanking(const ValueTable &T, const std::vector<float> &Scores);

} // namespace smartcc
