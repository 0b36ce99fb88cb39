#include "runtime/config/SettingsTable.h"
#include "policies/SequenceAgent.h"
#include "policies/inliner/InlinePolicy.h"
#include "policies/regalloc/RegAllocPolicy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using llvm::Error;
using llvm::StringRef;
using llvm::Twine;

namespace smartcc::settings {

// ---------------------------------------------------------------------------------------------
// The settings table.



// The range of a number setting: a growth factor above 1, or a percentage.
bool inRange(SettingKind Kind, double D) {
  if (!std::isfinite(D))
    return false;
  return Kind == SettingKind::Percent ? D >= 0 && D <= 100 : D > 1.0;
}


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


namespace {

void assign(bool &Dst, Value &V) { Dst = V.B; }
void assign(unsigned &Dst, Value &V) { Dst = V.U; }
void assign(double &Dst, Value &V) { Dst = V.D; }
void assign(Metric &Dst, Value &V) { Dst = V.M; }
void assign(std::string &Dst, Value &V) { Dst = std::move(V.S); }
void assign(std::vector<std::string> &Dst, Value &V) { Dst = std::move(V.L); }

const Setting Settings[] = {
#define SMARTCC_SETTING(KEY, ENV, FLAG, KIND, MEMBER, DOC)                                    \
  {KEY,                                                                                        \
   ENV,                                                                                        \
   FLAG,                                                                                       \
   SettingKind::KIND,                                                                          \
   DOC,                                                                                        \
   [](Config &C, Value &V) { assign(C.MEMBER, V); },                                           \
   [](const Config &C) { return formatValue(C.MEMBER); }},
#include "runtime/config/Settings.def"
};

} // namespace

llvm::ArrayRef<Setting> settingsTable() { return Settings; }

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

namespace {

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

} // namespace

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


} // namespace smartcc::settings
