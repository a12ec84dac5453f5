#!/bin/sh
# bench_watersort.sh - solve the 70 benchmark levels in games/watersort/levels with
# one algorithm and check each result against INDEX.tsv's optimal_moves.
#
#   scripts/bench_watersort.sh [ALGO] [extra psolve options...]
#   e.g. scripts/bench_watersort.sh astar
#        scripts/bench_watersort.sh wastar --weight 1.5
#        scripts/bench_watersort.sh idastar --time 10
#
# PSOLVE=path/to/psolve overrides the binary (default build/psolve).
# Prints one line per level (cost, optimum, status, nodes, peak memory,
# seconds) and a total. Exact algorithms must hit the optimum: a miss is
# printed as MISMATCH and makes the exit status 1. Heuristic algorithms are
# compared as cost - optimum.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
psolve=${PSOLVE:-$here/build/psolve}
algo=${1:-astar}
[ $# -gt 0 ] && shift
dir=$here/games/watersort/levels
[ -x "$psolve" ] || { echo "no psolve binary at $psolve (build first)" >&2; exit 2; }

printf '%-24s %5s %4s %-11s %10s %12s %8s\n' level cost opt status expanded peak_memory seconds
tail -n +2 "$dir/INDEX.tsv" | while IFS='	' read -r level cap tubes colours empty opt rest; do
    out=$("$psolve" --game watersort --algo "$algo" --quiet "$@" "$dir/$level.txt")
    val() { printf '%s\n' "$out" | sed -n "s/^# $1: //p"; }
    cost=$(val cost); status=$(val status)
    printf '%-24s %5s %4s %-11s %10s %12s %8s\n' "$level" "${cost:--}" "$opt" \
        "$status" "$(val expanded)" "$(val peak_memory)" "$(val seconds)"
done | awk '
    { print }
    NR > 0 {
        n++; t += $7; e += $5; if ($6 > pm) pm = $6
        if ($4 == "optimal" && $2 != $3) { bad++; print "MISMATCH: " $1 }
        if ($4 == "optimal" || $4 == "heuristic") { solved++; excess += $2 - $3
            if ($2 - $3 > worst) worst = $2 - $3 }
    }
    END {
        printf "total: %d levels, %d solved, %d optimal mismatches, cost - optimum summed %d (max %d), expanded %d, max peak_memory %d bytes, %.3f s\n", n, solved, bad, excess, worst, e, pm, t
        exit bad > 0
    }'
