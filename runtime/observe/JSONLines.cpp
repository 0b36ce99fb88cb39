#include "runtime/observe/JSONLines.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace smartcc {

void forEachJSONObject(StringRef Text, function_ref<void(const json::Object &)> Fn) {
  for (StringRef Line : split(Text, '\n')) {
    Expected<json::Value> V = json::parse(Line);
    if (!V) {
      consumeError(V.takeError());
      continue;
    }
    if (const json::Object *O = V->getAsObject())
      Fn(*O);
  }
}

} // namespace smartcc
