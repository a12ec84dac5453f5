#!/usr/bin/env bash
# README command 1: set up, build, and show what psolve is for on the bundled
# board: three algorithms side by side (greedy, beam search, NRPA), every
# answer replayed and verified, the line saying which one won, and an HTML
# page that replays the best one move by move in any browser.
#
# The budgets are counts, not seconds (beam width 1000, NRPA 5,000,000
# nodes, one thread), so the table is the same on every machine; only its
# time column differs. `scripts/demo.sh --table [PAGE]` runs the comparison
# alone, with $PSOLVE (default build/psolve), no setup: test_html runs it
# twice and compares the tables.
set -euo pipefail
cd "$(dirname "$0")/.."
board=games/samegame/examples/samegame-10x10.txt
page=build/demo-replay.html
psolve=${PSOLVE:-build/psolve}
budget=(--beam-width 1000 --max-nodes 5000000 --threads 1)

compare() {
  # NRPA, an anytime search, uses its whole node budget by design; its
  # best line is printed and verified, so the exit status is 0.
  "$psolve" --algo greedy,beam,nrpa "${budget[@]}" --quiet --html "$1" "$board"
}

if [ "${1:-}" = --table ]; then
  compare "${2:-/dev/null}"
  exit
fi

scripts/setup.sh build
echo "== psolve show $board"
"$psolve" show "$board"
echo
echo "== psolve --algo greedy,beam,nrpa ${budget[*]} --html $page $board"
compare "$page"
echo
echo "greedy plays the biggest group each time; beam search keeps the best"
echo "1000 positions of every depth; NRPA learns a playout policy, here for"
echo "5,000,000 nodes. The budgets are counts, so every machine prints this"
echo "table (all but its time column) and the same '# best:' line."
echo "The HTML replay (board, score curve, comparison bars, anytime curves;"
echo "no network needed):"
echo "  $(pwd)/$page"
