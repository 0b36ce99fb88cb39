// smartcc's configuration: one table of settings (runtime/config/Settings.def), read from TOML files,
// SMARTCC_* environment variables and --smartcc-* flags, later sources winning:
//   defaults < system file < user file < project file < environment < command-line flags.
// SMARTCC_CONFIG=path (or --smartcc-config=path) replaces the three files by that one file.
#pragma once
#include "runtime/config/CandidateSpec.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace smartcc {

// How a candidate's object is measured; smaller is better for every metric.
enum class Metric {
  ImageBytes, // file-backed allocated bytes: code, rodata, data, unwind tables (not .bss)
  CodeBytes,  // bytes of executable allocated sections
  AllocBytes, // every allocated (SHF_ALLOC) section, .bss included: RAM and image mixed
  TextBytes,  // bytes of executable sections only
  FileBytes,  // size of the whole object file
  IRInstructions, // LLVM IR instructions after the middle-end (codegen still runs)
  // The register allocator's frequency-weighted spill cost, in thousandths (RegAllocCost.h).
  // Not a setting: the metric of -O1..-O3 compiles smartcc takes over for ML regalloc.
  RegAllocCost,
};
const char *metricName(Metric M);
std::optional<Metric> parseMetric(llvm::StringRef S);

// A way to repeat an -flto link (driver/LTOLink.h): what it adds to clang's linker command.
struct LinkCandidateSpec {
  std::string Name;
  std::string Description;
  // The LTO middle-end as a new-pass-manager pipeline (lld's --lto-newpm-passes, stages
  // joined by commas); empty: lld's own LTO pipeline, as clang's link.
  std::vector<std::string> Pipeline;
  std::vector<std::string> LLVMArgs;   // cl::opt settings for LTO (lld's -mllvm)
  std::vector<std::string> LinkerArgs; // any other linker arguments, appended as given
  // Target triple prefixes where the candidate is not run (as CandidateSpec::SkipTargets).
  std::vector<std::string> SkipTargets;
  // It continues from LTO's own optimized program (the link's default pipeline, lld's
  // lto<ON>): Pipeline is what runs after it. A full-LTO link optimizes the program once for
  // all such candidates and each replays it (link_replay; driver/LTOLink.cpp), so that they
  // cost code generation, not a whole link; otherwise lto<ON> is put in front of Pipeline.
  bool AfterLTOPipeline = false;
  // Last in its pipeline, the functions that were frameless in clang's link share one unwind
  // entry (runtime/compile/SharedUnwind.h): it starts after clang's link, whose output names
  // them, and its output ships only if runtime/link/UnwindSharing.h's check passes.
  bool SharedUnwind = false;
};

struct Config {
  bool Disable = false;
  std::vector<std::string> Levels{"Oz", "Os"}; // -O levels smartcc takes over
  Metric SizeMetric = Metric::ImageBytes;
  // Rules a smaller candidate must also pass to ship (ShipRules, runtime/decide/Decision.h).
  bool AllowRamGrowth = false;         // may writable data (.data, .bss, TLS) grow?
  double CodeForUnwind = 0.0;          // percent of code a candidate may add while unwind shrinks
  unsigned Jobs = 0;                   // candidate processes at once; 0 = cores - 1 (at least 1)
  unsigned TimeoutMs = 60000;          // per candidate
  // Candidate work per TU in IR instructions (TU size x candidates); 0 = no limit. Compile time
  // grows with the TU and a few large TUs take most of a build's time, while the geomean counts
  // every TU once: capping the large ones buys most of the time back for little of the gain.
  // 3000 was chosen on two validation packages (docs/config-reference.md): lua5.4 went from
  // 3.37x to 1.70x clang's build CPU time for 1.0337 -> 1.0265 geomean, libdeflate from 3.02x
  // to 1.58x for 1.0201 -> 1.0158.
  unsigned CandidateBudget = 3000;
  // Candidate work of every TU, in percent of clang's own compile of it
  // (runtime/candidates/CandidateBudget.h): 50 affords one candidate continuing from clang's module.
  unsigned CandidateTime = 50;
  double MaxGrowth = 8.0;              // discard a candidate whose IR grows past this factor
  std::string LogPath;                 // JSON lines, one per optimized TU; empty = off
  std::string StatsDir;                // counters; empty = ${XDG_CACHE_HOME:-~/.cache}/smartcc
  bool Stats = true;
  bool Explain = false;                // print each TU's candidate table on stderr
  std::string HarvestDir;              // write pre-optimization bitcode of every TU here
  std::string SaveCandidatesDir;       // keep every candidate's object here, for inspection
  bool TrustProjectConfig = false;     // may project files set what writes files (ProjectTrust.h)
  std::vector<std::string> HarvestTargets; // with harvest: recompile each TU for these too
  bool HarvestO0 = false;                  // with harvest: and at -O0 without optnone
  bool HarvestGcc = false;                 // with harvest: record gcc -Os's object size
  std::string Agent = "builtin";       // "builtin", "off" or a sequence-value model path
  std::string LinkAgent = "off";       // the same for -flto links (runtime/link/LinkAgent.h)
  std::string Inliner = "heuristic";   // "heuristic", "ml" or an inliner model path
  std::string RegAlloc = "greedy";     // "greedy", "ml" or a register-allocation model path
  double RegAllocGrowth = 1.0;         // percent of code bytes ML allocation may add at -O1..-O3
  double AgentConfidence = 0.0;        // percent margin for the first choice alone; 0 = off
  unsigned Effort = 1;                 // with the agent: 0, 1 or 2 (policies/SequenceAgent.h)
  unsigned GuidedCandidates = 3;       // effort 2: guided search's candidates after its first 9
  bool FunctionMix = true; // one more candidate: each function from its best version (unset:
                           // set to effort == 2 at the end of loadConfig)
  std::vector<std::string> Candidates; // names of the candidates to evaluate, in order
  std::map<std::string, CandidateSpec> CandidateLibrary; // every candidate defined anywhere
  bool LTOLinks = true;                    // own -flto links at size levels (driver/LTOLink.h)
  bool FatObjects = true;                  // objects carry their bitcode (runtime/compile/FatObject.h)
  bool WholeProgram = true;                // plain links made whole-program (driver/WholeProgramLink.h)
  bool PerTULinks = true;                  // other plain links: lld with ICF, libraries' weak C++ functions hidden (driver/PerTULink.h)
  bool UnwindConstants = true;             // x86-64 constants by mov where unwind tables cost (runtime/compile/UnwindAwareConstants.h)
  bool SizeCodegen = true;                 // x86-64 candidates' code generation options for size (runtime/compile/SizeCodegen.h)
  bool TUSharedUnwind = true;              // one unwind entry for a TU's frameless functions (runtime/compile/SharedUnwind.h)
  std::vector<std::string> LinkCandidates; // link candidates tried, in order
  // Wall time of the link candidates together, in percent of clang's own link: with two
  // candidates per hardware thread the whole link stays within 3x clang's (issue 19's limit).
  unsigned LinkTime = 200;
  // Full-LTO links: link candidates after_lto_pipeline replay the program LTO's pipeline
  // optimized once, instead of each optimizing it again.
  bool LinkReplay = true;
  // Full-LTO links of at least this much bitcode (KiB; 0: never) are large: there the
  // whole-link candidates take longer than link_time allows (the IR outliner, superlinear in
  // the program, several clang links), so the replaying ones run first (driver/LTOLink.cpp).
  unsigned LinkLargeKiB = 512;
  std::map<std::string, LinkCandidateSpec> LinkCandidateLibrary;

  // Where each setting's value came from ("default", a file path, "SMARTCC_METRIC", ...).
  std::map<std::string, std::string> Origin;

  // Candidates actually enabled, resolved against the library (names checked at load time).
  std::vector<CandidateSpec> enabledCandidates() const;
  // True when nobody configured setting Key: it holds its default or the built-in candidate
  // file's value.
  bool settingIsDefault(llvm::StringRef Key) const;
  // True when `candidates` is the shipped default list (nobody configured it).
  bool candidatesAreDefault() const { return settingIsDefault("candidates"); }
  bool takesOver(llvm::StringRef Level) const; // Level: "Oz", "Os", ...
  unsigned effectiveJobs() const;
  std::string effectiveStatsDir() const;
};

// Everything the loader reads from the outside world, so tests can supply their own.
struct ConfigEnvironment {
  std::function<std::optional<std::string>(const char *)> GetEnv; // defaults to ::getenv
  std::string WorkingDir;            // where the project-file search starts
  std::string SystemFile = "/etc/smartcc/config.toml"; // = SystemConfigFile (ConfigFiles.h)
  static ConfigEnvironment fromProcess();
};

// Loads the configuration. Flags are the --smartcc-KEY[=VALUE] arguments (already separated
// from the compiler's arguments). Errors name their source: "FILE:LINE:COL: unknown key 'x'",
// "SMARTCC_JOBS: expected a whole number, got 'x'", "--smartcc-metric: ...".
llvm::Expected<Config> loadConfig(const ConfigEnvironment &Env,
                                  const std::vector<std::string> &Flags);

// Parses one TOML text into Cfg (used for files and for the built-in candidate library).
// SourceName appears in error messages.
llvm::Error applyConfigText(Config &Cfg, llvm::StringRef Text, llvm::StringRef SourceName);

// `smartcc --smartcc-print-config`: every key, its value and where it came from.
void printConfig(const Config &Cfg, llvm::raw_ostream &OS);
// The part of `smartcc --smartcc-print-cache-key` that comes from the configuration: every
// setting that can change an object (not log, stats, harvest, ...), the candidate library, and
// the content digest of model files named by path.
void printCacheKeySettings(const Config &Cfg, llvm::raw_ostream &OS);
// `smartcc --smartcc-help`: every key with its environment variable and flag.
void printConfigHelp(llvm::raw_ostream &OS);

} // namespace smartcc
