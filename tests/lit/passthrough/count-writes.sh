#!/usr/bin/env bash
# count-writes.sh NAME TRACE CMD...: runs CMD (and every process it forks or executes) under
# strace, then prints how many times a file whose path ends in NAME was opened for writing
# and how many times something was renamed onto it. TRACE keeps strace's log.
# Exits 2 when strace is missing or cannot trace (say so rather than count nothing).
set -u
name=$1 trace=$2
shift 2
if ! command -v strace >/dev/null; then
  echo "count-writes.sh: strace is not installed" >&2
  exit 2
fi
strace -f -qq -o "$trace" -e trace=open,openat,creat,rename,renameat,renameat2 "$@"
status=$?
if ! grep -q 'execve\|open' "$trace" 2>/dev/null; then
  echo "count-writes.sh: strace produced no trace" >&2
  exit 2
fi
# Escape the name for grep -E.
re=$(printf '%s' "$name" | sed 's/[.[\*^$()+?{|]/\\&/g')
opens=$(grep -E "open(at)?\(.*\"([^\"]*/)?$re\".*O_(WRONLY|RDWR|CREAT)" "$trace" | grep -vc ENOENT)
creats=$(grep -Ec "creat\(\"([^\"]*/)?$re\"" "$trace")
renames=$(grep -E "rename(at2?)?\(.*\"([^\"]*/)?$re\"[^\"]*\) = 0" "$trace" | grep -c .)
echo "exit: $status"
echo "opened for writing: $((opens + creats))"
echo "renamed onto: $renames"
