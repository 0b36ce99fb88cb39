#!/usr/bin/env python3
"""difftest.py: differential testing of smartcc against clang-22 -O0.

    scripts/difftest.py OUT [--source csmith,torture,gxx,cxx-eh|both|cxx|all] [--count N]
                            [--seed S] [--start K]
                            [--modes a,b,...] [--budget lifted|default] [--every-candidate]
                            [-j N] [--reduce | --no-reduce] [--reduce-timeout S]
                            [--torture-dir DIR] [--bin DIR] [--report]
    scripts/difftest.py OUT --smoke [--self-check] [--bin DIR]

Programs come from csmith (random, self-checking: they print a checksum of their globals),
from GCC's execute torture tests (self-checking: they abort() on a wrong result), from GCC's
C++ execute tests (g++.dg: exceptions, torture, optimizer regressions, ...) and from the
hand-written C++ exception programs of tests/difftest-cxx (a shared library and a main
program each, or one file; they check their own catches). Each program
is built by smartcc in every selected mode (MODES below) and by clang-22 -O0 for the same ISA
(the reference), run, and the outputs (stdout+stderr and exit status) compared. A mismatch is
classified by building the program with clang-22 at -O1..-Oz and -Oz -fno-inline (and, for a
mode that links with -flto, clang's own -Oz -flto link): when one of those differs from
-O0 as well, the program has undefined behaviour or clang has a bug ('shared'); otherwise
the bug is smartcc's ('smartcc-only'), and with --reduce creduce shrinks the program.

State: OUT/results.jsonl, one line per (program, mode[, candidate]); a re-run skips the
programs whose modes are all recorded. OUT/summary.md and OUT/summary.json are rewritten at
the end (and by --report). OUT/mismatches/ holds everything needed to reproduce each mismatch.
Exit status 1 when any 'smartcc-only' result (wrong output, timeout or build failure) was
found. docs/difftest.md has the details. Python 3.11 standard library only.
"""
import argparse, concurrent.futures, dataclasses, fnmatch, glob, json, os, re, shlex, shutil
import signal, subprocess, sys, tempfile, threading, time, tomllib, traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# name: (smartcc flags, ISA). The ISA decides the reference build, the target flag and how the
# binary runs. "broken" is hidden (not in the default set): it is smartcc -Oz plus a header that
# makes every program print one more line, a deliberately wrong compiler that --self-check uses
# to prove a mismatch is detected, classified and reported.
MODES = {
    "default":     (["-Oz"], "x86_64"),
    "effort2":     (["-Oz", "--smartcc-effort=2"], "x86_64"),
    "os":          (["-Os"], "x86_64"),
    "regalloc-o2": (["-O2", "--smartcc-regalloc=ml"], "x86_64"),
    "regalloc-oz": (["-Oz", "--smartcc-regalloc=ml"], "x86_64"),
    "inliner":     (["-Oz", "--smartcc-inliner=ml"], "x86_64"),
    "a64":         (["-Oz"], "aarch64"),
    # AArch64 at -Os, the level of kernels, boot loaders and firmware: there the machine
    # outliner's candidates run (clang outlines by default only under minsize).
    "a64-os":      (["-Os"], "aarch64"),
    # The candidate library without the agent: every default candidate runs (with the agent on,
    # library candidates only stand in for proposals the budget cannot afford, so most
    # programs would never meet them).
    "library":     (["-Oz", "--smartcc-agent=off"], "x86_64"),
    "a64-library": (["-Oz", "--smartcc-agent=off"], "aarch64"),
    "a64-os-library": (["-Os", "--smartcc-agent=off"], "aarch64"),
    # smartcc's own -flto link (driver/LTOLink.h): compiled and linked by one smartcc command,
    # every link candidate and the link agent's proposals run (link_time lifted); the shipped
    # link is what runs.
    "lto":         (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-time=0",
                     "--smartcc-link-agent=builtin"], "x86_64"),
    # The IR outliner link candidates' pipelines forced on every program (the link's own
    # pipeline through lld, no candidates): a candidate ships only when smaller, so the "lto"
    # mode runs them rarely on one-file programs; these modes run them always.
    "lto-iro":     (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-candidates=none",
                     "-Xlinker", "--lto-newpm-passes=iroutliner,lto<O2>"], "x86_64"),
    "lto-sink-iro": (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-candidates=none",
                      "-Xlinker", "--lto-newpm-passes=lto<O2>,function(gvn-sink,simplifycfg"
                      "<sink-common-insts;hoist-common-insts>),iroutliner"], "x86_64"),
    # The same on AArch64 (under qemu): smartcc's own link with every candidate, and the late
    # IR outliner's pipeline (lto-late-ir-outliner: after LTO's, regions within a block) forced.
    "a64-lto":     (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-time=0"], "aarch64"),
    "a64-lto-late-iro": (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-candidates=none",
                          "-Xlinker", "--lto-newpm-passes=lto<O2>,iroutliner",
                          "-Xlinker", "-mllvm", "-Xlinker", "-no-ir-sim-branch-matching"],
                         "aarch64"),
    # One unwind entry for the frameless functions (lto-shared-unwind) alone: it ships whenever
    # it is smaller and passes its check, so the program that runs is the shared one.
    "lto-shared-unwind": (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-time=0",
                           "--smartcc-link-candidates=lto-shared-unwind"], "x86_64"),
    "a64-lto-shared-unwind": (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-time=0",
                               "--smartcc-link-candidates=lto-shared-unwind"], "aarch64"),
    # Register allocators chosen per function in lld's code generation
    # (runtime/link/plugin/LinkAllocators.h), tried and predicted, forced on every program.
    "lto-allocators": (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-candidates=none",
                        "-Xlinker", "--load-pass-plugin={PLUGIN}", "-Xlinker",
                        "--lto-newpm-passes=lto<O2>,smartcc-allocators<greedy;basic;pbqp;"
                        "greedy:-split-spill-mode=default>"], "x86_64"),
    "a64-lto-allocators": (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-candidates=none",
                            "-Xlinker", "--load-pass-plugin={PLUGIN}", "-Xlinker",
                            "--lto-newpm-passes=lto<O2>,smartcc-allocators<greedy;basic;pbqp;"
                            "greedy:-split-spill-mode=default>"], "aarch64"),
    "a64-lto-allocators-predicted": (["-Oz", "-flto", "-fuse-ld=lld",
                                      "--smartcc-link-candidates=none", "-Xlinker",
                                      "--load-pass-plugin={PLUGIN}", "-Xlinker",
                                      "--lto-newpm-passes=lto<O2>,smartcc-allocators<predicted>"],
                                     "aarch64"),
    # Checked allocator proposals (runtime/compile/AllocatorsByBytes.h, allocateByProposals)
    # forced in lld's code generation, and per TU as the only candidates, whole-program links off
    # (they are not run for objects that carry bitcode for one; with
    # --every-candidate each candidate's object runs, not only the shipped one).
    "lto-allocators-proposed": (["-Oz", "-flto", "-fuse-ld=lld", "--smartcc-link-candidates=none",
                                 "-Xlinker", "--load-pass-plugin={PLUGIN}", "-Xlinker",
                                 "--lto-newpm-passes=lto<O2>,smartcc-allocators<proposed>"],
                                "x86_64"),
    "a64-lto-allocators-proposed": (["-Oz", "-flto", "-fuse-ld=lld",
                                     "--smartcc-link-candidates=none", "-Xlinker",
                                     "--load-pass-plugin={PLUGIN}", "-Xlinker",
                                     "--lto-newpm-passes=lto<O2>,smartcc-allocators<proposed>"],
                                    "aarch64"),
    "allocators-proposed": (["-Oz", "--smartcc-agent=off", "--smartcc-whole-program=false",
                             "--smartcc-candidates="
                             "oz-late-allocators-proposed,"
                             "oz-late-outliner-no-jump-tables-allocators-proposed"], "x86_64"),
    "a64-allocators-proposed": (["-Oz", "--smartcc-agent=off", "--smartcc-whole-program=false",
                                 "--smartcc-candidates=oz-late-allocators-proposed"], "aarch64"),
    # Whole-program links of plain builds (driver/WholeProgramLink.h): every source compiled by
    # a smartcc command of its own into an object carrying its bitcode, then linked by smartcc
    # with the default linker (GNU ld), as make builds a program; the whole-program link and
    # every link candidate run (link_time lifted), the shipped link is what runs.
    "whole-program": (["-Oz", "--smartcc-link-time=0"], "x86_64"),
    "a64-whole-program": (["-Oz", "--smartcc-link-time=0"], "aarch64"),
    # The same without whole-program links (the per-TU path): a program's shared library is
    # linked with the weak C++ functions no other module needs hidden where that is smaller
    # (`per_tu_links`, driver/PerTULink.h).
    "per-tu-library": (["-Oz", "--smartcc-whole-program=false"], "x86_64"),
    "a64-per-tu-library": (["-Oz", "--smartcc-whole-program=false"], "aarch64"),
}
# Modes that compile each source by itself and link the objects with smartcc.
SEPARATE_MODES = {"whole-program", "a64-whole-program", "per-tu-library", "a64-per-tu-library"}
# Modes whose product is a link, not an object: built by smartcc straight to the executable
# even with --every-candidate (a candidate link's output is not saved).
DIRECT_MODES = {"lto", "lto-iro", "lto-sink-iro", "a64-lto", "a64-lto-late-iro",
                "lto-allocators", "a64-lto-allocators", "a64-lto-allocators-predicted",
                "lto-allocators-proposed", "a64-lto-allocators-proposed",
                "lto-shared-unwind", "a64-lto-shared-unwind"} | SEPARATE_MODES
HIDDEN_MODES = {"broken": (["-Oz", "-include", "{OUT}/broken.h"], "x86_64")}
SMOKE_MODES = ["default", "library", "os", "regalloc-o2", "inliner", "a64", "a64-os", "lto",
               "lto-iro", "whole-program"]
# The smoke's C++ share: SMOKE_GXX g++.dg tests (the first ones clang++-22 -O0 builds and runs,
# which are eh/ tests) and every hand-written exception program, in these modes.
SMOKE_CXX_MODES = ["default", "lto-shared-unwind", "a64-lto", "a64-lto-shared-unwind",
                   "a64-whole-program", "per-tu-library"]
SMOKE_GXX = 6
LIFTED_BUDGET = ["--smartcc-candidate-budget=0"]
BROKEN_H = """/* difftest --self-check: a deliberately wrong "compiler" (scripts/difftest.py). */
#include <stdio.h>
#include <stdlib.h>
static void difftest_broken_line(void) { fputs("difftest: miscompiled on purpose\\n", stdout); }
__attribute__((constructor)) static void difftest_broken_init(void) {
  atexit(difftest_broken_line);
}
"""


@dataclasses.dataclass(frozen=True)
class Isa:
    target: tuple        # extra compiler flags
    runner: tuple        # prefix of the run command
    run_timeout: int     # seconds


QEMU_SYSROOT = "/usr/aarch64-linux-gnu"
ISAS = {
    "x86_64": Isa((), (), 10),
    "aarch64": Isa(("--target=aarch64-linux-gnu",), ("qemu-aarch64", "-L", QEMU_SYSROOT), 30),
}
# clang-22's own builds that judge a mismatch: a program one of them runs differently from -O0
# has undefined behaviour (or clang a bug). "-Oz -fno-inline": candidates that do not inline
# (sequences without the inliner) expose type punning across calls that clang's pipeline
# hides by inlining first (GCC torture 20000603-1 on AArch64: clang -Oz -fno-inline aborts too).
CLASSIFY_LEVELS = ["-O1", "-O2", "-O3", "-Os", "-Oz", "-Oz -fno-inline"]
# For a mode that links with -flto, clang-22's own LTO link too: whole-program optimization may
# do what the standard allows and one TU cannot see (g++.dg/eh/new1.C: clang-22 -Oz -flto
# leaves out the replaced operator new[]/delete[] pair the test checks).
CLASSIFY_LTO_LEVEL = "-Oz -flto -fuse-ld=lld"
COMPILE_TIMEOUT = 600
OUTPUT_LIMIT = 64 << 20      # a program writing more is stopped (prlimit --fsize)
CSMITH_FLAGS = ["-w", "-I/usr/include/csmith"]
TORTURE_FLAGS = ["-w", "-std=gnu89", "-fgnu89-inline", "-Wno-error",
                 "-Wno-implicit-function-declaration", "-Wno-int-conversion",
                 "-Wno-incompatible-pointer-types", "-Wno-return-type"]
LINK_FLAGS = ["-lm"]
# Options of a test's own `{ dg-options ... }` line that change what the program means (the
# rest tune GCC's optimizers or warnings and are left out); taken only without a target selector.
DG_SEMANTIC = re.compile(r"^(-fwrapv|-fno-strict-overflow|-fno-strict-aliasing|-ffast-math|"
                         r"-fno-inline|-fno-common|-fno-builtin(-\w+)?|-std=\S+|"
                         r"-finput-charset=\S+)$")
TORTURE_TARBALL_GLOB = "/usr/src/gcc-12/gcc-*.tar.xz"
TORTURE_MEMBERS = "*/gcc/testsuite/gcc.c-torture/execute/*"
# GCC's C++ runtime tests: the `{ dg-do run }` tests of these g++.dg folders (the exception
# tests, the optimizer torture tests, optimizer and initialization regressions, C++11), unpacked
# beside the C ones. Compiled by clang++-22 / smartc++ with -w and one language standard
# (gnu++17 unless the test asks for another, see gxx_constraints), plus the semantic options
# of their dg-options lines.
GXX_DIRS = ("eh", "torture", "opt", "init", "cpp0x")
# -Wno-register and -Wno-c++11-narrowing: what GCC's own C++ front end accepts in these tests
# (register variables in C++17, narrowing constants) clang-22 makes errors of.
GXX_FLAGS = ["-w", "-Wno-register", "-Wno-c++11-narrowing"]
GXX_STD = "gnu++17"
# C++ options of a test's dg-options that change what the program means (beyond DG_SEMANTIC).
DG_SEMANTIC_CXX = re.compile(
    r"^(-f(no-)?(exceptions|non-call-exceptions|rtti|elide-constructors|check-new|strict-enums|"
    r"threadsafe-statics|sized-deallocation|aligned-new(=\d+)?|char8_t|signed-char|"
    r"unsigned-char|short-enums|short-wchar|operator-names|access-control|ms-extensions|"
    r"permissive|use-cxa-atexit|implicit-templates|signed-bitfields|trapv)|"
    r"-fexec-charset=\S+|-ansi|-pthread)$")
# The hand-written exception programs (tests/difftest-cxx/NAME/: lib.cpp, if any, is built
# into a shared library that main.cpp is linked against; headers beside them).
CXX_EH_DIR = os.path.join(REPO, "tests", "difftest-cxx")
CXX_EH_FLAGS = ["-std=gnu++17"]
# --source names: the sources, and the groups (`both` keeps its meaning from before C++).
SOURCES = ("csmith", "torture", "gxx", "cxx-eh")
SOURCE_GROUPS = {"both": ("csmith", "torture"), "cxx": ("gxx", "cxx-eh"), "all": SOURCES}
STATUSES = ("match", "mismatch", "timeout", "build", "unsupported", "ref-timeout")
COMPARED = ("match", "mismatch", "timeout", "build")


def die(msg, code=2):
    print(f"difftest: {msg}", file=sys.stderr)
    sys.exit(code)


def default_clang():
    """The real clang-22, never a smartcc installed under another name."""
    for c in ("/usr/lib/llvm-22/bin/clang", shutil.which("clang-22")):
        if c and os.access(c, os.X_OK):
            return c
    return "clang-22"


def cxx_of(clang):
    """clang++ beside the reference clang (/usr/lib/llvm-22/bin/clang -> clang++, clang-22 ->
    clang++-22)."""
    d, b = os.path.split(clang)
    name = b.replace("clang", "clang++", 1)
    cxx = os.path.join(d, name)
    return cxx if not d or os.access(cxx, os.X_OK) else shutil.which(name) or cxx


def default_cache():
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = xdg if os.path.isabs(xdg) else os.path.expanduser("~/.cache")
    return os.path.join(base, "smartcc", "gcc-torture")


def sanitize(name):
    """The file-name form smartcc gives a candidate in --smartcc-save-candidates (TUOptimizer:
    everything but letters, digits, '-', '_' and '.' becomes '_')."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


# ---------------------------------------------------------------- running commands

STOP = threading.Event()
_RUNNING = set()
_RUNNING_LOCK = threading.Lock()


class Interrupted(Exception):
    pass


@dataclasses.dataclass
class Ran:
    rc: int
    timed_out: bool
    seconds: float
    output: bytes

    def key(self):
        """What two runs must share to agree: output and exit status (or both timed out)."""
        return ("timeout",) if self.timed_out else (self.output, self.rc)

    def text(self, timeout):
        out = self.output.decode("utf-8", "replace")
        if out and not out.endswith("\n"):
            out += "\n"
        return out + (f"[timed out after {timeout} s]\n" if self.timed_out
                      else f"[exit status {self.rc}]\n")


def run(argv, cwd, env, timeout, out_path=None):
    """Runs argv in its own session (so a timeout or Ctrl-C kills its whole process group,
    qemu's included), stdout and stderr merged into out_path or captured."""
    if STOP.is_set():
        raise Interrupted()
    start = time.monotonic()
    sink = open(out_path, "wb") if out_path else subprocess.PIPE
    try:
        p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=sink,
                             stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as e:
        if out_path:
            sink.close()
        return Ran(127, False, time.monotonic() - start, f"{argv[0]}: {e}\n".encode())
    with _RUNNING_LOCK:
        _RUNNING.add(p)
    timed_out = False
    try:
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(p)
            out, _ = p.communicate()
        except BaseException:       # SIGTERM/Ctrl-C (creduce ending a test): no orphans
            kill_group(p)
            raise
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(p)
        if out_path:
            sink.close()
    if STOP.is_set():
        raise Interrupted()
    if out_path:
        with open(out_path, "rb") as f:
            out = f.read()
    return Ran(p.returncode, timed_out, time.monotonic() - start, out or b"")


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        pass


def kill_all_running():
    """Ctrl-C: every child runs in its own session, so the terminal's signal does not reach
    them; end them here, each by its own process group."""
    STOP.set()
    with _RUNNING_LOCK:
        for p in list(_RUNNING):
            kill_group(p)


def limited(argv):
    """Runs a test program with its output capped, so a program printing forever cannot fill
    the disk within its timeout."""
    if shutil.which("prlimit"):
        return ["prlimit", f"--fsize={OUTPUT_LIMIT}", "--"] + argv
    return argv


def isolated_env(out):
    """The user's environment without any SMARTCC_* setting, with an empty configuration
    folder and private counters: results must not depend on who runs the campaign.
    SMARTCC_CONFIG names an empty file, which also keeps out /etc/smartcc/config.toml and any
    .smartcc.toml above the work folders."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SMARTCC_")}
    env["XDG_CONFIG_HOME"] = os.path.join(out, "config")
    env["SMARTCC_STATS_DIR"] = os.path.join(out, "stats")
    env["SMARTCC_CONFIG"] = os.path.join(out, "smartcc-config.toml")
    return env


# ---------------------------------------------------------------- configuration

@dataclasses.dataclass
class Ctx:
    out: str
    bin_dir: str
    smartcc: str
    clang: str
    env: dict
    modes: list
    budget: str
    every_candidate: bool
    reduce: bool
    reduce_timeout: int
    keep_work: bool = False
    clangxx: str = None
    smartcxx: str = None

    def ref_cc(self, prog):
        """The reference compiler for PROG: clang-22, or clang++-22 for C++."""
        return self.clangxx if prog.cxx else self.clang

    def smart_cc(self, prog):
        """smartcc, or its C++ name smartc++ for C++ (the driver links libstdc++)."""
        return self.smartcxx if prog.cxx else self.smartcc

    def mode_flags(self, mode):
        flags, _ = all_modes()[mode]
        # smartcc's LTO pass plugin, installed beside its binaries (driver/LTOLinkCommand.h).
        plugin = os.path.join(os.path.dirname(os.path.abspath(self.smartcc)), "..", "lib",
                              "smartcc", "smartcc-lto-plugin.so")
        flags = [f.replace("{OUT}", self.out).replace("{PLUGIN}", os.path.normpath(plugin))
                 for f in flags]
        return flags + (LIFTED_BUDGET if self.budget == "lifted" else [])

    def mode_isa(self, mode):
        return all_modes()[mode][1]

    def whole_program(self, mode):
        """Whether the mode's links see the whole program (-flto, or whole-program links)."""
        return "-flto" in self.mode_flags(mode) or mode in SEPARATE_MODES


def all_modes():
    return {**MODES, **HIDDEN_MODES}


@dataclasses.dataclass
class Program:
    source: str          # "csmith", "torture", "gxx" or "cxx-eh"
    name: str            # csmith-12, torture-20000112-1, gxx-eh-filter1, cxx-eh-recursion
    file: str            # the (main) source's file name in the work folder
    cflags: list
    seed: int = None
    test: str = None     # torture / g++.dg test file name (eh/filter1.C), cxx-eh folder name
    path: str = None     # torture / g++.dg test source, cxx-eh folder
    cxx: bool = False    # built by clang++ / smartc++
    srcs: list = None    # the main program's sources (default [file])
    lib_srcs: list = dataclasses.field(default_factory=list)  # the shared library's sources
    extra: list = dataclasses.field(default_factory=list)     # other files it needs (headers)
    skip: dict = dataclasses.field(default_factory=dict)      # isa -> why it is unsupported
    modes: list = None   # the modes it runs in, when not the campaign's (the smoke's C++)

    def __post_init__(self):
        if self.srcs is None:
            self.srcs = [self.file]

    def files(self):
        """Every file of the program in its work folder."""
        return list(dict.fromkeys(self.srcs + self.lib_srcs + self.extra))

    def one_file(self):
        return not self.lib_srcs and len(self.srcs) == 1

    def record(self):
        d = {"source": self.source, "program": self.name}
        if self.seed is not None:
            d["seed"] = self.seed
        if self.test is not None:
            d["test"] = self.test
        return d


# ---------------------------------------------------------------- program sources

def csmith_programs(base, count):
    return [Program("csmith", f"csmith-{s}", f"csmith-{s}.c", list(CSMITH_FLAGS), seed=s)
            for s in range(base, base + count)]


def dg_flags(text):
    """The semantic options of a torture test's own dg-options lines (DG_SEMANTIC)."""
    flags = []
    for m in re.finditer(r"\{\s*dg-(?:additional-)?options\s+(\"[^\"]*\"|\{[^}]*\})\s*(\{)?",
                         text):
        if m.group(2):          # a target selector: not for every target, leave it out
            continue
        for opt in m.group(1).strip('"{} ').split():
            if DG_SEMANTIC.match(opt):
                flags.append(opt)
    return flags


def torture_programs(tdir, start, count):
    tests = sorted(glob.glob(os.path.join(tdir, "*.c")))[start:]
    if count is not None:
        tests = tests[:count]
    progs = []
    for t in tests:
        stem = os.path.basename(t)[:-2]
        with open(t, errors="replace") as f:
            extra = dg_flags(f.read())
        progs.append(Program("torture", f"torture-{stem}", os.path.basename(t),
                             TORTURE_FLAGS + extra, test=os.path.basename(t), path=t))
    return progs


def tcl_list(text):
    """A Tcl list as DejaGnu reads a dg directive: words, "quoted strings" and {braced}
    sublists (nested lists, parsed again by the caller when needed)."""
    items, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            items.append(("{", text[i + 1:j - 1]))
            i = j
        elif c == '"':
            j = text.find('"', i + 1)
            j = n if j < 0 else j
            items.append(('"', text[i + 1:j]))
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "{}":
                j += 1
            items.append(("w", text[i:j]))
            i = max(j, i + 1)
    return items


def dg_directives(text):
    """Every `{ dg-NAME args }` of a test: (NAME, [args as tcl_list items])."""
    out = []
    for m in re.finditer(r"\{\s*dg-([\w-]+)", text):
        depth, j = 1, m.end()
        while j < len(text) and depth and text[j] != "\n":
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        if depth == 0:
            out.append((m.group(1), tcl_list(text[m.end():j - 1])))
    return out


GXX_TRIPLES = {"x86_64": "x86_64-pc-linux-gnu", "aarch64": "aarch64-unknown-linux-gnu"}
# C++ standards by the year they name (c++98 and c++03 alike), as -std and DejaGnu spell them.
STD_YEARS = {"98": 1998, "03": 1998, "0x": 2011, "11": 2011, "1y": 2014, "14": 2014,
             "1z": 2017, "17": 2017, "2a": 2020, "20": 2020, "2b": 2023, "23": 2023,
             "2c": 2026, "26": 2026}
# DejaGnu effective targets, as they are for clang-22 on x86-64 and AArch64 GNU/Linux (PIE by
# default). A keyword not listed makes the test unsupported (named in its result's detail).
EFFECTIVE = {
    **{k: True for k in (
        "lp64", "int32plus", "size20plus", "size24plus", "size32plus", "ptr32plus",
        "indirect_jumps", "alloca", "fpic", "pie", "pie_enabled", "fstack_protector", "weak",
        "alias", "ifunc", "visibility", "gc_sections", "named_sections", "tls", "tls_native",
        "tls_runtime", "pthread", "sync_int_long", "sync_long_long", "sync_long_long_runtime",
        "sync_char_short", "cxa_atexit", "init_priority", "c++", "native", "le", "int128",
        "stdint_types", "inttypes_types", "nonlocal_goto", "label_values", "shared", "rdynamic",
        "weak_override", "iconv", "lto", "exceptions", "rtti", "exceptions_enabled",
        "double64", "large_double", "builtin_eh_return", "c99_runtime", "unwrapped",
        "cet", "freorder", "static", "thread_fence", "gld")},
    **{k: False for k in ("ilp32", "llp64", "nonpic", "be", "arm32", "dfp", "trampolines",
                          "c", "fopenmp", "fopenacc", "dll", "hppa")},
}
EFFECTIVE_X86 = {"sse", "sse2", "sse_runtime", "sse2_runtime", "cet"}


class UnknownKeyword(Exception):
    pass


def target_true(words, isa, std):
    """A DejaGnu target selector (the list after `target`/`xfail`), for ISA and C++ standard
    STD: a list of triplet patterns and effective targets (any true), or an expression with
    !, && and || over nested braced selectors."""
    if any(w in (("w", "!"), ("w", "&&"), ("w", "||")) for w in words):
        val, op, neg = None, None, False
        for kind, w in words:
            if kind == "w" and w == "!":
                neg = not neg
                continue
            if kind == "w" and w in ("&&", "||"):
                op = w
                continue
            if val is not None and val == (op == "||"):
                neg = False         # decided: `false && x`, `true || x` (x may be unknown)
                continue
            v = (target_true(tcl_list(w), isa, std) if kind == "{"
                 else target_word(w, isa, std)) != neg
            neg = False
            val = v if val is None else (val and v if op == "&&" else val or v)
        return bool(val)
    return any(target_true(tcl_list(w), isa, std) if kind == "{" else target_word(w, isa, std)
               for kind, w in words)


def target_word(w, isa, std):
    m = re.fullmatch(r"c\+\+(\w\w)(_only|_down)?", w)
    if m and m.group(1) in STD_YEARS:
        y = STD_YEARS[m.group(1)]
        return std == y if m.group(2) == "_only" else std <= y if m.group(2) else std >= y
    if "-" in w and ("*" in w or w.count("-") >= 2):
        return fnmatch.fnmatchcase(GXX_TRIPLES[isa], w) or fnmatch.fnmatchcase(
            GXX_TRIPLES[isa], w + "-*")
    if w in EFFECTIVE_X86:
        return isa == "x86_64"
    if w in EFFECTIVE:
        return EFFECTIVE[w]
    raise UnknownKeyword(w)


def selector(args):
    """The `{ target SEL }` / `{ xfail SEL }` of a directive's arguments: (kind, SEL items)
    or (None, None)."""
    for kind, w in args:
        if kind == "{":
            inner = tcl_list(w)
            if inner and inner[0][0] == "w" and inner[0][1] in ("target", "xfail"):
                return inner[0][1], inner[1:]
    return None, None


def std_of(flags):
    std = None
    for f in flags:
        m = re.fullmatch(r"-std=(?:c|gnu)\+\+(\w\w)", f)
        if m and m.group(1) in STD_YEARS:
            std = STD_YEARS[m.group(1)]
        elif f == "-ansi":
            std = 1998
    return std


def gxx_constraints(text, isa, std):
    """None when a g++.dg test runs for ISA under standard STD, else why not. A test runs when
    its last dg-do that applies is `run` and not expected to fail there, and every
    dg-require-* and dg-skip-if allows it (unknown effective targets: unsupported)."""
    try:
        action = None
        for name, args in dg_directives(text):
            if name == "do" and args:
                kind, sel = selector(args[1:])
                if kind == "target" and not target_true(sel, isa, std):
                    continue
                action = args[0][1]
                if kind == "xfail" and target_true(sel, isa, std):
                    action = "xfail"
            elif name.startswith("require-"):
                words = args if name.startswith("require-effective") else \
                    [("w", name[len("require-"):].replace("-", "_"))] + args
                kind, sel = selector(words[1:])
                if kind == "target" and not target_true(sel, isa, std):
                    continue
                for k, w in words[:1]:
                    if not target_true([(k, w)], isa, std):
                        return f"dg-{name} {w}"
            elif name == "skip-if" and len(args) >= 2:
                opts = args[2][1].split() if len(args) > 2 else []
                if opts and opts != ["*"]:
                    continue            # skipped only with options we never give
                if target_true(tcl_list(args[1][1]) if args[1][0] == "{" else [args[1]],
                               isa, std):
                    return f"dg-skip-if {args[1][1].strip()}"
            elif name == "xfail-run-if" and len(args) >= 2:
                if target_true(tcl_list(args[1][1]) if args[1][0] == "{" else [args[1]],
                               isa, std):
                    return f"dg-xfail-run-if {args[1][1].strip()}"
        if action == "xfail":
            return "dg-do run is expected to fail here"
        if action != "run":
            return f"dg-do {action or 'run'} does not apply here"
    except UnknownKeyword as e:
        return f"effective target {e} unknown to difftest"
    return None


def gxx_flags(text):
    """The semantic options of a g++.dg test's untargeted dg-options lines."""
    flags = []
    for m in re.finditer(r"\{\s*dg-(?:additional-)?options\s+(\"[^\"]*\"|\{[^}]*\}|[^\s{}]+)"
                         r"\s*(\{)?", text):
        if m.group(2):
            continue
        for opt in m.group(1).strip('"{} ').split():
            if DG_SEMANTIC.match(opt) or DG_SEMANTIC_CXX.match(opt):
                flags.append(opt)
    return flags


def local_includes(folder, name, seen=None):
    """The files FOLDER/NAME includes by a plain quoted name from its own folder, recursively
    (vshuf-main.inc, pr77745.C): copied beside the test."""
    seen = set() if seen is None else seen
    try:
        with open(os.path.join(folder, name), errors="replace") as f:
            text = f.read()
    except OSError:
        return seen
    for inc in re.findall(r'^\s*#\s*include\s+"([^"/]+)"', text, re.M):
        if inc not in seen and os.path.exists(os.path.join(folder, inc)):
            seen.add(inc)
            local_includes(folder, inc, seen)
    return seen


def gxx_programs(gdir, start, count):
    """The `dg-do run` tests of GXX_DIRS, sorted by folder/name. Each gets one standard (-std
    from its dg-options, else gnu++17, else the first of 14, 20, 11, 98, 23 its selectors
    allow on x86-64 or AArch64); an ISA its selectors exclude is recorded in Program.skip."""
    tests = []
    for d in GXX_DIRS:
        for t in sorted(glob.glob(os.path.join(gdir, d, "*.C"))):
            with open(t, errors="replace") as f:
                text = f.read()
            if re.search(r"\{\s*dg-do\s+run\b", text):
                tests.append((f"{d}/{os.path.basename(t)}", t, text))
    tests = tests[start:]
    if count is not None:
        tests = tests[:count]
    progs = []
    for rel, path, text in tests:
        folder, base = os.path.split(path)
        flags = gxx_flags(text)
        std = std_of(flags)
        if std is None:
            std = 2017
            for y in (2017, 2014, 2020, 2011, 1998, 2023):
                if any(gxx_constraints(text, isa, y) is None for isa in ISAS):
                    std = y
                    break
            flags = [f"-std=gnu++{std % 100:02d}" if std != 2017 else f"-std={GXX_STD}"] + flags
        aux = []
        for name, args in dg_directives(text):
            if name == "additional-sources" and args:
                aux += args[0][1].split()
        extra = set(local_includes(folder, base))
        for a in aux:
            extra |= {a} | local_includes(folder, a)
        skip = {}
        for isa in ISAS:
            why = gxx_constraints(text, isa, std)
            if why is None and any(not os.path.exists(os.path.join(folder, a)) for a in aux):
                why = "dg-additional-sources missing"
            if why:
                skip[isa] = why
        progs.append(Program("gxx", f"gxx-{rel[:-2].replace('/', '-')}", base,
                             GXX_FLAGS + flags, test=rel, path=path, cxx=True,
                             srcs=[base] + aux, extra=sorted(extra - set(aux)), skip=skip))
    return progs


def cxx_eh_programs(count):
    """The hand-written exception programs, one per folder of tests/difftest-cxx."""
    progs = []
    for d in sorted(glob.glob(os.path.join(CXX_EH_DIR, "*", "main.cpp"))):
        folder = os.path.dirname(d)
        files = sorted(os.listdir(folder))
        lib = [f for f in files if f == "lib.cpp"]
        progs.append(Program("cxx-eh", f"cxx-eh-{os.path.basename(folder)}", "main.cpp",
                             list(CXX_EH_FLAGS), test=os.path.basename(folder), path=folder,
                             cxx=True, srcs=["main.cpp"], lib_srcs=lib,
                             extra=[f for f in files if f.endswith((".h", ".hpp", ".inc"))]))
    return progs[:count] if count is not None else progs


def find_tarball():
    found = sorted(glob.glob(TORTURE_TARBALL_GLOB))
    found = [f for f in found if os.path.basename(f).startswith("gcc-1")]
    return found[-1] if found else None


def install_gcc_source():
    """Debian's gcc-12-source ships the GCC tarball (with the torture tests) under /usr/src."""
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print("difftest: installing gcc-12-source (the GCC torture tests)", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "gcc-12-source"]
    if subprocess.run(cmd, env=env).returncode != 0:
        subprocess.run(sudo + ["apt-get", "update", "-qq"], env=env)
        subprocess.run(cmd, env=env, check=True)


# What the cache holds, unpacked on first use: kind -> (marker file, tar members, the folder
# under gcc/testsuite). The marker names the folder (and, for g++.dg, the folders unpacked).
GCC_TESTS = {
    "c": (".complete", [TORTURE_MEMBERS], ("gcc.c-torture", "execute")),
    "c++": (".complete-g++", [f"*/gcc/testsuite/g++.dg/{d}/*" for d in GXX_DIRS], ("g++.dg",)),
}


def torture_dir(cache, allow_install):
    """The execute torture tests, unpacked once into the cache (only that folder of the
    tarball, about 5 s); never into the repository. None when unavailable."""
    return gcc_test_dirs(cache, allow_install, ["c"]).get("c")


def gxx_dir(cache, allow_install):
    """g++.dg's GXX_DIRS folders, unpacked into the same cache (about 10 s)."""
    return gcc_test_dirs(cache, allow_install, ["c++"]).get("c++")


def gcc_test_dirs(cache, allow_install, kinds):
    """{kind: folder} for the GCC tests of KINDS ("c", "c++"), unpacking in one tar run
    whatever the cache does not hold yet. {} when the tarball is unavailable."""
    have, missing = {}, []
    for k in kinds:
        marker = os.path.join(cache, GCC_TESTS[k][0])
        lines = open(marker).read().split("\n") if os.path.exists(marker) else []
        if lines and os.path.isdir(lines[0].strip()) and (
                k == "c" or lines[1:2] == [",".join(GXX_DIRS)]):
            have[k] = lines[0].strip()
        else:
            missing.append(k)
    if not missing:
        return have
    tarball = find_tarball()
    if not tarball:
        if not allow_install:
            return {}
        install_gcc_source()
        tarball = find_tarball()
        if not tarball:
            die("gcc-12-source is installed but no /usr/src/gcc-12/gcc-*.tar.xz was found")
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="unpack-", dir=cache)
    what = " and ".join({"c": "the torture tests", "c++": "g++.dg's tests"}[k] for k in missing)
    print(f"difftest: unpacking {what} from {tarball} into {cache}", flush=True)
    members = [m for k in missing for m in GCC_TESTS[k][1]]
    subprocess.run(["tar", "-xJf", tarball, "-C", tmp, "--wildcards"] + members, check=True)
    for k in missing:
        sub = GCC_TESTS[k][2]
        found = glob.glob(os.path.join(tmp, "*", "gcc", "testsuite", *sub))
        if not found:
            die(f"{tarball} has no gcc/testsuite/{'/'.join(sub)}")
        # tmp/gcc-12.2.0/gcc/testsuite/SUB -> cache/gcc-12.2.0/gcc/testsuite/SUB
        top = os.path.relpath(found[0], tmp).split(os.sep)[0]
        final = os.path.join(cache, top, "gcc", "testsuite", *sub)
        shutil.rmtree(final, ignore_errors=True)
        os.makedirs(os.path.dirname(final), exist_ok=True)
        os.rename(found[0], final)
        with open(os.path.join(cache, GCC_TESTS[k][0]), "w") as f:
            f.write(final + "\n" + (",".join(GXX_DIRS) + "\n" if k == "c++" else ""))
        have[k] = final
    shutil.rmtree(tmp, ignore_errors=True)
    return have


def write_source(ctx, prog, wdir):
    """Generates (csmith) or copies (torture) the program into its work folder. False when
    csmith fails."""
    dst = os.path.join(wdir, prog.file)
    if prog.source in ("torture", "gxx", "cxx-eh"):
        folder = prog.path if prog.source == "cxx-eh" else os.path.dirname(prog.path)
        for f in prog.files():
            if os.path.exists(os.path.join(folder, f)):
                shutil.copyfile(os.path.join(folder, f), os.path.join(wdir, f))
        return True
    r = run(["csmith", "--seed", str(prog.seed), "--no-packed-struct", "-o", prog.file],
            wdir, ctx.env, 120)
    return r.rc == 0 and not r.timed_out and os.path.exists(dst)


# ---------------------------------------------------------------- builds

def lib_name(exe):
    return f"lib{exe}.so"


def build_cmds(cc, prog, exe, log=None):
    """The commands that build EXE from PROG's sources with CC (the compiler's argv with the
    target and flags): one command for a one-file program; a program with a shared library
    builds lib{EXE}.so first (-fPIC -shared, its own soname) and links the main program
    against it with the rpath $ORIGIN, so it runs from its folder natively and under qemu.
    LOG(role) gives a command's extra arguments (smartcc's decision log)."""
    log = log or (lambda role: [])
    cmds, inputs = [], list(prog.srcs)
    if prog.lib_srcs:
        lib = lib_name(exe)
        cmds.append(cc + log("lib") + ["-fPIC", "-shared"] + prog.lib_srcs
                    + ["-o", lib, f"-Wl,-soname,{lib}"] + LINK_FLAGS)
        inputs += [lib, "-Wl,-rpath,$ORIGIN"]
    cmds.append(cc + log("main") + inputs + ["-o", exe] + LINK_FLAGS)
    return cmds


def link_objects_cmds(cc, prog, exe, lib_objs, main_objs):
    """build_cmds for objects already compiled (--every-candidate)."""
    cmds, inputs = [], list(main_objs)
    if prog.lib_srcs:
        lib = lib_name(exe)
        cmds.append(cc + ["-shared"] + lib_objs + ["-o", lib, f"-Wl,-soname,{lib}"]
                    + LINK_FLAGS)
        inputs += [lib, "-Wl,-rpath,$ORIGIN"]
    cmds.append(cc + inputs + ["-o", exe] + LINK_FLAGS)
    return cmds


def ref_build_cmds(ctx, prog, isa, level, exe):
    return build_cmds([ctx.ref_cc(prog)] + list(ISAS[isa].target) + prog.cflags
                      + level.split(), prog, exe)


def smartcc_log_arg(mode, role):
    return [f"--smartcc-log={mode}.log.jsonl" if role == "main"
            else f"--smartcc-log={mode}.{role}.log.jsonl"]


def object_name(exe, prog, src):
    """--every-candidate's object of SRC: EXE.o for a one-file program."""
    return exe + ".o" if prog.one_file() else f"{exe}.{os.path.splitext(src)[0]}.o"


def smartcc_cmds(ctx, prog, mode, exe):
    """The smartcc commands of one mode: straight to an executable (and its library), or
    with --every-candidate one compile per source to an object plus every candidate's
    object, linked by clang-22 afterwards (link_objects_cmds)."""
    isa = ctx.mode_isa(mode)
    base = ([ctx.smart_cc(prog)] + list(ISAS[isa].target) + prog.cflags
            + ctx.mode_flags(mode))
    if mode in SEPARATE_MODES:
        objs = {}
        cmds = []
        for src in prog.lib_srcs + prog.srcs:
            objs[src] = object_name(exe, prog, src)
            cmds.append(base + (["-fPIC"] if src in prog.lib_srcs else [])
                        + ["-c", src, "-o", objs[src]])
        links = link_objects_cmds(base, prog, exe, [objs[s] for s in prog.lib_srcs],
                                  [objs[s] for s in prog.srcs])
        roles = ["lib", "main"] if prog.lib_srcs else ["main"]
        return cmds + [c[:1] + smartcc_log_arg(mode, r) + c[1:] for c, r in zip(links, roles)]
    if not ctx.every_candidate or mode in DIRECT_MODES:
        return build_cmds(base, prog, exe, lambda role: smartcc_log_arg(mode, role))
    cmds = []
    for src in prog.lib_srcs + prog.srcs:
        role = "lib" if src in prog.lib_srcs else "main"
        tag = "main" if prog.one_file() else os.path.splitext(src)[0]
        cmds.append(base + smartcc_log_arg(mode, tag)
                    + [f"--smartcc-save-candidates=cands-{mode}"]
                    + (["-fPIC"] if role == "lib" else [])
                    + ["-c", src, "-o", object_name(exe, prog, src)])
    return cmds


def link_cmds(ctx, prog, isa, exe, objs):
    """Links the objects OBJS (source -> object) into EXE (and its library) with clang-22."""
    return link_objects_cmds([ctx.ref_cc(prog)] + list(ISAS[isa].target), prog, exe,
                             [objs[s] for s in prog.lib_srcs], [objs[s] for s in prog.srcs])


def run_cmd(isa, exe):
    return list(ISAS[isa].runner) + ["./" + exe]


class ToolchainBroken(Exception):
    """smartcc fails on a trivial program: no result of this campaign would mean anything."""


CANARY = "int main(void) { return 0; }\n"


def compile_all(ctx, mode, cmds, wdir, prog=None):
    """compile_smartcc for each command in turn (a library, then the program); the first
    failure ends it. Returns the last Ran, with the seconds of all of them."""
    total, r = 0.0, None
    for argv in cmds:
        r = compile_smartcc(ctx, mode, argv, wdir, prog)
        total += r.seconds
        if r.rc != 0 or r.timed_out:
            break
    r.seconds = total
    return r


def run_all(cmds, cwd, env, timeout):
    """Runs link (or reference build) commands in turn; the first failure ends it."""
    total, r = 0.0, None
    for argv in cmds:
        r = run(argv, cwd, env, timeout)
        total += r.seconds
        if r.rc != 0 or r.timed_out:
            break
    r.seconds = total
    return r


def compile_smartcc(ctx, mode, argv, wdir, prog=None):
    """One smartcc compile. A failure counts only when smartcc still fails once its bin
    folder has been quiet for a while and while it compiles a trivial program with the same
    flags: a binary missing, half-written or out of step with its siblings because someone is
    rebuilding beside the campaign is not a bug of the program's compile. Waits up to 30
    minutes for a broken smartcc to be rebuilt, then gives up (ToolchainBroken)."""
    r = run(argv, wdir, ctx.env, COMPILE_TIMEOUT)
    deadline = time.monotonic() + 1800
    while r.rc != 0 and not r.timed_out:
        wait_until_settled(ctx.bin_dir)
        r = run(argv, wdir, ctx.env, COMPILE_TIMEOUT)
        if r.rc == 0 or r.timed_out or smartcc_works(ctx, mode, wdir, prog):
            break
        if time.monotonic() > deadline:
            raise ToolchainBroken(r.output.decode("utf-8", "replace")[-1000:])
        print(f"difftest: smartcc fails on a trivial program in mode {mode} (a rebuild in "
              "progress?); waiting for it to change", flush=True)
        wait_for_change(ctx.bin_dir, deadline)
    if r.timed_out:
        # The limit is wall-clock: a campaign stopped (SIGSTOP) or starved by other work looks
        # like a hang. A real hang repeats; only then is it recorded.
        print(f"difftest: a smartcc compile in mode {mode} ran out of its {COMPILE_TIMEOUT} s; "
              "compiling it once more", flush=True)
        r = run(argv, wdir, ctx.env, COMPILE_TIMEOUT)
    return r


def smartcc_works(ctx, mode, wdir, prog=None):
    """smartcc (smartc++ for a C++ program) compiles a trivial program in MODE."""
    cxx = prog is not None and prog.cxx
    src = "canary.cc" if cxx else "canary.c"
    with open(os.path.join(wdir, src), "w") as f:
        f.write(CANARY)
    argv = ([ctx.smartcxx if cxx else ctx.smartcc] + list(ISAS[ctx.mode_isa(mode)].target)
            + ctx.mode_flags(mode) + [src, "-o", "canary"])
    return run(argv, wdir, ctx.env, COMPILE_TIMEOUT).rc == 0


def newest_mtime(bin_dir):
    try:
        return max(os.lstat(os.path.join(bin_dir, f)).st_mtime for f in os.listdir(bin_dir))
    except (OSError, ValueError):
        return time.time()


def wait_for_change(bin_dir, deadline):
    before = newest_mtime(bin_dir)
    while time.monotonic() < deadline and newest_mtime(bin_dir) == before:
        if STOP.is_set():
            raise Interrupted()
        time.sleep(5)


def wait_until_settled(bin_dir, quiet=15, limit=900):
    """Waits (at most LIMIT s) until no file in bin_dir changed for QUIET seconds and smartcc
    is there."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if time.time() - newest_mtime(bin_dir) >= quiet and os.access(
                os.path.join(bin_dir, "smartcc"), os.X_OK):
            return
        if STOP.is_set():
            raise Interrupted()
        time.sleep(2)


def read_log(path):
    """smartcc's decision for the TU: the last JSON line of the mode's log (one TU per
    compile), or None when smartcc did not take the compile over."""
    try:
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if l.strip()]
        return json.loads(lines[-1]) if lines else None
    except (OSError, ValueError):
        return None


def shipped_sequence(log):
    """The shipped sequence: the 'sequence' of the candidate named by 'chosen'; 'baseline'
    for clang's own object; a library candidate (oz-machine-outliner, ml-regalloc, ...) has
    none, its name stands for it."""
    if not log:
        return None, None
    chosen = log.get("chosen")
    if chosen in (None, "baseline"):
        return chosen, "baseline"
    for c in log.get("candidates", []):
        if c.get("name") == chosen:
            return chosen, c.get("sequence") or f"{chosen} (no pass sequence)"
    return chosen, None


def candidate_sequence(log, name):
    for c in (log or {}).get("candidates", []):
        if c.get("name") == name:
            return c.get("sequence") or f"{name} (no pass sequence)"
    return None


def saved_objects(wdir, cdir, obj, log):
    """(candidate name, object path relative to wdir) of every object that
    --smartcc-save-candidates=CDIR wrote for OBJ, named back from the file name through the
    log's candidate list, in the log's order."""
    prefix = obj + "."
    path = os.path.join(wdir, cdir)
    # (The fat object's pre-link bitcode, saved beside the candidates, is no object to run.)
    files = {f[len(prefix):-2]: os.path.join(cdir, f)
             for f in (os.listdir(path) if os.path.isdir(path) else [])
             if f.startswith(prefix) and f.endswith(".o")
             and not f.endswith("._pre-link_bitcode_.o")}
    out = []
    for c in (log or {}).get("candidates", []):
        key = sanitize(c.get("name", ""))
        if key in files:
            out.append((c["name"], files.pop(key)))
    out.extend(sorted(files.items()))     # a file the log does not name: keep its file name
    return out


# ---------------------------------------------------------------- one program

class ProgramRun:
    """All the work of one program: references, every mode (and candidate), classification,
    saving and reducing mismatches. Returns the result rows."""

    def __init__(self, ctx, prog, modes=None):
        self.ctx, self.prog = ctx, prog
        self.modes = modes or ctx.modes
        self.wdir = os.path.join(ctx.out, "work", prog.name)
        self.refs = {}          # isa -> (status, Ran or None, why)
        self.ref_cmds = {}      # isa -> [compile argv, run argv]
        self.clang_levels = {}  # isa -> [(level, "same" | "differs" | "no build")]
        self.lto_level = {}     # isa -> the same for CLASSIFY_LTO_LEVEL
        self.rows = []
        self.kept = False
        self.reduced_modes = set()

    def go(self):
        shutil.rmtree(self.wdir, ignore_errors=True)
        os.makedirs(self.wdir)
        self.clear_old_mismatches()
        if not write_source(self.ctx, self.prog, self.wdir):
            for mode in self.modes:
                self.add_row(mode, None, "unsupported", detail="csmith failed")
            return self.finish()
        for mode in self.modes:
            self.do_mode(mode)
        return self.finish()

    def clear_old_mismatches(self):
        """A program redone after an interruption must not leave the folders of mismatches
        its unrecorded first attempt saw."""
        mroot = os.path.join(self.ctx.out, "mismatches")
        for d in os.listdir(mroot) if os.path.isdir(mroot) else []:
            for mode in self.modes:
                stem = f"{self.prog.name}-{mode}"
                if d == stem or d.startswith(stem + "-"):
                    shutil.rmtree(os.path.join(mroot, d), ignore_errors=True)

    def finish(self):
        if not self.kept and not self.ctx.keep_work:
            shutil.rmtree(self.wdir, ignore_errors=True)
        return self.rows

    def add_row(self, mode, cand, status, cls=None, chosen=None, seq=None, seconds=0.0,
                detail=None):
        row = dict(self.prog.record(), mode=mode, isa=self.ctx.mode_isa(mode),
                   candidate=cand, status=status)
        if cls:
            row["class"] = cls
        if status == "build" and detail and "undefined reference" in detail:
            # The object calls a function nothing defines: typically a gnu89 `extern inline`
            # or C99 `inline` function clang's pipeline inlined and this one did not.
            row["hint"] = "undefined-reference"
        row.update(chosen=chosen, sequence=seq, seconds=round(seconds, 3))
        if detail:
            row["detail"] = detail
        self.rows.append(row)
        return row

    # -- reference

    def reference(self, isa):
        """clang-22 -O0 for the ISA, built and run once per program. A program clang cannot
        build, or whose -O0 binary fails, is 'unsupported'; one that runs more than half the
        time limit is 'ref-timeout' (the other builds need room on a loaded machine, or a slow
        run would look like a smartcc timeout): neither can judge smartcc."""
        if isa in self.refs:
            return self.refs[isa]
        if isa in self.prog.skip:
            self.refs[isa] = ("unsupported", None, self.prog.skip[isa])
            return self.refs[isa]
        exe = f"ref-{isa}"
        build = ref_build_cmds(self.ctx, self.prog, isa, "-O0", exe)
        runc = run_cmd(isa, exe)
        self.ref_cmds[isa] = [build, runc]
        b = run_all(build, self.wdir, self.ctx.env, COMPILE_TIMEOUT)
        if b.rc != 0 or b.timed_out:
            self.refs[isa] = ("unsupported", None, "clang-22 -O0 does not build it")
        else:
            r = self.run_exe(isa, exe)
            if r.timed_out or r.seconds > ISAS[isa].run_timeout / 2:
                self.refs[isa] = ("ref-timeout", r, f"-O0 binary ran {r.seconds:.1f} s")
            elif r.rc != 0:
                self.refs[isa] = ("unsupported", r, f"-O0 binary exits {r.rc}")
            else:
                self.refs[isa] = ("ok", r, None)
        return self.refs[isa]

    def probe_reference(self):
        """The native reference alone, in a scratch folder (the smoke's torture selection)."""
        try:
            os.makedirs(self.wdir, exist_ok=True)
            write_source(self.ctx, self.prog, self.wdir)
            return self.reference("x86_64")
        finally:
            shutil.rmtree(self.wdir, ignore_errors=True)

    def run_exe(self, isa, exe):
        return run(limited(run_cmd(isa, exe)), self.wdir, self.ctx.env, ISAS[isa].run_timeout,
                   out_path=os.path.join(self.wdir, exe + ".out"))

    # -- modes

    def unit_tags(self):
        """The decision logs of a mode's compiles: 'main' for a one-file program; with
        --every-candidate one per source, else 'lib' (the library's command) and 'main'."""
        p = self.prog
        if p.one_file():
            return ["main"]
        if self.ctx.every_candidate:
            return [os.path.splitext(f)[0] for f in p.lib_srcs + p.srcs]
        return (["lib"] if p.lib_srcs else []) + ["main"]

    def logs(self, mode, tags):
        """(chosen, sequence, log) of a mode: a one-file program's log line; for several
        commands a list of (tag, log line) and 'tag: chosen' joined by '; '."""
        lines = [(t, read_log(os.path.join(self.wdir, f"{mode}.log.jsonl" if t == "main"
                                           else f"{mode}.{t}.log.jsonl"))) for t in tags]
        if len(lines) == 1:
            return (*shipped_sequence(lines[0][1]), lines[0][1])
        ch = [(t, *shipped_sequence(l)) for t, l in lines]
        return ("; ".join(f"{t}: {c}" for t, c, _ in ch),
                "; ".join(f"{t}: {q}" for t, _, q in ch), lines)

    def do_mode(self, mode):
        ctx, isa = self.ctx, self.ctx.mode_isa(mode)
        status, ref, why = self.reference(isa)
        if status != "ok":
            self.add_row(mode, None, status, detail=why)
            return
        exe = f"m-{mode}"
        tags = self.unit_tags()
        for t in tags:
            stale = f"{mode}.log.jsonl" if t == "main" else f"{mode}.{t}.log.jsonl"
            if os.path.exists(os.path.join(self.wdir, stale)):
                os.remove(os.path.join(self.wdir, stale))
        steps = smartcc_cmds(ctx, self.prog, mode, exe)
        c = compile_all(ctx, mode, steps, self.wdir, self.prog)
        chosen, seq, log = self.logs(mode, tags)
        steps = list(steps)
        saved = ctx.every_candidate and mode not in DIRECT_MODES
        objs = {src: object_name(exe, self.prog, src)
                for src in self.prog.lib_srcs + self.prog.srcs}
        if c.rc == 0 and not c.timed_out and saved:
            link = link_cmds(ctx, self.prog, isa, exe, objs)
            steps += link
            lk = run_all(link, self.wdir, ctx.env, COMPILE_TIMEOUT)
            if lk.rc != 0 or lk.timed_out:
                c = lk
        if c.rc != 0 or c.timed_out:
            detail = (f"timed out after {COMPILE_TIMEOUT} s" if c.timed_out
                      else c.output.decode("utf-8", "replace")[-2000:])
            cls = self.classify_build(mode)
            row = self.add_row(mode, None, "build", cls, chosen, seq, c.seconds, detail)
            self.save_mismatch(row, steps, exe, ref, None, log, c)
            return
        r = self.run_exe(isa, exe)
        self.judge(mode, None, chosen, seq, c.seconds, steps, exe, ref, r, log)
        if saved:
            compiles = steps[:len(objs)]
            for (src, obj), tag in zip(objs.items(), tags):
                ulog = log if self.prog.one_file() else dict(log)[tag]
                for name, cobj in saved_objects(self.wdir, f"cands-{mode}", obj, ulog):
                    self.do_candidate(mode, name, dict(objs, **{src: cobj}), chosen, ulog,
                                      compiles, ref, None if self.prog.one_file() else tag)

    def do_candidate(self, mode, name, objs, chosen, log, compiles, ref, tag=None):
        """A candidate smartcc measured, linked (with the other sources' shipped objects) and
        run: wrong code is a bug even when it lost, since another TU or another effort level
        may ship it. TAG names the source of a program with several ('lib/agent#1')."""
        isa = self.ctx.mode_isa(mode)
        exe = f"m-{mode}.{sanitize(name)}" if tag is None else \
            f"m-{mode}.{tag}.{sanitize(name)}"
        link = link_cmds(self.ctx, self.prog, isa, exe, objs)
        seq = candidate_sequence(log, name)
        cand = name if tag is None else f"{tag}/{name}"
        lk = run_all(link, self.wdir, self.ctx.env, COMPILE_TIMEOUT)
        if lk.rc != 0 or lk.timed_out:
            row = self.add_row(mode, cand, "build", self.classify_build(mode), chosen, seq,
                               lk.seconds, lk.output.decode("utf-8", "replace")[-2000:])
            self.save_mismatch(row, compiles + link, exe, ref, None, log, lk)
            return
        r = self.run_exe(isa, exe)
        self.judge(mode, cand, chosen, seq, lk.seconds, compiles + link, exe, ref, r, log)

    def judge(self, mode, cand, chosen, seq, seconds, steps, exe, ref, r, log):
        if r.key() == ref.key():
            self.add_row(mode, cand, "match", None, chosen, seq, seconds)
            return
        status = "timeout" if r.timed_out else "mismatch"
        isa = self.ctx.mode_isa(mode)
        cls, _ = self.classify(isa, self.ctx.whole_program(mode))
        row = self.add_row(mode, cand, status, cls, chosen, seq, seconds)
        if cls == "smartcc-only" and self.aliasing_dependent(row, ref):
            row["hint"] = "strict-aliasing"
        self.save_mismatch(row, steps, exe, ref, r, log, None)

    def aliasing_dependent(self, row, ref):
        """True when the same object built with -fno-strict-aliasing agrees with -O0: the
        program likely breaks C's aliasing rules (which sanitizers cannot see) in a way
        clang's own pipeline happens not to exploit; or smartcc's alias analysis is wrong."""
        spec = repro_spec(self.ctx, self.prog, row)
        runs = rebuild_runs(spec, self.wdir, self.ctx.env, ["-fno-strict-aliasing"],
                            f"nsa-{row['mode']}", ISAS[row["isa"]].run_timeout)
        return bool(runs) and all(r.key() == ref.key() for r in runs)

    # -- classification

    def classify(self, isa, lto=False):
        """'shared' when clang-22 itself, at some optimization level, disagrees with its -O0
        build (undefined behaviour, or a clang bug); else 'smartcc-only'."""
        if isa not in self.clang_levels:
            _, ref, _ = self.refs[isa]
            res = []
            for level in CLASSIFY_LEVELS:
                exe = f"c-{isa}{level.replace(' ', '')}"
                b = run_all(ref_build_cmds(self.ctx, self.prog, isa, level, exe), self.wdir,
                            self.ctx.env, COMPILE_TIMEOUT)
                if b.rc != 0 or b.timed_out:
                    res.append((level, "no build"))
                    continue
                r = self.run_exe(isa, exe)
                res.append((level, "same" if r.key() == ref.key() else "differs"))
            self.clang_levels[isa] = res
        res = list(self.clang_levels[isa])
        if lto:
            if isa not in self.lto_level:
                exe = f"c-{isa}-lto"
                b = run_all(ref_build_cmds(self.ctx, self.prog, isa, CLASSIFY_LTO_LEVEL, exe),
                            self.wdir, self.ctx.env, COMPILE_TIMEOUT)
                _, ref, _ = self.refs[isa]
                self.lto_level[isa] = (CLASSIFY_LTO_LEVEL, "no build" if b.rc or b.timed_out
                                       else "same" if self.run_exe(isa, exe).key() == ref.key()
                                       else "differs")
            res.append(self.lto_level[isa])
        return ("shared" if any(v == "differs" for _, v in res) else "smartcc-only"), res

    def classify_build(self, mode):
        """A smartcc compile failure is 'shared' when plain clang-22 with the mode's -O level
        fails as well."""
        isa = self.ctx.mode_isa(mode)
        level = next(f for f in self.ctx.mode_flags(mode) if f.startswith("-O"))
        b = run_all(ref_build_cmds(self.ctx, self.prog, isa, level, f"c-{isa}{level}-build"),
                    self.wdir, self.ctx.env, COMPILE_TIMEOUT)
        return "shared" if (b.rc != 0 or b.timed_out) else "smartcc-only"

    # -- saving

    def save_mismatch(self, row, steps, exe, ref, r, log, failed):
        """OUT/mismatches/PROGRAM-MODE[-CANDIDATE]/: the source, a runnable cmd.txt, both
        outputs, the log line, the shipped sequence and the class, then maybe a reduction."""
        self.kept = True
        ctx, mode, isa = self.ctx, row["mode"], row["isa"]
        name = f"{self.prog.name}-{mode}" + (f"-{sanitize(row['candidate'])}"
                                              if row["candidate"] else "")
        mdir = os.path.join(ctx.out, "mismatches", name)
        shutil.rmtree(mdir, ignore_errors=True)
        os.makedirs(mdir)
        row["dir"] = os.path.relpath(mdir, ctx.out)
        for f in self.prog.files():
            if os.path.exists(os.path.join(self.wdir, f)):
                shutil.copyfile(os.path.join(self.wdir, f), os.path.join(mdir, f))
        write(mdir, "cmd.txt", self.repro_script(row, steps, exe))
        write(mdir, "reference.txt", ref.text(ISAS[isa].run_timeout))
        if r is not None:
            write(mdir, "actual.txt", r.text(ISAS[isa].run_timeout))
        if failed is not None:
            write(mdir, "actual.txt", "[smartcc build failed]\n"
                  + failed.output.decode("utf-8", "replace"))
        if isinstance(log, list):       # several commands: one line each, named
            write(mdir, "log.jsonl", "".join(json.dumps(dict(l or {}, difftest_unit=t),
                                                        sort_keys=True) + "\n" for t, l in log))
            write(mdir, "sequence.txt", "".join(
                f"[{t}]\n" + sequence_text(l and l.get("chosen"), l) for t, l in log))
        else:
            if log is not None:
                write(mdir, "log.jsonl", json.dumps(log, sort_keys=True) + "\n")
            write(mdir, "sequence.txt", sequence_text(row.get("chosen"), log))
        if row["candidate"]:
            write(mdir, "candidate.txt", f"{row['candidate']}\n{row['sequence']}\n")
        lines = [row.get("class", "") or ""]
        if row["status"] == "build":
            lines.append("smartcc's compile failed; 'shared' when clang-22 at the mode's "
                         "-O level fails too")
        elif isa in self.clang_levels:
            lines += [f"clang-22 {lv}: {v}" for lv, v in self.clang_levels[isa]]
            if ctx.whole_program(mode) and isa in self.lto_level:
                lines.append("clang-22 {}: {}".format(*self.lto_level[isa]))
        if row.get("hint") == "undefined-reference":
            lines.append("hint: undefined-reference: the object calls a function nothing "
                         "defines, typically a gnu89 `extern inline` or C99 `inline` function "
                         "without an external definition that clang's pipeline inlined")
        if row.get("hint") == "strict-aliasing":
            lines.append("hint: strict-aliasing: built again with -fno-strict-aliasing, the "
                         "same object agrees with -O0 (a type-punning program, or wrong "
                         "alias analysis)")
        if ctx.reduce and row.get("class") == "smartcc-only" and not self.prog.one_file():
            lines.append("not reduced: creduce takes one file, this program has several")
        write(mdir, "class.txt", "\n".join(lines) + "\n")
        # (A candidate's link failure is left as it is: the interestingness test rebuilds
        # only smartcc's shipped binary for build failures.)
        if (ctx.reduce and row.get("class") == "smartcc-only" and self.prog.one_file()
                and not (row["status"] == "build" and row["candidate"])
                and mode not in self.reduced_modes):
            self.reduced_modes.add(mode)
            reduce_mismatch(ctx, self.prog, row, mdir, ref.seconds)

    def repro_script(self, row, steps, exe):
        """cmd.txt: the commands that built and ran the reference and smartcc's binary, in
        the mismatch folder (the source is copied there), with the campaign's environment."""
        isa = row["isa"]
        t = ISAS[isa].run_timeout
        q = lambda argv: " ".join(shlex.quote(a) for a in argv)
        ref_build, ref_run = self.ref_cmds[isa]
        lines = [
            "#!/bin/sh",
            f"# {row['program']}, mode {row['mode']}"
            + (f", candidate {row['candidate']}" if row["candidate"] else "")
            + f": status {row['status']}. Run: sh cmd.txt (in this folder)",
            'cd "$(dirname "$0")" || exit 2',
            "for v in $(env | sed -n 's/^\\(SMARTCC_[A-Za-z0-9_]*\\)=.*/\\1/p'); "
            'do unset "$v"; done',
            f"export XDG_CONFIG_HOME={shlex.quote(self.ctx.env['XDG_CONFIG_HOME'])}",
            f"export SMARTCC_STATS_DIR={shlex.quote(self.ctx.env['SMARTCC_STATS_DIR'])}",
            f"export SMARTCC_CONFIG={shlex.quote(self.ctx.env['SMARTCC_CONFIG'])}",
            "mkdir -p \"$XDG_CONFIG_HOME\"",
            "# reference: clang-22 -O0",
        ] + [q(b) + " || exit 2" for b in ref_build] + [
            f"timeout {t} {q(ref_run)} > reference.out 2>&1; "
            'echo "[exit status $?]" >> reference.out',
            f"# smartcc, mode {row['mode']}",
            f"rm -f {shlex.quote(row['mode'])}.log.jsonl"
            + ("" if self.prog.one_file() else f" {shlex.quote(row['mode'])}.*.log.jsonl"),
        ]
        lines += [q(s) + " || { echo 'smartcc build FAILED'; exit 1; }" for s in steps]
        lines += [
            f"timeout {t} {q(run_cmd(isa, exe))} > actual.out 2>&1; "
            'echo "[exit status $?]" >> actual.out',
            'if cmp -s reference.out actual.out; then echo "outputs AGREE"; '
            'else echo "outputs DIFFER"; diff reference.out actual.out; exit 1; fi',
        ]
        return "\n".join(lines) + "\n"


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


_LIBRARY = None


def library_definition(name):
    """A library candidate's TOML table from policies/candidates.toml, for sequence.txt."""
    global _LIBRARY
    if _LIBRARY is None:
        try:
            with open(os.path.join(REPO, "policies", "candidates.toml"), "rb") as f:
                _LIBRARY = tomllib.load(f).get("candidate", {})
        except (OSError, tomllib.TOMLDecodeError):
            _LIBRARY = {}
    return _LIBRARY.get(name)


def sequence_text(chosen, log):
    if log is None:
        return "no decision logged: smartcc did not take this compile over\n"
    _, seq = shipped_sequence(log)
    text = f"chosen: {chosen}\nsequence: {seq}\nkept_reason: {log.get('kept_reason')}\n"
    lib = library_definition(chosen) if chosen else None
    if lib:
        text += f"definition (policies/candidates.toml): {json.dumps(lib, sort_keys=True)}\n"
    return text


def repro_spec(ctx, prog, row):
    """What rebuild_runs needs to build a result's object again."""
    return {"file": prog.file, "cflags": prog.cflags, "isa": row["isa"], "mode": row["mode"],
            "mode_flags": ctx.mode_flags(row["mode"]), "candidate": row["candidate"],
            "candidate_sequence": row["sequence"], "every_candidate": ctx.every_candidate,
            "smartcc": ctx.smart_cc(prog), "clang": ctx.ref_cc(prog),
            "srcs": prog.srcs, "lib_srcs": prog.lib_srcs}


def rebuild_runs(spec, cwd, env, extra, tag, timeout):
    """Builds the mismatching object again with EXTRA flags, in cwd, and runs it: smartcc's
    shipped binary, or with --every-candidate the candidate with the same sequence (or, for a
    library candidate, the same name: agent#N numbering follows the proposals, which change
    with the program and the flags). Returns the runs (empty when nothing was built)."""
    isa = spec["isa"]
    target = list(ISAS[isa].target)
    smart = ([spec["smartcc"]] + target + spec["cflags"] + spec["mode_flags"] + extra
             + [f"--smartcc-log={tag}.log.jsonl"])
    if os.path.exists(os.path.join(cwd, f"{tag}.log.jsonl")):
        os.remove(os.path.join(cwd, f"{tag}.log.jsonl"))

    def built(argv, out):
        r = run(argv, cwd, env, COMPILE_TIMEOUT)
        return r.rc == 0 and not r.timed_out and os.path.exists(os.path.join(cwd, out))

    def execute(exe):
        return run(limited(list(ISAS[isa].runner) + ["./" + exe]), cwd, env, timeout,
                   out_path=os.path.join(cwd, exe + ".out"))

    srcs, lib_srcs = spec.get("srcs", [spec["file"]]), spec.get("lib_srcs", [])
    if not spec["every_candidate"] and (lib_srcs or len(srcs) > 1):
        prog = Program("", "", spec["file"], [], srcs=srcs, lib_srcs=lib_srcs)
        cmds = build_cmds(smart, prog, tag)
        ok = all(built(c, c[c.index("-o") + 1]) for c in cmds)
        return [execute(tag)] if ok else []
    if lib_srcs or len(srcs) > 1:
        return []       # a candidate of one of several sources: not rebuilt
    if not spec["every_candidate"]:
        ok = built(smart + [spec["file"], "-o", tag] + LINK_FLAGS, tag)
        return [execute(tag)] if ok else []
    if not built(smart + [f"--smartcc-save-candidates={tag}-cands", "-c", spec["file"],
                          "-o", tag + ".o"], tag + ".o"):
        return []
    log = read_log(os.path.join(cwd, f"{tag}.log.jsonl"))
    objs = [(tag, tag + ".o")]
    if spec["candidate"]:
        objs = [(f"{tag}.c{i}", obj) for i, (name, obj)
                in enumerate(saved_objects(cwd, f"{tag}-cands", tag + ".o", log))
                if name == spec["candidate"]
                or candidate_sequence(log, name) == spec["candidate_sequence"]]
    return [execute(exe) for exe, obj in objs
            if built([spec["clang"]] + target + [obj, "-o", exe] + LINK_FLAGS, exe)]


# ---------------------------------------------------------------- reduction

def reduce_mismatch(ctx, prog, row, mdir, ref_seconds):
    """creduce with an interestingness test that keeps the program well defined (clang -O0
    runs it, sanitizers find nothing, clang -Oz agrees) and smartcc's mode still wrong.
    creduce often makes loops endless: a variant may run ten times the original's time (at
    least 3 s), not the campaign's full limit, or the reduction would mostly wait."""
    run_timeout = min(ISAS[row["isa"]].run_timeout, max(3, round(10 * ref_seconds)))
    rdir = os.path.join(mdir, "reduce")
    os.makedirs(rdir, exist_ok=True)
    for f in prog.files():          # the source and the files it includes
        if os.path.exists(os.path.join(mdir, f)):
            shutil.copyfile(os.path.join(mdir, f), os.path.join(rdir, f))
    spec = dict(repro_spec(ctx, prog, row), out=ctx.out, status=row["status"],
                level=next(f for f in ctx.mode_flags(row["mode"]) if f.startswith("-O")),
                run_timeout=run_timeout,
                aliasing_independent=row.get("hint") != "strict-aliasing")
    spec_path = os.path.join(mdir, "reduce-spec.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f, indent=1)
    script = os.path.join(mdir, "interesting.sh")
    write(mdir, "interesting.sh",
          "#!/bin/sh\n# creduce interestingness test; run in a folder holding "
          f"{prog.file}\nexec {shlex.quote(sys.executable)} "
          f"{shlex.quote(os.path.abspath(__file__))} --interesting {shlex.quote(spec_path)}\n")
    os.chmod(script, 0o755)
    argv = ["timeout", str(ctx.reduce_timeout), "creduce", "--n", "1", script, prog.file]
    r = run(argv, rdir, ctx.env, ctx.reduce_timeout + 60,
            out_path=os.path.join(mdir, "reduce.log"))
    note = "" if r.rc == 0 else f"/* creduce ended with status {r.rc} (124: timed out) */\n"
    with open(os.path.join(rdir, prog.file), errors="replace") as f:
        write(mdir, "reduced" + (os.path.splitext(prog.file)[1] or ".c"), note + f.read())
    row["reduced"] = r.rc == 0


def interesting(spec_path):
    """The interestingness test (exit 0 = interesting), run by creduce in a folder with the
    candidate program."""
    with open(spec_path) as f:
        s = json.load(f)
    isa, src, cwd = s["isa"], s["file"], os.getcwd()
    env = isolated_env(s["out"])
    t = s.get("run_timeout", ISAS[isa].run_timeout)

    def build(argv, exe):
        r = run(argv, cwd, env, COMPILE_TIMEOUT)
        return r.rc == 0 and not r.timed_out and os.path.exists(os.path.join(cwd, exe))

    def execute(exe, runner=None, extra_env=None):
        argv = list(ISAS[isa].runner if runner is None else runner) + ["./" + exe]
        return run(limited(argv), cwd, dict(env, **(extra_env or {})), t,
                   out_path=os.path.join(cwd, exe + ".out"))

    clang = [s["clang"]] + list(ISAS[isa].target) + s["cflags"]
    if not build(clang + ["-O0", src, "-o", "ref"] + LINK_FLAGS, "ref"):
        return 1
    smart = ([s["smartcc"]] + list(ISAS[isa].target) + s["cflags"] + s["mode_flags"]
             + ["--smartcc-log=i.log.jsonl"])
    if s["status"] == "build":       # a smartcc compile failure: clang builds, smartcc not
        if s.get("level") and not build(clang + [s["level"], src, "-o", "lv"] + LINK_FLAGS,
                                        "lv"):
            return 1
        if build(smart + [src, "-o", "m"] + LINK_FLAGS, "m"):
            return 1
        wait_until_settled(os.path.dirname(s["smartcc"]))   # not a rebuild in progress
        return 0 if not build(smart + [src, "-o", "m"] + LINK_FLAGS, "m") else 1
    ref = execute("ref")
    if ref.timed_out or ref.rc != 0:
        return 1
    # Undefined behaviour check on x86-64. For AArch64, whose char is unsigned, the x86-64
    # build with -funsigned-char must at least run clean (outputs may differ in ABI detail).
    san = [s["clang"]] + s["cflags"] + ["-O0", "-g", "-fsanitize=address,undefined",
                                        "-fno-sanitize-recover=all"]
    if isa != "x86_64":
        san.append("-funsigned-char")
    if not build(san + [src, "-o", "san"] + LINK_FLAGS, "san"):
        return 1
    sr = execute("san", runner=(), extra_env={"ASAN_OPTIONS": "detect_leaks=0"})
    if sr.timed_out or sr.rc != 0 or b"runtime error" in sr.output or b"Sanitizer" in sr.output:
        return 1
    if isa == "x86_64" and sr.key() != ref.key():
        return 1
    if not build(clang + ["-Oz", src, "-o", "oz"] + LINK_FLAGS, "oz"):
        return 1
    if execute("oz").key() != ref.key():
        return 1
    if not any(r.key() != ref.key() for r in rebuild_runs(s, cwd, env, [], "m", t)):
        return 1
    # A mismatch that did not depend on type-based alias analysis must not come to: creduce
    # would happily turn it into a program that breaks the aliasing rules.
    if s.get("aliasing_independent") and not any(
            r.key() != ref.key()
            for r in rebuild_runs(s, cwd, env, ["-fno-strict-aliasing"], "nsa", t)):
        return 1
    return 0


# ---------------------------------------------------------------- the campaign

def load_results(out):
    """results.jsonl, the last row per (program, mode, candidate): a program interrupted and
    redone must not count twice."""
    rows = {}
    path = os.path.join(out, "results.jsonl")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue          # a line cut short by a crash
                rows[(r["program"], r["mode"], r.get("candidate"))] = r
    return list(rows.values())


def check_campaign(out, budget, every_candidate):
    """Results of one OUT folder must be comparable: the budget and --every-candidate may not
    change between runs (modes, sources and counts may grow)."""
    path = os.path.join(out, "campaign.json")
    want = {"budget": budget, "every_candidate": every_candidate}
    if os.path.exists(path):
        with open(path) as f:
            have = json.load(f)
        if have != want:
            die(f"{out} was started with {have}, this run asks for {want}: use another OUT")
    else:
        with open(path, "w") as f:
            json.dump(want, f)


def fmt_duration(s):
    s = int(s)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def describe(rows):
    """The progress line's verdict for one program: counts of the shipped objects' results,
    then how many candidates matched, then every non-match named."""
    shipped = [r for r in rows if r.get("candidate") is None]
    cands = [r for r in rows if r.get("candidate") is not None]
    parts = []
    for st in STATUSES:
        n = sum(1 for r in shipped if r["status"] == st)
        if n:
            parts.append(f"{n} {st}")
    text = ", ".join(parts) or "nothing"
    if cands:
        n = sum(1 for r in cands if r["status"] == "match")
        text += f"; candidates {n}/{len(cands)} match"
    bad = [r for r in rows if r["status"] in ("mismatch", "timeout", "build")]
    more = f", {len(bad) - 4} more" if len(bad) > 4 else ""
    bad = bad[:4]
    if bad:
        text += " [" + ", ".join(
            f"{r['mode']}{'/' + r['candidate'] if r.get('candidate') else ''} "
            f"{r['status']} {r.get('class', '')}".strip()
            + (f" ({r['hint']})" if r.get("hint") else "") for r in bad) + more + "]"
    return text


def run_campaign(ctx, progs, jobs):
    """Runs every program not yet recorded, -j at a time, appending each finished program's
    rows to results.jsonl at once (so an interrupted program is simply redone)."""
    done = {}
    for r in load_results(ctx.out):
        if r.get("candidate") is None:
            done.setdefault(r["program"], set()).add(r["mode"])
    # A program recorded for some modes only (a campaign extended by --modes) runs the rest.
    todo = [(p, [m for m in (p.modes or ctx.modes) if m not in done.get(p.name, set())])
            for p in progs]
    todo = [(p, modes) for p, modes in todo if modes]
    total, skipped = len(progs), len(progs) - len(todo)
    if skipped:
        print(f"difftest: resuming: {skipped} of {total} programs already recorded", flush=True)
    results = open(os.path.join(ctx.out, "results.jsonl"), "a")
    start, finished, errors = time.monotonic(), 0, 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    futures = {pool.submit(timed, ProgramRun(ctx, p, modes).go): p for p, modes in todo}
    try:
        for fut in concurrent.futures.as_completed(futures):
            prog = futures[fut]
            finished += 1
            t0 = time.monotonic() - start
            try:
                rows, secs = fut.result()
            except Interrupted:
                continue
            except ToolchainBroken as e:
                abort(pool, results, f"smartcc in {ctx.bin_dir} fails on a trivial program "
                      f"and was not rebuilt within 30 minutes; stopping:\n{e}", 2)
            except Exception as e:          # a bug of this tool: report it, do not record
                errors += 1
                traceback.print_exc()
                print(f"[{skipped + finished}/{total}] {prog.name}: ERROR {e}", flush=True)
                continue
            for r in rows:
                results.write(json.dumps(r, sort_keys=True) + "\n")
            results.flush()
            eta = t0 / finished * (len(todo) - finished)
            print(f"[{skipped + finished}/{total}] {prog.name}: {describe(rows)} "
                  f"({secs:.1f} s) \u2014 ETA {fmt_duration(eta)}", flush=True)
    except KeyboardInterrupt:
        abort(pool, results, "interrupted; run the same command again to resume", 130)
    pool.shutdown()
    results.close()
    return errors


def abort(pool, results, msg, code):
    """Stops the campaign now: running children killed, finished programs kept (their rows
    are written), the others redone by the next run."""
    kill_all_running()
    pool.shutdown(wait=False, cancel_futures=True)
    results.close()
    print(f"\ndifftest: {msg}", flush=True)
    os._exit(code)


def timed(fn):
    t = time.monotonic()
    return fn(), time.monotonic() - t


def select_supported_torture(ctx, progs, want):
    """--smoke: the first WANT torture (or g++.dg) tests clang-22 -O0 builds and runs to
    exit 0 on x86-64."""
    chosen = []
    for p in progs:
        if len(chosen) == want:
            break
        st, _, _ = ProgramRun(ctx, p).probe_reference()
        if st == "ok":
            chosen.append(p)
    return chosen


# ---------------------------------------------------------------- summary

def summarize(out, modes=None):
    """summary.json and summary.md from results.jsonl: per mode the programs compared,
    matches, mismatches by class (shipped objects and candidates apart), skipped programs and
    smartcc's compile seconds; then one line per mismatch. Returns the exit status."""
    rows = load_results(out)
    modes = modes or sorted({r["mode"] for r in rows}, key=lambda m: list(all_modes()).index(m)
                            if m in all_modes() else 99)
    per_mode, bad = {}, []
    for m in modes:
        mr = [r for r in rows if r["mode"] == m]
        shipped = [r for r in mr if r.get("candidate") is None]
        cands = [r for r in mr if r.get("candidate") is not None]
        s = {"programs_compared": sum(1 for r in shipped if r["status"] in COMPARED),
             "match": sum(1 for r in shipped if r["status"] == "match"),
             "mismatch": by_class(shipped),
             "unsupported": sum(1 for r in shipped if r["status"] == "unsupported"),
             "ref_timeout": sum(1 for r in shipped if r["status"] == "ref-timeout"),
             "smartcc_compile_seconds": round(sum(r["seconds"] for r in shipped), 1)}
        if cands:
            s["candidates_compared"] = len(cands)
            s["candidates_match"] = sum(1 for r in cands if r["status"] == "match")
            s["candidate_mismatch"] = by_class(cands)
        per_mode[m] = s
    for r in rows:
        if r["status"] in ("mismatch", "timeout", "build"):
            bad.append(r)
    bad.sort(key=lambda r: (r["program"], r["mode"], r.get("candidate") or ""))
    # A build failure counts like a wrong output: as smartcc's only when clang-22 at the
    # mode's level builds the program (some torture tests link only when a gnu89 extern
    # inline function is inlined, which clang -Oz does not do either).
    failing = [r for r in bad if r.get("class") == "smartcc-only"]
    summary = {"results": len(rows), "programs": len({r["program"] for r in rows}),
               "modes": per_mode, "mismatches": bad, "failing": len(failing)}
    sources = [x for x in SOURCES if any(r.get("source") == x for r in rows)]
    if len(sources) > 1:        # per source too (the shipped objects' results)
        summary["by_source"] = {
            src: {m: {st: sum(1 for r in rows if r.get("source") == src and r["mode"] == m
                              and r.get("candidate") is None and r["status"] == st)
                      for st in STATUSES}
                  for m in modes}
            for src in sources}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(summary_md(summary))
    return 1 if failing else 0


def by_class(rows):
    """Non-matching results by class; a 'build' or 'timeout' status counts under its class
    and is also named (e.g. 'smartcc-only', 'build/smartcc-only')."""
    d = {}
    for r in rows:
        if r["status"] in ("mismatch", "timeout", "build"):
            key = r.get("class", "?") if r["status"] == "mismatch" \
                else f"{r['status']}/{r.get('class', '?')}"
            d[key] = d.get(key, 0) + 1
    return d


def summary_md(s):
    lines = ["# difftest summary", "",
             f"{s['programs']} programs, {s['results']} results; "
             f"{s['failing']} smartcc-only results (wrong output, timeout or build).", "",
             "| mode | compared | match | mismatches by class | unsupported | ref-timeout | "
             "smartcc compile s | candidates (match/compared, mismatches) |",
             "|---|---|---|---|---|---|---|---|"]
    fmt = lambda d: ", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "0"
    for m, d in s["modes"].items():
        cand = (f"{d['candidates_match']}/{d['candidates_compared']}, "
                f"{fmt(d['candidate_mismatch'])}" if "candidates_compared" in d else "-")
        lines.append(f"| {m} | {d['programs_compared']} | {d['match']} | {fmt(d['mismatch'])} "
                     f"| {d['unsupported']} | {d['ref_timeout']} | "
                     f"{d['smartcc_compile_seconds']} | {cand} |")
    if "by_source" in s:
        lines += ["", "## By source", "",
                  "| source | mode | " + " | ".join(STATUSES) + " |",
                  "|---|---|" + "---|" * len(STATUSES)]
        for src, per in s["by_source"].items():
            for m, d in per.items():
                if not any(d.values()):
                    continue
                lines.append(f"| {src} | {m} | " + " | ".join(str(d[st]) for st in STATUSES)
                             + " |")
    lines += ["", "## Mismatches", ""]
    if not s["mismatches"]:
        lines.append("None.")
    for r in s["mismatches"]:
        if r.get("candidate"):
            what = (f" candidate {r['candidate']} ({r.get('sequence')})"
                    f" [shipped: {r.get('chosen')}]")
        else:
            what = f" shipped {r.get('chosen')} ({r.get('sequence')})"
        lines.append(f"- {r['program']} {r['mode']}{what}: {r['status']}, "
                     f"{r.get('class', '?')}"
                     + (f" (hint: {r['hint']})" if r.get("hint") else "")
                     + f"; {r.get('dir', '')}" + ("; reduced" if r.get("reduced") else ""))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- smoke and self-check

def self_check(args, out):
    """Proves the tool sees a wrong compiler: the hidden 'broken' mode on one csmith program,
    and on the first hand-written C++ program (a shared library and a main program), must
    each give a recorded 'smartcc-only' mismatch, a runnable cmd.txt that shows it, and exit
    status 1. Returns a list of failures."""
    fails = []
    cxx = cxx_eh_programs(1)
    cases = [("self-check", ["--source", "csmith", "--count", "1", "--seed", "1"],
              ["csmith-1.c"])]
    if cxx:
        cases.append(("self-check-cxx", ["--source", "cxx-eh", "--count", "1"],
                      cxx[0].files()))
    for sub, source, files in cases:
        fails += self_check_one(args, os.path.join(out, sub), source, files)
    print("difftest: self-check: " + ("ok" if not fails else "FAILED: " + "; ".join(fails)),
          flush=True)
    return fails


def self_check_one(args, sdir, source, files):
    shutil.rmtree(sdir, ignore_errors=True)
    argv = ([sys.executable, os.path.abspath(__file__), sdir, "--modes", "broken"] + source
            + ["--no-reduce", "--bin", args.bin, "--clang", args.clang])
    print("difftest: self-check: " + " ".join(shlex.quote(a) for a in argv), flush=True)
    rc = subprocess.run(argv).returncode
    fails = []
    if rc != 1:
        fails.append(f"the broken mode's run exited {rc}, not 1")
    rows = load_results(sdir)
    bad = [r for r in rows if r["status"] == "mismatch" and r.get("class") == "smartcc-only"]
    if not bad:
        fails.append(f"no smartcc-only mismatch recorded: {rows}")
    else:
        mdir = os.path.join(sdir, bad[0]["dir"])
        for f in ["cmd.txt", "class.txt", "sequence.txt", "reference.txt", "actual.txt",
                  "log.jsonl"] + files:
            if not os.path.exists(os.path.join(mdir, f)):
                fails.append(f"{bad[0]['dir']}/{f} missing")
        rep = subprocess.run(["sh", os.path.join(mdir, "cmd.txt")], capture_output=True,
                             text=True)
        if rep.returncode != 1 or "outputs DIFFER" not in rep.stdout:
            fails.append(f"cmd.txt does not reproduce the mismatch: {rep.stdout[-500:]}"
                         f"{rep.stderr[-500:]}")
    return fails


def smoke_failures(out, modes):
    """--self-check's second half: every real mode compared something and everything it
    compared matched."""
    fails = []
    rows = load_results(out)
    for m in modes:
        mr = [r for r in rows if r["mode"] == m]
        if not any(r["status"] == "match" for r in mr):
            fails.append(f"mode {m} compared nothing")
        for r in mr:
            if r["status"] not in ("match", "unsupported", "ref-timeout"):
                fails.append(f"{r['program']} {m}: {r['status']} {r.get('class', '')}")
    return fails


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Differential testing of smartcc against clang-22 -O0 (docs/difftest.md).")
    ap.add_argument("out", nargs="?", help="output folder (results, summary, mismatches)")
    ap.add_argument("--source", default="both", type=parse_sources,
                    help="comma-separated: csmith, torture, gxx (GCC's g++.dg execute tests), "
                    "cxx-eh (the hand-written exception programs), or a group: both "
                    "(csmith,torture; the default), cxx (gxx,cxx-eh), all")
    ap.add_argument("--count", type=int, default=100, help="programs per source (100)")
    ap.add_argument("--seed", type=int, default=1, help="first csmith seed (1)")
    ap.add_argument("--start", type=int, default=0,
                    help="first torture (and g++.dg) test, index in sorted order (0)")
    ap.add_argument("--modes", help="comma-separated, default all: " + ",".join(MODES))
    ap.add_argument("--budget", choices=("lifted", "default"), default="lifted",
                    help="lifted (default): --smartcc-candidate-budget=0, every candidate runs")
    ap.add_argument("--every-candidate", action="store_true",
                    help="also link and run every candidate object smartcc measured")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="programs at once (1)")
    ap.add_argument("--reduce", dest="reduce", action="store_true", default=None,
                    help="creduce smartcc-only mismatches (default, not with --smoke)")
    ap.add_argument("--no-reduce", dest="reduce", action="store_false")
    ap.add_argument("--reduce-timeout", type=int, default=1800, help="seconds (1800)")
    ap.add_argument("--torture-dir", default=default_cache(),
                    help="cache of the unpacked torture and g++.dg tests (%(default)s)")
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "bin"),
                    help="smartcc's bin folder (%(default)s)")
    ap.add_argument("--clang", default=default_clang(),
                    help="reference clang (%(default)s); C++ uses the clang++ beside it")
    ap.add_argument("--report", action="store_true",
                    help="only rewrite the summary from results.jsonl")
    ap.add_argument("--smoke", action="store_true",
                    help="quick seeded CI run: 12 csmith, 10 torture in 8 modes, 6 g++.dg "
                    "tests and the exception programs in 4, no reduce")
    ap.add_argument("--self-check", action="store_true",
                    help="also prove a deliberately wrong compiler is caught")
    ap.add_argument("--keep-work", action="store_true", help="keep every work folder")
    ap.add_argument("--interesting", metavar="SPEC", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.interesting:
        return args
    if not args.out:
        ap.error("OUT is required")
    return args


def parse_sources(text):
    """--source: a comma-separated list of SOURCES and SOURCE_GROUPS, in SOURCES order."""
    want = set()
    for w in text.split(","):
        if w in SOURCE_GROUPS:
            want |= set(SOURCE_GROUPS[w])
        elif w in SOURCES:
            want.add(w)
        else:
            raise argparse.ArgumentTypeError(
                f"unknown source {w!r}: {', '.join(SOURCES + tuple(SOURCE_GROUPS))}")
    return [s for s in SOURCES if s in want]


def smoke_modes(wanted):
    """WANTED without the AArch64 modes when qemu-aarch64 or the sysroot is missing."""
    have_qemu = shutil.which("qemu-aarch64") and os.path.isdir(QEMU_SYSROOT)
    modes = [m for m in wanted if all_modes()[m][1] != "aarch64" or have_qemu]
    if not have_qemu and len(modes) < len(wanted):
        print("difftest: no qemu-aarch64 or /usr/aarch64-linux-gnu: mode(s) "
              + ", ".join(m for m in wanted if m not in modes) + " left out")
    return modes


def pick_modes(args):
    have_qemu = shutil.which("qemu-aarch64") and os.path.isdir(QEMU_SYSROOT)
    if args.smoke and not args.modes:
        return smoke_modes(SMOKE_MODES)
    modes = args.modes.split(",") if args.modes else list(MODES)
    for m in modes:
        if m not in all_modes():
            die(f"unknown mode {m!r}; modes: {', '.join(MODES)}")
    for m in modes:
        if all_modes()[m][1] == "aarch64" and not have_qemu:
            die(f"mode {m} needs qemu-aarch64 and /usr/aarch64-linux-gnu (scripts/install-deps.sh)")
    return modes


def on_sigterm(signum, frame):
    """A killed campaign (CI's timeout, `kill`) ends like Ctrl-C: its children too."""
    raise KeyboardInterrupt


def main(argv):
    signal.signal(signal.SIGTERM, on_sigterm)
    args = parse_args(argv)
    if args.interesting:
        return interesting(args.interesting)
    out = os.path.abspath(args.out)
    if args.report:
        if not os.path.exists(os.path.join(out, "results.jsonl")):
            die(f"no {out}/results.jsonl")
        rc = summarize(out)
        print(open(os.path.join(out, "summary.md")).read(), end="")
        return rc
    args.bin = os.path.abspath(args.bin)
    smartcc = os.path.join(args.bin, "smartcc")
    wait_until_settled(args.bin, quiet=0, limit=60)
    if not os.access(smartcc, os.X_OK):
        die(f"no smartcc at {smartcc} (build it, or give --bin)")
    sources = ["csmith", "torture", "gxx", "cxx-eh"] if args.smoke else args.source
    cxx = any(s in ("gxx", "cxx-eh") for s in sources)
    smartcxx, clangxx = os.path.join(args.bin, "smartc++"), cxx_of(args.clang)
    if cxx and not os.access(smartcxx, os.X_OK):
        die(f"no smartc++ at {smartcxx} (smartcc's C++ name, made by its build)")
    if cxx and not (os.access(clangxx, os.X_OK) or shutil.which(clangxx)):
        die(f"no {clangxx} beside the reference clang {args.clang}")
    csmith = "csmith" in sources or args.self_check
    for tool in (("csmith",) if csmith else ()) + (("creduce",) if args.reduce else ()):
        if not shutil.which(tool):
            die(f"{tool} is not installed (scripts/install-deps.sh)")
    modes = pick_modes(args)
    reduce = args.reduce if args.reduce is not None else not args.smoke
    os.makedirs(os.path.join(out, "config"), exist_ok=True)
    os.makedirs(os.path.join(out, "stats"), exist_ok=True)
    write(out, "broken.h", BROKEN_H)
    write(out, "smartcc-config.toml", "# difftest: smartcc's configuration is empty (defaults "
          "and the built-in library only)\n")
    check_campaign(out, args.budget, args.every_candidate)
    ctx = Ctx(out, args.bin, smartcc, args.clang, isolated_env(out), modes, args.budget,
              args.every_candidate, reduce, args.reduce_timeout, args.keep_work,
              clangxx, smartcxx)
    if os.listdir(ctx.env["XDG_CONFIG_HOME"]):
        die(f"{ctx.env['XDG_CONFIG_HOME']} must stay empty (it isolates smartcc from "
            "user configuration)")
    fails = self_check(args, out) if args.self_check else []
    t0 = time.monotonic()
    progs = []
    if args.smoke:
        progs += csmith_programs(1, 12)
        tdir = torture_dir(args.torture_dir, allow_install=False)
        if tdir is None:
            print("difftest: smoke: the GCC tarball (gcc-12-source) is not installed: "
                  "torture tests skipped", flush=True)
        else:
            progs += select_supported_torture(ctx, torture_programs(tdir, 0, None), 10)
        # The C++ share: a few g++.dg tests and every exception program, in SMOKE_CXX_MODES.
        cxx_modes = smoke_modes(SMOKE_CXX_MODES) if not args.modes else modes
        cprogs = cxx_eh_programs(None)
        gdir = gxx_dir(args.torture_dir, allow_install=False)
        if gdir is None:
            print("difftest: smoke: the GCC tarball (gcc-12-source) is not installed: "
                  "g++.dg tests skipped", flush=True)
        else:
            cprogs = select_supported_torture(ctx, gxx_programs(gdir, 0, None),
                                              SMOKE_GXX) + cprogs
        for p in cprogs:
            p.modes = cxx_modes
        progs += cprogs
        modes = list(dict.fromkeys(modes + cxx_modes))
    else:
        if "csmith" in sources:
            progs += csmith_programs(args.seed, args.count)
        if "torture" in sources:
            progs += torture_programs(torture_dir(args.torture_dir, allow_install=True),
                                      args.start, args.count)
        if "gxx" in sources:
            progs += gxx_programs(gxx_dir(args.torture_dir, allow_install=True),
                                  args.start, args.count)
        if "cxx-eh" in sources:
            progs += cxx_eh_programs(args.count)
    print(f"difftest: {len(progs)} programs x modes {','.join(modes)}"
          f" (budget {args.budget}{', every candidate' if args.every_candidate else ''}"
          f"{', reduce' if reduce else ''}, -j {args.jobs}) -> {out}", flush=True)
    errors = run_campaign(ctx, progs, max(1, args.jobs))
    rc = summarize(out, modes)
    print(open(os.path.join(out, "summary.md")).read(), end="")
    print(f"difftest: {fmt_duration(time.monotonic() - t0)} wall", flush=True)
    if args.self_check:
        fails += smoke_failures(out, modes)
        if fails:
            print("difftest: self-check FAILED:\n  " + "\n  ".join(fails), flush=True)
            return 1
        print("difftest: self-check passed: the broken compiler was caught and every real "
              "mode matched", flush=True)
    if errors:
        print(f"difftest: {errors} programs failed inside this tool (see above)")
        return max(rc, 2)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
