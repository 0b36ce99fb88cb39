#!/usr/bin/env bash
# Installs every Debian (bookworm) package smartcc needs to build, test and run its examples.
# Idempotent: apt-get skips what is already installed. Run as root (or with sudo available).
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  # toolchain to build smartcc
  g++ cmake ninja-build pkg-config git
  # LLVM / Clang 22: libraries, the real clang-22 (resource dir, headers, runtimes) and lld
  llvm-22-dev llvm-22-tools libclang-22-dev clang-22 lld-22 libclang-rt-22-dev
  # learning and configuration
  libtorch-dev libtomlplusplus-dev
  # tests
  googletest libgtest-dev
  # cross-compiling for AArch64 and running the result
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  # bare-metal AArch64 (examples/aarch64-baremetal-lto): an embedded C library
  picolibc-aarch64-linux-gnu
  # building real Debian source packages (tests and corpus harvest)
  dpkg-dev make autoconf automake libtool m4 gettext autopoint bison flex
  # scripts/link-bench.py: a Meson project (serd)
  meson
  # comparison baseline for smartcc-eval (gcc -Os) and scripting
  gcc python3
  # a test proves dependency files are written exactly once by tracing the compile
  strace
  # unwinding through the unwind-aware constants (lit takeover/unwind-constants.test)
  gdb
  # AArch64 boards built from source and booted (scripts/boards/): U-Boot's host tools, the
  # system emulator
  bc libssl-dev libgnutls28-dev qemu-system-arm
  # compiler caches and distributed builds in front of smartcc (tests/e2e/compiler-caches.sh)
  ccache sccache distcc
  # differential testing (scripts/difftest.py)
  gcc-12-source creduce csmith libcsmith-dev
)

export DEBIAN_FRONTEND=noninteractive

# Source packages: the real-project tests and tools (tests/e2e/debian-package.sh,
# scripts/link-bench.py, scripts/harvest-corpus.py) fetch them with `apt-get source`, which
# needs a deb-src entry. apt refuses two entries for one archive whose Signed-By differ, so
# the key the existing deb entry names is reused (Debian's images use deb822 with Signed-By).
lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
if ! grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*[[:space:]]deb-src)' "${lists[@]}"; then
  key=$(cat "${lists[@]}" 2>/dev/null | awk 'BEGIN { RS = "" }
    /deb\.debian\.org\/debian/ && match($0, /[Ss]igned-[Bb]y[:=][ \t]*[^] \t\n]+/) {
      s = substr($0, RSTART, RLENGTH); sub(/^[^:=]*[:=][ \t]*/, "", s); print s; exit }' || true)
  opt=""
  [ -n "$key" ] && opt="[signed-by=$key] "
  echo "install-deps: adding /etc/apt/sources.list.d/smartcc-src.list (deb-src, bookworm main)"
  echo "deb-src ${opt}http://deb.debian.org/debian bookworm main" |
    $SUDO tee /etc/apt/sources.list.d/smartcc-src.list >/dev/null
  $SUDO apt-get update -qq
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
