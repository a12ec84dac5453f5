#!/bin/sh
# bench_dfs.sh - the dfs figures of issue 3 (docs/algorithms.md quotes them).
#
#   scripts/bench_dfs.sh [PSOLVE] [PART...]
#
# PARTS: rate (nodes/s and bytes per table entry, 10x10 5-colour PopStar),
#        exact7 (median proof time, 7x7 4 colours, 20 seeds),
#        exact8 (the same at 8x8), largest (square 4-colour boards proven
#        within 60 s), candidates (--candidates 8 vs greedy, 10x10 PopStar,
#        10 s each), versus (dfs against VS=nrpa or beam side by side at
#        T seconds; see there). Default: all but versus. exact7/exact8 also print the median of
#        expanded nodes, which the load of a shared machine cannot change. SEEDS=n (20), SIZES="9 10" and CAP=s (the
#        time limit of exact7/exact8 runs, 60) override; NODES=n caps those
#        runs by expanded nodes instead (deterministic, for a loaded
#        machine: a run stopped counts its nodes, a lower bound). A run stopped by
#        CAP counts as CAP in the median (so the median is a lower bound if
#        any run was stopped).
# Boards come from `psolve gen`, so the figures are reproducible. Runs are one
# at a time (the machine may be shared); long runs get --max-memory 2000.
set -eu
PSOLVE=${1:-build/psolve}
[ $# -gt 0 ] && shift
PARTS=${*:-rate exact7 exact8 largest candidates}  # versus: on demand
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
        if [ -n "${NODES:-}" ]; then limit="--max-nodes $NODES"; else limit="--time ${CAP:-60}"; fi
        out=$(/usr/bin/time -f "# cpu: %U %S" "$PSOLVE" --quiet --algo dfs $limit --max-memory 2000 "$f" 2>&1 || true)
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
    versus)
        # dfs against another algorithm at the same time and threads, the
        # two runs side by side (started together, so both see the same
        # load). VS=nrpa (or beam), T=5 (seconds), THREADS=1, ROWS=15,
        # COLOURS=5, RULES=samegame, FIRST=1 (first seed).
        vs=${VS:-nrpa}; t=${T:-5}; th=${THREADS:-1}; n=${ROWS:-15}
        k=${COLOURS:-5}; rules=${RULES:-samegame}; first=${FIRST:-1}
        : >"$TMP/v"
        for s in $(seq "$first" $((first + SEEDS - 1))); do
            f=$(board "$n" "$k" "$s")
            "$PSOLVE" --quiet --rules "$rules" --algo dfs --time "$t" --threads "$th" "$f" >"$TMP/a" 2>&1 &
            "$PSOLVE" --quiet --rules "$rules" --algo "$vs" --time "$t" --threads "$th" "$f" >"$TMP/b" 2>&1 &
            wait
            a=$(field score <"$TMP/a"); b=$(field score <"$TMP/b")
            echo "  ${n}x$n $k colours $rules seed $s: dfs $a ($(field status <"$TMP/a")), $vs $b"
            echo "$a $b" >>"$TMP/v"
        done
        awk -v vs="$vs" -v t="$t" -v th="$th" '{a+=$1; b+=$2; w+=($1>$2); l+=($1<$2)} END {printf "versus: %d boards, %s s, %s thread(s): dfs total %d (mean %.1f), %s total %d (mean %.1f), dfs/%s %.1f%%, dfs wins %d, losses %d\n", NR, t, th, a, a/NR, vs, b, b/NR, vs, 100*a/b, w, l}' "$TMP/v"
        ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
    esac
done
