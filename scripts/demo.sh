#!/usr/bin/env bash
# README command 1: set up, build, and solve the bundled example board.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
board=games/samegame/examples/samegame-10x10.txt
echo "== psolve show $board"
build/psolve show "$board"
echo "== psolve --game samegame --algo greedy $board"
build/psolve --game samegame --algo greedy "$board"
