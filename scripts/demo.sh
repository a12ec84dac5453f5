#!/usr/bin/env bash
# README command 1: set up, build, and show what psolve is for on the bundled
# board: three algorithms side by side with the same time budget (greedy,
# beam search, NRPA), every answer replayed and verified, and an HTML page
# that replays the best one move by move in any browser.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
board=games/samegame/examples/samegame-10x10.txt
page=build/demo-replay.html
echo "== psolve show $board"
build/psolve show "$board"
echo
echo "== psolve --algo greedy,beam,nrpa --time 2 --html $page $board"
# Exit status 4 says a run was stopped by --time: the anytime searches
# (NRPA) use their whole budget by design, and their best line is kept.
build/psolve --algo greedy,beam,nrpa --time 2 --quiet --html "$page" "$board" ||
  [ $? -eq 4 ]
echo
echo "greedy plays the biggest group each time; beam search keeps the best"
echo "positions of every depth; NRPA learns a playout policy. The HTML replay"
echo "(board, score curve, comparison bars, anytime curves; no network needed):"
echo "  $(pwd)/$page"
