#!/bin/sh
# bench_budget.sh - mean score of one psolve setting over boards and seeds
# at a FIXED budget (iterations, beam width), one thread: deterministic, so
# variants compare without timing noise on a shared machine.
#
#   scripts/bench_budget.sh "--algo nrpa --level 3 --iterations 20" "1 2" boards/*.txt
#   SEEDS: the second argument ("1" for deterministic beams).
# Prints one line per run (board, seed, score, playouts) and the mean.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 \"PSOLVE OPTIONS\" \"SEEDS\" BOARD..." >&2
    exit 2
fi
psolve=${PSOLVE:-$(dirname "$0")/../build/psolve}
options=$1 seeds=$2
shift 2
for seed in $seeds; do
    for board in "$@"; do
        # shellcheck disable=SC2086 # the options are meant to split
        "$psolve" $options --threads 1 --seed "$seed" "$board" |
            awk -v b="$board" -v s="$seed" \
                '/^# score:/ {v = $3} /^# playouts:/ {p = $3}
                 END {print b, s, v, p}'
    done
done | awk '{print; sum += $3; n++}
            END {if (n) printf "mean %.1f over %d runs\n", sum / n, n}'
