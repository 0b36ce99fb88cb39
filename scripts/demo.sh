#!/usr/bin/env bash
# The first thing to run. Installs what smartcc needs and builds it (ninja's progress shown),
# then builds examples/json-tool -- jt, a command-line JSON tool, and libjt.so, the shared
# library it is built on, 15 C files, plain make -- with clang-22 and with smartcc, for x86-64
# and for AArch64, each at -Oz and at -Oz -flto linked by lld (where smartcc owns the link).
# Every build's `make check` runs jt on committed documents (AArch64 under qemu) against
# expected.txt; the installed images are compared by section class, and the last line says how
# much smaller smartcc's are. Every figure is measured in this run.
#
# Environment:
#   SMARTCC_BIN_DIR=DIR         use the smartcc in DIR (default: build/bin, which this builds)
#   SMARTCC_DEMO_SKIP_BUILD=1   neither install dependencies nor build smartcc: DIR already
#                               holds it (for trying the demo against another build)
#   SMARTCC_DEMO_DIR=DIR        where the example's builds go (default: build/demo)
#   SMARTCC_DEMO_JOBS=N         make -jN for the example's builds (default: 2)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin=${SMARTCC_BIN_DIR:-$root/build/bin}
clang=${SMARTCC_CLANG:-/usr/lib/llvm-22/bin/clang}
out=${SMARTCC_DEMO_DIR:-$root/build/demo}
jobs=${SMARTCC_DEMO_JOBS:-2}
ex=$root/examples/json-tool
start=$SECONDS

if [ "${SMARTCC_DEMO_SKIP_BUILD:-}" != 1 ]; then
  echo "== Building smartcc: scripts/build.sh installs the dependencies (apt), configures"
  echo "   with CMake and runs ninja (its progress below; the full log is build-demo.log)"
  # ninja's [N/M] lines every 5 %, and whatever fails; the rest goes to the log only.
  if ! bash scripts/build.sh 2>&1 | tee build-demo.log | awk '
      /^\[[0-9]+\/[0-9]+\]/ {
        split(substr($1, 2), nm, "/"); pct = int(100 * nm[1] / nm[2])
        if (pct >= next_pct || nm[1] == nm[2]) {
          line = $0; if (length(line) > 96) line = substr(line, 1, 93) "..."
          print "  " line; fflush(); next_pct = pct - pct % 5 + 5
        }
        next
      }
      /^ninja: no work to do/ || /^FAILED:/ || /error:/ { print "  " $0; fflush() }'; then
    echo "smartcc's build failed; the end of build-demo.log:"
    tail -30 build-demo.log
    exit 1
  fi
  rm -f build-demo.log
  echo "  smartcc built in $((SECONDS - start)) s"
  echo
fi
[ -x "$bin/smartcc" ] || { echo "demo: no smartcc in $bin (set SMARTCC_BIN_DIR)" >&2; exit 1; }
example_start=$SECONDS

# build DIR TARGET MODE CC: a fresh out-of-tree make of the example, timed (wall and the CPU
# of everything the build ran, for the cost line), then its check; prints "N.N s, check OK".
build() {
  local dir=$1 target=$2 mode=$3 cc=$4 cflags=-Oz ldflags=
  if [ "$mode" = lto ]; then cflags='-Oz -flto' ldflags='-fuse-ld=lld -flto -Oz'; fi
  rm -rf "$dir" && mkdir -p "$dir"
  local args=(-C "$dir" -f "$ex/Makefile" CC="$cc --target=$target" CFLAGS="$cflags"
              LDFLAGS="$ldflags")
  if ! SMARTCC_LOG=$dir/decisions.jsonl python3 -c '
import resource, subprocess, sys, time
t0 = time.time(); rc = subprocess.call(sys.argv[2:]); t1 = time.time()
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%f %f %f\n" % (t0, t1, r.ru_utime + r.ru_stime))
sys.exit(rc)' "$dir/time.txt" make -j"$jobs" "${args[@]}" > "$dir/build.log" 2>&1; then
    echo "FAILED"; tail -20 "$dir/build.log"; exit 1
  fi
  if ! make "${args[@]}" check > "$dir/check.log" 2>&1; then
    echo "check FAILED"; tail -20 "$dir/check.log"; exit 1
  fi
  awk '{ printf "%.1f s, check OK", $2 - $1 }' "$dir/time.txt"
}

for target in x86_64-linux-gnu aarch64-linux-gnu; do
  case $target in
  x86_64-*) label=x86-64 run="" ;;
  aarch64-*) label=AArch64 run=" (jt runs under qemu-aarch64)" ;;
  esac
  echo "== $label: examples/json-tool with make -j$jobs, clang-22 then smartcc$run"
  for mode in oz lto; do
    [ "$mode" = oz ] && flags=-Oz || flags='-Oz -flto'
    printf '  %-10s clang-22: ' "$flags"
    build "$out/$target/$mode-clang" "$target" "$mode" "$clang"
    printf '   smartcc: '
    build "$out/$target/$mode-smartcc" "$target" "$mode" "$bin/smartcc"
    echo
  done
  python3 scripts/demo-report.py table "$bin/smartcc-size" "$out/$target" "$label"
  echo
done

echo "jt's output, the same in all 8 builds (examples/json-tool/expected.txt), begins:"
sed -n '/^\$ jt q/,$p' "$ex/expected.txt" | head -6 | sed 's/^/  /'
echo "Example builds and checks took $((SECONDS - example_start)) s; every candidate for one" \
  "file: $bin/smartcc -Oz -c examples/json-tool/write.c -o /tmp/write.o --smartcc-explain"
echo
python3 scripts/demo-report.py verdict "$bin/smartcc-size" "$out"
