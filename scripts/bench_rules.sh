#!/usr/bin/env bash
# Playouts per second with the rules read from a Lua script beside the same
# rules built in (C presets), alternating in one run so both see the same
# machine load; prints the median ratio per board size. The script is read
# once at load, so the ratio should be 1 within noise.
#   scripts/bench_rules.sh [RULES] [ROUNDS] [SECONDS]
#   (defaults: samegame, 5 rounds, 1 s per size and run)
set -euo pipefail
cd "$(dirname "$0")/.."
rules=${1:-samegame}
rounds=${2:-5}
secs=${3:-1}
scripts/setup.sh build >/dev/null
out=build/bench_rules.txt
: > "$out"
# The script names its game; the preset needs it given.
game=$(build/psolve bench --rules "$rules" --seconds 0.01 | awk 'NR == 1 { print $1 }')
for ((i = 0; i < rounds; i++)); do
  for spec in "builtin:$rules" "$rules"; do
    build/psolve bench --game "$game" --rules "$spec" --seconds "$secs" |
      sed "s/^/$spec /" >> "$out"
  done
done
# Lines: SPEC GAME RxC N colours: P playouts/s, ...
awk -v rules="$rules" '
  { split($0, a, ": "); size = a[1]; sub(/^[^ ]+ [^ ]+ /, "", size); split(a[2], p, " ");
    if ($1 == rules) s[size] = s[size] " " p[1]; else b[size] = b[size] " " p[1]; }
  END {
    for (size in s) {
      n = split(s[size], x, " "); split(b[size], y, " ");
      for (i = 1; i <= n; i++) r[i] = x[i] / y[i];
      for (i = 2; i <= n; i++)  # insertion sort (mawk has no asort)
        for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t; }
      med = (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2;
      printf "%s %s: script/builtin playouts/s ratio median %.3f (min %.3f, max %.3f, %d rounds)\n",
        rules, size, med, r[1], r[n], n;
      delete r;
    }
  }' "$out"
