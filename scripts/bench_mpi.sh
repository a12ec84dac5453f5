#!/usr/bin/env bash
# psolve-mpi on this machine (docs/distributed.md): ranks 1 vs 2 for the farm,
# dnrpa and hdastar, oversubscribed runs (4, 8 ranks on 2 cores), and the 20
# standard SameGame positions with dnrpa next to threaded nrpa at the same CPU.
#   scripts/bench_mpi.sh farm|dnrpa|dnrpa-budget|hdastar|samegame [SECONDS]
# Each line gives wall seconds and the CPU seconds of all ranks (user+sys):
# on a shared machine the CPU figures are the steadier ones (but a run that
# exits non-zero, as under --time, makes mpirun abort the other ranks before
# their CPU is counted: the dnrpa line gives wall figures only).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
secs=${2:-10}
out=$(mktemp)
clock=$(mktemp)
trap 'rm -f "$out" "$clock"' EXIT

# timed NP ARGS...: psolve-mpi on NP ranks, stdout in $out, "wall cpu" in $clock
timed() {
  local np=$1
  shift
  local TIMEFORMAT='%R %U %S'
  { time mpirun --bind-to none -np "$np" "$build/psolve-mpi" "$@" > "$out" \
      2> /dev/null || true; } 2> "$clock"
}
field() { awk -v k="# $1:" '$1 " " $2 == k {print $3}' "$out"; }
wall() { awk '{printf "%.2f", $1}' "$clock"; }
cpu() { awk '{printf "%.2f", $2 + $3}' "$clock"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.0f", (b > 0 ? a / b : 0)}'; }

case "${1:-}" in
farm) # the same lab on 1 and 2 ranks, three rounds, alternating
  for round in 1 2 3; do
    for np in 1 2; do
      timed "$np" --algo nrpa --level 2 --iterations 40 --seed 1 --csv --quiet \
        games/samegame/standard
      echo "farm round $round ranks $np: wall $(wall) s, cpu $(cpu) s"
    done
  done ;;
dnrpa) # playouts per second and score at equal time
  for np in 1 2 4 8; do
    timed "$np" --algo dnrpa --tasks 8 --time "$secs" --quiet \
      games/samegame/standard/01.txt
    p=$(field playouts)
    echo "dnrpa ranks $np: score $(field score) playouts $p" \
      "($(ratio "$p" "$(wall)") /s wall)"
  done ;;
dnrpa-budget) # the same fixed work (27 000 playouts) on 1, 2, 4, 8 ranks
  for round in 1 2; do
    for np in 1 2 4 8; do
      timed "$np" --algo dnrpa --level 3 --iterations 15 --tasks 8 --seed 1 \
        --quiet games/samegame/standard/01.txt
      p=$(field playouts)
      echo "dnrpa-budget round $round ranks $np: score $(field score) playouts $p," \
        "wall $(wall) s ($(ratio "$p" "$(wall)") /s), cpu $(cpu) s" \
        "($(ratio "$p" "$(cpu)") /cpu-s)"
    done
  done ;;
hdastar) # expansions per second on one 15-puzzle (215051 A* expansions)
  puzzle=$(mktemp)
  "$build/psolve" gen --game npuzzle --rows 4 --seed 5 > "$puzzle"
  for round in 1 2; do
    for np in 1 2 4 8; do
      timed "$np" --game npuzzle --algo hdastar --quiet "$puzzle"
      e=$(field expanded)
      echo "hdastar round $round ranks $np: cost $(field cost) expanded $e," \
        "wall $(wall) s ($(ratio "$e" "$(wall)") /s), cpu $(cpu) s" \
        "($(ratio "$e" "$(cpu)") /cpu-s)"
    done
  done
  rm -f "$puzzle" ;;
samegame) # dnrpa on 2 ranks vs nrpa on 2 threads, SECONDS each per position
  tn=0 td=0
  for f in games/samegame/standard/[0-9]*.txt; do
    n=$("$build/psolve" --algo nrpa --threads 2 --time "$secs" --quiet "$f" |
      awk '$2 == "score:" {print $3}' || true)
    timed 2 --algo dnrpa --tasks 8 --time "$secs" --quiet "$f"
    d=$(field score)
    echo "$(basename "$f" .txt) nrpa ${n:-0} dnrpa ${d:-0}"
    tn=$((tn + ${n:-0})) td=$((td + ${d:-0}))
  done
  echo "total nrpa $tn dnrpa $td" ;;
*) echo "usage: $0 farm|dnrpa|dnrpa-budget|hdastar|samegame [SECONDS]" >&2
  exit 2 ;;
esac
