#!/usr/bin/env bash
# eval-packages.sh OUT [TARGET...]
#
# smartcc at its defaults (-Oz, the agent at effort 1, candidate budget 3000) on real packages
# of the eval split (shared/reserved-for-evaluation.txt: never trained or tuned on), against
# clang-22 -Oz in the same run: each package is built twice with scripts/compare-build.sh
# (per-object bytes, what smartcc shipped, wall and CPU time ratios), then the package's own
# tests run on smartcc's build (aarch64 under qemu-aarch64). Prints a Markdown table, also
# written to OUT/summary.md; the agent's time per TU comes from the decision log (cpu_ms).
#   TARGET  x86_64 and/or aarch64 (default both)
# SMARTCC_PKG_OPT (default -Oz) replaces the packages' -Oz, for instance -O2 with
# SMARTCC_REGALLOC=ml in the environment (ML register allocation; clang ignores the variable).
# Sources: the harvest's cache (~/.cache/smartcc/corpus/src-cache) or apt-get source.
# Tools: ${SMARTCC_BIN:-build/bin}.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: eval-packages.sh OUT [x86_64] [aarch64]}
shift
TARGETS=${*:-x86_64 aarch64}
BIN=$(cd "${SMARTCC_BIN:-build/bin}" && pwd)
CACHE=${SMARTCC_SRC_CACHE:-$HOME/.cache/smartcc/corpus/src-cache}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
QEMU="qemu-aarch64 -L /usr/aarch64-linux-gnu"
OPT=${SMARTCC_PKG_OPT:--Oz}

source_of() { # PACKAGE -> its extracted upstream tree under OUT/src
  local pkg=$1 dir
  mkdir -p "$OUT/src"
  local tarball
  tarball=$(ls "$CACHE/${pkg}"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1 || true)
  if [ -z "$tarball" ]; then
    (cd "$OUT/src" && apt-get source --download-only "$pkg" >/dev/null)
    tarball=$(ls "$OUT/src/${pkg}"_*.orig.tar.* | grep -v '\.asc$' | head -1)
  fi
  dir=$(tar tf "$tarball" | head -1 | cut -d/ -f1)
  [ -d "$OUT/src/$dir" ] || tar xf "$tarball" -C "$OUT/src"
  echo "$OUT/src/$dir"
}

# package -> build command (run in a fresh copy with CC set) and test command (run in
# smartcc's copy; $RUN prefixes a target program: empty natively, qemu for aarch64).
build_cmd() {
  case $1 in
    zlib) echo 'CFLAGS=-Oz CHOST=$HOST ./configure --static >/dev/null && make -j2 libz.a example minigzip' ;;
    bzip2) echo 'make -j2 CC="$CC" CFLAGS="-Oz -D_FILE_OFFSET_BITS=64" libbz2.a bzip2 bzip2recover' ;;
    jansson) echo 'cmake -S . -B b -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS=-Oz -DJANSSON_BUILD_DOCS=OFF >/dev/null && cmake --build b -j2' ;;
  esac
}
test_cmd() {
  case $1 in
    # zlib's `make test`: example's self-test (its exit status), and a minigzip round trip.
    zlib) echo '$RUN ./example > example.log && echo "hello hello hello" | $RUN ./minigzip | $RUN ./minigzip -d | grep -q "hello hello hello"' ;;
    # bzip2's `make test`: three samples compressed (-1, -2, -3) and decompressed, compared.
    bzip2) echo 'for i in 1 2 3; do $RUN ./bzip2 -$i < sample$i.ref | cmp - sample$i.bz2 && $RUN ./bzip2 -d < sample$i.bz2 | cmp - sample$i.ref || exit 1; done' ;;
    jansson) echo 'ctest --test-dir b -j2 --output-on-failure > ctest.log' ;;
  esac
}

SUMMARY="$OUT/summary.md"
{
  echo "| package | target | objects | smartcc shipped | bytes, clang -> smartcc | geomean clang/smartcc | build wall / clang | build CPU / clang | agent CPU ms per TU (mean, max) | tests |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} > "$SUMMARY"
for T in $TARGETS; do
  case $T in
    x86_64) TRIPLE=x86_64-linux-gnu RUN="" PACKAGES="zlib bzip2 jansson" ;;
    aarch64) TRIPLE=aarch64-linux-gnu RUN=$QEMU PACKAGES="zlib bzip2" ;;
    *) echo "eval-packages.sh: unknown target $T" >&2; exit 1 ;;
  esac
  for P in $PACKAGES; do
    SRC=$(source_of "$P")
    D="$OUT/$P-$T"
    echo "== $P ($T)"
    HOST=$TRIPLE SMARTCC_BIN_DIR=$BIN bash scripts/compare-build.sh "$P" "$SRC" "$D" "$TRIPLE" -- \
      env HOST="$TRIPLE" sh -c "$(build_cmd "$P" | sed "s/-Oz/$OPT/g")" > "$D.table" 2>&1 ||
      { cat "$D.table"; exit 1; }
    tail -4 "$D.table"
    if (cd "$D/smartcc" && RUN=$RUN sh -c "$(test_cmd "$P")"); then TESTS=pass; else TESTS=FAIL; fi
    echo "tests: $TESTS"
    python3 - "$D.table" "$D/decisions.jsonl" "$P" "$T" "$TESTS" >> "$SUMMARY" <<'PY'
import json, re, sys
table, log, pkg, target, tests = sys.argv[1:]
t = open(table).read()
objs, shipped, geo = re.search(r"objects: (\d+), candidate shipped: (\d+), geomean clang/smartcc: ([0-9.]+)", t).groups()
total = re.search(r"TOTAL\s+(\d+)\s+(\d+)\s+(\S+)", t).groups()
wall = re.search(r"build wall time: .* ratio ([0-9.]+)", t).group(1)
cpu = re.search(r"build CPU time: .* ratio ([0-9.]+)", t).group(1)
ms = [json.loads(l).get("agent", {}).get("cpu_ms") for l in open(log)]
ms = [m for m in ms if m is not None]
agent = "%.2f, %.2f" % (sum(ms) / len(ms), max(ms)) if ms else "-"
print("| %s | %s | %s | %s | %s -> %s (%s) | %s | %s | %s | %s | %s |" % (
    pkg, target, objs, shipped, total[0], total[1], total[2], geo, wall, cpu, agent, tests))
PY
  done
done
cat "$SUMMARY"
