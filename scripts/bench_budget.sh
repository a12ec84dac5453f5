#!/bin/sh
# bench_budget.sh - mean score of psolve settings over boards and seeds at a
# FIXED budget (iterations, beam width, --max-nodes), one thread:
# deterministic, so variants compare without timing noise on a shared
# machine.
#
#   scripts/bench_budget.sh "--algo nrpa --level 3 --iterations 20" "1 2" boards/*.txt
#   scripts/bench_budget.sh "--algo nrpa --max-nodes 6800000 --keep-best 0;
#                            --algo nrpa --max-nodes 6800000 --keep-best 1" 1 boards/*.txt
#   SEEDS: the second argument ("1" for deterministic beams).
# Several settings separated by ';' run on the same boards and seeds; each
# gets its mean, and every setting after the first its wins, ties and losses
# against the first, run by run. --max-nodes with the Monte Carlo searches
# restarts a finished run as --time does, so it stands for a time budget.
# Prints one line per run (board, seed, score, playouts) and the means.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 \"PSOLVE OPTIONS[;OPTIONS...]\" \"SEEDS\" BOARD..." >&2
    exit 2
fi
psolve=${PSOLVE:-$(dirname "$0")/../build/psolve}
settings=$1 seeds=$2
shift 2

# One setting: "board seed score playouts" per run, then its mean.
run_setting() {
    for seed in $seeds; do
        for board in "$@"; do
            # A node limit ends the run; its best line is printed and
            # verified (exit status 0).
            # shellcheck disable=SC2086 # the options are meant to split
            "$psolve" $options --threads 1 --seed "$seed" --quiet "$board" </dev/null |
                awk -v b="$board" -v s="$seed" \
                    '/^# score:/ {v = $3} /^# playouts:/ {p = $3}
                     END {print b, s, v, p}'
        done
    done
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
index=0
echo "$settings" | tr ';' '\n' | while IFS= read -r options; do
    options=$(echo "$options" | sed 's/^ *//; s/ *$//')
    [ -n "$options" ] || continue
    index=$((index + 1))
    run_setting "$@" | awk -v i="$index" '{print i, $0}' >> "$results"
    awk -v i="$index" '$1 == i {print $2, $3, $4, $5}' "$results"
    awk -v i="$index" -v o="$options" '
        $1 == 1 {first[$2 " " $3] = $4}
        $1 == i {sum += $4; p += $5; n++
                 if (i > 1) { d = $4 - first[$2 " " $3]
                              if (d > 0) w++; else if (d < 0) l++; else t++ } }
        END {if (!n) exit
             printf "mean %.1f over %d runs, %.0f playouts a run [%s]", sum / n, n, p / n, o
             if (i > 1) printf "  against the first: %d better, %d equal, %d worse", w, t, l
             printf "\n"}' "$results"
done
