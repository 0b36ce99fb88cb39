#include "policies/model/EmbeddedModels.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace smartcc {

std::optional<Expected<BuiltinModel>> findBuiltinModel(const EmbeddedModel *Table,
                                                       StringRef Triple, StringRef Label) {
  for (const EmbeddedModel *E = Table; E->Name; ++E)
    if (Triple.starts_with(E->Name)) {
      std::string Source = ("<built-in " + Label + " " + E->Name + ".smm>").str();
      Expected<ExportedModel> M = ExportedModel::parse(
          StringRef(reinterpret_cast<const char *>(E->Bytes), E->Size), Source);
      if (!M)
        return Expected<BuiltinModel>(M.takeError());
      return Expected<BuiltinModel>(BuiltinModel{std::move(*M), std::move(Source)});
    }
  return std::nullopt;
}

} // namespace smartcc
