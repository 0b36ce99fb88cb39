#!/usr/bin/env bash
# regalloc-builds.sh MODE MODEL SMARTCC CLANG OUT FLAGS... -- FILES...
#  compare: compiles each FILE with smartcc (SMARTCC_REGALLOC=MODEL, logging to OUT/log.jsonl)
#           into OUT/NAME.smartcc.o and with clang into OUT/NAME.clang.o.
#  run:     compiles each FILE with smartcc saving its candidates, links the ML allocation's own
#           object (RUN_PREFIX runs it, e.g. qemu) and checks it prints what clang's native
#           -O2 build prints.
set -euo pipefail
mode=$1 model=$2 smartcc=$3 clang=$4 out=$5; shift 5
flags=()
while [ "$1" != "--" ]; do flags+=("$1"); shift; done; shift
mkdir -p "$out/saved"
for f in "$@"; do
  b=$(basename "$f" .c)
  if [ "$mode" = compare ]; then
    SMARTCC_REGALLOC=$model SMARTCC_LOG=$out/log.jsonl "$smartcc" "${flags[@]}" -c "$f" -o "$out/$b.smartcc.o"
    "$clang" "${flags[@]}" -c "$f" -o "$out/$b.clang.o"
  else
    SMARTCC_REGALLOC=$model "$smartcc" "${flags[@]}" -c "$f" -o "$out/$b.o" --smartcc-save-candidates="$out/saved"
    "$smartcc" "${flags[@]}" "$out/saved/$b.o.ml-regalloc.o" -o "$out/$b-ml"
    "$clang" -O2 "$f" -o "$out/$b-native"
    "$out/$b-native" > "$out/$b.want"
    ${RUN_PREFIX:-} "$out/$b-ml" | diff - "$out/$b.want"
    echo "$b: same output"
  fi
done
