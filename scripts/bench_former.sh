#!/usr/bin/env bash
# bench_former.sh - the fewest clicks on Former boards (NRK's 7x9 puzzle of
# 4 shapes, --rules former), psolve beside a public solver, board by board
# at the same moment: for each board psolve runs, then the peer, each under
# the same time limit, one thread; every answer is replayed by psolve verify
# (legal, board cleared, its number of clicks).
#
#   scripts/bench_former.sh [PEER_DIR] [SECONDS] [ALGO] [BOARD...]
#
# PEER_DIR, or "-" for psolve alone; its code is run from there (or from a
# copy in a temporary directory), never copied into psolve:
#  - a checkout of tommyod/NRK-former-game (Python; its a_star_search,
#    which proves the fewest clicks with an admissible bound); it needs
#    python3-pytest (solvers.py imports pytest). PYTHON=path picks the
#    python (default /usr/bin/python3).
#  - a checkout of martcl/nrk-former (Go, found by its go.mod; Debian's
#    golang-go builds it): its SolveBoardUsingAStar, A* with an inflated
#    estimate (log of the number of groups times PEER_WEIGHT, default 3.4,
#    the value its main uses; its readme suggests 3 to 6, higher answers
#    sooner and longer), run with one thread. Its answers are not proven,
#    so psolve also runs a second time with a tenth of the peer's time:
#    the column "psolve@1/10" is the line psolve has by then.
# Defaults: no peer, 60 s, idastar, games/samegame/former/*.txt.
# PSOLVE=path runs another build. Prints one line per board (status,
# clicks, seconds of each) and a summary: boards proven by each, total
# seconds over the boards both proved, and whether psolve's answer was
# ever longer. Times are wall-clock: on a shared machine prefer the node
# counts of psolve's own lines.
set -euo pipefail
cd "$(dirname "$0")/.."
peer=${1:--}
limit=${2:-60}
algo=${3:-idastar}
shift $(($# < 3 ? $# : 3))
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(games/samegame/former/*.txt)
psolve=${PSOLVE:-build/psolve}
python=${PYTHON:-/usr/bin/python3}
weight=${PEER_WEIGHT:-3.4}
[ -n "${PSOLVE:-}" ] || scripts/setup.sh build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kind=none
if [ "$peer" != - ] && [ -f "$peer/go.mod" ]; then
    kind=go
elif [ "$peer" != - ]; then
    kind=python
fi

# The peer's side: read a board file (digits, '#' comments), run its
# search, print the clicks as "row col" (row 0 = top), psolve's move text,
# and "seconds S" around the search on stderr.
if [ "$kind" = python ]; then
    cat >"$tmp/peer.py" <<'PY'
import sys, time
sys.path.insert(0, sys.argv[1])
sys.setrecursionlimit(100000)
from board import Board
from solvers import a_star_search
grid = [[int(ch) for ch in line.strip()] for line in open(sys.argv[2])
        if line.strip() and not line.startswith('#')]
start = time.perf_counter()
moves = a_star_search(Board(grid))
print("seconds %.3f" % (time.perf_counter() - start), file=sys.stderr)
for i, j in moves:
    print(i, j)
PY
    peer_cmd=("$python" "$tmp/peer.py" "$peer")
elif [ "$kind" = go ]; then
    # Its module, copied, with this harness beside its own main; a go.mod
    # naming a patch release ("1.23.0") is read as "1.23" by older Go.
    cp -r "$peer" "$tmp/peer"
    sed -i 's/^go \([0-9]*\.[0-9]*\)\.[0-9]*$/go \1/' "$tmp/peer/go.mod"
    mkdir -p "$tmp/peer/cmd/psolve_bench"
    cat >"$tmp/peer/cmd/psolve_bench/main.go" <<'GO'
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	formerfast "github.com/martcl/nrk-former/pkg/former-fast"
)

func main() {
	weight, err := strconv.ParseFloat(os.Args[1], 32)
	if err != nil {
		panic(err)
	}
	f, err := os.Open(os.Args[2])
	if err != nil {
		panic(err)
	}
	b := &formerfast.Board{}
	y := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for x, ch := range line {
			b.State[ch-'1'] |= uint64(1) << uint(y*7+x)
		}
		y++
	}
	start := time.Now()
	moves := formerfast.SolveBoardUsingAStar(b, 1, float32(weight))
	fmt.Fprintf(os.Stderr, "seconds %.3f\n", time.Since(start).Seconds())
	for _, pos := range moves {
		fmt.Printf("%d %d\n", pos/7, pos%7)
	}
}
GO
    (cd "$tmp/peer" && go build -o "$tmp/peer-bin" ./cmd/psolve_bench)
    peer_cmd=("$tmp/peer-bin" "$weight")
fi

clicks_of() { # the clicks of a replayed solution, or "-"
    { "$psolve" verify --rules former "$1" "$2" 2>/dev/null || true; } |
        awk '/^solved: yes/{ok=1} /^cost: /{c=$2} END{print ok ? c : "-"}'
}

psolve_run() { # BOARD SECONDS: psolve's answer in $tmp/mine.txt, stats out
    local out
    out=$("$psolve" --quiet --threads 1 --rules former --algo "$algo" \
        --time "$2" "$1" || true)
    echo "$out" | grep -v '^#' >"$tmp/mine.txt" || true
    echo "$out"
}

printf '%-28s %-10s %6s %9s   %-10s %6s %9s' board psolve clicks seconds \
    peer clicks seconds
[ "$kind" = go ] && printf '   %s' 'psolve@1/10'
printf '\n'
both=0 mine_total=0 peer_total=0 mine_proven=0 peer_proven=0 longer=0
answered=0 tenth_longer=0 tenth_none=0
for b in "${boards[@]}"; do
    out=$(psolve_run "$b" "$limit")
    status=$(echo "$out" | sed -n 's/^# status: //p')
    secs=$(echo "$out" | sed -n 's/^# seconds: //p')
    mine=$(clicks_of "$b" "$tmp/mine.txt")
    if [ "$status" = optimal ]; then mine_proven=$((mine_proven + 1)); fi
    pstatus=- pclicks=- psecs=- tenth=
    if [ "$kind" != none ]; then
        if timeout "$limit" "${peer_cmd[@]}" "$b" >"$tmp/peer.txt" \
            2>"$tmp/peer.err"; then
            psecs=$(sed -n 's/^seconds //p' "$tmp/peer.err")
            pclicks=$(clicks_of "$b" "$tmp/peer.txt")
            if [ "$kind" = python ]; then
                pstatus=optimal
                peer_proven=$((peer_proven + 1))
            else
                pstatus=answered
                answered=$((answered + 1))
            fi
        else
            pstatus=timeout
        fi
    fi
    if [ "$kind" = go ] && [ "$pstatus" = answered ]; then
        t=$(echo "t = $psecs / 10; if (t < 0.001) t = 0.001; t" | bc -l)
        psolve_run "$b" "$t" >/dev/null
        tenth=$(clicks_of "$b" "$tmp/mine.txt")
        if [ "$tenth" = - ]; then
            tenth_none=$((tenth_none + 1))
        elif [ "$tenth" -gt "$pclicks" ]; then
            tenth_longer=$((tenth_longer + 1))
        fi
        if [ "$mine" != - ] && [ "$mine" -gt "$pclicks" ]; then
            longer=$((longer + 1))
        fi
    fi
    if [ "$status" = optimal ] && [ "$pstatus" = optimal ]; then
        both=$((both + 1))
        mine_total=$(echo "$mine_total + $secs" | bc -l)
        peer_total=$(echo "$peer_total + $psecs" | bc -l)
        if [ "$mine" -gt "$pclicks" ]; then longer=$((longer + 1)); fi
    fi
    printf '%-28s %-10s %6s %9s   %-10s %6s %9s' "$b" "$status" "$mine" \
        "$secs" "$pstatus" "$pclicks" "$psecs"
    [ "$kind" = go ] && printf '   %s' "$tenth"
    printf '\n'
done
echo "psolve ($algo) proved $mine_proven of ${#boards[@]} boards in $limit s each"
if [ "$kind" = python ]; then
    echo "peer (a_star_search) proved $peer_proven of ${#boards[@]}"
    echo "both proved $both: psolve $mine_total s, peer $peer_total s in all;" \
        "psolve longer on $longer"
    if [ "$both" -gt 0 ] && [ "$(echo "$mine_total > 0" | bc)" = 1 ]; then
        echo "speed-up: $(echo "scale=1; $peer_total / $mine_total" | bc -l)x"
    fi
elif [ "$kind" = go ]; then
    echo "peer (SolveBoardUsingAStar, weight $weight) answered" \
        "$answered of ${#boards[@]} within $limit s"
    echo "psolve's answer longer than the peer's on $longer; with a tenth" \
        "of the peer's time, longer on $tenth_longer and no line on" \
        "$tenth_none of those $answered"
fi
