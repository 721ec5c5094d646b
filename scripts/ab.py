"""A/B throughput of two source trees in one run: the engine of a git ref (default main) against
the working tree, baseline player, interleaved runs on one thread, best of N each.

    python scripts/ab.py                         # main vs the working tree
    python scripts/ab.py --ref 56b9f30 --repeats 7 --rounds 2000000

The ref is exported with `git archive` into a temporary directory; each measurement is a fresh
subprocess with that tree first on sys.path (its own numba cache: kernels.ENGINE_HASH), warmed
up once, so both sides compile before timing. Runs alternate A, B, A, B ... so that a change in
the machine's load hits both sides alike. Wall clock: run it on an otherwise idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]

# One measurement: rounds/s and games/s of the baseline on one thread, for each configuration.
PROBE = r"""
import json, sys, time
import numba
numba.set_num_threads(1)
import numpy as np
from kernels import batch, cards
from analyzer.policies import policy_arrays, seat_policies
rounds, games, configs = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
cpu_clock = len(sys.argv) > 4 and sys.argv[4] == "cpu"
out = {}
for exp, players in configs:
    deck = cards.deck_types(exp)
    pk, pp = policy_arrays(seat_policies(["baseline"], players))
    for kind, n in (("rounds", rounds), ("games", games)):
        if kind == "rounds":
            nb = -(-n // batch.ROUND_BLOCK)
            buf = np.zeros((nb, batch.R_SIZE), dtype=np.int64)
            run = lambda: batch.run_rounds(players, deck, n, pk, pp, np.uint64(1), 0, buf)
        else:
            nb = -(-n // batch.GAME_BLOCK)
            buf = np.zeros((nb, batch.G_SIZE), dtype=np.int64)
            run = lambda: batch.run_games(players, deck, n, 40, pk, pp, np.uint64(1), 0, buf)
        clock = time.process_time if cpu_clock else time.perf_counter
        t = clock(); run(); dt = clock() - t
        out[f"{exp} {players}p {kind}"] = [n / dt, int(buf.sum())]
print(json.dumps(out))
"""


def export(ref: str, into: pathlib.Path) -> pathlib.Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True,
                          capture_output=True).stdout
    into.mkdir(parents=True, exist_ok=True)
    tar = into / "src.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into


def measure(tree: pathlib.Path, rounds: int, games: int, configs, clock: str = "wall") -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    cmd = ["taskset", "-c", os.environ.get("AB_CPU", "1")] if shutil.which("taskset") else []
    res = subprocess.run(cmd + [sys.executable, "-c", PROBE, str(rounds), str(games),
                                json.dumps(configs), clock],
                         env=env, cwd=tree, check=True, capture_output=True, text=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", default="main", help="git ref of side A (default main)")
    ap.add_argument("--tree", default=str(ROOT), help="side B: a source tree (default: this one)")
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--expansions", default="base,extra-salt")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="time by the wall clock (an idle machine) or by the process's CPU time "
                         "(a loaded one: less disturbed, not undisturbed)")
    args = ap.parse_args()
    configs = [(e, int(p)) for e in args.expansions.split(",") for p in args.players.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        a_tree = export(args.ref, pathlib.Path(tmp) / "a")
        b_tree = pathlib.Path(args.tree)
        sides = {"A": a_tree, "B": b_tree}
        for tree in sides.values():                     # warm-up: compile into each cache
            measure(tree, 10_000, 500, configs)
        best: dict[str, dict[str, float]] = {"A": {}, "B": {}}
        check: dict[str, dict[str, int]] = {"A": {}, "B": {}}
        for r in range(args.repeats):
            for side, tree in sides.items():
                for key, (rate, total) in measure(tree, args.rounds, args.games, configs,
                                                  args.clock).items():
                    best[side][key] = max(best[side].get(key, 0.0), rate)
                    check[side][key] = total
            print(f"repeat {r + 1}/{args.repeats} done", file=sys.stderr)
    print(f"A = {args.ref}, B = {args.tree}; baseline, one thread, best of {args.repeats}, "
          f"{args.rounds:,} rounds / {args.games:,} games, {args.clock} clock")
    print(f"| configuration | A per s | B per s | B/A | same counters |")
    print("|---|---|---|---|---|")
    for key in best["A"]:
        a, b = best["A"][key], best["B"][key]
        same = "yes" if check["A"][key] == check["B"][key] else "NO"
        print(f"| {key} | {a:,.0f} | {b:,.0f} | {b / a:.3f} | {same} |")


if __name__ == "__main__":
    main()
