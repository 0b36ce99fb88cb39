// Loading smartcc's configuration: the settings table (runtime/Settings.def) read from the
// built-in candidate library, TOML files, SMARTCC_* environment variables and --smartcc-* flags.
#include "runtime/Config.h"
#include "runtime/ConfigFiles.h"
#include "runtime/ProjectTrust.h"
#include "runtime/StatsDir.h"
#include "policies/BuiltinCandidates.h"
#include "policies/SequenceAgent.h"
#include "policies/inliner/InlinePolicy.h"
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

constexpr const char *BuiltinSource = "<builtin>/candidates.toml";
constexpr const char *LevelsExpected = "expected Oz or Os";
constexpr const char *MetricsExpected = "expected image, code, text, file, ir or alloc";
constexpr const char *NameChars = "letters, digits, '_', '.' and '-'";

Error makeError(const Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

// ---------------------------------------------------------------------------------------------
// The settings table.

enum class SettingKind { Bool, Levels, MetricName, Count, PositiveCount, Effort, Growth, Percent, Path, Agent, Inliner, RegAlloc, CandidateList, Targets };

// A value parsed from any source, before it is stored in its Config field. Only the member
// matching the setting's field type is meaningful.
struct Value {
  bool B = false;
  unsigned U = 0;
  double D = 0;
  Metric M = Metric::ImageBytes;
  std::string S;
  std::vector<std::string> L;
};

// The range of a number setting: a growth factor above 1, or a percentage.
bool inRange(SettingKind Kind, double D) {
  if (!std::isfinite(D))
    return false;
  return Kind == SettingKind::Percent ? D >= 0 && D <= 100 : D > 1.0;
}

void assign(bool &Dst, Value &V) { Dst = V.B; }
void assign(unsigned &Dst, Value &V) { Dst = V.U; }
void assign(double &Dst, Value &V) { Dst = V.D; }
void assign(Metric &Dst, Value &V) { Dst = V.M; }
void assign(std::string &Dst, Value &V) { Dst = std::move(V.S); }
void assign(std::vector<std::string> &Dst, Value &V) { Dst = std::move(V.L); }

// Values are printed in TOML syntax so that --smartcc-print-config output can be pasted into
// a configuration file.
std::string tomlString(StringRef S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += char(C);
    } else if (C < 0x20 || C == 0x7f) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      Out += Buf;
    } else {
      Out += char(C);
    }
  }
  return Out + "\"";
}

std::string formatValue(bool B) { return B ? "true" : "false"; }
std::string formatValue(unsigned U) { return std::to_string(U); }
std::string formatValue(Metric M) { return tomlString(metricName(M)); }
std::string formatValue(const std::string &S) { return tomlString(S); }
std::string formatValue(double D) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.15g", D);
  std::string S = Buf;
  // Keep it a TOML float ("8.0", not "8").
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  return S;
}
std::string formatValue(const std::vector<std::string> &L) {
  std::string Out = "[";
  for (size_t I = 0; I < L.size(); ++I)
    Out += (I ? ", " : "") + tomlString(L[I]);
  return Out + "]";
}

struct Setting {
  const char *Key;
  const char *Env;
  const char *Flag;
  SettingKind Kind;
  const char *Doc;
  void (*Store)(Config &, Value &);
  std::string (*Format)(const Config &);
};

const Setting Settings[] = {
#define SMARTCC_SETTING(KEY, ENV, FLAG, KIND, MEMBER, DOC)                                    \
  {KEY,                                                                                        \
   ENV,                                                                                        \
   FLAG,                                                                                       \
   SettingKind::KIND,                                                                          \
   DOC,                                                                                        \
   [](Config &C, Value &V) { assign(C.MEMBER, V); },                                           \
   [](const Config &C) { return formatValue(C.MEMBER); }},
#include "runtime/Settings.def"
};

const Setting *findByKey(StringRef Key) {
  for (const Setting &S : Settings)
    if (Key == S.Key)
      return &S;
  return nullptr;
}

const Setting *findByFlag(StringRef Flag) {
  for (const Setting &S : Settings)
    if (Flag == S.Flag)
      return &S;
  return nullptr;
}

// What a value of each kind must look like, for error messages about environment variables
// and flags ("SMARTCC_JOBS=abc: expected a non-negative integer").
const char *expectation(SettingKind K) {
  switch (K) {
  case SettingKind::Bool:
    return "expected a boolean (1, true, yes, on, 0, false, no or off)";
  case SettingKind::Levels:
    return "expected a comma-separated list of Oz and Os";
  case SettingKind::MetricName:
    return MetricsExpected;
  case SettingKind::Count:
    return "expected a non-negative integer";
  case SettingKind::PositiveCount:
    return "expected a positive integer";
  case SettingKind::Effort:
    return "expected 0, 1 or 2";
  case SettingKind::Agent:
    return "expected 'builtin', 'off' or the path of a sequence-value model";
  case SettingKind::Inliner:
    return "expected 'heuristic', 'ml' or the path of an inliner model";
  case SettingKind::RegAlloc:
    return "expected 'greedy', 'ml' or the path of a register-allocation model";
  case SettingKind::Growth:
    return "expected a number greater than 1";
  case SettingKind::Percent:
    return "expected a percentage from 0 to 100";
  case SettingKind::Path:
    return "expected a path";
  case SettingKind::CandidateList:
    return "expected a comma-separated list of candidate names, or 'none'";
  case SettingKind::Targets:
    return "expected a comma-separated list of target triples";
  }
  return "";
}

// The same, phrased about a TOML key ("'jobs' must be a non-negative integer").
const char *tomlRequirement(SettingKind K) {
  switch (K) {
  case SettingKind::Bool:
    return "must be a boolean (true or false)";
  case SettingKind::Levels:
    return "must be an array of strings (\"Oz\", \"Os\")";
  case SettingKind::MetricName:
    return "must be one of \"alloc\", \"text\", \"file\" or \"ir\"";
  case SettingKind::Count:
    return "must be a non-negative integer";
  case SettingKind::PositiveCount:
    return "must be a positive integer";
  case SettingKind::Effort:
    return "must be 0, 1 or 2";
  case SettingKind::Agent:
    return "must be \"builtin\", \"off\" or the path of a sequence-value model";
  case SettingKind::Inliner:
    return "must be \"heuristic\", \"ml\" or the path of an inliner model";
  case SettingKind::RegAlloc:
    return "must be \"greedy\", \"ml\" or the path of a register-allocation model";
  case SettingKind::Growth:
    return "must be a number greater than 1";
  case SettingKind::Percent:
    return "must be a percentage from 0 to 100";
  case SettingKind::Path:
    return "must be a string";
  case SettingKind::CandidateList:
    return "must be an array of candidate names";
  case SettingKind::Targets:
    return "must be an array of target triples";
  }
  return "";
}

bool isValidCandidateName(StringRef Name) {
  return !Name.empty() && llvm::all_of(Name, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == '.' || C == '-';
  });
}

bool isLevel(StringRef S) { return S == "Oz" || S == "Os"; }

// ---------------------------------------------------------------------------------------------
// Parsing from environment variables and flags.

// Returns whether S is one of the accepted boolean words (any letter case), storing it in Out.
bool parseBoolWord(StringRef S, bool &Out) {
  for (StringRef T : {"1", "true", "yes", "on"})
    if (S.equals_insensitive(T))
      return Out = true, true;
  for (StringRef F : {"0", "false", "no", "off"})
    if (S.equals_insensitive(F))
      return Out = false, true;
  return false;
}

// Splits "a, b,c" into trimmed items; fails on an empty item (a stray comma is a typo).
bool splitList(StringRef S, std::vector<std::string> &Out) {
  llvm::SmallVector<StringRef, 8> Parts;
  S.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      return false;
    Out.push_back(P.str());
  }
  return true;
}

// A model setting (agent, inliner, regalloc) names a keyword or a model file; the file must hold the
// right kind of model now, not fail in every compile later.
std::optional<std::string> checkModelSetting(SettingKind Kind, StringRef Key, StringRef Text) {
  if (Kind == SettingKind::Agent) {
    if (Text == "builtin" || Text == "off")
      return std::nullopt;
    // The link agent takes its own kind of model (trained on links) or a per-TU one.
    llvm::Expected<SequenceAgent> A = Key == "link_agent" ? SequenceAgent::loadForLinks(Text.str())
                                                          : SequenceAgent::load(Text.str());
    if (!A)
      return llvm::toString(A.takeError());
    return std::nullopt;
  }
  if (Kind == SettingKind::RegAlloc) {
    if (Text == "greedy" || Text == "ml")
      return std::nullopt;
    if (llvm::Expected<RegAllocPolicy> P = RegAllocPolicy::load(Text.str()); !P)
      return llvm::toString(P.takeError());
    return std::nullopt;
  }
  if (Text == "heuristic" || Text == "ml")
    return std::nullopt;
  if (llvm::Expected<InlinePolicy> P = InlinePolicy::load(Text.str()); !P)
    return llvm::toString(P.takeError());
  return std::nullopt;
}

// Parses the text of an environment variable or flag. Returns an error message without the
// "SOURCE=VALUE: " prefix, or nothing on success.
std::optional<std::string> parseText(const Setting &S, StringRef Text, Value &V) {
  switch (S.Kind) {
  case SettingKind::Bool:
    if (!parseBoolWord(Text, V.B))
      return std::string(expectation(S.Kind));
    return std::nullopt;
  case SettingKind::Levels:
    if (!splitList(Text, V.L))
      return std::string(expectation(S.Kind));
    for (const std::string &L : V.L)
      if (!isLevel(L))
        return ("'" + L + "' is not a level smartcc can take over (" + LevelsExpected + ")");
    return std::nullopt;
  case SettingKind::MetricName:
    if (std::optional<Metric> M = parseMetric(Text)) {
      V.M = *M;
      return std::nullopt;
    }
    return ("unknown metric '" + Text + "' (" + MetricsExpected + ")").str();
  case SettingKind::Count:
  case SettingKind::PositiveCount:
  case SettingKind::Effort: {
    unsigned long long N;
    if (Text.getAsInteger(10, N) || N > UINT_MAX ||
        (S.Kind == SettingKind::PositiveCount && N == 0) ||
        (S.Kind == SettingKind::Effort && N > 2))
      return std::string(expectation(S.Kind));
    V.U = unsigned(N);
    return std::nullopt;
  }
  case SettingKind::Growth:
  case SettingKind::Percent:
    if (Text.getAsDouble(V.D) || !inRange(S.Kind, V.D))
      return std::string(expectation(S.Kind));
    return std::nullopt;
  case SettingKind::Path:
    V.S = Text.str();
    return std::nullopt;
  case SettingKind::Agent:
  case SettingKind::Inliner:
  case SettingKind::RegAlloc:
    if (Text.empty())
      return std::string(expectation(S.Kind));
    if (std::optional<std::string> Bad = checkModelSetting(S.Kind, S.Key, Text))
      return Bad;
    V.S = Text.str();
    return std::nullopt;
  case SettingKind::CandidateList:
    if (Text.trim() == "none")
      return std::nullopt;
    if (!splitList(Text, V.L))
      return std::string(expectation(S.Kind));
    for (const std::string &N : V.L)
      if (!isValidCandidateName(N))
        return ("'" + N + "' is not a valid candidate name (" + NameChars + ")");
    return std::nullopt;
  case SettingKind::Targets:
    if (!splitList(Text, V.L))
      return std::string(expectation(S.Kind));
    return std::nullopt;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Parsing TOML.

// Where each entry of Config::Candidates was set ("file:3:15", "SMARTCC_CANDIDATES=a,b"), so
// that unknown names can be reported once every source has been read: a later file may define
// a candidate that an earlier one enables.
struct LoadState {
  std::vector<std::string> CandidateWhere, LinkCandidateWhere;
  // Reading a project file that is not trusted with everything (runtime/ProjectTrust.h).
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
    } else if (Key == "policy") {
      E = readString(Source, *V, KeyPath, Spec.Policy, "a path to an exported model");
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

// The nearest .smartcc.toml from the working directory up to the root (runtime/ConfigFiles.h).
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
  for (const Setting &S : Settings)
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
  for (const Setting &S : Settings) {
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

// ---------------------------------------------------------------------------------------------
// Printing.

namespace {

// A TOML key, quoted when it is not a bare key (candidate names may contain '.').
std::string tomlKey(StringRef K) {
  bool Bare = !K.empty() && llvm::all_of(K, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == '-';
  });
  return Bare ? K.str() : tomlString(K);
}

std::string formatCandidate(const CandidateSpec &C) {
  std::string Out = "{ ";
  if (!C.Description.empty())
    Out += "description = " + tomlString(C.Description) + ", ";
  Out += "pipeline = " + formatValue(C.Pipeline);
  if (!C.LLVMArgs.empty())
    Out += ", llvm_args = " + formatValue(C.LLVMArgs);
  if (!C.FunctionAttrs.empty()) {
    Out += ", function_attrs = { ";
    for (size_t I = 0; I < C.FunctionAttrs.size(); ++I)
      Out += (I ? ", " : "") + tomlKey(C.FunctionAttrs[I].first) + " = " +
             tomlString(C.FunctionAttrs[I].second);
    Out += " }";
  }
  auto Flag = [&](const char *Key, const std::optional<bool> &B) {
    if (B)
      Out += std::string(", ") + Key + " = " + formatValue(*B);
  };
  if (C.AfterClangPipeline)
    Out += ", after_clang_pipeline = true";
  if (!C.SkipTargets.empty())
    Out += ", skip_targets = " + formatValue(C.SkipTargets);
  Flag("merge_functions", C.MergeFunctions);
  Flag("loop_unrolling", C.LoopUnrolling);
  Flag("slp_vectorization", C.SLPVectorization);
  Flag("loop_vectorization", C.LoopVectorization);
  return Out + " }";
}

std::string formatLinkCandidate(const LinkCandidateSpec &C) {
  std::string Out = "{ ";
  if (!C.Description.empty())
    Out += "description = " + tomlString(C.Description) + ", ";
  Out += "pipeline = " + formatValue(C.Pipeline);
  if (!C.LLVMArgs.empty())
    Out += ", llvm_args = " + formatValue(C.LLVMArgs);
  if (!C.LinkerArgs.empty())
    Out += ", linker_args = " + formatValue(C.LinkerArgs);
  if (!C.SkipTargets.empty())
    Out += ", skip_targets = " + formatValue(C.SkipTargets);
  if (C.AfterLTOPipeline)
    Out += ", after_lto_pipeline = true";
  if (C.SharedUnwind)
    Out += ", shared_unwind = true";
  return Out + " }";
}

std::string originOf(const Config &Cfg, const std::string &Key) {
  auto It = Cfg.Origin.find(Key);
  return It == Cfg.Origin.end() ? "default" : It->second;
}

// How --smartcc-help shows a flag's value.
const char *metavar(SettingKind K) {
  switch (K) {
  case SettingKind::Bool:
    return "[=BOOL]";
  case SettingKind::Levels:
  case SettingKind::CandidateList:
  case SettingKind::Targets:
    return "=LIST";
  case SettingKind::MetricName:
    return "=NAME";
  case SettingKind::Count:
  case SettingKind::PositiveCount:
  case SettingKind::Effort:
    return "=N";
  case SettingKind::Agent:
  case SettingKind::Inliner:
  case SettingKind::RegAlloc:
    return "=MODEL";
  case SettingKind::Growth:
    return "=X";
  case SettingKind::Percent:
    return "=PERCENT";
  case SettingKind::Path:
    return "=PATH";
  }
  return "=VALUE";
}

} // namespace

void printConfig(const Config &Cfg, llvm::raw_ostream &OS) {
  for (const Setting &S : Settings)
    OS << "(" << originOf(Cfg, S.Key) << ") " << S.Key << " = " << S.Format(Cfg) << "\n";
  // The library too, so users can see which names `candidates` may use and what they do.
  for (const auto &[Name, Spec] : Cfg.CandidateLibrary)
    OS << "(" << originOf(Cfg, "candidate." + Name) << ") candidate." << tomlKey(Name) << " = "
       << formatCandidate(Spec) << "\n";
  for (const auto &[Name, Spec] : Cfg.LinkCandidateLibrary)
    OS << "(" << originOf(Cfg, "link_candidate." + Name) << ") link_candidate." << tomlKey(Name)
       << " = " << formatLinkCandidate(Spec) << "\n";
}

void printCacheKeySettings(const Config &Cfg, llvm::raw_ostream &OS) {
  // Settings that decide only what smartcc writes besides the object, or how fast it works:
  // keyed on, they would make a cache miss for nothing.
  static const char *const SideOnly[] = {"explain",      "log",         "stats",
                                         "stats_dir",    "harvest",     "harvest_targets",
                                         "harvest_o0",   "harvest_gcc", "save_candidates",
                                         "jobs",         "trust_project_config"};
  for (const Setting &S : Settings)
    if (!llvm::is_contained(SideOnly, llvm::StringRef(S.Key)))
      OS << S.Key << " = " << S.Format(Cfg) << "\n";
  for (const auto &[Name, Spec] : Cfg.CandidateLibrary)
    OS << "candidate." << tomlKey(Name) << " = " << formatCandidate(Spec) << "\n";
  for (const auto &[Name, Spec] : Cfg.LinkCandidateLibrary)
    OS << "link_candidate." << tomlKey(Name) << " = " << formatLinkCandidate(Spec) << "\n";
  // A model named by path is keyed on its content: retraining into the same file must miss.
  for (auto [Key, Value] : {std::pair<const char *, const std::string *>{"agent", &Cfg.Agent},
                            {"link_agent", &Cfg.LinkAgent},
                            {"inliner", &Cfg.Inliner},
                            {"regalloc", &Cfg.RegAlloc}}) {
    if (llvm::is_contained({"builtin", "off", "heuristic", "ml", "greedy"}, *Value))
      continue;
    OS << "model." << Key << " = ";
    if (auto Buf = llvm::MemoryBuffer::getFile(*Value)) {
      std::array<uint8_t, 32> H = llvm::SHA256::hash(
          llvm::arrayRefFromStringRef((*Buf)->getBuffer()));
      OS << "sha256:" << llvm::toHex(H, /*LowerCase=*/true) << "\n";
    } else {
      OS << "unreadable\n";
    }
  }
}

void printConfigHelp(llvm::raw_ostream &OS) {
  // Defaults as a fresh load would see them, before any file: the candidate default comes
  // from the built-in library.
  Config Defaults;
  if (Error E = applyConfigText(Defaults, builtinCandidatesToml(), BuiltinSource))
    llvm::consumeError(std::move(E)); // the library is tested; show the plain default if not

  struct Row {
    std::string Key, Env, Flag, Default, Doc;
  };
  std::vector<Row> Rows;
  Rows.push_back({"KEY", "ENVIRONMENT", "FLAG", "DEFAULT", ""});
  for (const Setting &S : Settings) {
    // function_mix left unset follows the effort (loadConfig), so its member's initial value
    // is not what an unset key means.
    std::string Default =
        StringRef(S.Key) == "function_mix" ? "effort 2 only" : S.Format(Defaults);
    Rows.push_back({S.Key, S.Env, std::string(S.Flag) + metavar(S.Kind), Default, S.Doc});
  }
  Rows.push_back({"-", "SMARTCC_CONFIG", "--smartcc-config=PATH", "-",
                  "read only this file instead of the system, user and project files"});
  size_t WKey = 0, WEnv = 0, WFlag = 0;
  for (const Row &R : Rows) {
    WKey = std::max(WKey, R.Key.size());
    WEnv = std::max(WEnv, R.Env.size());
    WFlag = std::max(WFlag, R.Flag.size());
  }

  OS << "smartcc settings. Sources, later ones winning: defaults, " << Twine(BuiltinSource)
     << ",\n/etc/smartcc/config.toml, ${XDG_CONFIG_HOME:-~/.config}/smartcc/config.toml, the\n"
        "nearest .smartcc.toml above the working directory, environment, flags.\n\n";
  for (const Row &R : Rows) {
    OS << "  " << llvm::left_justify(R.Key, WKey) << "  " << llvm::left_justify(R.Env, WEnv) << "  "
       << llvm::left_justify(R.Flag, WFlag) << "  " << R.Default << "\n";
    if (!R.Doc.empty())
      OS << "      " << R.Doc << "\n";
  }
  OS << "\nBooleans outside TOML: 1/true/yes/on or 0/false/no/off. Lists outside TOML are\n"
        "comma-separated. Candidates are defined in TOML as [candidate.NAME] tables with\n"
        "description, pipeline, llvm_args, function_attrs, after_clang_pipeline, skip_targets,\n"
        "merge_functions, loop_unrolling, slp_vectorization and loop_vectorization;\n"
        "smartcc --smartcc-print-config lists them.\n";
}

bool Config::settingIsDefault(StringRef Key) const {
  auto It = Origin.find(Key.str());
  return It == Origin.end() || It->second == "default" || It->second == BuiltinSource;
}

} // namespace smartcc
