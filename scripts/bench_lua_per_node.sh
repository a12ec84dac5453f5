#!/usr/bin/env bash
# What a Lua callback per search node would cost (docs/rules.md, "Speed"):
# SameGame playouts ordering moves in C, in Lua's order(gains), and with a
# Lua heuristic(state) per node, in one run.
#   scripts/bench_lua_per_node.sh [SECONDS]   (default 1 per mode)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-1}
scripts/setup.sh build >/dev/null
cc -O2 -std=c11 -Iframework $(pkg-config --cflags lua5.4) \
  scripts/bench/lua_per_node.c build/libpsolve_core.a \
  $(pkg-config --libs lua5.4) -lm -lpthread -o build/lua_per_node
build/lua_per_node "$secs"
