#!/usr/bin/env bash
# bench_engine.sh - uniform random SameGame playouts per second: psolve's
# engine beside the two plain C reference programs (scripts/bench/reference/,
# copies of ../shared/benchmarks/reference/), 5 colours, in one run.
#
#   scripts/bench_engine.sh [ROUNDS] [SECONDS] [SIZES]
#
# ROUNDS (default 5) rounds alternate the three programs, SECONDS (default 2)
# each; the ratios are of the medians. SIZES (default "15 10 20") are square
# board sizes; floodfill.c keeps group ids in a byte and boards in 16x16, so
# it runs at sizes up to 15 only. The references are built as their header
# says (cc -O2 -march=native); each size gets its own copy with the board
# size edited in. Wall-clock figures on a shared machine are noisy: with
# valgrind installed the script also prints callgrind instruction counts per
# playout (psolve: the cost inside ps_playout_uniform over 100 playouts on
# each of 3 boards; the references: their whole run of 256 playouts, built
# with -O2 and no -march, as valgrind lacks AVX-512), which are repeatable.
# psolve's playouts run in SameGame's bit planes where the board fits
# (docs/samegame.md#whole-playouts-in-bit-planes); PSOLVE_SAMEGAME_PLAYOUT=bytes
# scripts/bench_engine.sh measures the byte engine's loop instead (before).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
secs=${2:-2}
sizes=${3:-15 10 20}
scripts/setup.sh build >/dev/null
psolve=${PSOLVE:-build/psolve} # PSOLVE=path benches another build
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() {
    sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}

# reference NAME SIZE FLAGS -> path of a binary for SIZE x SIZE
reference() {
    local src=scripts/bench/reference/$1.c out=$tmp/$1_$2_${3// /}
    if [ ! -x "$out" ]; then
        sed -e "s/int W = 15, H = 15/int W = $2, H = $2/" \
            -e 's/#define MAXW 16/#define MAXW 32/' \
            -e 's/#define MAXH 16/#define MAXH 32/' \
            -e 's/#define S 16/#define S 32/' "$src" >"$tmp/$1_$2.c"
        # shellcheck disable=SC2086
        cc $3 -std=c11 -D_POSIX_C_SOURCE=200809L "$tmp/$1_$2.c" -o "$out"
    fi
    echo "$out"
}

for n in $sizes; do
    refs="unionfind"
    [ "$n" -le 15 ] && refs="unionfind floodfill"
    : >"$tmp/psolve"
    for r in $refs; do : >"$tmp/$r"; done
    for round in $(seq 1 "$rounds"); do
        "$psolve" bench --rows "$n" --cols "$n" --colors 5 --seconds "$secs" |
            sed -n 's/.*: \([0-9]*\) playouts\/s.*/\1/p' >>"$tmp/psolve"
        for r in $refs; do
            "$(reference "$r" "$n" "-O2 -march=native")" "$secs" |
                awk '{print $2}' >>"$tmp/$r"
        done
    done
    p=$(median <"$tmp/psolve")
    line="${n}x$n: psolve $p playouts/s"
    for r in $refs; do
        m=$(median <"$tmp/$r")
        line="$line, $r.c $m ($(awk -v a="$p" -v b="$m" 'BEGIN{printf "%.2fx", a/b}'))"
    done
    echo "$line  [median of $rounds rounds, ${secs} s each, alternating]"

    command -v valgrind >/dev/null || continue
    total=0
    count=0
    for seed in 1 2 3; do
        out=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
            --toggle-collect=ps_playout_uniform "$psolve" bench --rows "$n" \
            --cols "$n" --colors 5 --seconds 0.000001 --seed "$seed" 2>/dev/null)
        k=$(echo "$out" | sed -n 's/.*(\([0-9]*\) playouts.*/\1/p')
        ir=$(sed -n 's/^totals: //p' "$tmp/cg")
        total=$((total + ir))
        count=$((count + k))
    done
    pir=$((total / count))
    line="${n}x$n instructions per playout: psolve $pir"
    for r in $refs; do
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
            "$(reference "$r" "$n" "-O2")" 0.000001 >/dev/null 2>&1
        rir=$(( $(sed -n 's/^totals: //p' "$tmp/cg") / 256 ))
        line="$line, $r.c $rir ($(awk -v a="$pir" -v b="$rir" 'BEGIN{printf "%.2fx fewer", b/a}'))"
    done
    echo "$line  [callgrind]"
done
