#!/bin/sh
# bench_watersort_gen.sh - generated Water Sort levels: for each size
# (8 colours / 10 tubes and 12 colours / 14 tubes, capacity 4), 20 seeds,
# solve with one algorithm and report the solve rate, the unsolvable count
# (proven), and the median and maximum time.
#
#   scripts/bench_watersort_gen.sh [ALGO] [extra psolve options...]
#   e.g. scripts/bench_watersort_gen.sh astar --time 30
#
# PSOLVE=path/to/psolve overrides the binary (default build/psolve);
# SEEDS=N changes the number of seeds (default 20).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
psolve=${PSOLVE:-$here/build/psolve}
algo=${1:-astar}
[ $# -gt 0 ] && shift
seeds=${SEEDS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for size in "8 10" "12 14"; do
    colours=${size% *}; tubes=${size#* }
    : > "$tmp/rows"
    seed=1
    while [ "$seed" -le "$seeds" ]; do
        "$psolve" gen --game watersort --colors "$colours" --tubes "$tubes" \
            --capacity 4 --seed "$seed" > "$tmp/level.txt"
        out=$("$psolve" --game watersort --algo "$algo" --quiet "$@" "$tmp/level.txt")
        val() { printf '%s\n' "$out" | sed -n "s/^# $1: //p"; }
        printf '%s %s %s %s %s\n' "$seed" "$(val status)" "$(val seconds)" \
            "$(val cost)" "$(val expanded)" >> "$tmp/rows"
        seed=$((seed + 1))
    done
    echo "== $colours colours, $tubes tubes, capacity 4, $seeds seeds, --algo $algo $*"
    echo "seed status seconds cost expanded"
    cat "$tmp/rows"
    sort -g -k3 "$tmp/rows" | awk -v n="$seeds" '
        { t[NR] = $3; if ($2 == "optimal" || $2 == "heuristic") s++
          if ($2 == "unsolvable") u++; if ($2 == "incomplete") i++ }
        END { med = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
              printf "solved %d/%d, proven unsolvable %d, stopped %d, median %.3f s, max %.3f s\n",
                     s, n, u, i, med, t[NR] }'
done
