#!/usr/bin/env bash
# psolve-mpi on this machine (docs/distributed.md): ranks 1 vs 2 for the farm,
# dnrpa and hdastar, oversubscribed runs (4, 8 ranks on 2 cores), and the 20
# standard SameGame positions with dnrpa next to threaded nrpa at the same CPU.
#   scripts/bench_mpi.sh farm|dnrpa|hdastar|samegame [SECONDS]
# Wall-clock figures: run it on a quiet machine, and alternate (it does).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { local np=$1; shift; mpirun --bind-to none -np "$np" "$build/psolve-mpi" "$@"; }
field() { awk -v k="# $1:" '$1 " " $2 == k {print $3}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.0f", b > 0 ? a / b : 0}'; }
now() { date +%s.%N; }
secs=${2:-10}

case "${1:-}" in
farm) # the same lab on 1 and 2 ranks, three rounds, alternating
  for round in 1 2 3; do
    for np in 1 2; do
      start=$(now)
      mpi "$np" --algo nrpa --level 2 --iterations 40 --seed 1 --csv --quiet \
        games/samegame/standard > /dev/null
      echo "farm round $round ranks $np: $(awk -v a="$(now)" -v b="$start" \
        'BEGIN {printf "%.2f", a - b}') s"
    done
  done ;;
dnrpa) # playouts per second and score at equal time
  for np in 1 2 4 8; do
    out=$(mpi "$np" --algo dnrpa --tasks 8 --time "$secs" --quiet \
      games/samegame/standard/01.txt || true)
    p=$(field playouts <<< "$out"); s=$(field seconds <<< "$out")
    echo "dnrpa ranks $np: score $(field score <<< "$out") playouts $p" \
      "($(ratio "$p" "$s") /s)"
  done ;;
hdastar) # expansions per second on one 15-puzzle (215051 A* expansions)
  tmp=$(mktemp)
  "$build/psolve" gen --game npuzzle --rows 4 --seed 5 > "$tmp"
  out=$("$build/psolve" --game npuzzle --algo astar --quiet "$tmp")
  echo "astar: cost $(field cost <<< "$out") expanded $(field expanded <<< "$out")" \
    "seconds $(field seconds <<< "$out")"
  for np in 1 2 4 8; do
    out=$(mpi "$np" --game npuzzle --algo hdastar --quiet "$tmp")
    e=$(field expanded <<< "$out"); s=$(field seconds <<< "$out")
    echo "hdastar ranks $np: cost $(field cost <<< "$out") expanded $e" \
      "seconds $s ($(ratio "$e" "$s") /s)"
  done
  rm -f "$tmp" ;;
samegame) # dnrpa on 2 ranks vs nrpa on 2 threads, SECONDS each per position
  tn=0; td=0
  for f in games/samegame/standard/[0-9]*.txt; do
    n=$("$build/psolve" --algo nrpa --threads 2 --time "$secs" --quiet "$f" |
      field score || true)
    d=$(mpi 2 --algo dnrpa --tasks 8 --time "$secs" --quiet "$f" |
      field score || true)
    echo "$(basename "$f" .txt) nrpa ${n:-0} dnrpa ${d:-0}"
    tn=$((tn + ${n:-0})); td=$((td + ${d:-0}))
  done
  echo "total nrpa $tn dnrpa $td" ;;
*) echo "usage: $0 farm|dnrpa|hdastar|samegame [SECONDS]" >&2; exit 2 ;;
esac
