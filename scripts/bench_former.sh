#!/usr/bin/env bash
# bench_former.sh - the fewest clicks on Former boards (NRK's 7x9 puzzle of
# 4 shapes, --rules former), psolve beside a public solver, board by board
# at the same moment: for each board psolve runs, then the peer, each under
# the same time limit, one thread; every answer is replayed by psolve verify
# (legal, board cleared, its number of clicks).
#
#   scripts/bench_former.sh [PEER_DIR] [SECONDS] [ALGO] [BOARD...]
#
# PEER_DIR: a checkout of tommyod/NRK-former-game (Python; its
# a_star_search, which proves the fewest clicks with an admissible bound),
# or "-" for psolve alone. Its code is run from there, never copied here;
# it needs python3-pytest (solvers.py imports pytest). Defaults: no peer,
# 60 s, idastar, games/samegame/former/*.txt. PSOLVE=path runs another
# build; PYTHON=path another python (default /usr/bin/python3).
# Prints one line per board (status, clicks, seconds of each) and a summary:
# boards proven by each, total seconds over the boards both proved, and
# whether psolve's answer was ever longer. Times are wall-clock: on a
# shared machine prefer the node counts of psolve's own lines.
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
[ -n "${PSOLVE:-}" ] || scripts/setup.sh build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The peer's side: read a board file (digits, '#' comments), run its A*,
# print the clicks as "row col" (row 0 = top), psolve's move text.
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

clicks_of() { # the clicks of a replayed solution, or "-"
    { "$psolve" verify --rules former "$1" "$2" 2>/dev/null || true; } |
        awk '/^solved: yes/{ok=1} /^cost: /{c=$2} END{print ok ? c : "-"}'
}

printf '%-28s %-10s %6s %9s   %-10s %6s %9s\n' board psolve clicks seconds \
    peer clicks seconds
both=0 mine_total=0 peer_total=0 mine_proven=0 peer_proven=0 longer=0
for b in "${boards[@]}"; do
    out=$("$psolve" --quiet --threads 1 --rules former --algo "$algo" \
        --time "$limit" "$b" || true)
    echo "$out" | grep -v '^#' >"$tmp/mine.txt" || true
    status=$(echo "$out" | sed -n 's/^# status: //p')
    secs=$(echo "$out" | sed -n 's/^# seconds: //p')
    mine=$(clicks_of "$b" "$tmp/mine.txt")
    if [ "$status" = optimal ]; then mine_proven=$((mine_proven + 1)); fi
    pstatus=- pclicks=- psecs=-
    if [ "$peer" != - ]; then
        if timeout "$limit" "$python" "$tmp/peer.py" "$peer" "$b" \
            >"$tmp/peer.txt" 2>"$tmp/peer.err"; then
            pstatus=optimal
            psecs=$(sed -n 's/^seconds //p' "$tmp/peer.err")
            pclicks=$(clicks_of "$b" "$tmp/peer.txt")
            peer_proven=$((peer_proven + 1))
        else
            pstatus=timeout
        fi
    fi
    if [ "$status" = optimal ] && [ "$pstatus" = optimal ]; then
        both=$((both + 1))
        mine_total=$(echo "$mine_total + $secs" | bc -l)
        peer_total=$(echo "$peer_total + $psecs" | bc -l)
        if [ "$mine" -gt "$pclicks" ]; then longer=$((longer + 1)); fi
    fi
    printf '%-28s %-10s %6s %9s   %-10s %6s %9s\n' "$b" "$status" "$mine" \
        "$secs" "$pstatus" "$pclicks" "$psecs"
done
echo "psolve ($algo) proved $mine_proven of ${#boards[@]} boards in $limit s each"
if [ "$peer" != - ]; then
    echo "peer (a_star_search) proved $peer_proven of ${#boards[@]}"
    echo "both proved $both: psolve $mine_total s, peer $peer_total s in all;" \
        "psolve longer on $longer"
    if [ "$both" -gt 0 ] && [ "$(echo "$mine_total > 0" | bc)" = 1 ]; then
        echo "speed-up: $(echo "scale=1; $peer_total / $mine_total" | bc -l)x"
    fi
fi
