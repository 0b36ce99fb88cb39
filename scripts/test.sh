#!/usr/bin/env bash
# Installs, builds and runs every test: unit tests (GoogleTest), the lit end-to-end suite,
# the example builds (x86-64 and aarch64 under qemu) and one real Debian package's test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j2 "$@"
