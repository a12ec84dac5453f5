#!/usr/bin/env python3
"""Tune SameGame's weighted beam evaluation (beam --beam-weights) by the
cross-entropy method, on generated boards only (never the standard
positions).

Each candidate is a set of weights; its fitness is the total score of
fixed-width beams (deterministic: --beam-width W, no --time, one thread)
over the training boards `psolve gen --game samegame --rows R --cols C
--colors K --seed S`. Each generation samples POP candidates from a normal
distribution per weight, keeps the ELITE best, and moves the distribution
to them (smoothed). Prints every generation's best and the mean weights, and
at the end the --beam-weights spec of the best candidate seen.

  scripts/tune_beam_eval.py [--psolve build/psolve] [--seeds 9001-9030]
      [--width 150] [--pop 20] [--elite 5] [--gens 10] [--jobs 2]
      [--size 15x15x5] [--seed 1]
  scripts/tune_beam_eval.py --check SPEC [--seeds ...] [--width ...]
      no tuning: today's evaluation against --beam-weights SPEC on the
      boards (totals, wins and losses), e.g. on boards not tuned on.

The weights (names, defaults) come from `psolve list`-independent data:
the table below mirrors games/samegame/weighted.h's sg_eval_weights.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# name, start mean, start spread, lower, upper
WEIGHTS = [
    ("groups", 1.0, 0.3, 0.0, 4.0),
    ("join_top", 1.0, 0.3, 0.0, 4.0),
    ("share_top", 0.75, 0.25, 0.0, 2.0),
    ("join_second", 1.0, 0.3, 0.0, 4.0),
    ("share_second", 1.0, 0.25, 0.0, 2.0),
    ("join_other", 1.0, 0.3, 0.0, 4.0),
    ("share_other", 1.0, 0.25, 0.0, 2.0),
    ("loose", 2.0, 1.0, -5.0, 10.0),
    ("dead", 0.0, 2.0, -10.0, 20.0),
    ("alive", 0.0, 2.0, -20.0, 20.0),
    ("pieces", 0.0, 0.5, -5.0, 5.0),
]


def spec(w):
    return ",".join("%s=%.4f" % (n[0], v) for n, v in zip(WEIGHTS, w))


def score(psolve, board, width, weights):
    cmd = [psolve, "--game", "samegame", "--algo", "beam", "--threads", "1",
           "--beam-width", str(width), "--json", board]
    if weights is not None:
        cmd[5:5] = ["--beam-weights", spec(weights)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    text = out.stdout
    at = text.index('"score":') + len('"score":')
    return int(text[at:text.index(",", at)])


def fitness(pool, psolve, boards, width, weights):
    return sum(pool.map(lambda b: score(psolve, b, width, weights), boards))


def check(a, boards):
    weights = [dict(kv.split("=") for kv in a.check.split(","))
               .get(n[0], n[1]) for n in WEIGHTS]
    weights = [float(x) for x in weights]
    with ThreadPoolExecutor(a.jobs) as pool:
        old = list(pool.map(lambda b: score(a.psolve, b, a.width, None),
                            boards))
        new = list(pool.map(lambda b: score(a.psolve, b, a.width, weights),
                            boards))
    wins = sum(n > o for o, n in zip(old, new))
    losses = sum(n < o for o, n in zip(old, new))
    print("width %d, %d boards: today's %d, weighted %d (%+.1f%%), "
          "%d wins, %d losses" % (a.width, len(boards), sum(old), sum(new),
                                  100.0 * (sum(new) - sum(old)) / sum(old),
                                  wins, losses))


def seeds_of(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--psolve", default="build/psolve")
    ap.add_argument("--seeds", default="9001-9030")
    ap.add_argument("--size", default="15x15x5")
    ap.add_argument("--width", type=int, default=150)
    ap.add_argument("--pop", type=int, default=20)
    ap.add_argument("--elite", type=int, default=5)
    ap.add_argument("--gens", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", metavar="SPEC")
    a = ap.parse_args()
    rows, cols, colours = a.size.split("x")
    tmp = tempfile.mkdtemp(prefix="tune_beam_eval.")
    boards = []
    for s in seeds_of(a.seeds):
        path = os.path.join(tmp, "%d.txt" % s)
        with open(path, "w") as f:
            subprocess.run([a.psolve, "gen", "--game", "samegame", "--rows",
                            rows, "--cols", cols, "--colors", colours,
                            "--seed", str(s)], stdout=f, check=True)
        boards.append(path)
    if a.check:
        return check(a, boards)
    rng = random.Random(a.seed)
    mean = [w[1] for w in WEIGHTS]
    sd = [w[2] for w in WEIGHTS]
    with ThreadPoolExecutor(a.jobs) as pool:
        base = fitness(pool, a.psolve, boards, a.width, None)
        print("today's evaluation: %d" % base, flush=True)
        best, best_w = fitness(pool, a.psolve, boards, a.width, mean), mean
        print("start weights: %d  %s" % (best, spec(mean)), flush=True)
        for gen in range(a.gens):
            cands = [mean]  # the mean itself, so no generation forgets it
            for _ in range(a.pop - 1):
                cands.append([min(max(rng.gauss(m, s), w[3]), w[4])
                              for m, s, w in zip(mean, sd, WEIGHTS)])
            scored = sorted(((fitness(pool, a.psolve, boards, a.width, c), c)
                             for c in cands), key=lambda x: -x[0])
            elite = [c for _, c in scored[:a.elite]]
            if scored[0][0] > best:
                best, best_w = scored[0]
            for k in range(len(WEIGHTS)):
                vals = [c[k] for c in elite]
                m = sum(vals) / len(vals)
                v = sum((x - m) ** 2 for x in vals) / len(vals)
                mean[k] = 0.7 * m + 0.3 * mean[k]
                sd[k] = max(0.7 * v ** 0.5 + 0.3 * sd[k], 0.02 * WEIGHTS[k][2])
            print("gen %d: best %d, elite mean %.0f; best so far %d" %
                  (gen + 1, scored[0][0],
                   sum(x for x, _ in scored[:a.elite]) / a.elite, best),
                  flush=True)
            print("  mean %s" % spec(mean), flush=True)
    print("best %d (today's %d, %+.1f%%)" % (best, base,
                                             100.0 * (best - base) / base))
    print("--beam-weights %s" % spec(best_w))


if __name__ == "__main__":
    sys.exit(main())
