#!/usr/bin/env bash
# How long psolve import takes on a phone screenshot (docs/import.md): draws a
# 1080x2400 PopStar-like picture (PNG and JPEG) with build/tests/draw_picture,
# then times the whole `psolve import` process ROUNDS times (default 9),
# alternating the two files, and prints the median wall and CPU seconds.
#   scripts/bench-import.sh [ROUNDS [BUILD_DIR]]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
build=${2:-build}
case $rounds in ''|*[!0-9]*) echo "bench-import.sh: ROUNDS must be a whole number" >&2; exit 2;; esac
cmake --build "$build" --target psolve draw_picture >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tests/draw_picture" board 10 10 5 104 42 "$tmp/phone.png" phone
"$build/tests/draw_picture" board 10 10 5 104 42 "$tmp/phone.jpg" phone
for ((i = 0; i < rounds; i++)); do
  for f in png jpg; do
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$build/psolve" import "$tmp/phone.$f" >/dev/null
    echo "$f $(cat "$tmp/t")" >> "$tmp/times"
  done
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
printf '%-5s %10s %10s %10s\n' file wall_s user_s sys_s
for f in png jpg; do
  printf '%-5s %10s %10s %10s\n' "$f" \
    "$(awk -v f=$f '$1 == f {print $2}' "$tmp/times" | median)" \
    "$(awk -v f=$f '$1 == f {print $3}' "$tmp/times" | median)" \
    "$(awk -v f=$f '$1 == f {print $4}' "$tmp/times" | median)"
done
