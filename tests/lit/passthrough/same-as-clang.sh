#!/usr/bin/env bash
# same-as-clang.sh BINDIR CLANG WORKDIR [-f FILE]... [-i STDIN] [-t] -- NAME ARGS...
#
# Runs BINDIR/NAME ARGS (smartcc under the program name NAME), then real clang with argv[0]
# = NAME (tools/run-as.py, i.e. exactly what clang does when installed as NAME), one after
# the other in the current directory with the same stdin, and compares what each produced:
#   exit status, stdout, stderr, and each FILE (an output path relative to the current
#   directory, removed before each run and moved to WORKDIR/{smartcc,clang}/ after it).
# -t  replaces clang's temporary file names (/tmp/x-1a2b3c.o) with /tmp/x-XXXXXX.o in stdout
#     and stderr before comparing: they are random in every run, of clang as of smartcc.
#
# Prints one line per item ("exit: 0 (both)", "stderr: identical, 120 bytes",
# "file sub/x.d: identical, 900 bytes", "file x.o: absent in both") for FileCheck, shows a
# diff for every difference and exits 1 if there was any. Raw results stay in WORKDIR
# (smartcc.stdout, clang.stderr, smartcc/FILE ...) for further checks.
set -u
bindir=$1 clang=$2 work=$3
shift 3
files=() stdin=/dev/null normalize=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    -f) files+=("$2"); shift 2 ;;
    -i) stdin=$2; shift 2 ;;
    -t) normalize=1; shift ;;
    *) echo "same-as-clang.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: same-as-clang.sh BINDIR CLANG WORKDIR [opts] -- NAME ARGS..." >&2; exit 2; }
shift
name=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
runas="$here/../tools/run-as.py"

rm -rf "$work/smartcc" "$work/clang"
mkdir -p "$work/smartcc" "$work/clang"

run() { # run SIDE CMD...
  local side=$1
  shift
  for f in "${files[@]+"${files[@]}"}"; do rm -f "$f"; done
  "$@" <"$stdin" >"$work/$side.stdout" 2>"$work/$side.stderr"
  echo $? >"$work/$side.exit"
  for f in "${files[@]+"${files[@]}"}"; do
    if [ -e "$f" ]; then
      mkdir -p "$work/$side/$(dirname "$f")"
      mv "$f" "$work/$side/$f"
    fi
  done
  if [ $normalize = 1 ]; then
    for s in stdout stderr; do
      sed -E -i 's#([A-Za-z0-9_+.]+)-[0-9a-f]{6}\.(o|s|bc|i|ii|out|tmp)\b#\1-XXXXXX.\2#g' \
        "$work/$side.$s"
    done
  fi
}

run smartcc "$bindir/$name" "$@"
run clang python3 "$runas" "$clang" "$name" "$@"

status=0
s_exit=$(cat "$work/smartcc.exit") c_exit=$(cat "$work/clang.exit")
if [ "$s_exit" = "$c_exit" ]; then
  echo "exit: $s_exit (both)"
else
  echo "exit: DIFFERENT: smartcc $s_exit, clang $c_exit"
  status=1
fi

istext() { tr -d '\000' <"$1" | cmp -s - "$1"; } # no NUL bytes

compare() { # compare LABEL SMARTCC-PATH CLANG-PATH
  local label=$1 s=$2 c=$3
  if [ ! -e "$s" ] && [ ! -e "$c" ]; then
    echo "$label: absent in both"
  elif [ ! -e "$s" ] || [ ! -e "$c" ]; then
    echo "$label: DIFFERENT: only $([ -e "$s" ] && echo smartcc || echo clang) produced it"
    status=1
  elif cmp -s "$s" "$c"; then
    echo "$label: identical, $(wc -c <"$s") bytes"
  else
    echo "$label: DIFFERENT ($(wc -c <"$s") bytes from smartcc, $(wc -c <"$c") from clang)"
    if istext "$s" && istext "$c"; then
      diff -u "$c" "$s" | head -40
    else
      cmp "$c" "$s" | head -5
    fi
    status=1
  fi
}

compare stdout "$work/smartcc.stdout" "$work/clang.stdout"
compare stderr "$work/smartcc.stderr" "$work/clang.stderr"
for f in "${files[@]+"${files[@]}"}"; do
  compare "file $f" "$work/smartcc/$f" "$work/clang/$f"
done
exit $status
