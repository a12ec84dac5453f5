#!/usr/bin/env bash
# Search the 20 standard SameGame positions and keep each line that beats
# its record in games/samegame/standard/best/NN.txt (docs/records.md).
#   scripts/records.sh [SECONDS [THREADS [ALGO [POSITION...]]]]
# defaults: 60 s, 2 threads, nrpa, every position (01..20). A record is
# psolve's own solution file with the command, the commit and the threads
# that found it added to its header; tests/test_records.c replays each one
# with `psolve verify`. Run from anywhere after a build (PSOLVE=path to use
# another binary).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
threads=${2:-2}
algo=${3:-nrpa}
shift 3 2>/dev/null || shift $#
positions=("$@")
[ ${#positions[@]} -gt 0 ] || positions=($(seq -w 1 20))
psolve=${PSOLVE:-build/psolve}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
mkdir -p games/samegame/standard/best
for n in "${positions[@]}"; do
  pos=games/samegame/standard/$n.txt
  best=games/samegame/standard/best/$n.txt
  cmd="psolve --algo $algo --time $seconds --threads $threads $pos"
  out=$(mktemp)
  "$psolve" --algo "$algo" --time "$seconds" --threads "$threads" "$pos" > "$out" 2>/dev/null || true
  new=$(sed -n 's/^# score: //p' "$out" | head -1)
  old=$( [ -f "$best" ] && sed -n 's/^# score: //p' "$best" | head -1 || echo -1)
  if [ -n "$new" ] && "$psolve" verify "$pos" "$out" >/dev/null && [ "$new" -gt "${old:--1}" ]; then
    # The header: psolve's two first lines, then how this line was found.
    { head -2 "$out"
      echo "# command: $cmd"
      echo "# commit: $commit"
      echo "# threads: $threads"
      echo "# found: $(date -u +%Y-%m-%d)"
      tail -n +3 "$out"; } > "$best"
    echo "$n: $new (was ${old})"
  else
    echo "$n: ${new:-none} (record ${old} kept)"
  fi
  rm -f "$out"
done
