#!/usr/bin/env bash
# bench_clear.sh - how many clearable boards psolve clears under
# --rules clickomania: boards made clearable by construction
# (scripts/bench/clearable_boards.c plays random moves backwards from the
# empty board), each solved at each time limit, one thread.
#
#   scripts/bench_clear.sh [COUNT] [TIMES] [SIZE COLOURS] [ALGO]
#
# Defaults: 100 boards, times "1 10", 15x15 with 6 colours, beam. SIZE is
# N (N rows, N columns) or ROWSxCOLS (24x12: 24 rows of 12 columns). Prints
# one line per time limit: boards cleared, cells left in all, median
# seconds. PSOLVE=path runs another build; SEED=n (default 42) other boards.
# CPU heavy (COUNT x sum of TIMES seconds): run it with nice on a shared
# machine, where the time limits are wall-clock and say less than they seem.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100}
times=${2:-1 10}
size=${3:-15}
rows=${size%x*}
cols=${size#*x}
colours=${4:-6}
algo=${5:-beam}
psolve=${PSOLVE:-build/psolve}
[ -n "${PSOLVE:-}" ] || scripts/setup.sh build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 scripts/bench/clearable_boards.c -o "$tmp/clearable_boards"
mkdir "$tmp/boards"
"$tmp/clearable_boards" "$rows" "$cols" "$colours" "$count" "${SEED:-42}" "$tmp/boards"

for t in $times; do
    cleared=0 left=0
    : >"$tmp/seconds"
    for f in "$tmp"/boards/*.txt; do
        out=$("$psolve" --quiet --threads 1 --rules clickomania --algo "$algo" \
            --time "$t" "$f" || true)
        l=$(echo "$out" | sed -n 's/^# cells_left: //p')
        echo "$out" | sed -n 's/^# seconds: //p' >>"$tmp/seconds"
        left=$((left + l))
        [ "$l" = 0 ] && cleared=$((cleared + 1))
    done
    med=$(sort -g "$tmp/seconds" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "${rows}x$cols $colours colours, $algo --time $t: cleared $cleared of $count, cells left $left, median $med s"
done
