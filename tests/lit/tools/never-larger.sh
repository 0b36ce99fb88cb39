#!/usr/bin/env bash
# never-larger.sh SMARTCC CLANG OUTDIR FLAGS... -- FILES...: compiles each file with smartcc
# and with clang at the same flags and fails if any smartcc object has more image bytes (file-backed allocated).
set -euo pipefail
smartcc=$1 clang=$2 out=$3; shift 3
flags=()
while [ "$1" != "--" ]; do flags+=("$1"); shift; done; shift
mkdir -p "$out"
here=$(dirname "$0")
for f in "$@"; do
  b=$(basename "$f")
  "$smartcc" "${flags[@]}" -c "$f" -o "$out/$b.smartcc.o"
  "$clang" "${flags[@]}" -c "$f" -o "$out/$b.clang.o"
  s=$(python3 "$here/image-bytes.py" --linked "$out/$b.smartcc.o")
  c=$(python3 "$here/image-bytes.py" --linked "$out/$b.clang.o")
  echo "$b smartcc=$s clang=$c"
  if [ "$s" -gt "$c" ]; then echo "LARGER: $b" >&2; exit 1; fi
done
