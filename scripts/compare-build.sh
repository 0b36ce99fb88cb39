#!/usr/bin/env bash
# compare-build.sh NAME SRC_DIR OUT_DIR TARGET -- BUILD COMMAND...
#
# Builds a project twice from fresh copies of SRC_DIR, once with clang-22 and once with
# smartcc (CC/CXX set in the environment, SMARTCC_LOG recording every decision), and prints
# per-object allocated bytes, what smartcc shipped, and the wall-time and CPU-time ratios of
# the two builds.
# TARGET (e.g. x86_64-linux-gnu or aarch64-linux-gnu) is passed as --target in CC/CXX.
set -euo pipefail
name=$1 src=$2 out=$3 target=$4; shift 4
[ "$1" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)
bin=${SMARTCC_BIN_DIR:-$here/../build/bin}
clang=${SMARTCC_CLANG:-/usr/lib/llvm-22/bin/clang}
rm -rf "$out" && mkdir -p "$out" && out=$(cd "$out" && pwd)
# The build command is the rest of the arguments; run it in each copy.
cmd=("$@")
build_with() {
  local tool=$1 cc=$2 cxx=$3 dir="$out/$1"
  cp -r "$src" "$dir"
  # Wall time, and CPU time (user + system) of the build and everything it ran.
  (cd "$dir" && export CC="$cc --target=$target" CXX="$cxx --target=$target" &&
    python3 -c '
import os, resource, subprocess, sys, time
t0 = time.time(); rc = subprocess.call(sys.argv[2:]); t1 = time.time()
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%f %f %f\n" % (t0, t1, r.ru_utime + r.ru_stime))
sys.exit(rc)' "$out/$tool.time" "${cmd[@]}") \
    > "$out/$tool.log" 2>&1 || { echo "build with $tool failed:"; tail -20 "$out/$tool.log"; exit 1; }
}
build_with clang "$clang" "${clang}++"
SMARTCC_LOG="$out/decisions.jsonl" build_with smartcc "$bin/smartcc" "$bin/smartc++"
python3 "$here/size-table.py" "$name ($target)" "$out/clang" "$out/smartcc" \
  "$out/decisions.jsonl" "$out/clang.time" "$out/smartcc.time"
