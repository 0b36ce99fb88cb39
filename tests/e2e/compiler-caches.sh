#!/usr/bin/env bash
# Real ccache, sccache and distcc in front of smartcc (issue 20, item 7; docs/user-guide.md,
# "Compiler caches"):
#  1. ccache with its default compiler_check returns a stale object after an environment-only
#     change of smartcc's settings (the hazard, shown so the test cannot pass vacuously);
#  2. with compiler_check = "%compiler% --smartcc-print-cache-key" the same change misses, and
#     every object equals an uncached smartcc compile under the same settings;
#  3. sccache with SCCACHE_C_CUSTOM_CACHE_BUSTER from --smartcc-print-cache-key: the same;
#  4. distcc to a distccd on localhost gives the same objects as local compiles.
# Usage: compiler-caches.sh BIN_DIR
set -euo pipefail
BIN=$(cd "$1" && pwd)
SMARTCC=$BIN/smartcc
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$HERE/../lit/Inputs/tables.c
W=$(mktemp -d /tmp/smartcc-caches.XXXXXX)
cleanup() {
  [ -n "${DISTCCD_PID:-}" ] && kill "$DISTCCD_PID" 2>/dev/null || true
  [ -n "${SCCACHE_STARTED:-}" ] && SCCACHE_SERVER_PORT=$SCCACHE_PORT sccache --stop-server >/dev/null 2>&1 || true
  rm -rf "$W"
}
trap cleanup EXIT
cd "$W"
# Nothing of the developer's own configuration or counters.
for v in $(env | grep -o '^SMARTCC_[A-Z_]*' || true); do unset "$v"; done
export XDG_CONFIG_HOME=$W/config XDG_CACHE_HOME=$W/cache
cp "$SRC" t.c
fail() { echo "compiler-caches: FAIL: $*" >&2; exit 1; }
# Two settings whose objects differ, so that a stale hit is visible.
A=()             # defaults
B=(SMARTCC_AGENT=off SMARTCC_CANDIDATES=none)   # clang's own object
env "${A[@]}" "$SMARTCC" -Oz -c t.c -o ref-a.o
env "${B[@]}" "$SMARTCC" -Oz -c t.c -o ref-b.o
cmp -s ref-a.o ref-b.o && fail "settings A and B give the same object; pick another input"

ccache_stat() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }

if command -v ccache >/dev/null; then
  export CCACHE_DIR=$W/ccache CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$W
  ccache -z >/dev/null
  env "${A[@]}" ccache "$SMARTCC" -Oz -c t.c -o a.o
  env "${B[@]}" ccache "$SMARTCC" -Oz -c t.c -o b.o
  cmp -s b.o ref-a.o || fail "ccache without compiler_check did not return the stale object (the hazard this test guards against is gone?)"
  echo "ccache default compiler_check: stale hit reproduced"
  ccache -C >/dev/null; ccache -z >/dev/null
  export CCACHE_COMPILERCHECK="%compiler% --smartcc-print-cache-key"
  env "${A[@]}" ccache "$SMARTCC" -Oz -c t.c -o a.o
  env "${B[@]}" ccache "$SMARTCC" -Oz -c t.c -o b.o
  env "${A[@]}" ccache "$SMARTCC" -Oz -c t.c -o a2.o
  cmp a.o ref-a.o && cmp b.o ref-b.o && cmp a2.o ref-a.o || fail "ccache with the cache key returned a wrong object"
  misses=$(ccache_stat cache_miss); hits=$(( $(ccache_stat direct_cache_hit) + $(ccache_stat preprocessed_cache_hit) ))
  [ "$misses" = 2 ] && [ "$hits" = 1 ] || fail "ccache: expected 2 misses and 1 hit, got $misses and $hits"
  echo "ccache compiler_check=--smartcc-print-cache-key: 2 misses, 1 hit, objects right"
  unset CCACHE_COMPILERCHECK
else
  echo "compiler-caches: ccache not installed (scripts/install-deps.sh installs it)"; exit 1
fi

if command -v sccache >/dev/null; then
  export SCCACHE_DIR=$W/sccache SCCACHE_PORT=$(( 20000 + $$ % 20000 ))
  export SCCACHE_SERVER_PORT=$SCCACHE_PORT SCCACHE_IDLE_TIMEOUT=0
  sccache --start-server >/dev/null; SCCACHE_STARTED=1
  key() { env "$@" "$SMARTCC" --smartcc-print-cache-key | sha256sum | cut -c1-64; }
  env "${A[@]}" SCCACHE_C_CUSTOM_CACHE_BUSTER="$(key "${A[@]}")" sccache "$SMARTCC" -Oz -c t.c -o sa.o
  env "${B[@]}" SCCACHE_C_CUSTOM_CACHE_BUSTER="$(key "${B[@]}")" sccache "$SMARTCC" -Oz -c t.c -o sb.o
  env "${A[@]}" SCCACHE_C_CUSTOM_CACHE_BUSTER="$(key "${A[@]}")" sccache "$SMARTCC" -Oz -c t.c -o sa2.o
  cmp sa.o ref-a.o && cmp sb.o ref-b.o && cmp sa2.o ref-a.o || fail "sccache with the cache buster returned a wrong object"
  stats=$(sccache --show-stats)
  hits=$(echo "$stats" | awk '/^Cache hits *[0-9]/ { print $NF; exit }')
  misses=$(echo "$stats" | awk '/^Cache misses *[0-9]/ { print $NF; exit }')
  [ "$misses" = 2 ] && [ "$hits" = 1 ] || { echo "$stats"; fail "sccache: expected 2 misses and 1 hit, got $misses and $hits"; }
  echo "sccache with SCCACHE_C_CUSTOM_CACHE_BUSTER: 2 misses, 1 hit, objects right"
else
  echo "compiler-caches: sccache not installed (scripts/install-deps.sh installs it)"; exit 1
fi

if command -v distccd >/dev/null; then
  PORT=$(( 40000 + $$ % 20000 ))
  # Started as root, distccd runs its compiles as the unprivileged user "distcc": its log
  # must be writable by that user.
  chmod 755 "$W"; touch "$W/distccd.log"; chmod 666 "$W/distccd.log"
  distccd --daemon --no-detach --listen 127.0.0.1 --allow 127.0.0.1 --port "$PORT" \
    --enable-tcp-insecure --log-file "$W/distccd.log" --jobs 2 &
  DISTCCD_PID=$!
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
  export DISTCC_HOSTS="127.0.0.1:$PORT" DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1
  for f in "$HERE"/../lit/Inputs/*.c; do
    n=$(basename "$f" .c)
    "$SMARTCC" -Oz -c "$f" -o "local-$n.o"
    distcc "$SMARTCC" -Oz -c "$f" -o "distcc-$n.o"
    cmp "local-$n.o" "distcc-$n.o" || fail "distcc's object of $n.c differs from the local compile"
  done
  grep -q "COMPILE_OK" "$W/distccd.log" || fail "distccd compiled nothing (see its log)"
  echo "distcc to localhost: $(ls distcc-*.o | wc -l) objects identical to local compiles"
else
  echo "compiler-caches: distcc not installed (scripts/install-deps.sh installs it)"; exit 1
fi
echo "compiler-caches: OK"
