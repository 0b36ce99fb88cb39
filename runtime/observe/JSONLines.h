// Files of one JSON object a line (harvest records, metrics, measurement caches) are appended
// to by processes that can be killed mid-write; their readers skip lines that do not parse
// (a cut-short last line) and lines that are not objects.
#pragma once
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace smartcc {

void forEachJSONObject(llvm::StringRef Text,
                       llvm::function_ref<void(const llvm::json::Object &)> Fn);

} // namespace smartcc
