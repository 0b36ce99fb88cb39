#!/usr/bin/env python3
"""harvest-corpus.py: build Debian source packages with smartcc in harvest mode and keep the
pre-optimization bitcode of every translation unit as the policy-training corpus.

  python3 scripts/harvest-corpus.py [--corpus DIR] [--packages FILE] [--split train|eval]
                                    [--jobs N] [--limit N] [--only PKG...] [--manifest-dir DIR]
  python3 scripts/harvest-corpus.py summarize [--corpus DIR] [--split train|eval]

Harvest: for each package of the list (in order) that the manifest does not already record as
finished: fetch the source (apt-get source --download-only, cached), extract it without Debian's
patches, install its build dependencies (best effort), build it with smartcc at -Oz with
SMARTCC_HARVEST pointing into the corpus, then append one JSON line to
<manifest-dir>/packages-<split>.jsonl and delete the build tree. Interrupt it at any time: the
package that was running is redone by the next run.

Hashes: print one split's module hashes of one flavour (hashes --split train --target aarch64),
the lists smartcc-coreset, smartcc-eval and smartcc-train take.

Summarize: turn the corpus index into <manifest-dir>/modules-<split>.jsonl (one line per distinct
module, with its train/validation/excluded assignment) and <manifest-dir>/summary-<split>.json.

Links (--lto): the same packages built at -Oz -flto and linked by lld, smartcc owning every
LTO link with the link agent at effort 2 and no link_time limit (--link-time), so every core-set
sequence and every library link candidate is a real link of the whole program, measured; nothing is
harvested per TU. Each link's decision line (with the agent's summed features of the program)
goes to <root>/links-<split>/PACKAGE.jsonl, the manifest to packages-lto-<split>.jsonl:
scripts/link-tables.py turns them into the link agent's value tables.
With --link-candidates LIST (and --link-config FILE defining them) each owned link measures just
those link candidates, without the agent: a study of link-time knobs on the training packages
(scripts/link-candidates-report.py --order picks the default order from such logs).

See docs/corpus.md. Python 3 standard library only.
"""
import argparse
import datetime
import fcntl
import glob
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BIN = os.path.join(REPO, "build", "bin")
DEFAULT_PACKAGES = os.path.join(REPO, "scripts", "harvest-packages.txt")
DEFAULT_MANIFESTS = os.path.join(REPO, "policies", "corpus")
DEFAULT_RESERVED = os.path.join(os.path.dirname(REPO), "shared", "reserved-for-evaluation.txt")
LEGACY_SRC_CACHE = os.path.expanduser("~/.cache/smartcc/debian-src")  # tests/e2e/debian-package.sh
SPLIT_DIRS = {"train": "train-pool", "eval": "eval"}
STATUSES = ("built", "build_failed", "source_missing", "timeout", "skipped_reserved")
RETRYABLE = ("build_failed", "source_missing", "timeout")

# --- per-package quirks (from shared/notes/debian-corpus.md and the packages' build files) -------
# Keys: subdir (build in this subdirectory), autoreconf (run `autoreconf -fi` first),
# configure (script name), configure_args, configure_env_only (hand-written configure that takes
# no VAR=VALUE arguments), cmake_args, make_args (extra make arguments/targets), cflags/cxxflags
# (appended to -Oz), pre_make (shell command run after configure), steps (a complete build:
# list of argv lists; placeholders {cc} {cxx} {jobs} {cflags} {cxxflags}; the last one is the
# make step, so a partly failing build keeps what it harvested), timeout (seconds, for the large
# packages, instead of --timeout), build_dep (False: configured without optional libraries, so
# apt-get build-dep would only install what is not used).
LUA_MAKE = {"make_args": ["linux", "CC={cc}"]}
QUIRKS = {
    "lua5.1": LUA_MAKE, "lua5.2": LUA_MAKE, "lua5.3": LUA_MAKE, "lua5.4": LUA_MAKE,
    "gmp": {"configure_args": ["--disable-assembly"]},
    # Hand-written configure scripts that reject CC=... arguments but read $CC.
    "zlib": {"configure_env_only": True},
    "cadical": {"configure_env_only": True},
    "gnugo": {"cflags": ["-fcommon"]},
    "gnuchess": {"cxxflags": ["-std=gnu++14"]},
    "gperf": {"cxxflags": ["-std=gnu++14"]},
    "libffi": {"cflags": ["-Wno-implicit-function-declaration"]},
    "picosat": {"steps": [["sh", "./configure.sh"], ["make", "-k", "-j{jobs}", "CC={cc}"]]},
    "tcc": {"steps": [["./configure", "--cc={cc}"], ["make", "-k", "-j{jobs}"]]},
    "libevent": {"configure_args": ["--disable-openssl"]},
    "libxml2": {"configure_args": ["--without-python", "--without-lzma"]},
    "gsl": {"pre_make": r"sed -i -E '/^SUBDIRS *=/ s/ doc( |$)/ /' Makefile"},
    "nauty": {"autoreconf": True},
    "libonig": {"autoreconf": True},
    "jq": {"autoreconf": True, "configure_args": ["--disable-docs", "--disable-maintainer-mode"]},
    "tcl8.6": {"subdir": "unix"},
    "x264": {"configure_env_only": True, "configure_args": ["--disable-asm", "--enable-shared"]},
    "lmdb": {"subdir": "libraries/liblmdb", "make_args": ["CC={cc}"]},
    "redis": {"make_args": ["MALLOC=libc"]},
    "snappy": {"cmake_args": ["-DSNAPPY_BUILD_TESTS=OFF", "-DSNAPPY_BUILD_BENCHMARKS=OFF"]},
    "leveldb": {"cmake_args": ["-DLEVELDB_BUILD_TESTS=OFF", "-DLEVELDB_BUILD_BENCHMARKS=OFF"]},
    # cJSON's tests #include cJSON.c: 20 near-copies of one module.
    "cjson": {"cmake_args": ["-DENABLE_CJSON_UTILS=On", "-DENABLE_CJSON_TEST=Off"]},
    # Large packages, for the 20k-TU goal. None may compile a copy of a reserved package:
    # binutils and others carry a zlib/ directory, used only without --with-system-zlib.
    "openssl": {"timeout": 3600, "steps": [
        ["perl", "./Configure", "linux-x86_64", "no-asm", "no-tests", "CC={cc}", "CXX={cxx}"],
        ["make", "-k", "-j{jobs}", "build_sw"]]},
    "ffmpeg": {"timeout": 5400, "build_dep": False, "steps": [
        ["./configure", "--cc={cc}", "--cxx={cxx}", "--disable-x86asm", "--disable-doc",
         "--disable-autodetect", "--disable-stripping", "--disable-debug"],
        ["make", "-k", "-j{jobs}"]]},
    "binutils": {"timeout": 3600, "configure_args": [
        "--enable-targets=all", "--with-system-zlib", "--disable-gold", "--disable-gprofng",
        "--disable-gdb", "--disable-gdbserver", "--disable-sim", "--disable-werror",
        "--disable-nls"]},
    "postgresql-15": {"timeout": 2400, "configure_args": ["--without-icu"]},
    "python3.11": {"timeout": 2400},
    "ngspice": {"timeout": 2400, "configure_args": ["--with-x=no"]},
    "dovecot": {"timeout": 2400},
    "hdf5": {"timeout": 2400},
    "krb5": {"timeout": 2400, "subdir": "src"},
    "util-linux": {"timeout": 2400, "configure_args": ["--disable-makeinstall-chown",
                                                     "--disable-makeinstall-setuid"]},
    "gnutls28": {"timeout": 2400, "configure_args": ["--disable-doc", "--with-included-unistring",
                                                    "--without-p11-kit", "--disable-tests"]},
    "bullet": {"timeout": 2400, "cmake_args": ["-DBUILD_UNIT_TESTS=OFF", "-DBUILD_EXTRAS=OFF",
                                              "-DBUILD_BULLET2_DEMOS=OFF", "-DBUILD_CPU_DEMOS=OFF",
                                              "-DBUILD_OPENGL3_DEMOS=OFF"]},
    "geos": {"timeout": 2400},
    "aom": {"timeout": 3600, "cmake_args": ["-DAOM_TARGET_CPU=generic", "-DENABLE_DOCS=0",
                                           "-DENABLE_TESTS=0", "-DENABLE_EXAMPLES=0",
                                           "-DENABLE_TOOLS=0"]},
    "imagemagick": {"timeout": 2400},
    "openldap": {"timeout": 2400},
    "gnupg2": {"timeout": 2400},
    "git": {"timeout": 2400, "make_args": ["CC={cc}", "NO_GETTEXT=1", "all"]},
}

# --- bundled copies of reserved packages ----------------------------------------------------------
# Some packages carry and compile their own copy of a reserved package (glpk's src/zlib/, rsync's
# zlib/ without --with-included-zlib=no): reserved code under another name. A module whose source
# lies in a directory named after a reserved package (a version suffix aside) is excluded from
# training and validation as "bundled_reserved".
BUNDLED_RESERVED_DIRS = {
    "zlib": "zlib", "bzip2": "bzip2", "bzlib": "bzip2", "libpng": "libpng1.6",
    "jpeg": "libjpeg-turbo", "libjpeg": "libjpeg-turbo", "libjpeg-turbo": "libjpeg-turbo",
    "tiff": "tiff", "libtiff": "tiff", "liblzma": "xz-utils", "xz": "xz-utils", "mpfr": "mpfr4",
    "nettle": "nettle", "libsodium": "libsodium", "jansson": "jansson", "libmad": "libmad",
    "gsm": "libgsm", "libgsm": "libgsm", "cadical": "cadical",
}


def bundled_reserved(source):
    """The reserved package a module's source is a bundled copy of, or None."""
    for part in source.split("/")[:-1]:
        name = re.sub(r"-[0-9][0-9.]*$", "", part.lower())
        if name in BUNDLED_RESERVED_DIRS:
            return BUNDLED_RESERVED_DIRS[name]
    return None


# --- gnulib detection (reserved-for-evaluation.txt: keep gnulib out of training) -------------------
# Packages known to carry gnulib (besides those whose tree has m4/gnulib-comp.m4, detected at
# harvest time and recorded as "gnulib": true in the package manifest).
GNULIB_PACKAGES = {
    "m4", "sed", "tar", "findutils", "patch", "gawk", "coreutils", "cpio", "bison", "indent",
    "cflow", "recode", "libidn2", "libidn", "libunistring", "sharutils", "zile", "gzip", "grep",
    "diffutils", "wget", "texinfo", "gnulib", "gettext", "libiconv", "gnutls28", "units",
}
# Directory components that hold gnulib in a gnulib-using package (tar and cpio use gnu/,
# coreutils gnulib-tests/); the package's own gnulib directories (gl_source_base in
# m4/gnulib-comp.m4, e.g. m4's tests/) are recorded at harvest time as well.
GNULIB_DIRS_IN_GNU = {"lib", "gnulib", "gnu", "gl", "gllib", "gltests", "gnulib-tests",
                      "gnulib-lib"}
# File names that are gnulib wherever they appear: distinctive names only.
GNULIB_NAMES = set("""
argmatch.c backupfile.c backup-find.c basename-lgpl.c binary-io.c bitrotate.c c-ctype.c
c-strcasecmp.c c-strncasecmp.c c-stack.c canonicalize-lgpl.c careadlinkat.c chdir-long.c
cloexec.c close-stream.c closein.c closeout.c cycle-check.c dirname-lgpl.c dup-safer.c
dup-safer-flag.c exitfail.c fd-hook.c fd-safer.c fd-safer-flag.c fdutimensat.c filenamecat.c
filenamecat-lgpl.c fopen-safer.c fpending.c fprintftime.c freadahead.c freading.c freadptr.c
freadseek.c getopt.c getopt1.c getndelim2.c getprogname.c hard-locale.c hash-pjw.c hash-triple.c
i-ring.c idcache.c imaxtostr.c inttostr.c localcharset.c localeinfo.c long-options.c malloca.c
mbiter.c mbscasecmp.c mbslen.c mbsstr.c mbuiter.c memchr2.c mkstemp-safer.c modechange.c
nstrftime.c offtostr.c opendir-safer.c openat-die.c openat-proc.c openat-safer.c pipe-safer.c
posixtm.c priv-set.c propername.c quotearg.c readtokens.c readutmp.c regex_internal.c
safe-read.c safe-write.c same-inode.c save-cwd.c setlocale_null.c sig2str.c spawn-pipe.c
stat-time.c stdopen.c stripslash.c strnlen1.c uinttostr.c umaxtostr.c unlocked-io.c utimens.c
verror.c version-etc.c version-etc-fsf.c wait-process.c xalloc-die.c xasprintf.c xbinary-io.c
xgetcwd.c xmalloc.c xmemcoll.c xreadlink.c xsize.c xstriconv.c xstrndup.c xstrtod.c
xstrtoimax.c xstrtol.c xstrtol-error.c xstrtoul.c xstrtoumax.c xvasprintf.c asnprintf.c
vasnprintf.c printf-args.c printf-parse.c striconv.c striconveh.c unicodeio.c uniwidth.c
mbsalign.c argp-parse.c argp-help.c argp-fmtstream.c argp-fs-xinl.c argp-pv.c argp-pvh.c
argp-xinl.c argp-ba.c argp-eexst.c argp-version-etc.c wctype-h.c c32rtomb.c mbrtoc32.c
""".split())
# gnulib names too common to mean gnulib outside a gnulib-using package (ed's regex.c, flex's
# dfa.c are their own); inside one (gawk's support/) they do.
GNULIB_GENERIC_NAMES = set("""
basename.c canonicalize.c dfa.c dirname.c exclude.c fcntl.c fseeko.c fstatat.c fts.c
full-read.c full-write.c getdelim.c getline.c gettime.c hash.c mbchar.c mbrtowc.c mkdir-p.c
obstack.c progname.c quote.c regcomp.c regex.c regexec.c same.c savedir.c strftime.c tempname.c
timespec.c trim.c unistd.c error.c linebuffer.c vasprintf.c
""".split())
# Configure/CMake/meson probes: compiled at -Oz too (CFLAGS), so harvested; never training data.
PROBE_RE = re.compile(r"^conftest\w*\.(c|cc|cpp|cxx)$")
PROBE_NAMES = {"CMakeCCompilerId.c",
               "CMakeCXXCompilerId.cpp", "CMakeCCompilerABI.c", "CMakeCXXCompilerABI.cpp",
               "CheckFunctionExists.c", "CheckSymbolExists.c", "CheckIncludeFile.c",
               "CheckIncludeFiles.c", "sanitycheckc.c", "sanitycheckcpp.cc", "testfile.c"}
PROBE_DIR_PARTS = ("/CMakeFiles/CMakeScratch/", "/CMakeFiles/CMakeTmp/", "/meson-private/",
                   "/CMakeFiles/3.", "/conftest.dir/")


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def log(msg):
    print(msg, flush=True)


def read_list(path):
    """Names one per line; '#' starts a comment."""
    names = []
    with open(path) as f:
        for line in f:
            name = line.split("#", 1)[0].strip()
            if name and name not in names:
                names.append(name)
    return names


def is_validation_package(name):
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % 10 == 0


def corpus_root(arg):
    return os.path.abspath(arg or os.environ.get("SMARTCC_CORPUS_DIR")
                           or os.path.expanduser("~/.cache/smartcc/corpus"))


def latest_records(manifest):
    """package -> its last record in a packages-<split>.jsonl manifest."""
    out = {}
    if os.path.exists(manifest):
        with open(manifest) as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue
                    out[rec.get("package")] = rec
    return out


# --- the corpus index ------------------------------------------------------------------------------
def read_index(path, offset=0):
    """Records of DIR/index.jsonl from byte offset on (complete lines only), and the end offset."""
    recs = []
    if not os.path.exists(path):
        return recs, 0
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read()
    end = data.rfind(b"\n") + 1
    for line in data[:end].splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass
    return recs, offset + end


def home_relative(text):
    """The text with the user's home directory written as ~: the manifests and summaries are
    committed (policies/corpus/), and a path of the machine that harvested says nothing."""
    home = os.path.expanduser("~").rstrip("/")
    return text.replace(home + "/", "~/") if home and home != "/" else text


def source_path(rec):
    """Path of a compiled file relative to its package's tree: builds happen in
    work/<pkg>/src under the corpus root (and work/<pkg>/build for CMake/meson), whatever
    the root was."""
    src = rec.get("source", "")
    full = os.path.normpath(os.path.join(rec.get("directory", ""), src))
    pkg = rec.get("package", "")
    for part, prefix in (("src", ""), ("build", "<build>/")):
        marker = "/work/%s/%s/" % (pkg, part)
        i = full.rfind(marker)
        if i >= 0:
            return prefix + full[i + len(marker):]
    return full


def is_probe(rec, rel=None):
    rel = rel if rel is not None else source_path(rec)
    base = os.path.basename(rel)
    if base in PROBE_NAMES or PROBE_RE.match(base):
        return True
    full = "/" + rel if not rel.startswith("/") else rel
    return any(p in full for p in PROBE_DIR_PARTS) or rec.get("source") in ("-", "")


# --- running commands -------------------------------------------------------------------------------
class Interrupted(Exception):
    pass


CURRENT = {"proc": None}


def kill_group(proc):
    if proc is None or proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            pass


def run(argv, cwd, env, logf, timeout):
    """Runs argv (list, or str for sh -c) in its own process group, output appended to logf.
    Returns the exit code, or None on timeout (the whole group is killed)."""
    if isinstance(argv, str):
        argv = ["sh", "-c", argv]
    logf.write("\n$ (cd %s && %s)\n" % (cwd, " ".join(shlex.quote(a) for a in argv)))
    logf.flush()
    if timeout is not None and timeout <= 0:
        return None
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=logf, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    except OSError as e:
        logf.write("cannot run: %s\n" % e)
        return 127
    CURRENT["proc"] = proc
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        logf.write("\n*** timed out after %s s: process group killed\n" % int(timeout))
        return None
    finally:
        kill_group(proc)  # no-op once it exited; a Ctrl-C or SIGTERM lands here mid-wait
        CURRENT["proc"] = None


def error_lines(log_path, n=4):
    """The first lines of the last step's output that look like errors (or its last lines),
    shortened."""
    try:
        with open(log_path, errors="replace") as f:
            lines = f.readlines()
    except OSError:
        return ""
    starts = [i for i, l in enumerate(lines) if l.startswith("$ (")]
    tail = lines[starts[-1] + 1:] if starts else lines
    pat = re.compile(r"\berror\b|\*\*\*|\bfatal\b|No such file|not found|cannot |"
                     r"undefined reference|Killed|timed out", re.I)
    echo = re.compile(r"\*\*\* \[.*\] Error \d|not remade because of errors|^\$ \(|^checking ")
    hits = [l.rstrip() for l in tail if pat.search(l) and not echo.search(l)]
    # The first errors are the cause; make's "*** [target] Error 1" lines only echo them.
    lines = hits[:n] if hits else [l.rstrip() for l in tail if l.strip()][-n:]
    return "\n".join(l if len(l) <= 200 else l[:197] + "..." for l in lines)


# --- fetching ------------------------------------------------------------------------------------
def version_key(path):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", os.path.basename(path))]


def find_dsc(pkg, dirs):
    found = []
    for d in dirs:
        found += glob.glob(os.path.join(glob.escape(d), glob.escape(pkg) + "_*.dsc"))
    return max(found, key=version_key) if found else None


def dsc_field(dsc, field):
    with open(dsc, errors="replace") as f:
        for line in f:
            if line.startswith(field + ":"):
                return line.split(":", 1)[1].strip()
    return None


def ensure_deb_src(logf):
    """A deb-src line for bookworm main, as tests/e2e/debian-package.sh adds it: apt refuses two
    entries for one archive whose Signed-By differ, so reuse the key of the existing deb entry."""
    files = glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*.list") + \
        glob.glob("/etc/apt/sources.list.d/*.sources")
    text = {}
    for p in files:
        try:
            text[p] = open(p, errors="replace").read()
        except OSError:
            pass
    src_re = re.compile(r"^\s*(deb-src\s|Types:.*\sdeb-src)", re.M)
    if any(src_re.search(t) for t in text.values()):
        return
    key = None
    for t in text.values():
        for stanza in re.split(r"\n\s*\n", t):
            if "deb.debian.org/debian" in stanza:
                m = re.search(r"[Ss]igned-[Bb]y[:=][ \t]*([^\] \t\n]+)", stanza)
                if m:
                    key = m.group(1)
                    break
        if key:
            break
    opt = "[signed-by=%s] " % key if key else ""
    log("adding /etc/apt/sources.list.d/smartcc-src.list (deb-src for bookworm main)")
    with open("/etc/apt/sources.list.d/smartcc-src.list", "w") as f:
        f.write("deb-src %shttp://deb.debian.org/debian bookworm main\n" % opt)
    run(["apt-get", "update", "-qq"], "/", None, logf, 600)


def study_candidates(config):
    """--link-candidates ALL: the built-in library's default link candidates, then every
    [link_candidate.NAME] of the study's configuration file."""
    import tomllib
    with open(os.path.join(REPO, "policies", "candidates.toml"), "rb") as f:
        names = list(tomllib.load(f)["default_link_candidates"])
    if config:
        with open(config, "rb") as f:
            names += [n for n in tomllib.load(f).get("link_candidate", {}) if n not in names]
    return names


class Harvester:
    def __init__(self, args):
        self.args = args
        self.root = corpus_root(args.corpus)
        self.split = args.split
        self.lto = getattr(args, "lto", False)
        self.out_dir = os.path.join(self.root, ("links-" + self.split) if self.lto
                                    else SPLIT_DIRS[self.split])
        self.src_cache = os.path.join(self.root, "src-cache")
        self.work_root = os.path.join(self.root, "work")
        self.log_dir = os.path.join(self.root, "logs", self.split)
        self.manifest = os.path.join(args.manifest_dir, "packages-%s%s.jsonl" % (
            "lto-" if self.lto else "", self.split))
        self.index = os.path.join(self.out_dir, "index.jsonl")
        self.bin = os.path.abspath(args.bin)
        self.cc = os.path.join(self.bin, "smartcc")
        self.cxx = os.path.join(self.bin, "smartc++")
        self.reserved = set(read_list(args.reserved))
        self.apt_updated = False
        self.first_pkg = {}  # module hash -> package of its first sighting in the index
        self.index_packages = set()  # packages with at least one line in the index
        self.index_end = 0

    # -- setup --
    def preflight(self):
        for p in (self.cc, self.cxx):
            if not os.access(p, os.X_OK):
                sys.exit("harvest-corpus: %s is missing (build smartcc first: scripts/build.sh)" % p)
        for d in (self.out_dir, self.src_cache, self.work_root, self.log_dir, self.args.manifest_dir):
            os.makedirs(d, exist_ok=True)
        needed = {"dpkg-source": "dpkg-dev", "autoreconf": "autoconf", "automake": "automake",
                  "libtoolize": "libtool", "autopoint": "autopoint", "msgfmt": "gettext",
                  "bison": "bison", "flex": "flex", "m4": "m4", "cmake": "cmake",
                  "ninja": "ninja-build", "pkg-config": "pkg-config", "make": "make"}
        missing = sorted({pkg for tool, pkg in needed.items() if not shutil.which(tool)})
        if missing and not self.args.no_install_tools:
            log("installing build tools: " + " ".join(missing))
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing,
                           env=env, check=False)

    def load_index(self):
        recs, self.index_end = read_index(self.index)
        for r in recs:
            self.first_pkg.setdefault(r.get("hash"), r.get("package"))
            self.index_packages.add(r.get("package"))

    # -- one package --
    def fetch(self, pkg, logf):
        dirs = [self.src_cache] + ([LEGACY_SRC_CACHE] if os.path.isdir(LEGACY_SRC_CACHE) else [])
        dsc = find_dsc(pkg, dirs)
        if dsc:
            return dsc
        ensure_deb_src(logf)
        before = set(glob.glob(os.path.join(self.src_cache, "*.dsc")))
        cmd = ["apt-get", "source", "--download-only", "-qq", pkg]
        rc = run(cmd, self.src_cache, None, logf, 900)
        if rc != 0 and not self.apt_updated:  # a stale index names files the mirror lost
            self.apt_updated = True
            run(["apt-get", "update", "-qq"], "/", None, logf, 600)
            rc = run(cmd, self.src_cache, None, logf, 900)
        dsc = find_dsc(pkg, dirs)
        if not dsc:  # the list named a binary package: take the .dsc that just appeared
            new = set(glob.glob(os.path.join(self.src_cache, "*.dsc"))) - before
            dsc = max(new, key=version_key) if len(new) == 1 else None
        return dsc

    def origs(self, pkg):
        """Upstream tarballs (for packages whose .debian.tar is missing on the mirror)."""
        found = []
        for d in (self.src_cache, LEGACY_SRC_CACHE):
            for p in glob.glob(os.path.join(glob.escape(d), glob.escape(pkg) + "_*.tar.*")):
                base = os.path.basename(p)
                if ".debian.tar." in base or base.endswith(".asc") or ".orig-" in base:
                    continue
                found.append(p)
        return sorted(found, key=version_key)

    def extract(self, pkg, dsc, src, logf):
        if dsc and run(["dpkg-source", "--skip-patches", "-x", dsc, src],
                       self.src_cache, None, logf, 600) == 0:
            return True
        shutil.rmtree(src, ignore_errors=True)
        tars = self.origs(pkg)
        if not tars:
            return False
        tarball = tars[-1]
        logf.write("\nfalling back to the upstream tarball %s\n" % tarball)
        listing = subprocess.run(["tar", "-tf", tarball], capture_output=True, text=True)
        tops = {n.split("/", 1)[0] for n in listing.stdout.splitlines() if n.strip()}
        os.makedirs(src)
        strip = ["--strip-components=1"] if len(tops) == 1 else []
        return run(["tar", "-xf", tarball, "-C", src] + strip, src, None, logf, 600) == 0

    def gnulib_files(self, pkg, src):
        """A gnulib-using package's gnulib directories (gl_source_base in m4/gnulib-comp.m4) and
        the names of the .c files in them, saved to <split>/gnulib-files/<pkg>.json for
        summarize; None when the package does not use gnulib-tool."""
        dirs, names = set(), set()
        comps = glob.glob(os.path.join(src, "m4", "gnulib-comp.m4")) + \
            glob.glob(os.path.join(src, "*", "m4", "gnulib-comp.m4"))
        if not comps:
            return None
        for path in comps:
            text = open(path, errors="replace").read()
            prefix = os.path.relpath(os.path.dirname(os.path.dirname(path)), src)
            for d in re.findall(r"gl_source_base='([^'$]+)'", text):
                dirs.add(os.path.normpath(os.path.join(prefix, d)))
            m = re.search(r"gl_FILE_LIST\s*\(\s*\[(.*?)\]\s*\)", text, re.S)  # older gnulib
            for name in (m.group(1).split() if m else []):
                if name.endswith(".c") and name.startswith(("lib/", "tests/", "tests=lib/")):
                    names.add(os.path.basename(name))
        for d in dirs:
            for base, _, files in os.walk(os.path.join(src, d)):
                names.update(f for f in files if f.endswith(".c"))
        out = os.path.join(self.out_dir, "gnulib-files")
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, pkg + ".json"), "w") as f:
            json.dump({"package": pkg, "dirs": sorted(dirs), "files": sorted(names)}, f)
            f.write("\n")
        return sorted(dirs)

    def build_dep(self, pkg, logf):
        """apt-get build-dep, best effort, but never one that removes a package (gcc-multilib,
        say, would take the aarch64 cross compilers smartcc's tests use)."""
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive", LC_ALL="C")
        argv = ["apt-get", "build-dep", "--arch-only", "--no-install-recommends", pkg]
        try:
            sim = subprocess.run(argv[:2] + ["-s"] + argv[2:], env=env, capture_output=True,
                                 text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return "failed: simulation timed out"
        removed = [l.split()[1] for l in sim.stdout.splitlines() if l.startswith("Remv ")]
        if removed:
            logf.write("\napt-get build-dep %s would remove %s: not installing\n" % (
                pkg, " ".join(removed)))
            return "refused: would remove " + " ".join(removed[:5])
        if sim.returncode != 0:
            logf.write("\n" + sim.stdout[-2000:] + sim.stderr[-2000:])
            return "failed: " + (sim.stderr.strip().splitlines() or ["?"])[-1][:150]
        if not any(l.startswith("Inst ") for l in sim.stdout.splitlines()):
            return "ok"
        rc = run(argv[:2] + ["-y", "-qq"] + argv[2:], "/", env, logf, 900)
        return "ok" if rc == 0 else "failed"

    def build_steps(self, pkg, src, env):
        """(build system, [(label, argv, cwd)]) for a package, or (None, reason)."""
        q = QUIRKS.get(pkg, {})
        jobs = str(self.args.jobs)
        subst = {"cc": self.cc, "cxx": self.cxx, "jobs": jobs, "cflags": env["CFLAGS"],
                 "cxxflags": env["CXXFLAGS"]}
        fmt = lambda argv: [a.format(**subst) for a in argv]
        top = os.path.join(src, q["subdir"]) if "subdir" in q else src
        if not os.path.isdir(top):
            return None, "no directory %s" % q["subdir"]
        make = ["make", "-k", "-j" + jobs] + fmt(q.get("make_args", []))
        if "steps" in q:
            labels = ["build"] * (len(q["steps"]) - 1) + ["make"]
            return "quirk", [(l, fmt(s), top) for l, s in zip(labels, q["steps"])]
        steps = []
        configure = os.path.join(top, q.get("configure", "configure"))
        has_ac = any(os.path.exists(os.path.join(top, n)) for n in ("configure.ac", "configure.in"))
        if q.get("autoreconf") or (not os.path.exists(configure) and has_ac):
            steps.append(("autoreconf", ["autoreconf", "-fi"], top))
            autoconf = True
        elif os.path.exists(configure):
            with open(configure, errors="replace") as f:
                text = f.read(400000)
            autoconf = "Generated by GNU Autoconf" in text[:4000]
        if steps or os.path.exists(configure):
            args = ["sh", configure] if not os.access(configure, os.X_OK) else [configure]
            if autoconf:
                text = open(configure, errors="replace").read() if os.path.exists(configure) else ""
                for opt in ("--disable-dependency-tracking", "--disable-static"):
                    if not text or opt.replace("--disable-", "--enable-") in text or opt in text:
                        args.append(opt)
            elif not q.get("configure_env_only"):
                # Hand-written configure scripts (ed, lzip) ignore $CC in the environment.
                args += ["CC=" + self.cc, "CXX=" + self.cxx, "CFLAGS=" + env["CFLAGS"],
                         "CXXFLAGS=" + env["CXXFLAGS"]]
            steps.append(("configure", args + fmt(q.get("configure_args", [])), top))
            if q.get("pre_make"):
                steps.append(("configure", ["sh", "-c", q["pre_make"]], top))
            steps.append(("make", make, top))
            return "configure", steps
        if os.path.exists(os.path.join(top, "CMakeLists.txt")):
            build = os.path.join(os.path.dirname(src), "build")
            steps.append(("configure", ["cmake", "-G", "Ninja", "-S", top, "-B", build,
                                        "-DCMAKE_BUILD_TYPE=None", "-DBUILD_TESTING=OFF"]
                          + fmt(q.get("cmake_args", [])), top))
            steps.append(("make", ["cmake", "--build", build, "-j", jobs, "--", "-k", "0"], top))
            return "cmake", steps
        if os.path.exists(os.path.join(top, "meson.build")):
            if not shutil.which("meson"):
                return None, "skipped: meson build and meson is not installed"
            build = os.path.join(os.path.dirname(src), "build")
            steps.append(("configure", ["meson", "setup", build, top, "--buildtype=plain"], top))
            steps.append(("make", ["ninja", "-C", build, "-k", "0", "-j", jobs], top))
            return "meson", steps
        for name in ("GNUmakefile", "makefile", "Makefile"):
            mk = os.path.join(top, name)
            if os.path.exists(mk):
                text = open(mk, errors="replace").read()
                # A hard `CC = gcc` beats the environment: override it on the command line.
                for var, val in (("CC", self.cc), ("CXX", self.cxx)):
                    if re.search(r"^\s*%s\s*:?=" % var, text, re.M) and \
                            not any(a.startswith(var + "=") for a in make):
                        make.append("%s=%s" % (var, val))
                return "make", [("make", make, top)]
        return None, "no build system found (configure, CMakeLists.txt, meson.build, Makefile)"

    def package(self, pkg):
        t0 = time.time()
        rec = {"package": pkg, "version": None, "status": None, "reason": "", "seconds": 0,
               "tus": 0, "new_modules": 0, "ir_instructions": 0}
        work = os.path.join(self.work_root, pkg)
        src = os.path.join(work, "src")
        log_path = os.path.join(self.log_dir, pkg + ".log")
        shutil.rmtree(work, ignore_errors=True)  # left over by an interrupted run
        os.makedirs(work)
        try:
            with open(log_path, "w") as logf:
                self.package_steps(pkg, rec, src, logf, log_path)
        finally:
            if not self.args.keep_work:
                shutil.rmtree(work, ignore_errors=True)
        rec["seconds"] = round(time.time() - t0, 1)
        rec["date"] = now_iso()
        return rec

    def package_steps(self, pkg, rec, src, logf, log_path):
        if self.split == "train" and pkg in self.reserved:
            rec.update(status="skipped_reserved", reason="listed in reserved-for-evaluation.txt")
            return
        dsc = self.fetch(pkg, logf)
        if dsc:
            rec["version"] = dsc_field(dsc, "Version")
            source = dsc_field(dsc, "Source") or pkg
            if self.split == "train" and source in self.reserved:
                rec.update(status="skipped_reserved", reason="source %s is reserved" % source)
                return
        if not self.extract(pkg, dsc, src, logf):
            rec.update(status="source_missing", reason=error_lines(log_path, 2) or "no source")
            return
        if not dsc:
            rec["reason"] = "no .dsc; built the upstream tarball"
            tars = self.origs(pkg)
            m = re.match(re.escape(pkg) + r"_(.*?)(\.orig)?\.tar\.", os.path.basename(tars[-1]))
            rec["version"] = m.group(1) if m else None
        gnulib = self.gnulib_files(pkg, src)
        rec["gnulib"] = gnulib is not None
        if gnulib:
            rec["gnulib_dirs"] = gnulib

        q = QUIRKS.get(pkg, {})
        if not self.args.no_build_dep and q.get("build_dep", True):
            rec["build_dep"] = self.build_dep(pkg, logf)

        cflags = " ".join(["-Oz"] + q.get("cflags", []))
        cxxflags = " ".join(["-Oz"] + q.get("cxxflags", []))
        env = dict(os.environ, CC=self.cc, CXX=self.cxx, CFLAGS=cflags, CXXFLAGS=cxxflags,
                   SMARTCC_HARVEST=self.out_dir, SMARTCC_HARVEST_PACKAGE=pkg,
                   SMARTCC_CANDIDATES="none", CCC_OVERRIDE_OPTIONS="# +-Oz",
                   FORCE_UNSAFE_CONFIGURE="1", LC_ALL="C")
        if self.lto:
            # Whole programs: bitcode objects, archives indexed for bitcode, lld links that
            # smartcc owns; each link measures the agent's whole core set and the library.
            for k in ("SMARTCC_HARVEST", "SMARTCC_HARVEST_PACKAGE", "SMARTCC_CANDIDATES"):
                env.pop(k, None)
            links_log = os.path.join(self.out_dir, pkg + ".jsonl")
            if os.path.exists(links_log):
                os.remove(links_log)  # an interrupted build of this package
            env.update(CFLAGS=cflags + " -flto", CXXFLAGS=cxxflags + " -flto",
                       LDFLAGS="-Oz -flto -fuse-ld=lld -Wl,--undefined-version",
                       AR="llvm-ar-22", RANLIB="llvm-ranlib-22", NM="llvm-nm-22",
                       # the per-TU agent's model for its core set (every sequence run)
                       SMARTCC_LINK_AGENT=os.path.join(REPO, "policies", "models",
                                                       "x86_64.smm"),
                       SMARTCC_EFFORT="2",
                       SMARTCC_LINK_TIME=str(self.args.link_time), SMARTCC_LOG=links_log)
            if self.args.link_candidates:  # a knob study: these candidates, no agent
                env.update(SMARTCC_LINK_AGENT="off",
                           SMARTCC_LINK_CANDIDATES=self.args.link_candidates)
                env.pop("SMARTCC_EFFORT")
                if self.args.link_config:
                    env["SMARTCC_CONFIG"] = os.path.abspath(self.args.link_config)
        env.pop("MAKEFLAGS", None)
        env.pop("MFLAGS", None)
        system, steps = self.build_steps(pkg, src, env)
        rec["build_system"] = system
        if system is None:
            rec.update(status="build_failed", reason=steps)
            return

        offset = self.index_end
        timeout = q.get("timeout", self.args.timeout)
        deadline = time.time() + timeout
        status, failed = "built", None
        for label, argv, cwd in steps:
            rc = run(argv, cwd, env, logf, deadline - time.time())
            if rc is None:
                status, failed = "timeout", label
                break
            if rc != 0:
                failed = label
                if label != "make":  # autoreconf / configure / cmake: nothing to build
                    status = "build_failed"
                    break
        logf.flush()
        self.count(pkg, rec, offset)
        if status == "built" and failed == "make":
            if rec["tus"] > 0:
                rec["partial"] = True
            else:
                status = "build_failed"
        if status == "built" and rec["tus"] == 0:
            status = "build_failed"
            failed = failed or "harvest"
            rec["reason"] = ("built but smartcc owned no -flto link" if self.lto
                             else "built but no TU reached smartcc at -Oz")
        rec["status"] = status
        if failed and not rec["reason"]:
            what = {"timeout": "timed out (%d s) in %s" % (timeout, failed)}.get(
                status, "%s failed" % failed)
            rec["reason"] = what + ": " + error_lines(log_path, 2 if status == "timeout" else 4)

    def count(self, pkg, rec, offset):
        if self.lto:
            links = 0
            path = os.path.join(self.out_dir, pkg + ".jsonl")
            if os.path.exists(path):
                with open(path) as f:
                    links = sum(1 for line in f if '"kind":"link"' in line)
            rec.update(tus=links, links=links)  # tus: what says "built" below
            return
        recs, self.index_end = read_index(self.index, offset)
        mine, probes, ir = {}, 0, {}
        for r in recs:
            h = r.get("hash")
            self.first_pkg.setdefault(h, r.get("package"))
            self.index_packages.add(r.get("package"))
            if r.get("package") != pkg:
                continue
            if is_probe(r):
                probes += 1
                continue
            mine[h] = mine.get(h, 0) + 1
            ir[h] = int(r.get("ir_instructions") or 0)
        new = [h for h in mine if self.first_pkg.get(h) == pkg]
        rec.update(tus=sum(mine.values()), modules=len(mine), new_modules=len(new),
                   ir_instructions=sum(ir[h] for h in new),
                   ir_instructions_all=sum(ir.values()), probe_tus=probes)

    # -- the run --
    def packages_to_do(self):
        if self.split == "eval":
            names = read_list(self.args.reserved)
        else:
            names = read_list(self.args.packages)
        if self.args.only:
            names = list(dict.fromkeys(self.args.only))
            if self.split == "eval":
                bad = [n for n in names if n not in self.reserved]
                if bad:
                    log("not reserved for evaluation, left out of --split eval: " + " ".join(bad))
                names = [n for n in names if n in self.reserved]
        done = latest_records(self.manifest)
        todo, missing = [], []
        for n in names:
            st = done.get(n, {}).get("status")
            if st == "built" and n not in self.index_packages and not self.lto:
                missing.append(n)  # manifest from another machine: this corpus lacks its bitcode
            elif st in STATUSES and not (self.args.retry_failed and st in RETRYABLE) \
                    and not self.args.redo:
                continue
            todo.append(n)
        if missing:
            log("%d packages recorded as built have no bitcode in %s: redoing them (%s)" % (
                len(missing), self.out_dir, " ".join(missing[:8]) + (" ..." if len(missing) > 8
                                                                     else "")))
        skipped = len(names) - len(todo)
        if skipped:
            log("%d of %d packages already finished in %s" % (skipped, len(names), self.manifest))
        if self.args.limit is not None:
            todo = todo[:self.args.limit]
        return todo

    def main(self):
        self.preflight()
        lock = open(os.path.join(self.out_dir, ".harvest.lock"), "w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            sys.exit("harvest-corpus: another harvest is running on %s" % self.out_dir)
        if not self.lto:
            self.load_index()
        todo = self.packages_to_do()
        log("harvesting %d packages into %s (manifest %s)" % (len(todo), self.out_dir,
                                                              self.manifest))
        durations = []
        for k, pkg in enumerate(todo, 1):
            rec = self.package(pkg)
            with open(self.manifest, "a") as f:
                f.write(json.dumps(dict(rec, reason=home_relative(rec["reason"])),
                                   sort_keys=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
            if rec["status"] != "skipped_reserved":
                durations.append(rec["seconds"])
            eta = (statistics.mean(durations) if durations else 0) * (len(todo) - k)
            log("[%d/%d] %s: %s, %d tus, %ds, ETA %02d:%02d%s" % (
                k, len(todo), pkg, rec["status"], rec["tus"], rec["seconds"], eta // 3600,
                eta % 3600 // 60, ("  (%s)" % rec["reason"].splitlines()[0][:120])
                if rec["reason"] and rec["status"] != "built" else ""))
        return 0


# --- summarize ------------------------------------------------------------------------------------
def percentile(sorted_vals, p):
    if not sorted_vals:
        return 0
    i = max(0, min(len(sorted_vals) - 1, int(round(p / 100 * len(sorted_vals) + 0.5)) - 1))
    return sorted_vals[i]


def distribution(sizes):
    s = sorted(sizes)
    total = sum(s)
    top = s[len(s) - max(1, len(s) // 100):] if s else []
    return {"modules": len(s), "ir_instructions": total,
            "median": percentile(s, 50), "p90": percentile(s, 90), "p99": percentile(s, 99),
            "max": s[-1] if s else 0,
            "fraction_under_50": round(sum(1 for v in s if v < 50) / len(s), 4) if s else 0,
            "top_1pct_share": round(sum(top) / total, 4) if total else 0}


PIC_MACROS = {"-DPIC", "-D__PIC__", "-DDLL_EXPORT", "-D_REENTRANT"}


def macros(out_dir, h):
    """The -D/-U options of a module's compile (from its meta file), PIC markers left out."""
    try:
        with open(os.path.join(out_dir, "meta", h + ".json")) as f:
            args = json.load(f).get("cc1_args", [])
    except (OSError, ValueError):
        return None
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ("-D", "-U") and i + 1 < len(args):
            a = a + args[i + 1]
            i += 1
        if a.startswith(("-D", "-U")) and a not in PIC_MACROS:
            out.append(a)
        i += 1
    return tuple(sorted(out))


def summarize_split(root, split, manifest_dir, reserved):
    out_dir = os.path.join(root, SPLIT_DIRS[split])
    index = os.path.join(out_dir, "index.jsonl")
    if not os.path.exists(index):
        log("summarize: no %s, skipping the %s split" % (index, split))
        return
    records = latest_records(os.path.join(manifest_dir, "packages-%s.jsonl" % split))
    gnulib_pkgs = set(GNULIB_PACKAGES) | {p for p, r in records.items() if r.get("gnulib")}
    gnulib_dirs = {p: set(r.get("gnulib_dirs") or ()) for p, r in records.items()}
    gnulib_names = set(GNULIB_NAMES) | GNULIB_GENERIC_NAMES
    for d in SPLIT_DIRS.values():  # what gnulib-using packages import, both splits
        for path in glob.glob(os.path.join(root, d, "gnulib-files", "*.json")):
            with open(path) as f:
                info = json.load(f)
            gnulib_pkgs.add(info["package"])
            gnulib_dirs.setdefault(info["package"], set()).update(info["dirs"])
            gnulib_names.update(info["files"])
    eval_hashes = set()
    if split == "train":
        recs, _ = read_index(os.path.join(root, SPLIT_DIRS["eval"], "index.jsonl"))
        eval_hashes = {r.get("hash") for r in recs}

    def gnulib(pkg, rel):
        parts = rel.split("/")
        base = parts[-1]
        if "gnulib" in parts[:-1] or base in GNULIB_NAMES:
            return True
        if pkg in gnulib_pkgs:
            return base in gnulib_names or any(p in GNULIB_DIRS_IN_GNU for p in parts[:-1]) or \
                any(rel.startswith(d + "/") for d in gnulib_dirs.get(pkg, ()))
        return False

    recs, _ = read_index(index)
    mods, probe_compiles, probe_hashes = {}, 0, set()
    for r in recs:
        rel = source_path(r)
        if is_probe(r, rel):
            probe_compiles += 1
            probe_hashes.add(r.get("hash"))
            continue
        h, pkg = r.get("hash"), r.get("package") or "?"
        m = mods.get(h)
        if m is None:
            m = mods[h] = {"hash": h, "packages": [], "source": rel, "ir_instructions":
                           int(r.get("ir_instructions") or 0), "bitcode_bytes":
                           int(r.get("bitcode_bytes") or 0), "compiles": 0, "is_gnulib": False,
                           # one module a flavour: x86-64/aarch64 at -Oz, x86-64 at -O0
                           "target": r.get("target", ""), "level": r.get("level", "")}
        m["compiles"] += 1
        if pkg not in m["packages"]:
            m["packages"].append(pkg)
        m["is_gnulib"] = m["is_gnulib"] or gnulib(pkg, rel)
    probe_hashes -= set(mods)

    # One file built twice with the same macros (static + shared library: PIC and non-PIC,
    # -fvisibility) gives two near-identical modules: keep the first, flag the others. A file
    # built twice into different code (nauty's -DWORDSIZE=32 variants) stays, and so does each
    # flavour (x86-64 -Oz, aarch64 -Oz, x86-64 -O0): each is its own learning problem.
    first_of = {}
    for m in mods.values():
        key = (m["packages"][0], m["source"], macros(out_dir, m["hash"]), m["target"],
               m["level"])
        if key in first_of:
            m["variant_of"] = first_of[key]
        else:
            first_of[key] = m["hash"]

    for m in mods.values():
        m["packages"].sort()
        if split == "eval":
            m["split"] = "eval"
            continue
        reason = None
        if any(p in reserved for p in m["packages"]):
            reason = "reserved_package"
        elif m["hash"] in eval_hashes:
            reason = "in_eval"
        elif bundled_reserved(m["source"]):
            reason = "bundled_reserved"
        elif m["is_gnulib"]:
            reason = "gnulib"
        elif "variant_of" in m:
            reason = "variant"
        if reason:
            m["split"], m["exclude_reason"] = "excluded", reason
        else:
            m["split"] = "validation" if any(is_validation_package(p) for p in m["packages"]) \
                else "train"

    ordered = sorted(mods.values(), key=lambda m: (m["packages"][0], m["source"], m["hash"]))
    os.makedirs(manifest_dir, exist_ok=True)
    mod_path = os.path.join(manifest_dir, "modules-%s.jsonl" % split)
    with open(mod_path + ".tmp", "w") as f:
        for m in ordered:
            f.write(json.dumps(m) + "\n")
    os.replace(mod_path + ".tmp", mod_path)

    by_status = {}
    for p, r in sorted(records.items()):
        by_status.setdefault(r.get("status"), []).append(p)
    summary = {
        "split": split, "generated": now_iso(), "corpus_dir": home_relative(out_dir),
        "packages": {"by_status": {s: len(v) for s, v in sorted(by_status.items())},
                     "partial_builds": sorted(p for p, r in records.items() if r.get("partial")),
                     "not_built": {s: v for s, v in sorted(by_status.items()) if s != "built"}},
        "compiles": len(recs), "probe_compiles": probe_compiles,
        "probe_modules": len(probe_hashes),
        "distinct_modules": len(mods),
        "all_modules": distribution([m["ir_instructions"] for m in mods.values()]),
        "gnulib_modules": sum(1 for m in mods.values() if m["is_gnulib"]),
    }
    if split == "train":
        sets = {}
        for name in ("train", "validation"):
            chosen = [m for m in mods.values() if m["split"] == name]
            pk = sorted({p for m in chosen for p in m["packages"]})
            sets[name] = dict(distribution([m["ir_instructions"] for m in chosen]), packages=len(pk),
                              package_names=pk if name == "validation" else None)
            if sets[name]["package_names"] is None:
                del sets[name]["package_names"]
        excluded = {}
        for m in mods.values():
            if m["split"] == "excluded":
                excluded[m["exclude_reason"]] = excluded.get(m["exclude_reason"], 0) + 1
        summary["splits"] = sets
        summary["excluded"] = excluded
        summary["validation_rule"] = "package in validation iff int(sha256(name), 16) % 10 == 0; " \
            "a module shared by packages is validation if any of them is"
    path = os.path.join(manifest_dir, "summary-%s.json" % split)
    with open(path, "w") as f:
        json.dump(summary, f, indent=1, sort_keys=False)
        f.write("\n")
    log("summarize %s: %d distinct modules (%d gnulib), %d IR instructions -> %s, %s" % (
        split, len(mods), summary["gnulib_modules"], summary["all_modules"]["ir_instructions"],
        mod_path, path))


def main(argv):
    if argv and argv[0] == "summarize":
        ap = argparse.ArgumentParser(prog="harvest-corpus.py summarize",
                                     description="Write modules-<split>.jsonl and "
                                                 "summary-<split>.json from the corpus index.")
        ap.add_argument("--corpus", help="corpus root (default $SMARTCC_CORPUS_DIR or "
                                         "~/.cache/smartcc/corpus)")
        ap.add_argument("--split", choices=("train", "eval"), action="append",
                        help="default: every split the corpus has")
        ap.add_argument("--manifest-dir", default=DEFAULT_MANIFESTS)
        ap.add_argument("--reserved", default=DEFAULT_RESERVED)
        a = ap.parse_args(argv[1:])
        root = corpus_root(a.corpus)
        reserved = set(read_list(a.reserved)) if os.path.exists(a.reserved) else set()
        for split in a.split or ("train", "eval"):
            summarize_split(root, split, os.path.abspath(a.manifest_dir), reserved)
        return 0

    if argv and argv[0] == "hashes":
        ap = argparse.ArgumentParser(prog="harvest-corpus.py hashes",
                                     description="Print the hashes of one split's modules of one "
                                                 "flavour (from modules-<split>.jsonl), sorted.")
        ap.add_argument("--split", choices=("train", "validation", "eval"), required=True)
        ap.add_argument("--target", default="x86_64", help="triple prefix (default x86_64)")
        ap.add_argument("--level", default="Oz", help="harvest level (default Oz)")
        ap.add_argument("--min-ir", type=int, default=0)
        ap.add_argument("--max-ir", type=int, default=1 << 62)
        ap.add_argument("--manifest-dir", default=DEFAULT_MANIFESTS)
        ap.add_argument("--unseen-by", action="append", default=[], metavar="HASHES",
                        help="leave out every package with a module in this hash list (a "
                             "model's training or validation split): a set held out by package "
                             "from that model (repeatable)")
        ap.add_argument("--per-package", type=int, default=0,
                        help="at most N modules of each package, drawn with --seed (0: all)")
        ap.add_argument("--seed", type=int, default=1)
        ap.add_argument("--index", metavar="INDEX",
                        help="read a pool's index.jsonl instead of the manifest: every module "
                             "of the pool, whatever its split (train-pool holds no reserved one)")
        a = ap.parse_args(argv[1:])
        name = "eval" if a.split == "eval" else "train"
        seen = set()
        for path in a.unseen_by:
            seen |= set(read_list(path))
        mods, seen_packages = [], set()
        # A pool's index (train-pool/index.jsonl: every module harvested, one package each,
        # no split) or a manifest (modules-SPLIT.jsonl, packages listed, split recorded).
        source = a.index or os.path.join(a.manifest_dir, "modules-%s.jsonl" % name)
        with open(source) as f:
            for line in f:
                m = json.loads(line)
                packages = [m["package"]] if "package" in m else m.get("packages", [])
                if m["level"] != a.level or not m["target"].startswith(a.target):
                    continue
                if m["hash"] in seen:
                    seen_packages.update(packages)
                if (a.index or m["split"] == a.split) and \
                        a.min_ir <= m["ir_instructions"] <= a.max_ir:
                    mods.append((m["hash"], packages))
        by_package = {}
        for h, packages in mods:
            if packages and not seen_packages.intersection(packages):
                by_package.setdefault(packages[0], set()).add(h)
        rng = random.Random(a.seed)
        out = []
        for package in sorted(by_package):
            hashes = sorted(by_package[package])
            if a.per_package:
                rng.shuffle(hashes)
                hashes = hashes[:a.per_package]
            out += hashes
        # A module shared by packages (gnulib) may be drawn for each of them: printed once.
        print("\n".join(sorted(set(out))))
        return 0

    ap = argparse.ArgumentParser(prog="harvest-corpus.py",
                                 description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", help="corpus root (default $SMARTCC_CORPUS_DIR or "
                                     "~/.cache/smartcc/corpus)")
    ap.add_argument("--packages", default=DEFAULT_PACKAGES, help="package list (train split)")
    ap.add_argument("--split", choices=("train", "eval"), default="train",
                    help="train: the package list into <root>/train-pool; eval: the reserved "
                         "packages into <root>/eval")
    ap.add_argument("--jobs", type=int, default=2, help="make -j (default 2)")
    ap.add_argument("--limit", type=int, help="build at most N packages in this run")
    ap.add_argument("--only", nargs="+", metavar="PKG", help="just these packages")
    ap.add_argument("--manifest-dir", default=DEFAULT_MANIFESTS)
    ap.add_argument("--timeout", type=int, default=900,
                    help="seconds per package build (default 900)")
    ap.add_argument("--retry-failed", action="store_true",
                    help="redo packages recorded as build_failed, source_missing or timeout")
    ap.add_argument("--redo", action="store_true",
                    help="rebuild even finished packages (bitcode is deduplicated; use it to add "
                         "records a newer smartcc writes, e.g. harvest_gcc's gcc -Os sizes)")
    ap.add_argument("--bin", default=DEFAULT_BIN, help="directory of smartcc and smartc++")
    ap.add_argument("--reserved", default=DEFAULT_RESERVED)
    ap.add_argument("--no-build-dep", action="store_true", help="skip apt-get build-dep")
    ap.add_argument("--no-install-tools", action="store_true",
                    help="do not apt-get install missing autotools/cmake/ninja")
    ap.add_argument("--keep-work", action="store_true", help="keep the build tree, work/<pkg> under the corpus root")
    ap.add_argument("--lto", action="store_true",
                    help="build at -Oz -flto with lld and record smartcc's owned links (every "
                         "core-set sequence and link candidate measured) in <root>/links-<split>")
    ap.add_argument("--link-candidates", default="", metavar="LIST",
                    help="with --lto: measure these link candidates (comma-separated; ALL: the "
                         "library's defaults and every one --link-config defines) at every "
                         "owned link instead of the agent's core set and the library")
    ap.add_argument("--link-time", type=int, default=0, metavar="PERCENT",
                    help="with --lto: the links' link_time (default 0, no limit: every "
                         "candidate measured; 200, the default, to see what a list ships "
                         "within the budget)")
    ap.add_argument("--link-config", default="", metavar="FILE",
                    help="with --link-candidates: a smartcc configuration file defining them "
                         "(e.g. policies/studies/link-knobs.toml)")
    a = ap.parse_args(argv)
    if (a.link_candidates or a.link_config) and not a.lto:
        sys.exit("harvest-corpus: --link-candidates and --link-config need --lto")
    if a.link_config and not os.path.isfile(a.link_config):
        sys.exit("harvest-corpus: --link-config %s: no such file" % a.link_config)
    if a.link_candidates == "ALL":
        a.link_candidates = ",".join(study_candidates(a.link_config))
    a.manifest_dir = os.path.abspath(a.manifest_dir)
    if not os.path.exists(a.reserved):
        sys.exit("harvest-corpus: %s not found: refusing to harvest without the list of "
                 "evaluation packages (--reserved FILE)" % a.reserved)
    h = Harvester(a)

    def on_signal(signum, frame):
        raise Interrupted("signal %d" % signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        return h.main()
    except (KeyboardInterrupt, Interrupted) as e:
        kill_group(CURRENT["proc"])
        log("harvest-corpus: interrupted (%s); the unfinished package is redone next run" %
            (e or "Ctrl-C"))
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
