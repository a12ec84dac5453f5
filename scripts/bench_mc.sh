#!/usr/bin/env bash
# Benchmarks of the Monte Carlo family (mc, nmcs, nrpa); see
# docs/algorithms.md. Each part prints one line per run and a summary.
#
#   scripts/bench_mc.sh popstar SECONDS [BOARDS] [THREADS]
#       PopStar rules, generated 10x10 boards with 5 colours, seeds 1..BOARDS
#       (default 50): per algorithm the mean, min, quartiles and max.
#   scripts/bench_mc.sh popstar-width WIDTH [FIRST LAST]
#       beam at a fixed --beam-width, one thread, on the same boards with
#       seeds FIRST..LAST (default 101 200, a tuning set apart from the
#       test boards 1..50): deterministic, so variants compare without
#       timing noise. Extra psolve options from BEAM_ARGS.
#   scripts/bench_mc.sh standard SECONDS [FIRST LAST] [THREADS]
#       SameGame research rules on games/samegame/standard/FIRST..LAST
#       (default 1 20): each position's score and the totals, nmcs and nrpa.
#   scripts/bench_mc.sh speed [SECONDS]
#       playouts per second with 1 and 2 threads, side by side, and the ratio.
#
# Environment: PSOLVE (default build/psolve), ALGOS (a ';'-separated list of
# "--algo ..." argument sets, replacing the defaults below), SEED (default 1).
set -eu  # psolve exits 4 when --time cuts a run: not a failure here
cd "$(dirname "$0")/.."
PSOLVE=${PSOLVE:-build/psolve}
SEED=${SEED:-1}
[ -x "$PSOLVE" ] || { echo "build psolve first ($PSOLVE)" >&2; exit 2; }

score_of() { sed -n 's/^# score: //p'; }

# mean min q1 median q3 max of the numbers on stdin
summary() {
  sort -n | awk '{ v[NR] = $1; s += $1 }
    END { if (NR == 0) exit;
          printf "n %d  mean %.0f  min %d  q1 %d  median %d  q3 %d  max %d\n",
                 NR, s / NR, v[1], v[int((NR + 3) / 4)], v[int((NR + 1) / 2)],
                 v[int((3 * NR + 1) / 4)], v[NR] }'
}

run_set() { # ALGO-ARGS SECONDS THREADS RULES FILE
  { "$PSOLVE" $1 --time "$2" --threads "$3" --seed "$SEED" --quiet \
      --rules "$4" "$5" || true; } | score_of
}

# the PopStar boards with seeds FIRST..LAST into DIR/SEED.txt
popstar_boards() { # DIR FIRST LAST
  for s in $(seq "$2" "$3"); do
    "$PSOLVE" gen --rows 10 --cols 10 --colors 5 --seed "$s" > "$1/$s.txt"
  done
}

popstar() {
  local secs=$1 boards=${2:-50} threads=${3:-2}
  local dir
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  popstar_boards "$dir" 1 "$boards"
  local algos=${ALGOS:-"--algo mc;--algo nmcs --level 2;--algo nrpa --level 3 --iterations 30"}
  IFS=';' read -ra sets <<< "$algos"
  for a in "${sets[@]}"; do
    local scores=""
    for s in $(seq 1 "$boards"); do
      scores+="$(run_set "$a" "$secs" "$threads" popstar "$dir/$s.txt") "
    done
    echo "popstar 10x10x5 [$a] ${secs}s ${threads} threads: $scores"
    echo "  $(echo "$scores" | tr ' ' '\n' | grep . | summary)"
  done
}

popstar_width() {
  local width=$1 first=${2:-101} last=${3:-200}
  local dir scores=""
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  popstar_boards "$dir" "$first" "$last"
  for s in $(seq "$first" "$last"); do
    scores+="$("$PSOLVE" --algo beam --beam-width "$width" --threads 1 \
      --quiet --rules popstar ${BEAM_ARGS:-} "$dir/$s.txt" | score_of) "
  done
  echo "popstar 10x10x5 [--beam-width $width${BEAM_ARGS:+ $BEAM_ARGS}] boards $first-$last, 1 thread: $scores"
  echo "  $(echo "$scores" | tr ' ' '\n' | grep . | summary)"
}

standard() {
  local secs=$1 first=${2:-1} last=${3:-20} threads=${4:-2}
  local algos=${ALGOS:-"--algo nmcs --level 1;--algo nrpa --level 3 --iterations 30"}
  IFS=';' read -ra sets <<< "$algos"
  for a in "${sets[@]}"; do
    local total=0 n=0 line=""
    for p in $(seq -f '%02g' "$first" "$last"); do
      local sc
      sc=$(run_set "$a" "$secs" "$threads" samegame "games/samegame/standard/$p.txt")
      line+=" $p:$sc"
      total=$((total + sc))
      n=$((n + 1))
    done
    echo "standard [$a] ${secs}s ${threads} threads:$line"
    echo "  positions $n  total $total  mean $((total / n))"
  done
}

# CPU seconds are printed too: on a shared machine, 2 threads get less
# than 2 cores, and playouts per CPU second show whether the threads scale.
speed() {
  local secs=${1:-3}
  for t in 1 2; do
    local out cpu
    out=$({ /usr/bin/time -f "cpu: %U %S" "$PSOLVE" --algo nmcs --level 1 \
      --time "$secs" --threads "$t" --quiet games/samegame/standard/01.txt \
      2>&1 || true; } | tr '\n' ' ')
    echo "$t $out"
  done | awk '{ for (i = 2; i < NF; i++) { if ($i == "playouts:") p = $(i + 1)
                                          if ($i == "seconds:") s = $(i + 1)
                                          if ($i == "cpu:") c = $(i + 1) + $(i + 2) }
               r[$1] = p / s
               printf "threads %d: %.0f playouts/s, %.0f per CPU second, %.2f CPU s per s (15x15 position 1, nmcs level 1, tabu)\n",
                      $1, r[$1], p / c, c / s }
              END { printf "scaling 2 threads / 1 thread: %.2f\n", r[2] / r[1] }'
}

case ${1:-} in
popstar) shift; popstar "$@" ;;
popstar-width) shift; popstar_width "$@" ;;
standard) shift; standard "$@" ;;
speed) shift; speed "$@" ;;
*) sed -n '2,20p' "$0" >&2; exit 2 ;;
esac
