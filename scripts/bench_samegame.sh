#!/usr/bin/env bash
# Playouts per second of psolve's SameGame engine beside a naive C
# implementation (scripts/bench/naive_samegame.c), same compiler, same -O2,
# same machine, in one run; prints the ratio per board size.
#   scripts/bench_samegame.sh [SECONDS]   (default 2 per size and program)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-2}
scripts/setup.sh build
naive=build/naive_samegame
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L scripts/bench/naive_samegame.c -o "$naive"
build/psolve bench --game samegame --seconds "$secs" > build/bench_psolve.txt
for size in "15 15 5" "10 10 5"; do
  set -- $size
  n=$("$naive" "$1" "$2" "$3" "$secs")
  p=$(grep "samegame ${1}x${2} ${3} colours" build/bench_psolve.txt)
  echo "$p"
  echo "$n"
  awk -v a="$p" -v b="$n" 'BEGIN { split(a, x, ": "); split(b, y, ": ");
    printf "ratio %dx%d: %.1fx playouts/s\n", '"$1"', '"$2"', x[2] / y[2] }'
done
