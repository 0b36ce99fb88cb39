// The settings table (runtime/config/Settings.def) and the values of its settings: how each
// is parsed from an environment variable or a flag, checked and printed. Private to config/:
// Config.cpp reads the sources into it, ConfigPrint.cpp prints it.
#pragma once
#include "runtime/config/Config.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace smartcc::settings {

inline constexpr const char *BuiltinSource = "<builtin>/candidates.toml";
inline constexpr const char *LevelsExpected = "expected Oz or Os";
inline constexpr const char *MetricsExpected = "expected image, code, text, file, ir or alloc";
inline constexpr const char *NameChars = "letters, digits, '_', '.' and '-'";

inline llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

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

struct Setting {
  const char *Key;
  const char *Env;
  const char *Flag;
  SettingKind Kind;
  const char *Doc;
  void (*Store)(Config &, Value &);
  std::string (*Format)(const Config &);
};

// Every setting, in the order of Settings.def.
llvm::ArrayRef<Setting> settingsTable();
const Setting *findByKey(llvm::StringRef Key);
const Setting *findByFlag(llvm::StringRef Flag);

// The range of a number setting: a growth factor above 1, or a percentage.
bool inRange(SettingKind Kind, double D);

// Values are printed in TOML syntax so that --smartcc-print-config output can be pasted into
// a configuration file.
std::string tomlString(llvm::StringRef S);
std::string formatValue(bool B);
std::string formatValue(unsigned U);
std::string formatValue(Metric M);
std::string formatValue(const std::string &S);
std::string formatValue(double D);
std::string formatValue(const std::vector<std::string> &L);

// What a value of each kind must look like, for error messages about environment variables
// and flags ("SMARTCC_JOBS=abc: expected a non-negative integer").
const char *expectation(SettingKind K);
// The same, phrased about a TOML key ("'jobs' must be a non-negative integer").
const char *tomlRequirement(SettingKind K);

bool isValidCandidateName(llvm::StringRef Name);
bool isLevel(llvm::StringRef S);

// Returns whether S is one of the accepted boolean words (any letter case), storing it in Out.
bool parseBoolWord(llvm::StringRef S, bool &Out);
// A model setting (agent, inliner, regalloc) names a keyword or a model file; the file must
// hold the right kind of model now, not fail in every compile later.
std::optional<std::string> checkModelSetting(SettingKind Kind, llvm::StringRef Key,
                                             llvm::StringRef Text);
// Parses the text of an environment variable or flag. Returns an error message without the
// "SOURCE=VALUE: " prefix, or nothing on success.
std::optional<std::string> parseText(const Setting &S, llvm::StringRef Text, Value &V);

} // namespace smartcc::settings
