#!/usr/bin/env bash
# Build the libFuzzer harnesses (tests/fuzz, docs/fuzzing.md) with clang into
# build-fuzz, make their seed corpora from the shipped examples, and run each
# harness for SECONDS (default 60), one after another. Prints the executions
# of each harness; exits non-zero when a harness crashed, broke an oracle,
# timed out or ran out of memory, keeping the input in build-fuzz/crashes/.
#   scripts/fuzz.sh [SECONDS [HARNESS...]]
# Harnesses: parse solution rules search checkpoint import (default: all). Environment:
# PSOLVE_FUZZ_BUILD (default build-fuzz), CC (default clang).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(parse solution rules search checkpoint import)
case $seconds in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2;; esac
build=${PSOLVE_FUZZ_BUILD:-build-fuzz}
cc=${CC:-clang}
command -v "$cc" >/dev/null || { echo "fuzz.sh: $cc not found (apt-get install clang)" >&2; exit 2; }

# -O1 -g: fast enough to fuzz, with usable stacks; asserts stay on.
cmake -S . -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DPSOLVE_FUZZ=ON -DPSOLVE_TESTS=OFF >/dev/null
cmake --build "$build" --target fuzzers psolve -j"$(nproc)" >/dev/null
# draw_picture (the import harness's seeds) is a test program: built apart,
# uninstrumented, with the system compiler.
cmake -S . -B "$build/draw" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build/draw" --target draw_picture -j"$(nproc)" >/dev/null

# ---- seed corpora: a first byte picks the game (fuzz_support.h:
# 0 samegame, 1 watersort, 2 npuzzle, default rules), then the file ----
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{parse,solution,rules,search,checkpoint,import}
game_byte() { case $1 in samegame) printf '\000';; watersort) printf '\001';; npuzzle) printf '\002';; esac; }
boards() { # GAME: the shipped puzzle files of GAME
  case $1 in
    samegame) ls games/samegame/examples/*.txt games/samegame/standard/*.txt;;
    watersort) ls games/watersort/levels/*.txt;;
    npuzzle) ls tests/fuzz/corpus/npuzzle/*.txt;;
  esac
}
for game in samegame watersort npuzzle; do
  i=0
  for f in $(boards $game); do
    i=$((i + 1))
    name=$game-$(basename "$f" .txt)
    { game_byte $game; cat "$f"; } > "$seeds/parse/$name"
    # Searches and solutions on the small ones only: each input runs every
    # algorithm, and a few seeds of each game are enough to start from.
    [ "$(wc -c < "$f")" -le 200 ] && [ $i -le 8 ] || continue
    cp "$seeds/parse/$name" "$seeds/search/$name"
    { game_byte $game; cat "$f"; printf '\000'
      ASAN_OPTIONS=detect_leaks=0 "$build/psolve" solve --game $game --algo greedy \
        --max-nodes 20000 --quiet "$f" 2>/dev/null || true; } > "$seeds/solution/$name"
  done
done
cp scripts/rules/*.lua tests/fuzz/corpus/rules/*.lua "$seeds/rules/"
# Checkpoints: real ones of the harness's runs (fuzz_checkpoint.c: the 10x10
# example, or the 15-puzzle 15-36 for dfs; one thread, seed 3), each as the
# run's byte and the payload after the key (the header is 240 bytes, then
# the key's length and text).
i=0
for run in "nrpa --level 1" "nmcs --level 1" "beam --beam-width 10" "dfs"; do
  algo=${run%% *}
  board=games/samegame/examples/samegame-10x10.txt
  [ "$algo" = dfs ] && board=games/npuzzle/examples/15-36.txt
  for nodes in 300 3000 30000; do
    ck=$seeds/ck.bin
    # shellcheck disable=SC2086 # $run is the algorithm and its option
    ASAN_OPTIONS=detect_leaks=0 "$build/psolve" solve --algo $run \
      --threads 1 --seed 3 --max-nodes $nodes --quiet \
      --checkpoint "$ck" --checkpoint-every 0.001 \
      "$board" >/dev/null 2>&1 || true
    [ -s "$ck" ] || continue
    klen=$(od -An -t u8 -j 240 -N 8 "$ck" | tr -d ' ')
    { printf "\\$(printf %03o $i)"; tail -c +$((240 + 8 + klen + 1)) "$ck"; } \
      > "$seeds/checkpoint/$algo-$nodes"
    rm -f "$ck"
  done
  i=$((i + 1))
done

# Pictures: small boards and levels, PNG and JPEG, each read three ways
# (the first byte: either, a grid, tubes).
draw=$build/draw/tests/draw_picture
i=0
for args in "board 5 5 3 12 1" "board 6 8 4 10 2" "tubes 3 4 3"; do
  for ext in png jpg; do
    "$draw" $args "$seeds/pic.$ext"
    { printf "\\$(printf %03o $((i % 3)))"; cat "$seeds/pic.$ext"; } > "$seeds/import/pic-$i.$ext"
    i=$((i + 1))
  done
done
rm -f "$seeds"/pic.*

# ---- run ----
crashes=$build/crashes
mkdir -p "$crashes"
status=0
printf '%-10s %12s %8s %8s  %s\n' harness executions exec/s corpus result
for h in "${harnesses[@]}"; do
  bin=$build/tests/fuzz/fuzz_$h
  [ -x "$bin" ] || { echo "fuzz.sh: no harness '$h' (parse solution rules search checkpoint import)" >&2; exit 2; }
  corpus=$build/corpus/$h
  mkdir -p "$corpus"
  log=$build/fuzz_$h.log
  # Inputs take well under a second. A rule script stuck in one C call (a
  # pathological string pattern) would run to the sandbox's 10 s bound and
  # end the process (hook at 9 s, watchdog at 10 s); 8 s keeps it as a
  # timeout input instead.
  timeout=10
  [ "$h" = rules ] && timeout=8
  rc=0
  nice "$bin" -max_total_time="$seconds" -print_final_stats=1 -timeout=$timeout \
    -rss_limit_mb=2048 -max_len="$([ "$h" = import ] && echo 65536 || echo 8192)" -artifact_prefix="$crashes/$h-" \
    "$corpus" "$seeds/$h" > "$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  # A timeout or out-of-memory exit prints no final stats: the last status
  # line ("#N ... exec/s: R") still says how far it got.
  if [ -z "$execs" ]; then
    execs=$(sed -n 's/^#\([0-9]*\)[^0-9].*/\1/p' "$log" | tail -1)
    rate=$(sed -n 's/^#[0-9].* exec\/s: \([0-9]*\).*/\1/p' "$log" | tail -1)
  fi
  units=$(find "$corpus" -type f | wc -l)
  if [ $rc -eq 0 ]; then
    result=ok
  else
    status=1
    artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
    result="FAILED (exit $rc${artifact:+, input $artifact}; log $log)"
  fi
  printf '%-10s %12s %8s %8s  %s\n' "$h" "${execs:-?}" "${rate:-?}" "$units" "$result"
done
if [ $status -ne 0 ]; then
  echo "fuzz.sh: a harness failed; reproduce with $build/tests/fuzz/fuzz_HARNESS INPUT" \
       "(crash inputs in $crashes/)" >&2
fi
exit $status
