#!/bin/sh
# beam_same.sh - do two psolve binaries give beam the same answers? Beam at
# a fixed width on generated SameGame boards under the three rule presets
# (research, popstar, clickomania): each run's output (line, score and
# every count but time and memory) must be the same. For a speed-up that
# must not change the search.
#
#   scripts/beam_same.sh OLD NEW [WIDTH [SEEDS]]
#   WIDTH: --beam-width (300); SEEDS: gen seeds ("6001 ... 6010"), 15x15x5.
# Prints one line per run and "N runs, D different"; exits 1 if D > 0.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 OLD NEW [WIDTH [SEEDS]]" >&2
    exit 2
fi
old=$1 new=$2 width=${3:-300}
seeds=${4:-"6001 6002 6003 6004 6005 6006 6007 6008 6009 6010"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0 diffs=0
for seed in $seeds; do
    "$new" gen --game samegame --rows 15 --cols 15 --colors 5 --seed "$seed" \
        >"$tmp/board.txt"
    for rules in research popstar clickomania; do
        set -- --game samegame --algo beam --beam-width "$width"
        [ "$rules" = research ] || set -- "$@" --rules "$rules"
        for bin in old new; do
            eval "prog=\$$bin"
            "$prog" "$@" "$tmp/board.txt" |
                grep -v -E '^# (seconds|peak_memory|cycles):' >"$tmp/$bin.out"
        done
        runs=$((runs + 1))
        score=$(grep '^# score:' "$tmp/new.out" || true)
        if cmp -s "$tmp/old.out" "$tmp/new.out"; then
            echo "seed $seed $rules: same ($score)"
        else
            echo "seed $seed $rules: DIFFERENT"
            diffs=$((diffs + 1))
        fi
    done
done
echo "$runs runs, $diffs different"
[ "$diffs" -eq 0 ]
