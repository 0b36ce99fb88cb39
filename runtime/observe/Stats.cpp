// Counters file: one "name value" line per counter, sorted by name (std::map order). The
// pseudo-counter "zeroed_at" holds the unix time of the last zero() and travels in the same map,
// so read() exposes it and add() preserves it without special cases.
//
// Concurrency: every writer takes an exclusive flock() on <Dir>/stats.lock, reads, modifies,
// writes <Dir>/stats.tmp and rename()s it over <Dir>/stats. Readers never lock: rename() is
// atomic, so they always see either the old or the new complete file.
#include "runtime/observe/Stats.h"
#include "runtime/config/BuildProbe.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cctype>
#include <cerrno>
#include <ctime>
#include <vector>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace smartcc {

namespace {

constexpr const char *ZeroedAtKey = "zeroed_at";

llvm::Error errnoError(const llvm::Twine &What, const std::string &Path) {
  std::error_code EC(errno, std::generic_category());
  return llvm::createStringError(EC, What + " " + Path + ": " + EC.message());
}

// Holds an exclusive flock() on <Dir>/stats.lock for its lifetime; closing the descriptor
// releases the lock, also when the process dies, so a crashed compiler can never wedge stats.
class LockGuard {
public:
  ~LockGuard() {
    if (FD >= 0)
      ::close(FD);
  }
  llvm::Error acquire(const std::string &Path) {
    do
      FD = ::open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    while (FD < 0 && errno == EINTR);
    if (FD < 0)
      return errnoError("cannot open lock file", Path);
    // Blocking lock; a signal (e.g. SIGCHLD from a candidate process) may interrupt the wait.
    int RC;
    do
      RC = ::flock(FD, LOCK_EX);
    while (RC != 0 && errno == EINTR);
    if (RC != 0)
      return errnoError("cannot lock", Path);
    return llvm::Error::success();
  }

private:
  int FD = -1;
};

// A name must survive the "name value" line format: no blanks, no control characters.
bool isValidName(llvm::StringRef Name) {
  if (Name.empty())
    return false;
  for (char Ch : Name)
    if (!std::isgraph(static_cast<unsigned char>(Ch)))
      return false;
  return true;
}

// Parses the file text, skipping any line that is not exactly "name integer": a damaged file
// (truncated write on a full disk, manual edits) loses only the damaged lines.
Counters parseCounters(llvm::StringRef Text) {
  Counters C;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 3> Fields;
    Line.trim().split(Fields, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    int64_t Value;
    // getAsInteger returns true on failure (garbage, overflow).
    if (Fields.size() != 2 || !isValidName(Fields[0]) || Fields[1].getAsInteger(10, Value))
      continue;
    C[Fields[0].str()] = Value;
  }
  return C;
}

llvm::Expected<Counters> readFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf) {
    if (Buf.getError() == llvm::errc::no_such_file_or_directory)
      return Counters(); // never written yet: all counters are zero
    return llvm::createStringError(Buf.getError(), "cannot read stats file " + Path + ": " +
                                                       Buf.getError().message());
  }
  return parseCounters((*Buf)->getBuffer());
}

// Writes C to a scratch file and renames it over Path. The scratch name is fixed because the
// caller holds the lock, so no other writer can use it concurrently; a leftover from a crashed
// writer is removed by the next one.
llvm::Error writeFileAtomically(const std::string &Dir, const std::string &Path,
                                const Counters &C) {
  std::string Tmp = Dir + "/stats.tmp";
  std::error_code EC;
  {
    // Created anew, never opened through whatever is there (a symbolic link planted in the
    // stats folder would otherwise be followed and truncated).
    ::unlink(Tmp.c_str());
    int FD = -1;
    if ((EC = llvm::sys::fs::openFileForWrite(Tmp, FD, llvm::sys::fs::CD_CreateNew)))
      return llvm::createStringError(EC, "cannot create " + Tmp + ": " + EC.message());
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    for (const auto &[Name, Value] : C)
      OS << Name << ' ' << Value << '\n';
    OS.close();
    if (OS.has_error()) {
      EC = OS.error();
      OS.clear_error(); // otherwise raw_fd_ostream's destructor reports a fatal error
      llvm::sys::fs::remove(Tmp);
      return llvm::createStringError(EC, "cannot write " + Tmp + ": " + EC.message());
    }
  }
  if ((EC = llvm::sys::fs::rename(Tmp, Path))) {
    llvm::sys::fs::remove(Tmp);
    return llvm::createStringError(EC, "cannot rename " + Tmp + " to " + Path + ": " +
                                           EC.message());
  }
  return llvm::Error::success();
}

// Adds without wrapping: a saturated counter is obviously wrong, a wrapped one silently so.
int64_t saturatingAdd(int64_t A, int64_t B) {
  int64_t R;
  if (!__builtin_add_overflow(A, B, &R))
    return R;
  return B > 0 ? INT64_MAX : INT64_MIN;
}

// Runs Update on the current counters under the lock and stores the result.
template <typename Fn>
llvm::Error updateLocked(const std::string &Dir, const std::string &Path, Fn Update) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create stats directory " + Dir + ": " +
                                           EC.message());
  LockGuard Lock;
  if (llvm::Error E = Lock.acquire(Dir + "/stats.lock"))
    return E;
  llvm::Expected<Counters> C = readFile(Path);
  if (!C)
    return C.takeError(); // unreadable (not merely missing): do not clobber it
  Update(*C);
  return writeFileAtomically(Dir, Path, *C);
}

} // namespace

std::string StatsStore::filePath() const { return Dir + "/stats"; }

// Probes the launcher passed to clang (runtime/config/BuildProbe.h) are one byte each in this file.
static std::string probeFilePath(const std::string &Dir) {
  return Dir + "/" + BuildProbeCountFile;
}

llvm::Expected<Counters> StatsStore::read() const {
  llvm::Expected<Counters> C = readFile(filePath());
  uint64_t Probes = 0;
  if (C && !llvm::sys::fs::file_size(probeFilePath(Dir), Probes) && Probes)
    (*C)["passthrough.build_probe"] =
        saturatingAdd((*C)["passthrough.build_probe"], int64_t(Probes));
  return C;
}

llvm::Error StatsStore::add(const Counters &Delta) {
  // Reject bad names before touching anything: they would corrupt the line format.
  for (const auto &KV : Delta)
    if (!isValidName(KV.first))
      return llvm::createStringError(llvm::errc::invalid_argument,
                                     "invalid stats counter name '" + KV.first + "'");
  return updateLocked(Dir, filePath(), [&](Counters &C) {
    for (const auto &[Name, Value] : Delta)
      C[Name] = saturatingAdd(C[Name], Value);
  });
}

llvm::Error StatsStore::zero() {
  // The launcher's probe file goes first: a probe counted meanwhile is lost, never doubled.
  (void)::truncate(probeFilePath(Dir).c_str(), 0);
  return updateLocked(Dir, filePath(), [](Counters &C) {
    C.clear();
    C[ZeroedAtKey] = static_cast<int64_t>(std::time(nullptr));
  });
}

//===-- Human-readable table ---------------------------------------------------------------===//

namespace {

constexpr unsigned LabelWidth = 30; // column where values start
constexpr unsigned NumberWidth = 8;

// Groups with a section of their own; counters of any other first component land under "Other".
constexpr llvm::StringLiteral KnownGroups[] = {"tu",          "bytes", "image", "candidate",
                                               "passthrough", "error", "link"};

// Rows of the table: label padded to LabelWidth (a long one still gets one space), number
// right-aligned in NumberWidth, so every number ends in the same column.
class Table {
public:
  Table(const Counters &C, llvm::raw_ostream &OS) : C(C), OS(OS) {}

  void label(unsigned Indent, llvm::StringRef Label) {
    std::string L = std::string(Indent, ' ') + Label.str();
    OS << L;
    OS.indent(L.size() < LabelWidth ? LabelWidth - L.size() : 1);
  }
  void header(llvm::StringRef Title) { OS << Title << '\n'; }
  // Row with a number and, if Denominator is nonzero, Value as a percentage of it.
  void row(unsigned Indent, llvm::StringRef Label, int64_t Value, int64_t Denominator = 0,
           unsigned Decimals = 1) {
    label(Indent, Label);
    OS << llvm::format_decimal(Value, NumberWidth);
    if (Denominator != 0)
      OS << llvm::format(Decimals == 1 ? "  %6.1f %%" : "  %6.2f %%",
                         100.0 * double(Value) / double(Denominator));
    OS << '\n';
  }

  int64_t get(llvm::StringRef Name) const {
    auto It = C.find(Name.str());
    return It == C.end() ? 0 : It->second;
  }
  bool has(llvm::StringRef Name) const { return C.count(Name.str()) != 0; }
  // Counters named Prefix + "." + something, e.g. all of tu.kept.*.
  std::vector<std::pair<std::string, int64_t>> children(llvm::StringRef Prefix) const {
    std::vector<std::pair<std::string, int64_t>> Out;
    std::string P = Prefix.str() + ".";
    for (auto It = C.lower_bound(P); It != C.end() && llvm::StringRef(It->first).starts_with(P);
         ++It)
      Out.emplace_back(It->first.substr(P.size()), It->second);
    return Out;
  }
  // A subtotal such as tu.kept is normally only stored as its reasons tu.kept.*; an explicitly
  // stored tu.kept wins so that nothing is double counted.
  int64_t subtotal(llvm::StringRef Prefix) const {
    if (has(Prefix))
      return get(Prefix);
    int64_t Sum = 0;
    for (const auto &KV : children(Prefix))
      Sum = saturatingAdd(Sum, KV.second);
    return Sum;
  }

  const Counters &C;
  llvm::raw_ostream &OS;
};

// "no_candidate_smaller" -> "no candidate smaller"; dots of deeper names read as "a: b".
std::string humanize(llvm::StringRef Reason) {
  std::string S;
  for (char Ch : Reason) {
    if (Ch == '_')
      S += ' ';
    else if (Ch == '.')
      S += ": ";
    else
      S += Ch;
  }
  return S + ":";
}

// Prints every counter of Group not in Known, indented; those below one of the Nested prefixes
// (e.g. tu.kept.*) have already been shown under their subtotal by the caller.
void printRest(Table &T, llvm::StringRef Group, std::initializer_list<llvm::StringRef> Known,
               std::initializer_list<llvm::StringRef> Nested) {
  for (const auto &[Sub, Value] : T.children(Group)) {
    llvm::StringRef S(Sub);
    bool Skip = llvm::is_contained(Known, S);
    for (llvm::StringRef N : Nested)
      Skip |= S == N || S.starts_with((N + ".").str());
    if (!Skip)
      T.row(2, humanize(S), Value);
  }
}

void printReasons(Table &T, unsigned Indent, llvm::StringRef Prefix) {
  for (const auto &[Reason, Value] : T.children(Prefix))
    T.row(Indent, humanize(Reason), Value);
}

void printTU(Table &T) {
  int64_t Optimized = T.get("tu.optimized");
  T.row(0, "Translation units optimized:", Optimized);
  T.row(2, "candidate shipped (won):", T.get("tu.won"), Optimized);
  T.row(2, "clang -Oz kept:", T.subtotal("tu.kept"), Optimized);
  printReasons(T, 4, "tu.kept");
  printRest(T, "tu", {"optimized", "won"}, {"kept"});
}

void printBytes(Table &T) {
  int64_t Baseline = T.get("bytes.baseline"), Shipped = T.get("bytes.shipped");
  // Derive "saved" only if it was never stored, so a stored value is shown as is.
  int64_t Saved = T.has("bytes.saved") ? T.get("bytes.saved") : Baseline - Shipped;
  T.header("Size (metric units):");
  T.row(2, "baseline total:", Baseline);
  T.row(2, "shipped total:", Shipped);
  T.row(2, "saved:", Saved, Baseline, /*Decimals=*/2);
  printRest(T, "bytes", {"baseline", "shipped", "saved"}, {});
}

// What the optimized TUs' objects carry into the image, by section class: clang's -Oz
// objects against what smartcc shipped. Build probes are never counted (they are passed
// through). bss is RAM, not image: shown apart.
void printImage(Table &T, llvm::StringRef Prefix = "",
                llvm::StringRef Title = "Image bytes of optimized TUs (file-backed; saved > 0 = smaller):",
                const char *BaselineLabel = "clang -Oz") {
  constexpr std::pair<const char *, const char *> Classes[] = {
      {"code", "code"}, {"rodata", "read-only data"}, {"data", "writable data"},
      {"unwind", "unwind tables"}};
  auto Line = [&](unsigned Indent, llvm::StringRef Label, int64_t Base, int64_t Shipped) {
    T.label(Indent, Label);
    T.OS << llvm::format_decimal(Base, 12) << llvm::format_decimal(Shipped, 12)
         << llvm::format_decimal(Base - Shipped, 10);
    if (Base)
      T.OS << llvm::format("  %6.2f %%", 100.0 * double(Base - Shipped) / double(Base));
    T.OS << '\n';
  };
  T.header(Title);
  T.label(2, "");
  T.OS << llvm::format("%12s%12s%10s\n", BaselineLabel, "shipped", "saved");
  int64_t Base = 0, Shipped = 0;
  for (auto [Key, Label] : Classes) {
    int64_t B = T.get((Prefix + "image." + Key + ".baseline").str());
    int64_t S = T.get((Prefix + "image." + Key + ".shipped").str());
    Base += B;
    Shipped += S;
    Line(4, Label, B, S);
  }
  Line(2, "image total:", Base, Shipped);
  Line(2, "RAM-only (.bss, .tbss):", T.get((Prefix + "image.bss.baseline").str()),
       T.get((Prefix + "image.bss.shipped").str()));
}

// Candidates evaluated, discarded and rejected: a TU's (candidate.*) or, with Prefix "link.",
// a link's (link.candidate.*), Indent deep.
void printCandidates(Table &T, llvm::StringRef Prefix = "", unsigned Indent = 0,
                     llvm::StringRef Title = "Candidates evaluated:") {
  std::string Group = (Prefix + "candidate").str();
  int64_t Evaluated = T.get(Group + ".evaluated");
  T.row(Indent, Title, Evaluated);
  T.row(Indent + 2, "discarded:", T.subtotal(Group + ".discarded"), Evaluated);
  printReasons(T, Indent + 4, Group + ".discarded");
  T.row(Indent + 2, "rejected by ship rules:", T.subtotal(Group + ".rejected"), Evaluated);
  printReasons(T, Indent + 4, Group + ".rejected");
  printRest(T, Group, {"evaluated"}, {"discarded", "rejected"});
}

// -flto links and plain links made whole-program that smartcc owned (driver/LTOLink.h):
// their own counters, link.*.
void printLinks(Table &T) {
  if (T.children("link").empty())
    return;
  int64_t Owned = T.get("link.optimized");
  T.row(0, "LTO links optimized:", Owned);
  // Plain links smartcc made whole-program (driver/WholeProgramLink.h) are among them.
  if (int64_t Whole = T.get("link.whole_program.optimized")) {
    T.row(2, "plain links made whole-program:", Whole, Owned);
    T.row(4, "whole-program link shipped:", T.get("link.whole_program.won"), Whole);
  }
  T.row(2, "link candidate shipped (won):", T.get("link.won"), Owned);
  T.row(2, "clang's link kept:", T.subtotal("link.kept"), Owned);
  printReasons(T, 4, "link.kept");
  printCandidates(T, "link.", 2, "link candidates evaluated:");
  // Full-LTO links whose late candidates replayed the program optimized once (link_replay).
  if (!T.children("link.replay").empty()) {
    T.row(2, "program optimized once for replay:", T.subtotal("link.replay"), Owned);
    printReasons(T, 4, "link.replay");
  }
  T.row(2, "LTO links left to clang:", T.subtotal("link.passthrough"));
  printReasons(T, 4, "link.passthrough");
  printImage(T, "link.", "Image bytes of optimized LTO links (saved > 0 = smaller):",
             "clang link");
}

// passthrough.* and error.* are pure reason lists under a total.
void printReasonGroup(Table &T, llvm::StringRef Group, llvm::StringRef Title) {
  T.row(0, Title, T.subtotal(Group));
  printReasons(T, 2, Group);
}

void printOther(Table &T) {
  bool First = true;
  for (const auto &[Name, Value] : T.C) {
    // A bare "tu" (no dot) is shown by no section, so it belongs here too.
    llvm::StringRef N(Name);
    if (N == ZeroedAtKey || (N.contains('.') && llvm::is_contained(KnownGroups, N.split('.').first)))
      continue;
    if (First)
      T.header("Other:");
    First = false;
    T.row(2, Name, Value); // raw name: we do not know what it means
  }
}

// UTC so the output does not depend on the machine's time zone.
std::string formatTime(int64_t Secs) {
  std::time_t T = static_cast<std::time_t>(Secs);
  std::tm TM;
  char Buf[64];
  if (!gmtime_r(&T, &TM) || !std::strftime(Buf, sizeof(Buf), "%Y-%m-%d %H:%M:%S UTC", &TM))
    return std::to_string(Secs);
  return Buf;
}

} // namespace

void printStats(const Counters &C, const std::string &StatsFile, llvm::raw_ostream &OS) {
  Table T(C, OS);
  T.label(0, "Statistics file:");
  OS << StatsFile << '\n';
  if (T.has(ZeroedAtKey)) {
    T.label(0, "Stats zeroed:");
    OS << formatTime(T.get(ZeroedAtKey)) << '\n';
  }
  printTU(T);
  printImage(T);
  printBytes(T);
  printCandidates(T);
  printLinks(T);
  printReasonGroup(T, "passthrough", "Passed through to clang:");
  printReasonGroup(T, "error", "Errors (fell back to clang):");
  printOther(T);
}

void printStatsJSON(const Counters &C, llvm::raw_ostream &OS) {
  llvm::json::Object Obj;
  for (const auto &[Name, Value] : C)
    Obj[Name] = Value;
  llvm::json::Value Root(llvm::json::Object{{"counters", std::move(Obj)}});
  OS << llvm::formatv("{0:2}", Root) << '\n';
}

} // namespace smartcc
