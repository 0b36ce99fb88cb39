#include "policies/IR2VecVocabulary.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include <cmath>

using namespace llvm;
using ir2vec::Vocabulary;

// policies/models/ir2vec/vocabulary.json, or "" when the tree has none (BuiltinIR2Vec.inc).
#include "BuiltinIR2Vec.inc"

namespace smartcc {

const std::vector<IR2VecVocabulary::Entity> &IR2VecVocabulary::entities() {
  // The canonical layout of ir2vec::Vocabulary: opcodes, canonical types, operand kinds, then
  // predicates, which LLVM's JSON keeps with the operand kinds under "Arguments".
  static const std::vector<Entity> All = [] {
    std::vector<Entity> E;
    unsigned Types = Vocabulary::MaxOpcodes + Vocabulary::MaxCanonicalTypeIDs;
    for (unsigned Pos = 0; Pos < Vocabulary::getCanonicalSize(); ++Pos)
      E.push_back({Vocabulary::getStringKey(Pos).str(),
                   Pos < Vocabulary::MaxOpcodes ? "Opcodes"
                   : Pos < Types                ? "Types"
                                                : "Arguments"});
    return E;
  }();
  return All;
}

Expected<IR2VecVocabulary> IR2VecVocabulary::parse(StringRef Json, StringRef Source) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Source + ": " + Why);
  };
  Expected<json::Value> V = json::parse(Json);
  if (!V)
    return Fail("not an IR2Vec vocabulary (JSON: " + toString(V.takeError()) + ")");
  const json::Object *Root = V->getAsObject();
  if (!Root)
    return Fail("not an IR2Vec vocabulary (expected an object with \"Opcodes\", \"Types\" and "
                "\"Arguments\")");
  std::vector<std::vector<ir2vec::Embedding>> Sections(
      4 /* opcodes, canonical types, operand kinds, predicates */);
  unsigned Dim = 0;
  SHA256 Hash;
  const std::vector<Entity> &All = entities();
  for (size_t Pos = 0; Pos < All.size(); ++Pos) {
    const Entity &E = All[Pos];
    const json::Object *Sec = Root->getObject(E.Section);
    if (!Sec)
      return Fail("no \"" + E.Section + "\" section");
    const json::Array *A = Sec->getArray(E.Name);
    if (!A)
      return Fail("entity \"" + E.Name + "\" (" + E.Section + ") is missing: the vocabulary "
                  "was not made for LLVM 22's IR2Vec");
    if (Pos == 0)
      Dim = A->size();
    if (A->size() != Dim || Dim == 0)
      return Fail("entity \"" + E.Name + "\" has " + Twine(A->size()) + " values, expected " +
                  Twine(Dim));
    std::vector<double> Values;
    for (const json::Value &X : *A) {
      std::optional<double> D = X.getAsNumber();
      if (!D || !std::isfinite(*D))
        return Fail("entity \"" + E.Name + "\" has a value that is not a finite number");
      Values.push_back(*D);
    }
    Hash.update(StringRef(reinterpret_cast<const char *>(Values.data()),
                          Values.size() * sizeof(double)));
    // Section ids of the storage: opcodes, types, operand kinds, predicates.
    unsigned Sect = Pos < Vocabulary::MaxOpcodes ? 0
                    : Pos < Vocabulary::MaxOpcodes + Vocabulary::MaxCanonicalTypeIDs ? 1
                    : Pos < Vocabulary::MaxOpcodes + Vocabulary::MaxCanonicalTypeIDs +
                                Vocabulary::MaxOperandKinds
                        ? 2
                        : 3;
    // LLVM 22's vocabulary analysis scales each section by its weight when it builds the
    // storage (the embedders then add the stored vectors as they are): so must we, or our
    // embeddings would not be llvm-ir2vec's.
    double Weight = Sect == 0 ? double(ir2vec::OpcWeight)
                    : Sect == 1 ? double(ir2vec::TypeWeight)
                                : double(ir2vec::ArgWeight);
    for (double &X : Values)
      X *= Weight;
    Sections[Sect].emplace_back(std::move(Values));
  }
  IR2VecVocabulary Out;
  Out.Vocab = std::make_unique<Vocabulary>(ir2vec::VocabStorage(std::move(Sections)));
  if (!Out.Vocab->isValid())
    return Fail("the vocabulary does not cover LLVM 22's IR2Vec entities");
  Out.Source = Source.str();
  std::array<uint8_t, 32> H = Hash.final();
  Out.Digest = toHex(ArrayRef<uint8_t>(H.data(), 6), /*LowerCase=*/true);
  return std::move(Out);
}

Expected<IR2VecVocabulary> IR2VecVocabulary::load(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!B)
    return createStringError(B.getError(), Path + ": cannot read the IR2Vec vocabulary: " +
                                               B.getError().message());
  return parse((*B)->getBuffer(), Path);
}

const IR2VecVocabulary *IR2VecVocabulary::builtin() {
  static const std::unique_ptr<IR2VecVocabulary> Builtin = []() -> std::unique_ptr<IR2VecVocabulary> {
    StringRef Text = ::builtinIR2VecVocabulary;
    if (Text.trim().empty())
      return nullptr;
    Expected<IR2VecVocabulary> V = parse(Text, "<built-in IR2Vec vocabulary>");
    if (!V) { // a build-time file that does not parse is a build defect: say so once
      consumeError(V.takeError());
      return nullptr;
    }
    return std::make_unique<IR2VecVocabulary>(std::move(*V));
  }();
  return Builtin.get();
}

std::string IR2VecVocabulary::toJson(const std::vector<std::vector<double>> &Vectors) {
  // One entity a line, in LLVM's order: a reviewable diff when the vocabulary is retrained.
  std::string Out = "{";
  raw_string_ostream OS(Out);
  const std::vector<Entity> &All = entities();
  StringRef Open;
  for (size_t Pos = 0; Pos < All.size() && Pos < Vectors.size(); ++Pos) {
    if (All[Pos].Section != Open) {
      OS << (Open.empty() ? "\n" : "\n  },\n") << "  \"" << All[Pos].Section << "\": {";
      Open = All[Pos].Section;
    } else {
      OS << ",";
    }
    OS << "\n    \"" << All[Pos].Name << "\": [";
    for (size_t I = 0; I < Vectors[Pos].size(); ++I) // 5 decimals: small, nothing lost that matters
      OS << (I ? ", " : "") << format("%.5f", Vectors[Pos][I]);
    OS << "]";
  }
  OS << "\n  }\n}\n";
  return Out;
}

} // namespace smartcc
