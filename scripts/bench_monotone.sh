#!/bin/sh
# bench_monotone.sh - is a search monotone in --time on a loaded machine?
# Each board runs at each of TIMES seconds (same seed), with HOG
# busy-loop processes beside every run; a run that scores lower than the
# same board's run at a shorter time is a fall.
#
#   scripts/bench_monotone.sh "--algo nrpa" boards/*.txt
#   scripts/bench_monotone.sh "--algo nrpa --grow 0" boards/*.txt
#   TIMES="5 10 20" (the default), HOG=1 (busy loops), THREADS=2, SEED=1.
# Prints one line per board (its scores in the order of TIMES, and "fell"
# where one fell), then the number of falls. Timed runs: the scores depend
# on the machine's speed; the falls are the measurement.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 \"PSOLVE OPTIONS\" BOARD..." >&2
    exit 2
fi
psolve=${PSOLVE:-$(dirname "$0")/../build/psolve}
options=$1
shift
times=${TIMES:-5 10 20} hog=${HOG:-1} threads=${THREADS:-2} seed=${SEED:-1}

hogs=""
trap 'for p in $hogs; do kill "$p" 2>/dev/null || true; done' EXIT INT TERM
i=0
while [ "$i" -lt "$hog" ]; do
    sh -c 'while :; do :; done' &
    hogs="$hogs $!"
    i=$((i + 1))
done

falls=0
for board in "$@"; do
    line=$board last="" fell=""
    for t in $times; do
        # shellcheck disable=SC2086 # the options are meant to split
        v=$("$psolve" $options --time "$t" --threads "$threads" --seed "$seed" \
                --quiet "$board" </dev/null | awk '/^# score:/ {print $3}')
        if [ -z "$v" ]; then
            echo "$0: $board at --time $t printed no score" >&2
            exit 1
        fi
        line="$line $v"
        if [ -n "$last" ] && [ "$v" -lt "$last" ]; then
            fell=" fell"
            falls=$((falls + 1))
        fi
        last=$v
    done
    echo "$line$fell"
done
echo "falls: $falls (times: $times; $hog busy loops beside each run)"
