// The models compiled into smartcc: tables of named byte arrays generated from
// policies/models/*.smm (the sequence agent's) and policies/models/inliner/*.smm (the ML
// inliner's) by policies/EmbedModels.cmake. A model is named after the target triple prefix
// it was trained for (x86_64.smm, aarch64.smm).
#pragma once
#include "policies/model/ExportedModel.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <optional>
#include <string>

namespace smartcc {

struct EmbeddedModel {
  const char *Name; // null ends a table
  const unsigned char *Bytes;
  size_t Size;
};

struct BuiltinModel {
  ExportedModel Model;
  std::string Source; // "<built-in LABEL NAME.smm>", for messages
};

// The first model of Table whose name prefixes Triple, parsed; nothing if none matches.
std::optional<llvm::Expected<BuiltinModel>>
findBuiltinModel(const EmbeddedModel *Table, llvm::StringRef Triple, llvm::StringRef Label);

} // namespace smartcc
