#!/bin/sh
# bench_dfs.sh - the dfs figures of issue 3 (docs/algorithms.md quotes them).
#
#   scripts/bench_dfs.sh [PSOLVE] [PART...]
#
# PARTS: rate (nodes/s and bytes per table entry, 10x10 5-colour PopStar),
#        exact7 (median proof time, 7x7 4 colours, 20 seeds),
#        exact8 (the same at 8x8), largest (square 4-colour boards proven
#        within 60 s), candidates (--candidates 8 vs greedy, 10x10 PopStar,
#        10 s each). Default: all. exact7/exact8 also print the median of
#        expanded nodes, which the load of a shared machine cannot change. SEEDS=n (20), SIZES="9 10" and CAP=s (the
#        time limit of exact7/exact8 runs, 60) override. A run stopped by
#        CAP counts as CAP in the median (so the median is a lower bound if
#        any run was stopped).
# Boards come from `psolve gen`, so the figures are reproducible. Runs are one
# at a time (the machine may be shared); long runs get --max-memory 2000.
set -eu
PSOLVE=${1:-build/psolve}
[ $# -gt 0 ] && shift
PARTS=${*:-rate exact7 exact8 largest candidates}
SEEDS=${SEEDS:-20}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

board() { # rows colours seed -> file
    f="$TMP/b$1_$2_$3.txt"
    "$PSOLVE" gen --rows "$1" --cols "$1" --colors "$2" --seed "$3" >"$f"
    echo "$f"
}

field() { # key < psolve output
    sed -n "s/^# $1: //p"
}

median() {
    sort -g | awk '{a[NR]=$1} END {if (NR % 2) printf "%.10g\n", a[(NR+1)/2]; else printf "%.10g\n", (a[NR/2]+a[NR/2+1])/2}'
}

exact() { # size
    : >"$TMP/times"
    : >"$TMP/cpu"
    : >"$TMP/nodes"
    for s in $(seq 1 "$SEEDS"); do
        f=$(board "$1" 4 "$s")
        out=$(/usr/bin/time -f "# cpu: %U %S" "$PSOLVE" --quiet --algo dfs --time "${CAP:-60}" --max-memory 2000 "$f" 2>&1 || true)
        t=$(echo "$out" | field seconds)
        cpu=$(echo "$out" | field cpu | awk '{print $1 + $2}')
        echo "  ${1}x$1 seed $s: $(echo "$out" | field status) score $(echo "$out" | field score) expanded $(echo "$out" | field expanded) wall ${t} s, cpu $cpu s"
        echo "$t" >>"$TMP/times"
        echo "$cpu" >>"$TMP/cpu"
        echo "$out" | field expanded >>"$TMP/nodes"
    done
    echo "${1}x$1 4 colours, standard scoring, $SEEDS seeds: median wall $(median <"$TMP/times") s, median cpu $(median <"$TMP/cpu") s, median expanded $(median <"$TMP/nodes") (the same on any machine)"
}

for part in $PARTS; do
    case $part in
    rate)
        for s in 1 2 3; do
            out=$("$PSOLVE" --quiet --rules popstar --algo dfs --time 10 --max-memory 2000 "$(board 10 5 "$s")" || true)
            e=$(echo "$out" | field expanded); t=$(echo "$out" | field seconds)
            gen=$(echo "$out" | field generated)
            pt=$(echo "$out" | field peak_table); pm=$(echo "$out" | field peak_memory)
            echo "rate: 10x10 PopStar seed $s: $e nodes in $t s = $(awk "BEGIN{printf \"%.0f\", $e/$t}") expanded/s, $(awk "BEGIN{printf \"%.0f\", $gen/$t}") generated/s; peak table $pt entries, $pm bytes = $(awk "BEGIN{printf \"%.0f\", $pm/$pt}") bytes/entry (reserved)"
        done
        ;;
    exact7) exact 7 ;;
    exact8) exact 8 ;;
    largest)
        for n in ${SIZES:-9 10}; do
            for s in 1 2 3; do
                out=$("$PSOLVE" --quiet --algo dfs --time 60 --max-memory 4000 "$(board "$n" 4 "$s")" || true)
                echo "largest: ${n}x$n seed $s: $(echo "$out" | field status) score $(echo "$out" | field score) $(echo "$out" | field seconds) s"
            done
        done
        ;;
    candidates)
        : >"$TMP/c"
        for s in $(seq 1 "$SEEDS"); do
            f=$(board 10 5 "$s")
            g=$("$PSOLVE" --quiet --rules popstar --algo greedy "$f" | field score)
            c=$("$PSOLVE" --quiet --rules popstar --algo dfs --candidates 8 --time 10 --max-memory 2000 "$f" || true)
            echo "  seed $s: greedy $g, --candidates 8 $(echo "$c" | field score) ($(echo "$c" | field status))"
            echo "$g $(echo "$c" | field score)" >>"$TMP/c"
        done
        awk '{g+=$1; c+=$2} END {printf "candidates: 10x10 PopStar, %d seeds: mean greedy %.1f, mean dfs --candidates 8 (10 s) %.1f\n", NR, g/NR, c/NR}' "$TMP/c"
        ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
    esac
done
