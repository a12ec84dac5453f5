#!/usr/bin/env bash
# Is beam's end game already optimal on PopStar? For each generated 10x10x5
# board: beam's line at a fixed width (one thread, deterministic), then the
# exact dfs from the first position of that line with at most CELLS cells
# left; the line's own score from there is compared with the dfs's.
#
#   scripts/bench_endgame.sh WIDTH CELLS [FIRST LAST] [DFS_SECONDS]
#       defaults: boards 101..110 (not the test boards 1..50), dfs 20 s.
#
# One line per board (beam total, score so far at the cut, the line's rest,
# the dfs's rest and status) and how many end games the dfs improved.
# Environment: PSOLVE (default build/psolve).
set -eu
cd "$(dirname "$0")/.."
PSOLVE=${PSOLVE:-build/psolve}
[ -x "$PSOLVE" ] || { echo "build psolve first ($PSOLVE)" >&2; exit 2; }
[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
width=$1 cells=$2 first=${3:-101} last=${4:-110} secs=${5:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

improved=0 boards=0
for s in $(seq "$first" "$last"); do
  "$PSOLVE" gen --rows 10 --cols 10 --colors 5 --seed "$s" > "$dir/board.txt"
  "$PSOLVE" --algo beam --beam-width "$width" --threads 1 --quiet \
    --rules popstar "$dir/board.txt" > "$dir/line.txt"
  total=$(sed -n 's/^# score: //p' "$dir/line.txt")
  # verify --show prints each board after "move N: ... score so far S)";
  # keep the first with at most $cells cells, and the score before it.
  "$PSOLVE" verify --show --rules popstar "$dir/board.txt" "$dir/line.txt" |
    awk -v max="$cells" -v out="$dir/end.txt" '
      /^move [0-9]+:/ { so = $0; sub(/.*score so far /, "", so)
                        sub(/\).*/, "", so); n = 0; left = 0; next }
      /^[.1-9]+$/ && so != "" { row[++n] = $0; t = $0; gsub(/\./, "", t)
                        left += length(t)
                        if (left <= max && n == 10) {
                          for (i = 1; i <= n; i++) print row[i] > out
                          print so; exit } }' > "$dir/so.txt"
  boards=$((boards + 1))
  if [ ! -s "$dir/so.txt" ]; then
    echo "board $s: beam $total, never $cells cells or fewer"
    continue
  fi
  so=$(cat "$dir/so.txt")
  out=$({ "$PSOLVE" --algo dfs --time "$secs" --quiet --rules popstar \
           "$dir/end.txt" || true; })
  dfs=$(echo "$out" | sed -n 's/^# score: //p')
  status=$(echo "$out" | sed -n 's/^# status: //p')
  rest=$((total - so))
  [ "$dfs" -gt "$rest" ] && improved=$((improved + 1))
  echo "board $s: beam $total, $so after the cut, rest $rest; dfs rest $dfs ($status)"
done
echo "end games improved by the dfs: $improved of $boards (width $width, <= $cells cells)"
