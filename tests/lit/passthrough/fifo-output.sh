#!/usr/bin/env bash
# fifo-output.sh DIR COMPILER ARGS...: runs `COMPILER ARGS -o DIR/out.fifo` where out.fifo is
# a named pipe read by `cat` into DIR/received (as a build tool capturing compiler output
# through a pipe would), with a 5-second limit. Prints the compiler's exit status (124: it
# hung and was stopped), whether out.fifo is still a named pipe afterwards, and how many
# bytes came through the pipe.
set -u
dir=$1
shift
rm -rf "$dir"
mkdir -p "$dir"
mkfifo "$dir/out.fifo"
cat "$dir/out.fifo" >"$dir/received" &
reader=$!
timeout -k 2 5 "$@" -o "$dir/out.fifo" 2>"$dir/stderr"
echo "exit: $?"
# A compiler that never opened the pipe leaves the reader waiting: release it.
sleep 0.2
if kill -0 $reader 2>/dev/null; then
  exec 3<>"$dir/out.fifo"
  exec 3>&-
fi
wait $reader
[ -p "$dir/out.fifo" ] && echo "still a named pipe: yes" || echo "still a named pipe: NO"
echo "received: $(wc -c <"$dir/received") bytes"
