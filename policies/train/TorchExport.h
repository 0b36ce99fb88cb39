// Writes a LibTorch network in the shipped model format (policies/model/ExportedModel.h).
// Supported: a torch::nn::Sequential of Linear, ReLU, Tanh and LayerNorm modules, exactly the
// layers the compiler-side routine evaluates.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <torch/torch.h>
#include <vector>

namespace smartcc {

// Meta supplies the free-form entries (action space, model card, ...); this fills in
// "input_size", "layers" and, if given, the standardization.
llvm::Expected<std::string> exportSequential(torch::nn::Sequential &Net, size_t InputSize,
                                             llvm::json::Object Meta,
                                             const std::vector<float> &Mean = {},
                                             const std::vector<float> &Std = {});

// A metadata array of floats (standardization statistics and the like).
llvm::json::Array floatsJSON(const std::vector<float> &V);

} // namespace smartcc
