#!/usr/bin/env bash
# The limits under stress: every algorithm, on the largest puzzles psolve
# accepts, first with --time 1, then with --max-memory 50 (and --time 1, so
# that exact searches end). Prints a table of wall time and peak RSS per run
# (GNU time, /usr/bin/time -v) and exits 1 when a limit is overshot:
#   wall time > --time + 0.1 s + START_ALLOWANCE (process start and exit:
#              loading a board and a rule script, freeing the tables)
#   peak RSS  > --max-memory + RSS_BASELINE (what --max-memory does not
#              count: the executable, its libraries, Lua, thread stacks,
#              the allocator's own overhead)
# A run over the time limit is repeated once (a loaded machine's scheduler
# can hold a process past its deadline) and the row says so; a second
# overshoot fails. Timing-based, so it is not part of ctest; run it on a
# quiet machine.
#   scripts/stress.sh [BUILD_DIR]      (docs/benchmarks.md has its table)
# Environment: PSOLVE_STRESS_START_ALLOWANCE (seconds, default 0.1),
# PSOLVE_STRESS_RSS_BASELINE (MiB, default 16), PSOLVE_STRESS_ALGOS (a
# space-separated subset of the algorithms, default all).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
# GNU time is the Debian package `time`; setup installs it when missing.
PSOLVE_EXTRA_PACKAGES="${PSOLVE_EXTRA_PACKAGES:-} time" scripts/setup.sh "$build"
psolve="$build/psolve"
start_allowance=${PSOLVE_STRESS_START_ALLOWANCE:-0.1}
rss_baseline=${PSOLVE_STRESS_RSS_BASELINE:-16}
seconds=1
memory=50
only=${PSOLVE_STRESS_ALGOS:-}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The largest inputs: SameGame 32x32 with 9 colours (the most rows, columns
# and colours a board may have), the same with min_group 1 (every cell a
# move: the most moves per position), Water Sort with 32 tubes of 16 (the
# most tubes and the largest capacity), the 6x6 sliding puzzle.
"$psolve" gen --game samegame --rows 32 --cols 32 --colors 9 --seed 1 \
  > "$work/samegame-32x32x9.txt"
"$psolve" gen --game watersort --colors 30 --tubes 32 --capacity 16 --seed 1 \
  > "$work/watersort-32x16.txt"
"$psolve" gen --game npuzzle --rows 6 --seed 1 > "$work/npuzzle-6x6.txt"

score_algos="greedy dfs beam beam-playout mc nmcs nrpa"
cost_algos="greedy dfs bfs astar wastar idastar"
# label | options | file | algorithms
cases=(
  "samegame 32x32x9||$work/samegame-32x32x9.txt|$score_algos"
  "samegame 32x32x9 min_group 1|--rules tests/data/stress/min_group_1.lua|$work/samegame-32x32x9.txt|$score_algos"
  "watersort 32 tubes x 16|--game watersort|$work/watersort-32x16.txt|$cost_algos"
  "npuzzle 6x6|--game npuzzle|$work/npuzzle-6x6.txt|$cost_algos"
)

# "h:mm:ss" or "m:ss.ss" into seconds
to_seconds() {
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<< "$1"
}

# run OUT_PREFIX ARGS...: sets wall (s), rss (MiB), rc
run() {
  local out=$1
  shift
  set +e
  /usr/bin/time -v -o "$out.time" "$psolve" --quiet "$@" > "$out.stdout" 2> "$out.stderr"
  rc=$?
  set -e
  wall=$(to_seconds "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out.time")")
  rss=$(awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$out.time")
}

# over A B: is A > B (decimals)?
over() {
  awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'
}

failures=0
max_wall=$(awk -v s=$seconds -v a="$start_allowance" 'BEGIN { printf "%.2f", s + 0.1 + a }')
max_rss=$((memory + rss_baseline))
printf '| input | algorithm | wall at --time %s (s) | peak RSS (MiB) | wall at --max-memory %s (s) | peak RSS at --max-memory %s (MiB) | peak_memory reported (MiB) | result |\n' \
  "$seconds" "$memory" "$memory"
printf '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n'
n=0
for c in "${cases[@]}"; do
  IFS='|' read -r label options file algos <<< "$c"
  for algo in $algos; do
    if [ -n "$only" ] && ! grep -qw -- "${algo%-playout}" <<< "$only"; then continue; fi
    n=$((n + 1))
    args=(--algo "${algo%-playout}")
    [ "$algo" = beam-playout ] && args+=(--beam-eval playout)
    # shellcheck disable=SC2206 # options are words on purpose
    opts=($options)
    verdict=ok
    # A run over the time limit is run once more: on a loaded machine the
    # scheduler, not psolve, may have held the process; the row says so.
    run "$work/t$n" "${opts[@]}" "${args[@]}" --time "$seconds" "$file"
    if over "$wall" "$max_wall"; then
      first=$wall
      run "$work/t$n" "${opts[@]}" "${args[@]}" --time "$seconds" "$file"
      verdict="ok (rerun; first $first s)"
    fi
    t_wall=$wall t_rss=$rss t_rc=$rc
    run "$work/m$n" "${opts[@]}" "${args[@]}" --time "$seconds" --max-memory "$memory" "$file"
    if over "$wall" "$max_wall"; then
      first=$wall
      run "$work/m$n" "${opts[@]}" "${args[@]}" --time "$seconds" --max-memory "$memory" "$file"
      verdict="ok (rerun; first $first s)"
    fi
    m_wall=$wall m_rss=$rss m_rc=$rc
    peak=$(awk '/^# peak_memory:/ { printf "%.1f", $3 / 1048576 }' "$work/m$n.stdout")
    for r in $t_rc $m_rc; do
      # 0 solved, 3 proven unsolvable, 4 stopped by a limit; anything else
      # (an error, a crash) fails the run.
      case $r in 0|3|4|5) ;; *) verdict="exit $r"; failures=$((failures + 1)) ;; esac
    done
    if over "$t_wall" "$max_wall" || over "$m_wall" "$max_wall"; then
      verdict="TIME over $max_wall s"
      failures=$((failures + 1))
    fi
    if over "$m_rss" "$max_rss"; then
      verdict="RSS over $max_rss MiB"
      failures=$((failures + 1))
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$algo" \
      "$t_wall" "$t_rss" "$m_wall" "$m_rss" "${peak:--}" "$verdict"
  done
done
echo
echo "limits: wall <= $seconds + 0.1 + $start_allowance s; RSS at --max-memory $memory <= $max_rss MiB" \
  "($memory + a baseline of $rss_baseline MiB); $n inputs x algorithms, $failures over"
[ "$failures" -eq 0 ]
