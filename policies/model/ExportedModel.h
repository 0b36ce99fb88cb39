// The shipped form of a trained policy: dependency-free, versioned, small. The per-file
// compiler evaluates it with this routine; LibTorch exists only in smartcc-train, which writes
// the format (MLGO's "release mode" split).
//
// File format, version 1:
//   SMARTCC-MODEL 1\n
//   <metadata: one line of JSON>\n
//   <weights: float32, little-endian, contiguous>
// Metadata keys: "layers" (required): [{"kind": "linear", "in": N, "out": M, "offset": K},
// {"kind": "relu"}, {"kind": "tanh"}, {"kind": "softmax"}, {"kind": "layernorm", "size": N,
// "offset": K, "eps": E}]; "input_size"; optional "input_mean"/"input_std" (standardization
// applied before the first layer); and free-form entries (action space, observation, model
// card) that the routine carries but does not interpret. A linear layer's weights are the out x in matrix,
// row-major, then the out biases; a layernorm's are its gains then its biases.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace smartcc {

class ExportedModel {
public:
  enum class LayerKind { Linear, ReLU, Tanh, Softmax, LayerNorm };
  struct Layer {
    LayerKind Kind;
    size_t In = 0, Out = 0; // Linear: sizes; LayerNorm: In == Out == size
    size_t Offset = 0;      // into Weights
    float Eps = 1e-5f;
  };

  // Errors name Source: "model.smm: line 2: layer 3: ...".
  static llvm::Expected<ExportedModel> parse(llvm::StringRef Bytes, llvm::StringRef Source);
  static llvm::Expected<ExportedModel> load(const std::string &Path);

  size_t inputSize() const { return InputSize; }
  size_t outputSize() const { return OutputSize; }
  // One forward pass; deterministic (plain sequential float arithmetic).
  std::vector<float> forward(llvm::ArrayRef<float> Input) const;
  // Index of the largest output (first on ties): the greedy action.
  size_t argmax(llvm::ArrayRef<float> Input) const;
  const llvm::json::Object &metadata() const { return Meta; }
  // All layer weights, in file order; replacing them (same count) keeps layers and
  // standardization: what evolution strategies perturb.
  llvm::ArrayRef<float> weights() const { return Weights; }
  void setWeights(llvm::ArrayRef<float> W) { Weights.assign(W.begin(), W.end()); }
  // Serializes a model: the inverse of parse (used by the trainer and by tests).
  static std::string serialize(const llvm::json::Object &Meta, llvm::ArrayRef<float> Weights);

private:
  llvm::json::Object Meta;
  std::vector<Layer> Layers;
  std::vector<float> Weights, Mean, Std;
  size_t InputSize = 0, OutputSize = 0;
};

} // namespace smartcc
