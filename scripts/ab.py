"""A/B throughput of two source trees in one run: the engine of a git ref (default main) against
the working tree, interleaved runs on one thread, best of N each: rounds/s and games/s of the
baseline (and of `threshold`, the search player's rollout player, with --policies), and the
search player's decisions per second (--search).

    python scripts/ab.py                         # main vs the working tree
    python scripts/ab.py --ref 56b9f30 --repeats 7 --rounds 2000000
    python scripts/ab.py --policies baseline,threshold --search 64,256 --clock cpu

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
import hashlib, json, sys, time
import numba
numba.set_num_threads(1)
import numpy as np
from kernels import batch, cards
import os, analyzer
# The policy registry's module in this tree: analyzer/rules/ since issue 24, analyzer/ before.
# (Not try/except ImportError: an editable install of a newer tree would answer that import.)
if os.path.isdir(os.path.join(os.path.dirname(analyzer.__file__), "rules")):
    from analyzer.rules.policies import policy_arrays, rollout_arrays, seat_policies
else:
    from analyzer.rules.policies import policy_arrays, rollout_arrays, seat_policies
rounds, games, configs = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
cpu_clock = len(sys.argv) > 4 and sys.argv[4] == "cpu"
out = {}
for exp, players, policy in configs:
    deck = cards.deck_types(exp)
    pk, pp = policy_arrays(seat_policies([policy], players))
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
        run()                       # untimed: loading the compiled kernels from the cache
        t = clock(); run(); dt = clock() - t
        key = f"{exp} {players}p {kind}" + ("" if policy == "baseline" else f" {policy}")
        out[key] = [n / dt, hashlib.sha1(buf.tobytes()).hexdigest()]
print(json.dumps(out))
"""

# One measurement of the search player: decisions per second of seat 0 against baseline (the
# deciding thread's CPU time, decision_times of scripts/search_study.py), and a digest of the
# actions.
SEARCH_PROBE = r"""
import json, sys
import numba
numba.set_num_threads(1)
sys.path.insert(0, "scripts")
from search_study import decision_times
rounds, budgets, players = int(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
out = {}
for samples in budgets:
    for n in players:
        r = decision_times(f"search(samples={samples})", n, rounds, 2026)
        out[f"search(samples={samples}) {n}p decisions"] = [r["decisions_per_second"],
                                                             r["decisions"]]
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


def _probe(tree: pathlib.Path, code: str, *args: str) -> dict:
    """Run a probe in a fresh process on one pinned CPU with `tree` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    cmd = ["taskset", "-c", os.environ.get("AB_CPU", "1")] if shutil.which("taskset") else []
    res = subprocess.run(cmd + [sys.executable, "-c", code, *args],
                         env=env, cwd=tree, check=True, capture_output=True, text=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def measure(tree: pathlib.Path, rounds: int, games: int, configs, clock: str = "wall") -> dict:
    """{configuration: [rounds or games per second, digest of the counters]}."""
    return _probe(tree, PROBE, str(rounds), str(games), json.dumps(configs), clock)


def measure_search(tree: pathlib.Path, rounds: int, budgets, players) -> dict:
    """{search configuration: [decisions per second (CPU), decisions made]}."""
    return _probe(tree, SEARCH_PROBE, str(rounds), json.dumps(budgets), json.dumps(players))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", default="main", help="git ref of side A (default main)")
    ap.add_argument("--tree", default=str(ROOT), help="side B: a source tree (default: this one)")
    ap.add_argument("--rounds", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--expansions", default="base,extra-salt")
    ap.add_argument("--policies", default="baseline",
                    help="bots in every seat, comma-separated (e.g. baseline,threshold)")
    ap.add_argument("--search", default="",
                    help="also the search player's decisions/s at these samples (e.g. 64,256)")
    ap.add_argument("--search-rounds", type=int, default=20)
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="time by the wall clock (an idle machine) or by the process's CPU time "
                         "(a loaded one: less disturbed, not undisturbed)")
    args = ap.parse_args()
    configs = [(e, int(p), pol) for pol in args.policies.split(",")
               for e in args.expansions.split(",") for p in args.players.split(",")]
    budgets = [int(b) for b in args.search.split(",") if b]
    players = [int(p) for p in args.players.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        a_tree = export(args.ref, pathlib.Path(tmp) / "a")
        b_tree = pathlib.Path(args.tree)
        sides = {"A": a_tree, "B": b_tree}
        for tree in sides.values():                     # warm-up: compile into each cache
            measure(tree, 10_000, 500, configs)
            if budgets:
                measure_search(tree, 1, budgets[:1], players[:1])
        best: dict[str, dict[str, float]] = {"A": {}, "B": {}}
        check: dict[str, dict[str, int]] = {"A": {}, "B": {}}
        for r in range(args.repeats):
            for side, tree in sides.items():
                found = measure(tree, args.rounds, args.games, configs, args.clock)
                if budgets:
                    found.update(measure_search(tree, args.search_rounds, budgets, players))
                for key, (rate, total) in found.items():
                    best[side][key] = max(best[side].get(key, 0.0), rate)
                    check[side][key] = total
            print(f"repeat {r + 1}/{args.repeats} done", file=sys.stderr)
    print(f"A = {args.ref}, B = {args.tree}; one thread, best of {args.repeats}, "
          f"{args.rounds:,} rounds / {args.games:,} games, {args.clock} clock; search: "
          f"{args.search_rounds} rounds of seat 0 against baseline, CPU time per decision")
    print(f"| configuration | A per s | B per s | B/A | same counters |")
    print("|---|---|---|---|---|")
    for key in best["A"]:
        a, b = best["A"][key], best["B"][key]
        same = "yes" if check["A"][key] == check["B"][key] else "NO"
        print(f"| {key} | {a:,.0f} | {b:,.0f} | {b / a:.3f} | {same} |")


if __name__ == "__main__":
    main()
