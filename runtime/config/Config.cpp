// Loading smartcc's configuration: the settings table (runtime/config/SettingsTable.h) read from
// the built-in candidate library, TOML files, SMARTCC_* environment variables and --smartcc-*
// flags. Printing it is runtime/config/ConfigPrint.cpp.
#include "runtime/config/Config.h"
#include "runtime/config/SettingsTable.h"
#include "runtime/config/ConfigFiles.h"
#include "runtime/config/ProjectTrust.h"
#include "runtime/config/StatsDir.h"
#include "policies/BuiltinCandidates.h"
#include "policies/SequenceAgent.h"
#include "policies/inliner/InlinePolicy.h"
#include "policies/regalloc/AllocatorModel.h"
#include "policies/regalloc/AllocatorPlan.h"
#include "policies/regalloc/RegAllocPolicy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

// Debian's libtomlplusplus.so is built with exceptions and exports only the throwing parser ABI
// (toml::v3::ex::parse). Our build enables exceptions for this file, so the shared library is
// used and parse errors are caught below. Should this file ever be compiled with
// -fno-exceptions, TOML++ would switch to its non-throwing ABI, which that library does not
// export; compile TOML++ into this file instead so the link still succeeds.
#if !defined(__cpp_exceptions) && !defined(__EXCEPTIONS)
#undef TOML_SHARED_LIB
#define TOML_SHARED_LIB 0
#undef TOML_HEADER_ONLY
#define TOML_HEADER_ONLY 1
#endif
#include <toml++/toml.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using llvm::Error;
using llvm::StringRef;
using llvm::Twine;

namespace smartcc {

using namespace settings;

const char *metricName(Metric M) {
  switch (M) {
  case Metric::ImageBytes:
    return "image";
  case Metric::CodeBytes:
    return "code";
  case Metric::AllocBytes:
    return "alloc";
  case Metric::TextBytes:
    return "text";
  case Metric::FileBytes:
    return "file";
  case Metric::IRInstructions:
    return "ir";
  case Metric::RegAllocCost:
    return "regalloc_cost";
  }
  return "image";
}

std::optional<Metric> parseMetric(StringRef S) {
  for (Metric M : {Metric::ImageBytes, Metric::CodeBytes, Metric::AllocBytes, Metric::TextBytes,
                   Metric::FileBytes, Metric::IRInstructions})
    if (S == metricName(M))
      return M;
  return std::nullopt;
}

std::vector<CandidateSpec> Config::enabledCandidates() const {
  std::vector<CandidateSpec> Out;
  for (const std::string &Name : Candidates) {
    auto It = CandidateLibrary.find(Name);
    // loadConfig rejects unknown names; a hand-built Config may still contain one.
    if (It != CandidateLibrary.end())
      Out.push_back(It->second);
  }
  return Out;
}

bool Config::takesOver(StringRef Level) const { return llvm::is_contained(Levels, Level); }

unsigned Config::effectiveJobs() const {
  if (Jobs)
    return Jobs;
  // Threads this process may run on (honours the affinity mask, unlike
  // std::thread::hardware_concurrency); one is left for the rest of the build.
  unsigned Threads = llvm::hardware_concurrency().compute_thread_count();
  return Threads > 1 ? Threads - 1 : 1;
}

std::string Config::effectiveStatsDir() const {
  if (!StatsDir.empty())
    return StatsDir;
  if (std::string Dir = defaultStatsDirFromEnvironment(); !Dir.empty())
    return Dir;
  // No HOME at all (some build sandboxes): ask the password database, as LLVM does.
  llvm::SmallString<128> Dir;
  if (llvm::sys::path::home_directory(Dir))
    return (Dir + "/.cache/smartcc").str();
  return std::string(); // nowhere to keep counters
}

namespace {

// ---------------------------------------------------------------------------------------------
// Parsing TOML.

// Where each entry of Config::Candidates was set ("file:3:15", "SMARTCC_CANDIDATES=a,b"), so
// that unknown names can be reported once every source has been read: a later file may define
// a candidate that an earlier one enables.
struct LoadState {
  std::vector<std::string> CandidateWhere, LinkCandidateWhere;
  // Reading a project file that is not trusted with everything (runtime/config/ProjectTrust.h).
  bool RestrictedSource = false;
};

Error restrictedKey(StringRef Where, StringRef Key, const char *Why) {
  return makeError(Where + ": '" + Key + "' is not allowed in a project file: " + Why +
                   " (set it in your own config, the environment or a flag; or let project "
                   "files set it with trust_project_config = true in your own config; see "
                   "docs/security.md)");
}

std::string where(StringRef Source, const toml::source_region &R) {
  return (Source + ":" + Twine(R.begin.line) + ":" + Twine(R.begin.column)).str();
}
std::string where(StringRef Source, const toml::node &N) { return where(Source, N.source()); }

Error nodeError(StringRef Source, const toml::node &N, const Twine &Msg) {
  return makeError(where(Source, N) + ": " + Msg);
}

// A table's entries in the order they appear in the text (toml::table is sorted by key), so
// the first error reported is the first one in the file.
std::vector<std::pair<std::string, const toml::node *>> entriesInTextOrder(const toml::table &T) {
  std::vector<std::pair<std::string, const toml::node *>> Out;
  for (auto &&[K, N] : T)
    Out.emplace_back(std::string(K.str()), &N);
  std::sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) {
    const toml::source_position &PA = A.second->source().begin, &PB = B.second->source().begin;
    if (PA.line != PB.line)
      return PA.line < PB.line;
    return PA.column != PB.column ? PA.column < PB.column : A.first < B.first;
  });
  return Out;
}

// An array whose elements are all strings. Name is the key as the user wrote it.
Error readStringArray(StringRef Source, const toml::node &N, const Twine &Name,
                      std::vector<std::string> &Out) {
  const toml::array *A = N.as_array();
  if (!A)
    return nodeError(Source, N, "'" + Name + "' must be an array of strings");
  for (const toml::node &E : *A) {
    const toml::value<std::string> *S = E.as_string();
    if (!S)
      return nodeError(Source, E, "'" + Name + "' must be an array of strings");
    Out.push_back(S->get());
  }
  return Error::success();
}

// A string (a description, a model's path). What names what the string must be.
Error readString(StringRef Source, const toml::node &N, const Twine &Name, std::string &Out,
                 StringRef What = "a string") {
  if (!N.is_string())
    return nodeError(Source, N, "'" + Name + "' must be " + What);
  Out = N.as_string()->get();
  return Error::success();
}

// A boolean key of a candidate table.
template <typename T> Error readBoolean(StringRef Source, const toml::node &N, const Twine &Name,
                                        T &Out) {
  if (!N.is_boolean())
    return nodeError(Source, N, "'" + Name + "' must be a boolean (true or false)");
  Out = N.as_boolean()->get();
  return Error::success();
}

// An array of command-line options (llvm_args, linker_args): without the dash, LLVM's option
// parser (or the linker) would take one as a positional argument. Example is one that is right.
Error readOptionArray(StringRef Source, const toml::node &N, const Twine &Name,
                      std::vector<std::string> &Out,
                      StringRef Example = "-enable-machine-outliner=always") {
  if (Error E = readStringArray(Source, N, Name, Out))
    return E;
  for (size_t I = 0; I < Out.size(); ++I)
    if (!StringRef(Out[I]).starts_with("-"))
      return nodeError(Source, *N.as_array()->get(I),
                       "'" + Name + "': '" + Out[I] +
                           "' must start with '-', as in \"" + Example + "\"");
  return Error::success();
}

// Reads a TOML value of a setting into V. Name is the key as written (for default_candidates).
// For candidate lists, Where receives each element's position.
Error parseNode(const Setting &S, StringRef Name, StringRef Source, const toml::node &N, Value &V,
                std::vector<std::string> &Where) {
  auto Wrong = [&] { return nodeError(Source, N, "'" + Name + "' " + tomlRequirement(S.Kind)); };
  switch (S.Kind) {
  case SettingKind::Bool:
    if (!N.is_boolean())
      return Wrong();
    V.B = N.as_boolean()->get();
    return Error::success();
  case SettingKind::Levels: {
    if (Error E = readStringArray(Source, N, Name, V.L))
      return E;
    const toml::array &A = *N.as_array();
    for (size_t I = 0; I < V.L.size(); ++I)
      if (!isLevel(V.L[I]))
        return nodeError(Source, *A.get(I),
                         "'" + Name + "': '" + V.L[I] +
                             "' is not a level smartcc can take over (" + LevelsExpected + ")");
    return Error::success();
  }
  case SettingKind::MetricName: {
    if (!N.is_string())
      return Wrong();
    const std::string &Text = N.as_string()->get();
    std::optional<Metric> M = parseMetric(Text);
    if (!M)
      return nodeError(Source, N,
                       "'" + Name + "': unknown metric '" + Text + "' (" + MetricsExpected + ")");
    V.M = *M;
    return Error::success();
  }
  case SettingKind::Count:
  case SettingKind::PositiveCount:
  case SettingKind::Effort: {
    if (!N.is_integer())
      return Wrong();
    int64_t I = N.as_integer()->get();
    int64_t Min = S.Kind == SettingKind::PositiveCount ? 1 : 0;
    int64_t Max = S.Kind == SettingKind::Effort ? 2 : int64_t(UINT_MAX);
    if (I < Min || I > Max)
      return Wrong();
    V.U = unsigned(I);
    return Error::success();
  }
  case SettingKind::Growth:
  case SettingKind::Percent:
    // `max_growth = 8` is as natural as `max_growth = 8.0`.
    if (N.is_integer())
      V.D = double(N.as_integer()->get());
    else if (N.is_floating_point())
      V.D = N.as_floating_point()->get();
    else
      return Wrong();
    if (!inRange(S.Kind, V.D))
      return Wrong();
    return Error::success();
  case SettingKind::Path:
    if (!N.is_string())
      return Wrong();
    V.S = N.as_string()->get();
    return Error::success();
  case SettingKind::Agent:
  case SettingKind::Inliner:
  case SettingKind::RegAlloc:
    if (!N.is_string() || N.as_string()->get().empty())
      return Wrong();
    V.S = N.as_string()->get();
    if (std::optional<std::string> Bad = checkModelSetting(S.Kind, S.Key, V.S))
      return nodeError(Source, N, "'" + Name + "': " + *Bad);
    return Error::success();
  case SettingKind::CandidateList: {
    if (!N.is_array())
      return Wrong();
    if (Error E = readStringArray(Source, N, Name, V.L))
      return E;
    const toml::array &A = *N.as_array();
    for (size_t I = 0; I < V.L.size(); ++I) {
      if (!isValidCandidateName(V.L[I]))
        return nodeError(Source, *A.get(I),
                         "'" + Name + "': '" + V.L[I] + "' is not a valid candidate name (" +
                             NameChars + ")");
      Where.push_back(where(Source, *A.get(I)));
    }
    return Error::success();
  }
  case SettingKind::Targets:
    if (!N.is_array())
      return Wrong();
    return readStringArray(Source, N, Name, V.L);
  }
  return Error::success();
}

void store(Config &Cfg, LoadState &State, const Setting &S, Value &V, StringRef Origin,
           std::vector<std::string> Where) {
  if (S.Kind == SettingKind::CandidateList)
    (StringRef(S.Key) == "link_candidates" ? State.LinkCandidateWhere : State.CandidateWhere) =
        std::move(Where);
  S.Store(Cfg, V);
  Cfg.Origin[S.Key] = Origin.str();
}

// The keys of one [candidate.NAME] table (Path), already checked by applyLibrary.
Error parseCandidate(StringRef Source, const std::string &Path, const toml::table *T,
                     CandidateSpec &Spec) {
  for (const auto &Entry : entriesInTextOrder(*T)) {
    const std::string &Key = Entry.first;
    const toml::node *V = Entry.second;
    std::string KeyPath = Path + "." + Key;
    Error E = Error::success();
    if (Key == "description") {
      E = readString(Source, *V, KeyPath, Spec.Description);
    } else if (Key == "pipeline") {
      Spec.Pipeline.clear();
      E = readStringArray(Source, *V, KeyPath, Spec.Pipeline);
      if (!E)
        for (size_t I = 0; I < Spec.Pipeline.size(); ++I)
          if (StringRef(Spec.Pipeline[I]).trim().empty()) {
            E = nodeError(Source, *V->as_array()->get(I),
                          "'" + KeyPath + "' must not contain an empty stage");
            break;
          }
    } else if (Key == "llvm_args") {
      E = readOptionArray(Source, *V, KeyPath, Spec.LLVMArgs);
    } else if (Key == "function_attrs") {
      const toml::table *A = V->as_table();
      if (!A)
        E = nodeError(Source, *V, "'" + KeyPath + "' must be a table of strings");
      else
        for (auto &[AttrName, AttrValue] : entriesInTextOrder(*A)) {
          if (!AttrValue->is_string()) {
            E = nodeError(Source, *AttrValue,
                          "'" + KeyPath + "." + AttrName + "' must be a string");
            break;
          }
          if (AttrName.empty()) {
            E = nodeError(Source, *AttrValue, "'" + KeyPath + "' has an empty attribute name");
            break;
          }
          Spec.FunctionAttrs.emplace_back(AttrName, AttrValue->as_string()->get());
        }
    } else if (Key == "skip_targets") {
      E = readStringArray(Source, *V, KeyPath, Spec.SkipTargets);
    } else if (Key == "skip_levels") {
      E = readStringArray(Source, *V, KeyPath, Spec.SkipLevels);
      for (const std::string &L : Spec.SkipLevels)
        if (!E && L != "Oz" && L != "Os")
          E = nodeError(Source, *V, "'" + KeyPath + "' may hold only \"Oz\" and \"Os\"");
    } else if (Key == "allocators") {
      E = readStringArray(Source, *V, KeyPath, Spec.Allocators);
      for (size_t I = 0; !E && I < Spec.Allocators.size(); ++I)
        if (llvm::Expected<AllocatorChoice> C = parseAllocatorChoice(Spec.Allocators[I]); !C)
          E = nodeError(Source, *V->as_array()->get(I),
                        "'" + KeyPath + "': " + llvm::toString(C.takeError()));
      if (!E && Spec.Allocators.size() < 2)
        E = nodeError(Source, *V, "'" + KeyPath + "' needs at least two allocators to choose from");
    } else if (Key == "allocator_model") {
      E = readString(Source, *V, KeyPath, Spec.AllocatorModel,
                     "\"builtin\", \"builtin-proposals\" or a path to an allocator-choice model");
      if (!E && Spec.AllocatorModel != BuiltinChoiceModel &&
          Spec.AllocatorModel != BuiltinProposalModel)
        if (llvm::Expected<AllocatorModel> M = AllocatorModel::load(Spec.AllocatorModel); !M)
          E = nodeError(Source, *V, "'" + KeyPath + "': " + llvm::toString(M.takeError()));
    } else if (Key == "policy") {
      E = readString(Source, *V, KeyPath, Spec.Policy, "a path to an exported model");
    } else if (Key == "skip_whole_program") {
      E = readBoolean(Source, *V, KeyPath, Spec.SkipWholeProgram);
    } else if (Key == "after_clang_pipeline") {
      E = readBoolean(Source, *V, KeyPath, Spec.AfterClangPipeline);
    } else if (Key == "merge_functions") {
      E = readBoolean(Source, *V, KeyPath, Spec.MergeFunctions);
    } else if (Key == "loop_unrolling") {
      E = readBoolean(Source, *V, KeyPath, Spec.LoopUnrolling);
    } else if (Key == "slp_vectorization") {
      E = readBoolean(Source, *V, KeyPath, Spec.SLPVectorization);
    } else if (Key == "loop_vectorization") {
      E = readBoolean(Source, *V, KeyPath, Spec.LoopVectorization);
    } else {
      E = nodeError(Source, *V, "unknown key '" + KeyPath + "'");
    }
    if (E)
      return E;
  }
  // Continuing from clang's optimized module, the default is to run nothing more.
  if (Spec.AfterClangPipeline && !T->contains("pipeline"))
    Spec.Pipeline.clear();
  return Error::success();
}

// The keys of one [link_candidate.NAME] table (Path), already checked by applyLibrary.
Error parseLinkCandidate(StringRef Source, const std::string &Path, const toml::table *T,
                         LinkCandidateSpec &Spec) {
  for (const auto &[Key, V] : entriesInTextOrder(*T)) {
    std::string KeyPath = Path + "." + Key;
    Error E = Error::success();
    if (Key == "description") {
      E = readString(Source, *V, KeyPath, Spec.Description);
    } else if (Key == "pipeline") {
      E = readStringArray(Source, *V, KeyPath, Spec.Pipeline);
    } else if (Key == "skip_targets") {
      E = readStringArray(Source, *V, KeyPath, Spec.SkipTargets);
    } else if (Key == "after_lto_pipeline") {
      E = readBoolean(Source, *V, KeyPath, Spec.AfterLTOPipeline);
    } else if (Key == "shared_unwind") {
      E = readBoolean(Source, *V, KeyPath, Spec.SharedUnwind);
    } else if (Key == "llvm_args" || Key == "linker_args") {
      E = Key == "llvm_args"
              ? readOptionArray(Source, *V, KeyPath, Spec.LLVMArgs)
              : readOptionArray(Source, *V, KeyPath, Spec.LinkerArgs, "--icf=all");
    } else {
      E = nodeError(Source, *V, "unknown key '" + KeyPath + "'");
    }
    if (E)
      return E;
  }
  // What runs after LTO's pipeline cannot contain it again.
  if (Spec.AfterLTOPipeline)
    for (const std::string &Stage : Spec.Pipeline)
      if (StringRef(Stage).starts_with("lto<") || StringRef(Stage).starts_with("thinlto<"))
        return nodeError(Source, *T->get("pipeline"),
                         "'" + Path + ".pipeline' runs after LTO's pipeline "
                         "(after_lto_pipeline): leave '" + Stage + "' out");
  return Error::success();
}

// A [KEY.NAME] library table (candidates, link candidates) into Library, each definition
// parsed by Parse. A definition replaces an earlier one of the same name entirely: a user who
// redefines a shipped candidate gets exactly what they wrote, not a blend.
template <typename SpecT, typename ParseT>
Error applyLibrary(Config &Cfg, StringRef Key, const toml::node &N, StringRef Source,
                   const LoadState &State, std::map<std::string, SpecT> &Library, ParseT Parse) {
  if (State.RestrictedSource)
    return restrictedKey(where(Source, N), Key, projectRestriction(Key, ""));
  const toml::table *Lib = N.as_table();
  if (!Lib)
    return nodeError(Source, N,
                     "'" + Key + "' must be a table of [" + Key + ".NAME] tables");
  for (auto &[Name, Def] : entriesInTextOrder(*Lib)) {
    std::string Path = (Key + "." + Name).str();
    const toml::table *T = Def->as_table();
    if (!T)
      return nodeError(Source, *Def, "'" + Path + "' must be a table ([" + Path + "])");
    if (!isValidCandidateName(Name))
      return nodeError(Source, *Def,
                       "'" + Name + "' is not a valid candidate name (" + NameChars + ")");
    SpecT Spec;
    Spec.Name = Name;
    if (Error E = Parse(Source, Path, T, Spec))
      return E;
    Library[Name] = std::move(Spec);
    Cfg.Origin[Path] = Source.str();
  }
  return Error::success();
}

Error applyText(Config &Cfg, StringRef Text, StringRef Source, LoadState &State) {
  toml::table Root;
  std::string_view Doc(Text.data(), Text.size());
  std::string_view Path(Source.data(), Source.size());
#if TOML_EXCEPTIONS
  try {
    Root = toml::parse(Doc, Path);
  } catch (const toml::parse_error &PE) {
    return makeError(where(Source, PE.source()) + ": " + std::string(PE.description()));
  }
#else
  toml::parse_result Result = toml::parse(Doc, Path);
  if (!Result)
    return makeError(where(Source, Result.error().source()) + ": " +
                     std::string(Result.error().description()));
  Root = std::move(Result).table();
#endif

  const bool IsBuiltin = Source == BuiltinSource;
  for (auto &[Key, N] : entriesInTextOrder(Root)) {
    if (Key == "candidate" || Key == "link_candidate") {
      Error E = Key == "candidate"
                    ? applyLibrary(Cfg, Key, *N, Source, State, Cfg.CandidateLibrary, parseCandidate)
                    : applyLibrary(Cfg, Key, *N, Source, State, Cfg.LinkCandidateLibrary,
                                   parseLinkCandidate);
      if (E)
        return E;
      continue;
    }
    // Only the shipped library chooses the default candidate lists; users set `candidates`
    // and `link_candidates`.
    const Setting *S = IsBuiltin && Key == "default_candidates"        ? findByKey("candidates")
                       : IsBuiltin && Key == "default_link_candidates" ? findByKey("link_candidates")
                                                                       : findByKey(Key);
    if (!S)
      return nodeError(Source, *N, "unknown key '" + Key + "'");
    Value V;
    std::vector<std::string> Where;
    // Before parsing: parsing a model path already reads the file.
    if (State.RestrictedSource)
      if (const char *Why = projectRestriction(Key, N->value_or(std::string())))
        return restrictedKey(where(Source, *N), Key, Why);
    if (Error E = parseNode(*S, Key, Source, *N, V, Where))
      return E;
    store(Cfg, State, *S, V, Source, std::move(Where));
  }
  return Error::success();
}

// ---------------------------------------------------------------------------------------------
// Sources outside the text: files, environment, flags.

Error applyFile(Config &Cfg, const std::string &Path, LoadState &State) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return makeError(Path + ": cannot read: " + Buf.getError().message());
  return applyText(Cfg, (*Buf)->getBuffer(), Path, State);
}

std::string absolute(StringRef Path, StringRef Base) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    if (!Base.empty()) {
      llvm::SmallString<256> B(Base);
      llvm::sys::fs::make_absolute(B);
      llvm::sys::path::append(B, P);
      P = B;
    } else {
      llvm::sys::fs::make_absolute(P);
    }
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

// The nearest .smartcc.toml from the working directory up to the root (runtime/config/ConfigFiles.h).
std::optional<std::string> findProjectFile(StringRef WorkingDir) {
  std::string File = nearestProjectFile(absolute(WorkingDir.empty() ? "." : WorkingDir, ""));
  return File.empty() ? std::nullopt : std::optional(File);
}

// The first of Names not defined in Library, as an error naming where it was enabled (Where[I],
// else Origin) and what is defined.
template <typename LibraryT>
Error checkDefined(const std::vector<std::string> &Names, const LibraryT &Library,
                   const std::vector<std::string> &Where, const std::string &Origin,
                   StringRef Noun) {
  for (size_t I = 0; I < Names.size(); ++I) {
    if (Library.count(Names[I]))
      continue;
    std::string Known;
    for (const auto &KV : Library)
      Known += (Known.empty() ? "" : ", ") + KV.first;
    return makeError((I < Where.size() ? Where[I] : Origin) + ": unknown " + Noun + " '" +
                     Names[I] + "' (defined: " + (Known.empty() ? "none" : Known) + ")");
  }
  return Error::success();
}

struct FlagUse {
  const Setting *S;
  std::string Text; // the whole flag as given
  std::optional<std::string> Value;
};

Error unknownOption(StringRef Name) {
  return makeError("unknown option '" + Name + "' (see smartcc --smartcc-help)");
}

} // namespace

ConfigEnvironment ConfigEnvironment::fromProcess() {
  ConfigEnvironment Env;
  Env.GetEnv = [](const char *Name) -> std::optional<std::string> {
    if (const char *V = ::getenv(Name))
      return std::string(V);
    return std::nullopt;
  };
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd))
    Env.WorkingDir = std::string(Cwd);
  return Env;
}

Error applyConfigText(Config &Cfg, StringRef Text, StringRef SourceName) {
  LoadState State;
  return applyText(Cfg, Text, SourceName, State);
}

llvm::Expected<Config> loadConfig(const ConfigEnvironment &Env,
                                  const std::vector<std::string> &Flags) {
  auto GetEnv = [&](const char *Name) -> std::optional<std::string> {
    if (Env.GetEnv)
      return Env.GetEnv(Name);
    if (const char *V = ::getenv(Name))
      return std::string(V);
    return std::nullopt;
  };

  Config Cfg;
  LoadState State;
  for (const Setting &S : settingsTable())
    Cfg.Origin[S.Key] = "default";
  if (Error E = applyText(Cfg, builtinCandidatesToml(), BuiltinSource, State))
    return E;

  // Flags are checked first (an unknown flag is reported even if a file is broken) and
  // --smartcc-config must be known before any file is read.
  std::vector<FlagUse> FlagUses;
  std::optional<std::string> ConfigFlag;
  for (const std::string &F : Flags) {
    StringRef Text(F);
    auto [Name, Val] = Text.split('=');
    std::optional<std::string> Value;
    if (Text.contains('='))
      Value = Val.str();
    if (Name == "--smartcc-config") {
      if (!Value || Value->empty())
        return makeError("--smartcc-config: expected a file name (--smartcc-config=PATH)");
      ConfigFlag = *Value;
      continue;
    }
    const Setting *S = Name.starts_with("--smartcc-") ? findByFlag(Name) : nullptr;
    if (!S)
      return unknownOption(Name);
    FlagUses.push_back({S, F, Value});
  }

  // Files, lowest precedence first.
  std::vector<std::string> Files;
  std::optional<std::string> ProjectFile; // read last, under the trust model
  std::optional<std::string> Named;
  std::string NamedBy;
  if (ConfigFlag) {
    Named = ConfigFlag;
    NamedBy = "--smartcc-config";
  } else if ((Named = GetEnv("SMARTCC_CONFIG"))) {
    NamedBy = "SMARTCC_CONFIG";
    if (Named->empty())
      return makeError("SMARTCC_CONFIG is set but empty: name a configuration file, or unset it");
  }
  if (Named) {
    std::string Path = absolute(*Named, Env.WorkingDir);
    // Naming a file that is not there is a mistake worth stopping for (a typo would otherwise
    // silently fall back to defaults).
    if (!llvm::sys::fs::exists(Path))
      return makeError(NamedBy + "=" + *Named + ": no such file: " + Path);
    Files.push_back(Path);
  } else {
    if (!Env.SystemFile.empty() && llvm::sys::fs::exists(Env.SystemFile))
      Files.push_back(Env.SystemFile);
    std::optional<std::string> ConfigHome = GetEnv("XDG_CONFIG_HOME"), Home = GetEnv("HOME");
    std::string User = userConfigFile(ConfigHome ? ConfigHome->c_str() : nullptr,
                                      Home ? Home->c_str() : nullptr);
    if (!User.empty() && llvm::sys::fs::exists(User))
      Files.push_back(User);
    if (std::optional<std::string> Project = findProjectFile(Env.WorkingDir))
      ProjectFile = *Project;
  }
  for (const std::string &File : Files)
    if (Error E = applyFile(Cfg, File, State))
      return E;
  if (ProjectFile) {
    if (Error E = checkProjectFileTrust(*ProjectFile))
      return E;
    // Whether the user trusts project files is the user's say: their files (read above), the
    // environment or a flag, which are applied again, with the rest, below.
    bool Trust = Cfg.TrustProjectConfig;
    if (std::optional<std::string> T = GetEnv("SMARTCC_TRUST_PROJECT_CONFIG"))
      parseBoolWord(*T, Trust);
    for (const FlagUse &F : FlagUses)
      if (StringRef(F.S->Key) == "trust_project_config")
        Trust = !F.Value || (parseBoolWord(*F.Value, Trust) && Trust);
    State.RestrictedSource = !Trust;
    Error E = applyFile(Cfg, *ProjectFile, State);
    State.RestrictedSource = false;
    if (E)
      return E;
  }

  // Environment.
  for (const Setting &S : settingsTable()) {
    std::optional<std::string> Text = GetEnv(S.Env);
    if (!Text)
      continue;
    std::string Source = std::string(S.Env) + "=" + *Text;
    Value V;
    if (S.Kind == SettingKind::Bool && StringRef(S.Key) == "disable" &&
        (Text->empty() || (parseBoolWord(*Text, V.B) && !V.B)))
      // ccache users know CCACHE_DISABLE=0 as "disabled" (any value disables), others read it
      // as "enabled": refuse to guess.
      return makeError(Source +
                       " is not accepted: unset SMARTCC_DISABLE to enable smartcc, or set "
                       "SMARTCC_DISABLE=1 to disable it");
    if (std::optional<std::string> Msg = parseText(S, *Text, V))
      return makeError(Source + ": " + *Msg);
    store(Cfg, State, S, V, S.Env, std::vector<std::string>(V.L.size(), Source));
  }

  // Flags, in order: the last one wins.
  for (const FlagUse &F : FlagUses) {
    Value V;
    if (!F.Value) {
      // A boolean flag alone switches the setting on (--smartcc-explain).
      if (F.S->Kind != SettingKind::Bool)
        return makeError(F.Text + ": missing value (" + expectation(F.S->Kind) + ")");
      V.B = true;
    } else if (std::optional<std::string> Msg = parseText(*F.S, *F.Value, V)) {
      return makeError(F.Text + ": " + *Msg);
    }
    store(Cfg, State, *F.S, V, F.S->Flag, std::vector<std::string>(V.L.size(), F.Text));
  }

  // Every enabled candidate must be defined somewhere.
  if (Error E = checkDefined(Cfg.Candidates, Cfg.CandidateLibrary, State.CandidateWhere,
                             Cfg.Origin["candidates"], "candidate"))
    return E;
  if (Error E = checkDefined(Cfg.LinkCandidates, Cfg.LinkCandidateLibrary,
                             State.LinkCandidateWhere, Cfg.Origin["link_candidates"],
                             "link candidate"))
    return E;
  // Left unset, the function mix follows the effort (at 2 only; TUOptimizer::
  // functionMixApplies says why), so that --smartcc-print-config and the cache key show what
  // happens.
  if (Cfg.settingIsDefault("function_mix"))
    Cfg.FunctionMix = Cfg.Effort == 2;
  return Cfg;
}


bool Config::settingIsDefault(StringRef Key) const {
  auto It = Origin.find(Key.str());
  return It == Origin.end() || It->second == "default" || It->second == BuiltinSource;
}

} // namespace smartcc
