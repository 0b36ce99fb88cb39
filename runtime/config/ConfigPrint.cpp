// Printing smartcc's configuration: --smartcc-print-config (TOML that can be pasted into a
// file), the settings a compiler cache must key on, and --smartcc-help.
#include "runtime/config/Config.h"
#include "runtime/config/SettingsTable.h"
#include "policies/BuiltinCandidates.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using llvm::Error;
using llvm::StringRef;
using llvm::Twine;

namespace smartcc {

using namespace settings;

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
  if (!C.SkipLevels.empty())
    Out += ", skip_levels = " + formatValue(C.SkipLevels);
  if (!C.Allocators.empty())
    Out += ", allocators = " + formatValue(C.Allocators);
  if (C.SkipWholeProgram)
    Out += ", skip_whole_program = true";
  if (!C.AllocatorModel.empty())
    Out += ", allocator_model = " + tomlString(C.AllocatorModel);
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
  for (const Setting &S : settingsTable())
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
  for (const Setting &S : settingsTable())
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
  for (const Setting &S : settingsTable()) {
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
        "skip_levels, skip_whole_program, allocators, allocator_model, merge_functions, loop_unrolling, slp_vectorization and\n"
        "loop_vectorization;\n"
        "smartcc --smartcc-print-config lists them.\n";
}

} // namespace smartcc
