#!/usr/bin/env bash
# run-firmware.sh OUT: runs firmware.sh's programs in OUT under qemu-aarch64 (user mode, which
# serves their semihosting calls) and checks what each must print: sensord its expected.txt,
# Mbed TLS's self-test every test passed, and newlib's own tests (OUT/newlib-tests, when built)
# exit 0. OUT/*.run holds each program's output. Exit 0 only
# when every program exits 0 and prints what it must.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath "$1")
app=$here/../../examples/aarch64-firmware-lto

# Run each on qemu's "max" CPU (it has RNDR); check what each must print.
status=0
for p in sensord selftest; do
  rc=0
  (cd "$out" && timeout 600 qemu-aarch64 -cpu max "$p.elf" > "$p.run" 2>&1) || rc=$?
  echo "$p: exit $rc"
  [ "$rc" = 0 ] || status=1
done
if diff -u "$app/expected.txt" "$out/sensord.run" > "$out/sensord.diff"; then
  echo "sensord: output as expected.txt"
else
  echo "sensord: output differs from expected.txt (sensord.diff)"; status=1
fi
# The self-test prints "passed" per test and ends with "[ All tests PASS ]".
if grep -q "All tests PASS" "$out/selftest.run" && ! grep -qi "fail" "$out/selftest.run"; then
  echo "selftest: $(grep -c passed "$out/selftest.run") passed, All tests PASS"
else
  echo "selftest: failures (selftest.run)"; status=1
fi
# newlib's own tests: exit 0, or abort() (semihosting reports it as a nonzero exit).
if [ -d "$out/newlib-tests" ]; then
  passed=0 failed=""
  for t in "$out"/newlib-tests/*.elf; do
    if (cd "$out/newlib-tests" && timeout 600 qemu-aarch64 -cpu max "$t" > "${t%.elf}.run" 2>&1)
    then passed=$((passed + 1)); else failed="$failed $(basename "$t" .elf)"; fi
  done
  echo "newlib tests: $passed passed${failed:+, failed:$failed}"
  [ -z "$failed" ] || status=1
fi
exit $status
