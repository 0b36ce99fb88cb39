#include "policies/model/ExportedModel.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;

namespace smartcc {

namespace {

constexpr StringRef Magic = "SMARTCC-MODEL 1";

Error fail(StringRef Source, unsigned Line, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s: line %u: %s", Source.str().c_str(),
                           Line, Message.str().c_str());
}

bool readFloats(const json::Object &O, StringRef Key, std::vector<float> &Out) {
  const json::Array *A = O.getArray(Key);
  if (!A)
    return false;
  for (const json::Value &V : *A)
    Out.push_back(float(V.getAsNumber().value_or(0)));
  return true;
}

} // namespace

Expected<ExportedModel> ExportedModel::parse(StringRef Bytes, StringRef Source) {
  auto [Header, Rest] = Bytes.split('\n');
  if (Header != Magic)
    return fail(Source, 1, "not a smartcc model (expected '" + Magic + "')");
  auto [MetaText, Blob] = Rest.split('\n');
  Expected<json::Value> MetaValue = json::parse(MetaText);
  if (!MetaValue)
    return fail(Source, 2, "metadata: " + toString(MetaValue.takeError()));
  if (!MetaValue->getAsObject())
    return fail(Source, 2, "metadata must be a JSON object");
  ExportedModel M;
  M.Meta = std::move(*MetaValue->getAsObject());
  if (Blob.size() % sizeof(float))
    return fail(Source, 3, "weights are not a whole number of float32 values");
  M.Weights.resize(Blob.size() / sizeof(float));
  std::memcpy(M.Weights.data(), Blob.data(), Blob.size()); // little-endian hosts only
  std::optional<int64_t> Input = M.Meta.getInteger("input_size");
  if (!Input || *Input <= 0)
    return fail(Source, 2, "'input_size' must be a positive integer");
  M.InputSize = size_t(*Input);
  readFloats(M.Meta, "input_mean", M.Mean);
  readFloats(M.Meta, "input_std", M.Std);
  if ((!M.Mean.empty() && M.Mean.size() != M.InputSize) ||
      (!M.Std.empty() && M.Std.size() != M.InputSize))
    return fail(Source, 2, "'input_mean'/'input_std' must have input_size entries");
  const json::Array *Layers = M.Meta.getArray("layers");
  if (!Layers || Layers->empty())
    return fail(Source, 2, "'layers' must be a non-empty array");
  size_t Width = M.InputSize;
  for (size_t I = 0; I < Layers->size(); ++I) {
    const json::Object *L = (*Layers)[I].getAsObject();
    std::string Where = "layer " + std::to_string(I) + ": ";
    if (!L)
      return fail(Source, 2, Where + "must be an object");
    StringRef Kind = L->getString("kind").value_or("");
    Layer Lay;
    if (Kind == "relu" || Kind == "tanh" || Kind == "softmax") {
      Lay.Kind = Kind == "relu"   ? LayerKind::ReLU
                 : Kind == "tanh" ? LayerKind::Tanh
                                  : LayerKind::Softmax;
      Lay.In = Lay.Out = Width;
    } else if (Kind == "linear" || Kind == "layernorm") {
      bool Linear = Kind == "linear";
      Lay.Kind = Linear ? LayerKind::Linear : LayerKind::LayerNorm;
      Lay.In = size_t(L->getInteger(Linear ? "in" : "size").value_or(0));
      Lay.Out = Linear ? size_t(L->getInteger("out").value_or(0)) : Lay.In;
      Lay.Offset = size_t(L->getInteger("offset").value_or(-1));
      Lay.Eps = float(L->getNumber("eps").value_or(1e-5));
      size_t Count = Linear ? Lay.In * Lay.Out + Lay.Out : 2 * Lay.In;
      if (Lay.In != Width || Lay.Out == 0)
        return fail(Source, 2, Where + "expects " + std::to_string(Lay.In) +
                                   " inputs, the previous layer gives " + std::to_string(Width));
      if (Lay.Offset + Count > M.Weights.size() || Lay.Offset > M.Weights.size())
        return fail(Source, 3, Where + "weights outside the file");
    } else {
      return fail(Source, 2, Where + "unknown kind '" + Kind + "'");
    }
    Width = Lay.Out;
    M.Layers.push_back(Lay);
  }
  M.OutputSize = Width;
  return M;
}

Expected<ExportedModel> ExportedModel::load(const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: %s", Path.c_str(),
                             Buf.getError().message().c_str());
  return parse((*Buf)->getBuffer(), Path);
}

std::vector<float> ExportedModel::forward(ArrayRef<float> Input) const {
  std::vector<float> X(Input.begin(), Input.end()), Y;
  X.resize(InputSize, 0.0f);
  for (size_t I = 0; I < InputSize; ++I) {
    if (!Mean.empty())
      X[I] -= Mean[I];
    if (!Std.empty())
      X[I] /= Std[I] > 0 ? Std[I] : 1.0f;
  }
  for (const Layer &L : Layers) {
    switch (L.Kind) {
    case LayerKind::Linear: {
      const float *W = Weights.data() + L.Offset, *B = W + L.In * L.Out;
      Y.assign(L.Out, 0.0f);
      for (size_t O = 0; O < L.Out; ++O) {
        float Sum = B[O];
        for (size_t I = 0; I < L.In; ++I)
          Sum += W[O * L.In + I] * X[I];
        Y[O] = Sum;
      }
      X.swap(Y);
      break;
    }
    case LayerKind::ReLU:
      for (float &V : X)
        V = V > 0 ? V : 0;
      break;
    case LayerKind::Tanh:
      for (float &V : X)
        V = std::tanh(V);
      break;
    case LayerKind::Softmax: {
      // Shifted by the largest input, so no exponential overflows.
      float Max = X.empty() ? 0 : *std::max_element(X.begin(), X.end());
      float Sum = 0;
      for (float &V : X)
        Sum += V = std::exp(V - Max);
      for (float &V : X)
        V /= Sum;
      break;
    }
    case LayerKind::LayerNorm: {
      const float *G = Weights.data() + L.Offset, *B = G + L.In;
      float Mu = 0, Var = 0;
      for (float V : X)
        Mu += V;
      Mu /= float(X.size());
      for (float V : X)
        Var += (V - Mu) * (V - Mu);
      Var /= float(X.size());
      float Inv = 1.0f / std::sqrt(Var + L.Eps);
      for (size_t I = 0; I < X.size(); ++I)
        X[I] = (X[I] - Mu) * Inv * G[I] + B[I];
      break;
    }
    }
  }
  return X;
}

size_t ExportedModel::argmax(ArrayRef<float> Input) const {
  std::vector<float> Out = forward(Input);
  size_t Best = 0;
  for (size_t I = 1; I < Out.size(); ++I)
    if (Out[I] > Out[Best])
      Best = I;
  return Best;
}

std::string ExportedModel::serialize(const json::Object &Meta, ArrayRef<float> Weights) {
  std::string Out = Magic.str() + "\n";
  raw_string_ostream OS(Out);
  OS << json::Value(json::Object(Meta)) << "\n";
  OS.write(reinterpret_cast<const char *>(Weights.data()), Weights.size() * sizeof(float));
  OS.flush();
  return Out;
}

} // namespace smartcc
