#include "policies/train/TorchExport.h"
#include "policies/model/ExportedModel.h"

using namespace llvm;

namespace smartcc {

namespace {

void append(std::vector<float> &Out, const torch::Tensor &T) {
  torch::Tensor C = T.detach().to(torch::kFloat32).contiguous().cpu();
  const float *P = C.data_ptr<float>();
  Out.insert(Out.end(), P, P + C.numel());
}

} // namespace

json::Array floatsJSON(const std::vector<float> &V) {
  json::Array A;
  for (float F : V)
    A.push_back(double(F));
  return A;
}

Expected<std::string> exportSequential(torch::nn::Sequential &Net, size_t InputSize,
                                       json::Object Meta, const std::vector<float> &Mean,
                                       const std::vector<float> &Std) {
  std::vector<float> Weights;
  json::Array Layers;
  size_t Index = 0;
  for (const std::shared_ptr<torch::nn::Module> &M : Net->children()) {
    if (auto *L = M->as<torch::nn::Linear>()) {
      json::Object Layer{{"kind", "linear"},
                         {"in", int64_t(L->options.in_features())},
                         {"out", int64_t(L->options.out_features())},
                         {"offset", int64_t(Weights.size())}};
      append(Weights, L->weight);
      if (L->bias.defined())
        append(Weights, L->bias);
      else
        Weights.insert(Weights.end(), size_t(L->options.out_features()), 0.0f);
      Layers.push_back(std::move(Layer));
    } else if (M->as<torch::nn::ReLU>()) {
      Layers.push_back(json::Object{{"kind", "relu"}});
    } else if (M->as<torch::nn::Tanh>()) {
      Layers.push_back(json::Object{{"kind", "tanh"}});
    } else if (auto *N = M->as<torch::nn::LayerNorm>()) {
      const std::vector<int64_t> &Shape = N->options.normalized_shape();
      if (Shape.size() != 1 || !N->options.elementwise_affine())
        return createStringError(inconvertibleErrorCode(),
                                 "layer %zu: only 1-D affine LayerNorm is exported", Index);
      Layers.push_back(json::Object{{"kind", "layernorm"},
                                    {"size", Shape[0]},
                                    {"offset", int64_t(Weights.size())},
                                    {"eps", N->options.eps()}});
      append(Weights, N->weight);
      append(Weights, N->bias);
    } else {
      return createStringError(inconvertibleErrorCode(), "layer %zu (%s) cannot be exported",
                               Index, M->name().c_str());
    }
    ++Index;
  }
  Meta["input_size"] = int64_t(InputSize);
  Meta["layers"] = std::move(Layers);
  if (!Mean.empty())
    Meta["input_mean"] = floatsJSON(Mean);
  if (!Std.empty())
    Meta["input_std"] = floatsJSON(Std);
  return ExportedModel::serialize(Meta, Weights);
}

} // namespace smartcc
