#!/usr/bin/env bash
# Run the commands of a lab sheet of docs/teaching.md and time the whole sheet.
#   scripts/teaching.sh [PSOLVE] npuzzle|watersort|samegame|all
# PSOLVE defaults to build/psolve. Every command prints what the sheet shows;
# the last line is the sheet's wall time (the numbers to expect are in
# docs/teaching.md; times vary with the machine, the counts do not).
set -euo pipefail
cd "$(dirname "$0")/.."
psolve=build/psolve
if [ $# -gt 1 ]; then psolve=$1; shift; fi
sheet=${1:-all}

run() {
  echo "\$ psolve $*"
  if [ "$1" = lab ]; then shift; set -- lab --quiet "$@"; else set -- --quiet "$@"; fi
  "$psolve" "$@" || echo "(exit status $?)"
  echo
}

npuzzle() {
  local ex=games/npuzzle/examples
  run --game npuzzle --algo bfs,astar,idastar $ex/8-hardest.txt
  run --game npuzzle --algo astar --heuristic zero,misplaced,manhattan,linear-conflict $ex/8-hardest.txt
  run --game npuzzle --algo bfs,astar,idastar --layers $ex/8-hardest.txt
  run --game npuzzle --algo astar,astar:h=double-manhattan,wastar:w=3 $ex/15-44.txt
  run --game npuzzle --algo astar,idastar --heuristic linear-conflict $ex/15-44.txt
  run lab --game npuzzle --algo idastar --heuristic manhattan,linear-conflict \
    --max-nodes 20000000 $ex/15-36.txt $ex/15-40.txt $ex/15-42.txt $ex/15-44.txt $ex/15-56.txt
}

watersort() {
  local level=games/watersort/levels/frozenfrank-2024-jul5.txt
  local nocommute
  nocommute=$(mktemp --suffix=.lua)
  printf 'return { game = "watersort", prune = { commute = false } }\n' > "$nocommute"
  run --game watersort --algo bfs,astar,dfs,idastar --layers $level
  run --game watersort --algo astar,dfs,idastar --csv $level
  run --rules "$nocommute" --algo astar,dfs,idastar --max-nodes 1000000 $level
  run --game watersort --algo dfs,dfs:no-memo --max-nodes 1000000 $level
  run lab --game watersort --algo astar,dfs,idastar --max-nodes 300000 --jobs 2 \
    games/watersort/levels
  rm -f "$nocommute"
}

samegame() {
  local ex=games/samegame/examples
  run --algo dfs,dfs:h=colours,dfs:no-bound,dfs:no-memo --max-nodes 5000000 $ex/samegame-7x7-4c.txt
  run --algo dfs,greedy,mc,nmcs,nmcs:level=3,nrpa,beam,beam:beam-width=1000 --threads 1 \
    $ex/samegame-7x7-4c.txt
  run --algo dfs,nmcs:level=3,nrpa,beam:beam-width=1000 --threads 1 $ex/samegame-8x8-4c.txt
  run --algo dfs,nmcs:level=3,beam:beam-width=1000 --threads 1 --rules popstar \
    $ex/samegame-7x7-4c.txt
}

start=$(date +%s.%N)
case $sheet in
  npuzzle|watersort|samegame) $sheet ;;
  all) npuzzle; watersort; samegame ;;
  *) echo "usage: scripts/teaching.sh [PSOLVE] npuzzle|watersort|samegame|all" >&2; exit 2 ;;
esac
end=$(date +%s.%N)
printf '# sheet %s: %.1f s wall\n' "$sheet" "$(echo "$end - $start" | bc)"
