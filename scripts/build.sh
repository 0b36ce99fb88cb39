#!/usr/bin/env bash
# Installs what smartcc needs (Debian bookworm) and builds it (Release, Ninja) into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build-configure.log 2>&1 ||
  { cat build-configure.log; exit 1; }
rm -f build-configure.log
ninja -C build
