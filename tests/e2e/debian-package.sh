#!/usr/bin/env bash
# Builds one real Debian source package with CC=BIN_DIR/smartcc CFLAGS=-Oz and runs the
# package's own test suite; exits non-zero if either fails.
# Usage: debian-package.sh BIN_DIR [PACKAGE]
#   PACKAGE  a source package name. Default lz4: 15-25 s to build and test on 2 cores with
#            clang, plain Makefiles that honour CC/CFLAGS, and its tests round-trip real
#            data through the compressor, so a miscompile shows up as a failure. cjson
#            (CMake, -Werror) and libyaml (autotools, only 2 tests) work too; others fall
#            back to configure/CMake/make detection.
# Env: SMARTCC_PKG_CACHE  where .dsc/.orig tarballs are kept between runs
#      (default ~/.cache/smartcc/debian-src); KEEP_SCRATCH=1 keeps the build tree.
#      SMARTCC_PKG_CFLAGS  the flags of the build (default -Oz), e.g. -O2 with
#      SMARTCC_REGALLOC=ml for the ML register allocator.
#      SMARTCC_PKG_EXPECT_SHIPPED=NAME  fail unless smartcc shipped candidate NAME's object for
#      at least one file (so a test of that candidate's code cannot pass without running it).
# Needs dpkg-dev and, the first time a package is fetched, network and root (or sudo)
# to add a deb-src entry.
set -euo pipefail

die() { echo "debian-package: FAIL: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: $0 BIN_DIR [PACKAGE]"
BIN_DIR=$(cd "$1" 2>/dev/null && pwd) || die "no such directory: $1"
PKG=${2:-lz4}
CACHE=${SMARTCC_PKG_CACHE:-$HOME/.cache/smartcc/debian-src}
[ -x "$BIN_DIR/smartcc" ] || die "$BIN_DIR/smartcc is missing or not executable"
command -v dpkg-source >/dev/null || die "dpkg-source not found (apt-get install dpkg-dev)"
JOBS=$(nproc)

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/smartcc-deb.XXXXXX")
cleanup() {
  local rc=$?
  if [ $rc = 0 ] && [ -z "${KEEP_SCRATCH:-}" ]; then rm -rf "$SCRATCH"
  else echo "debian-package: build tree kept in $SCRATCH" >&2; fi
}
trap cleanup EXIT
LOG=$SCRATCH/build.log
run() {  # run CMD...: output to the log, its tail on failure
  if ! "$@" >>"$LOG" 2>&1; then
    tail -n 60 "$LOG" >&2
    die "$PKG: '$*' failed (full log: $LOG)"
  fi
}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- fetch: a cached .dsc skips apt entirely, so reruns work offline ----------------------
# shellcheck disable=SC2012 # Debian file names are tame; ls -v orders versions
newest_dsc() { ls -v "$CACHE/${PKG}"_*.dsc 2>/dev/null | tail -n 1 || true; }
fetch() {
  # Both one-line (.list) and deb822 (.sources) formats may already carry deb-src.
  if ! grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*[[:space:]]deb-src)' \
      /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; then
    # apt refuses two entries for one archive whose Signed-By differ, so reuse the key
    # the existing deb entry names (Debian's images use deb822 with Signed-By).
    local key opt=""
    key=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        /etc/apt/sources.list.d/*.sources 2>/dev/null | awk 'BEGIN { RS = "" }
      /deb\.debian\.org\/debian/ && match($0, /[Ss]igned-[Bb]y[:=][ \t]*[^] \t\n]+/) {
        s = substr($0, RSTART, RLENGTH); sub(/^[^:=]*[:=][ \t]*/, "", s); print s; exit }' ||
      true)  # cat fails on the absent files of the two formats; that is fine
    [ -n "$key" ] && opt="[signed-by=$key] "
    echo "debian-package: adding /etc/apt/sources.list.d/smartcc-src.list"
    echo "deb-src ${opt}http://deb.debian.org/debian bookworm main" |
      as_root tee /etc/apt/sources.list.d/smartcc-src.list >/dev/null
  fi
  if ! compgen -G '/var/lib/apt/lists/*_Sources*' >/dev/null; then
    run as_root apt-get update -qq
  fi
  mkdir -p "$CACHE"
  # apt drops root to _apt for downloads; a directory it cannot write only causes a warning.
  # A stale index names files the mirror no longer has: refresh once and retry.
  (cd "$CACHE" && apt-get source --download-only -qq "$PKG" >>"$LOG" 2>&1) || {
    run as_root apt-get update -qq
    (cd "$CACHE" && run apt-get source --download-only -qq "$PKG")
  }
}
DSC=$(newest_dsc)
[ -n "$DSC" ] || { fetch; DSC=$(newest_dsc); }
[ -n "$DSC" ] || die "apt-get source $PKG produced no .dsc in $CACHE"
VERSION=$(sed -n 's/^Version: //p' "$DSC")
echo "debian-package: $PKG $VERSION ($DSC)"

# Upstream source only: Debian's patches target gcc builds and are not what we test.
SRC=$SCRATCH/src
run dpkg-source --skip-patches -x "$DSC" "$SRC"
cd "$SRC"

# --- build + test ---------------------------------------------------------------------------
# Environment (not make arguments) so the packages' own "CFLAGS +=" warnings still apply,
# just like dpkg-buildpackage exports them.
FLAGS=${SMARTCC_PKG_CFLAGS:--Oz}
export CC="$BIN_DIR/smartcc" CXX="$BIN_DIR/smartc++" CFLAGS="$FLAGS" CXXFLAGS="$FLAGS"
export SMARTCC_LOG=$SCRATCH/decisions.jsonl
export FORCE_UNSAFE_CONFIGURE=1  # GNU configure refuses to run as root without it

build() {
  local cmake_args=(-DCMAKE_BUILD_TYPE=None -DBUILD_TESTING=ON)
  # cJSON compiles with -Werror, so any stray warning from the driver breaks its build.
  [ "$PKG" = cjson ] && cmake_args+=(-DENABLE_CJSON_TEST=On -DENABLE_CJSON_UTILS=On)
  if [ ! -x configure ] && [ -f configure.ac ]; then run autoreconf -fi; fi
  if [ -x configure ]; then
    run ./configure --disable-dependency-tracking
    run make -j"$JOBS" V=1
  elif [ -f CMakeLists.txt ]; then
    run cmake -G Ninja -S . -B build "${cmake_args[@]}"
    run cmake --build build --verbose
  else  # plain Makefile, e.g. lz4 (its default target is what Debian builds)
    run make -j"$JOBS" V=1
  fi
}

run_tests() {
  case $PKG in
    lz4)
      # "check" = CLI round trips; plus the unit/fuzz drivers with a fixed seed and count
      # (the upstream default runs them for 90 s on a time-seeded RNG).
      run make -j"$JOBS" V=1 check
      run make -C tests -j"$JOBS" V=1 fuzzer frametest test-decompress-partial
      run tests/fuzzer -s1 -i200
      run tests/frametest -s1 -i500
      ;;
    *)
      if [ -d build ]; then
        run ctest --test-dir build -j"$JOBS" --output-on-failure
      else
        run make -j"$JOBS" V=1 check
      fi
      ;;
  esac
}

T0=$SECONDS
build
T1=$SECONDS
run_tests
T2=$SECONDS

# Guard against a build that silently used another compiler (e.g. a hard-coded CC).
USES=$(grep -c -- "$BIN_DIR/smartcc" "$LOG" || true)
[ "$USES" -gt 0 ] || die "$PKG: build log never mentions $BIN_DIR/smartcc"
SHIPPED=""
if [ -n "${SMARTCC_PKG_EXPECT_SHIPPED:-}" ]; then
  N=$(python3 -c 'import json, sys
print(sum(json.loads(l).get("chosen") == sys.argv[2] for l in open(sys.argv[1])))' \
    "$SMARTCC_LOG" "$SMARTCC_PKG_EXPECT_SHIPPED" 2>/dev/null || echo 0)
  [ "$N" -gt 0 ] || die "$PKG: no file shipped $SMARTCC_PKG_EXPECT_SHIPPED's object"
  SHIPPED="; $N files shipped $SMARTCC_PKG_EXPECT_SHIPPED's object"
fi
echo "debian-package: $PKG $VERSION ($FLAGS) OK: build $((T1 - T0))s, tests $((T2 - T1))s," \
  "total $((T2 - T0))s; $USES smartcc command lines in the log$SHIPPED"
