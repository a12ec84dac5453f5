#!/usr/bin/env bash
# Install what psolve needs (Debian 12 packages) if anything is missing, then
# configure and build into BUILD_DIR (default: build). Idempotent: with
# everything in place it only runs an incremental build.
#   scripts/setup.sh [BUILD_DIR [extra cmake args...]]
# PSOLVE_EXTRA_PACKAGES names Debian packages that only some parts need
# (clang for the fuzzers, Open MPI, chromium for the browser test); the test
# command sets it, the demo does not.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libcmocka-dev uthash-dev liblua5.4-dev
  libmicrohttpd-dev libjansson-dev libpng-dev libturbojpeg0-dev)
# shellcheck disable=SC2206 # a space-separated list on purpose
packages+=(${PSOLVE_EXTRA_PACKAGES:-})
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "setup: run as root (or install sudo) to install: ${missing[*]}" >&2; exit 1; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build=${1:-build}
shift || true
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
