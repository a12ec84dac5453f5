#!/usr/bin/env bash
# README command 2 (and CI): set up, build, run the whole test suite; then the
# same suite built with AddressSanitizer + UndefinedBehaviorSanitizer, where
# any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
# What the optional parts of the suite need: clang (libFuzzer smoke;
# libclang-rt-14-dev holds libFuzzer, only recommended by Debian 12's clang),
# Open MPI (psolve-mpi and its tests), chromium (the HTML report in a real
# browser), chromium-driver and python3-selenium (psolve serve's app in a
# real browser, tests/browser_serve.py).
export PSOLVE_EXTRA_PACKAGES="${PSOLVE_EXTRA_PACKAGES:-clang libclang-rt-14-dev libopenmpi-dev openmpi-bin chromium chromium-driver python3-selenium man-db}"
scripts/setup.sh build
(cd build && ctest --output-on-failure -j2)
scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DPSOLVE_SANITIZE=ON
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
(cd build-asan && ctest --output-on-failure -j2)
# The fuzz smoke (docs/fuzzing.md): 20 s per libFuzzer harness, when clang is here.
if command -v clang >/dev/null; then
  scripts/fuzz.sh 20
else
  echo "test.sh: clang not found, fuzz smoke skipped" >&2
fi
