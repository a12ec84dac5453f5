#!/bin/sh
# behaviour_snapshot.sh - runs a fixed set of psolve commands (every
# algorithm, every game including a Lua game, text/--json/--csv output,
# fixed seeds and node budgets, no time limits) and prints their stdout,
# exit statuses and stderr with times masked, so two builds can be compared:
#   scripts/behaviour_snapshot.sh OLD/psolve > old.txt
#   scripts/behaviour_snapshot.sh NEW/psolve > new.txt; diff old.txt new.txt
# Run it from the repository root.
P=${1:-build/psolve}
# The baseline is best run where it was built (it finds scripts/rules from
# there): scripts/behaviour_snapshot.sh /work/main/build/psolve
SG=games/samegame/examples/samegame-5x5.txt
SG7=games/samegame/examples/samegame-7x7-4c.txt
SG10=games/samegame/examples/samegame-10x10.txt
WS=$(ls games/watersort/levels/*.txt 2>/dev/null | head -1)
NP=games/npuzzle/examples/8-hardest.txt
NPU=games/npuzzle/examples/8-unsolvable.txt
mask() {
    # times, rates and memory-dependent numbers
    sed -E -e 's/[0-9]+(\.[0-9]+)?( ?)(s|ms|us)\b/T\2\3/g' \
        -e 's/"(seconds|time|rate|playouts_per_second|nodes_per_second|time_to_best)":[-0-9.e+]+/"\1":T/g' \
        -e 's/[0-9]+\.[0-9]+/N.N/g' -e 's/ +/ /g' -e 's|/work/[^/ ]*/|ROOT/|g'
}
run() {
    echo "=== $*"
    "$P" "$@" >/tmp/snap.out.$$ 2>/tmp/snap.err.$$
    echo "exit $?"
    mask </tmp/snap.out.$$
    echo "--- stderr"
    mask </tmp/snap.err.$$ | sed "s|^$P:|psolve:|" | head -5
}
run --quiet --algo greedy $SG
run --quiet --algo dfs --max-nodes 200000 $SG
run --quiet --algo dfs --candidates 3 --max-depth 20 --no-memo --max-nodes 100000 $SG7
run --quiet --algo dfs:no-bound --max-nodes 50000 $SG
run --quiet --algo mc --rollouts 20 --topk 3 --select max --seed 5 --threads 1 --max-nodes 200000 $SG7
run --quiet --algo nmcs --level 1 --seed 3 --threads 1 --max-nodes 200000 $SG7
run --quiet --algo nrpa --level 2 --iterations 10 --seed 3 --threads 1 --max-nodes 300000 $SG7
run --quiet --algo nrpa --level 2 --iterations 8 --stabilise 2 --keep-best 1 --seed 4 --threads 1 --max-nodes 300000 $SG7
run --quiet --algo beam --beam-width 20 --threads 1 $SG10
run --quiet --algo beam --beam-width 10 --beam-eval playout --seed 2 --threads 1 $SG7
run --quiet --algo beam --beam-width 10 --beam-endgame 2000 --threads 1 $SG7
run --quiet --json --algo greedy,dfs,beam --max-nodes 100000 --threads 1 $SG
run --quiet --csv --algo greedy,mc:rollouts=10,nmcs:level=1,nrpa:level=1:iterations=5 --seed 2 --threads 1 --max-nodes 100000 $SG7
run --quiet --rules popstar --algo greedy,beam:beam-width=8 --threads 1 $SG7
run --quiet --game npuzzle --algo bfs,astar,idastar,wastar,greedy,dfs --max-nodes 2000000 $NP
run --quiet --game npuzzle --algo astar --heuristic zero,misplaced,manhattan --csv $NP
run --quiet --game npuzzle --algo wastar --weight 3 --json $NP
run --quiet --game npuzzle --algo wastar:w=1.5,astar:h=linear-conflict,idastar --layers $NP
run --quiet --game npuzzle --algo astar --trace 5 games/npuzzle/examples/3x3-goal.txt
run --quiet --game npuzzle --algo bfs $NPU
[ -n "$WS" ] && run --quiet --game watersort --algo bfs,astar,idastar,dfs,greedy --max-nodes 500000 $WS
[ -n "$WS" ] && run --quiet --game watersort --json --algo astar $WS
run --quiet --game games/lua/hanoi.lua --algo bfs,astar,idastar games/lua/hanoi-4.txt
run --quiet --game games/lua/lightsout.lua --algo bfs --json games/lua/lightsout-3x3.txt
run --quiet --game games/lua/river.lua --algo dfs,bfs games/lua/river-3.txt
run --quiet lab --algo greedy,dfs --max-nodes 20000 games/samegame/examples
run --quiet lab --csv --game npuzzle --algo astar,idastar --jobs 2 games/npuzzle/examples/8-hardest.txt games/npuzzle/examples/3x3-goal.txt
run --quiet lab --json --game npuzzle --algo astar games/npuzzle/examples/8-hardest.txt games/npuzzle/examples/3x3-goal.txt
"$P" --quiet --algo greedy $SG > ${TMPDIR:-/tmp}/psolve-snap.sol 2>/dev/null
run verify $SG ${TMPDIR:-/tmp}/psolve-snap.sol
run verify --json $SG ${TMPDIR:-/tmp}/psolve-snap.sol
run show $SG
run show --game npuzzle $NP
run gen --game samegame --rows 6 --cols 7 --colors 3 --seed 7
run gen --game watersort --colors 4 --tubes 6 --capacity 4 --seed 3
run gen --game npuzzle --rows 3 --moves 10 --seed 2
run gen --seed 9
run list
run --version
run --algo nosuch $SG
run --algo nrpa:nosuch=1 $SG
run --tme 3 $SG
run --level x $SG
run --max-nodes 0 $SG
run --time -1 $SG
run gen --rows 0
run --level 0 --algo nmcs --threads 1 --max-nodes 1000 $SG
run --beam-width 0 --algo beam --threads 1 $SG
run --algo nrpa:stabilise=2 --threads 1 --max-nodes 1000 $SG
run --help
rm -f /tmp/snap.out.$$ /tmp/snap.err.$$ ${TMPDIR:-/tmp}/psolve-snap.sol
