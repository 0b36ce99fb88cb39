#include "policies/ActionSpace.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include <toml++/toml.h>

#include "BuiltinActionSpaces.inc"

using namespace llvm;

namespace smartcc {

namespace {

const char *const Macros[] = {"clang-default", "clang-default-os", "simplification",
                              "optimization", "function-simplification", "inliner",
                              "module-inliner"};

Error errorAt(StringRef Source, const toml::source_region &Where, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), "%s:%u:%u: %s", Source.str().c_str(),
                           unsigned(Where.begin.line), unsigned(Where.begin.column),
                           Message.str().c_str());
}

Expected<std::string> stringKey(const toml::table &T, StringRef Key, StringRef Source,
                                bool Required) {
  const toml::node *N = T.get(std::string_view(Key.data(), Key.size()));
  if (!N) {
    if (Required)
      return errorAt(Source, T.source(), "missing key '" + Key + "'");
    return std::string();
  }
  if (const auto *S = N->as_string())
    return std::string(S->get());
  return errorAt(Source, N->source(), "'" + Key + "' must be a string");
}

Expected<Action> parseAction(const toml::table &T, StringRef Source) {
  Action A;
  for (const auto &[Key, Node] : T) {
    std::string_view K = Key.str();
    if (K != "name" && K != "description" && K != "pipeline" && K != "macro" &&
        K != "function_attrs" && K != "llvm_args")
      return errorAt(Source, Node.source(), "unknown key '" + std::string(K) + "' in [[action]]");
  }
  Expected<std::string> Name = stringKey(T, "name", Source, true);
  if (!Name)
    return Name.takeError();
  A.Name = *Name;
  Expected<std::string> Desc = stringKey(T, "description", Source, false);
  if (!Desc)
    return Desc.takeError();
  A.Description = *Desc;
  Expected<std::string> Pipeline = stringKey(T, "pipeline", Source, false);
  Expected<std::string> Macro = stringKey(T, "macro", Source, false);
  if (!Pipeline)
    return Pipeline.takeError();
  if (!Macro)
    return Macro.takeError();
  if (const toml::table *Attrs = T["function_attrs"].as_table())
    for (const auto &[K, V] : *Attrs) {
      if (!V.is_string())
        return errorAt(Source, V.source(), "function attribute values must be strings");
      A.FunctionAttrs.emplace_back(std::string(K.str()), std::string(*V.value<std::string>()));
    }
  if (const toml::array *Args = T["llvm_args"].as_array())
    for (const toml::node &V : *Args) {
      if (!V.is_string())
        return errorAt(Source, V.source(), "llvm_args must be strings");
      A.LLVMArgs.push_back(*V.value<std::string>());
    }
  bool IsOption = !A.FunctionAttrs.empty() || !A.LLVMArgs.empty();
  int Kinds = !Pipeline->empty() + !Macro->empty() + IsOption;
  if (Kinds != 1)
    return errorAt(Source, T.source(),
                   "action '" + A.Name +
                       "' needs exactly one of pipeline, macro, or function_attrs/llvm_args");
  if (!Pipeline->empty()) {
    A.Kind = ActionKind::Pass;
    A.Pipeline = *Pipeline;
  } else if (!Macro->empty()) {
    if (!isKnownMacro(*Macro))
      return errorAt(Source, T.source(), "unknown macro '" + *Macro + "'");
    A.Kind = ActionKind::Macro;
    A.Pipeline = *Macro;
  } else {
    A.Kind = ActionKind::Option;
  }
  return A;
}

} // namespace

bool isKnownMacro(StringRef Name) { return is_contained(Macros, Name); }

int ActionSpace::indexOf(StringRef ActionName) const {
  for (size_t I = 0; I < Actions.size(); ++I)
    if (Actions[I].Name == ActionName)
      return int(I);
  return -1;
}

std::string ActionSpace::namesOf(const std::vector<size_t> &Sequence) const {
  std::string Out;
  for (size_t A : Sequence)
    Out += (Out.empty() ? "" : " ") + Actions[A].Name;
  return Out;
}

Expected<ActionSpace> parseActionSpace(StringRef Text, StringRef SourceName) {
  toml::table Root;
  try { // TOML++ reports syntax errors by exception; it must not cross into LLVM frames
    Root = toml::parse(std::string_view(Text.data(), Text.size()),
                       std::string_view(SourceName.data(), SourceName.size()));
  } catch (const toml::parse_error &E) {
    return errorAt(SourceName, E.source(), E.description());
  }
  ActionSpace Space;
  for (const auto &[Key, Node] : Root) {
    std::string_view K = Key.str();
    if (K != "name" && K != "description" && K != "action")
      return errorAt(SourceName, Node.source(), "unknown key '" + std::string(K) + "'");
  }
  Expected<std::string> Name = stringKey(Root, "name", SourceName, true);
  if (!Name)
    return Name.takeError();
  Space.Name = *Name;
  Expected<std::string> Desc = stringKey(Root, "description", SourceName, false);
  if (!Desc)
    return Desc.takeError();
  Space.Description = *Desc;
  const toml::array *List = Root["action"].as_array();
  if (!List || List->empty())
    return errorAt(SourceName, Root.source(), "an action space needs [[action]] entries");
  StringSet<> Seen;
  for (const toml::node &N : *List) {
    const toml::table *T = N.as_table();
    if (!T)
      return errorAt(SourceName, N.source(), "[[action]] entries must be tables");
    Expected<Action> A = parseAction(*T, SourceName);
    if (!A)
      return A.takeError();
    if (!Seen.insert(A->Name).second)
      return errorAt(SourceName, T->source(), "duplicate action '" + A->Name + "'");
    Space.Actions.push_back(std::move(*A));
  }
  return Space;
}

std::vector<std::string> builtinActionSpaceNames() {
  std::vector<std::string> Names;
  for (const auto &[Name, Text] : BuiltinActionSpaces)
    Names.push_back(Name);
  return Names;
}

Expected<ActionSpace> loadActionSpace(StringRef NameOrPath) {
  for (const auto &[Name, Text] : BuiltinActionSpaces)
    if (NameOrPath == Name)
      return parseActionSpace(Text, ("<builtin>/actions/" + NameOrPath + ".toml").str());
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(NameOrPath);
  if (!Buf)
    return createStringError(Buf.getError(), "action space '%s': not a built-in space (%s) and "
                             "not a readable file", NameOrPath.str().c_str(),
                             join(builtinActionSpaceNames(), ", ").c_str());
  return parseActionSpace((*Buf)->getBuffer(), NameOrPath);
}

Expected<ActionSpace> loadActionSpaces(StringRef PlusSeparatedNames) {
  SmallVector<StringRef, 4> Parts;
  PlusSeparatedNames.split(Parts, '+', -1, false);
  ActionSpace All;
  All.Name = PlusSeparatedNames.str();
  StringSet<> Seen;
  for (StringRef Part : Parts) {
    Expected<ActionSpace> S = loadActionSpace(Part);
    if (!S)
      return S.takeError();
    for (Action &A : S->Actions) {
      if (!Seen.insert(A.Name).second)
        return createStringError(inconvertibleErrorCode(),
                                 "action '%s' appears in more than one of '%s'",
                                 A.Name.c_str(), PlusSeparatedNames.str().c_str());
      All.Actions.push_back(std::move(A));
    }
  }
  return All;
}

} // namespace smartcc
