"""Speed of seasalt's engine against the C yardstick (scripts/csim/seasalt_sim.c, issue 29):
baseline player, base game, independent rounds with seat 0 starting, one thread each,
interleaved C, seasalt, C, seasalt ... best of N repeats.

    python scripts/csim/compare.py                       # from a checkout's root
    python scripts/csim/compare.py --rounds 2000000 --repeats 5 --players 2,3,4

The C file is built with `gcc -O3 -march=native` into a temporary directory. Each C run is a fresh
process; its rounds/s is its own timing of the simulation loop. Seasalt runs in this process on
one numba thread (numba.set_num_threads(1)) through kernels.batch.run_rounds, as scripts/ab.py
measures it, after one warm-up run per player count (the first compile takes a minute); its
rounds/s is the wall time of the run_rounds call. The STOP rates of both sides are printed as a
sanity check that they simulate the same thing. Wall clock: run it on an otherwise idle machine;
interleaving makes a change of load hit both sides alike.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SOURCE = HERE / "seasalt_sim.c"


def build(into: pathlib.Path) -> pathlib.Path:
    """Compile the C simulator with the reference build line; the path of the binary."""
    gcc = shutil.which("gcc")
    if gcc is None:
        sys.exit("compare.py: gcc not found")
    binary = into / "sim"
    subprocess.run([gcc, "-O3", "-march=native", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def run_c(binary: pathlib.Path, players: int, rounds: int, seed: int, cpu: int | None) -> dict:
    """One C run: its JSON line (rounds_per_second, stop, ...)."""
    cmd = [str(binary), str(players), str(rounds), str(seed)]
    pin = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
    res = subprocess.run(cmd, check=True, capture_output=True, text=True, preexec_fn=pin)
    return json.loads(res.stdout.strip().splitlines()[-1])


class Seasalt:
    """seasalt's batch driver on one numba thread, baseline in every seat, base game."""

    def __init__(self) -> None:
        sys.path.insert(0, str(ROOT))
        import numba
        numba.set_num_threads(1)
        import numpy as np
        from kernels import batch, cards
        from kernels.state import END_STOP
        from analyzer.rules.policies import policy_arrays, seat_policies
        self.np, self.batch, self.end_stop = np, batch, END_STOP
        self.deck = cards.deck_types("base")
        self.policy_arrays, self.seat_policies = policy_arrays, seat_policies

    def run(self, players: int, rounds: int, seed: int) -> dict:
        np, batch = self.np, self.batch
        pk, pp = self.policy_arrays(self.seat_policies(["baseline"], players))
        blocks = -(-rounds // batch.ROUND_BLOCK)
        buf = np.zeros((blocks, batch.R_SIZE), dtype=np.int64)
        t = time.perf_counter()
        batch.run_rounds(players, self.deck, rounds, pk, pp, np.uint64(seed), 0, buf)
        dt = time.perf_counter() - t
        c = buf.sum(axis=0)
        return {"rounds_per_second": rounds / dt,
                "stop": int(c[batch.R_END + self.end_stop]) / rounds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2_000_000, help="rounds per run (default 2,000,000)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per side, best kept (default 5)")
    ap.add_argument("--players", default="2,4", help="player counts, comma-separated (default 2,4)")
    ap.add_argument("--cpu", type=int, default=None,
                    help="pin both sides to this CPU (default: no pinning)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first repeat (default 1)")
    args = ap.parse_args()
    players = [int(p) for p in args.players.split(",")]
    if any(p < 2 or p > 4 for p in players) or args.rounds < 1 or args.repeats < 1:
        sys.exit("compare.py: players must be 2 to 4, rounds and repeats positive")
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

    with tempfile.TemporaryDirectory(prefix="csim-") as tmp:
        binary = build(pathlib.Path(tmp))
        seasalt = Seasalt()
        for p in players:                                   # warm-up: compile, fault pages in
            print(f"warming up {p}p (the first numba compile takes a minute) ...",
                  file=sys.stderr, flush=True)
            seasalt.run(p, 10_000, 0)
            run_c(binary, p, 10_000, 0, args.cpu)
        best: dict[tuple[str, int], float] = {}
        stop: dict[tuple[str, int], list[float]] = {}
        for r in range(args.repeats):
            seed = args.seed + r
            for p in players:
                for side, out in (("C", run_c(binary, p, args.rounds, seed, args.cpu)),
                                  ("seasalt", seasalt.run(p, args.rounds, seed))):
                    key = (side, p)
                    best[key] = max(best.get(key, 0.0), out["rounds_per_second"])
                    stop.setdefault(key, []).append(out["stop"])
            print(f"repeat {r + 1}/{args.repeats} done", file=sys.stderr, flush=True)

    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
    print(f"baseline, base game, one thread each, best of {args.repeats} runs of "
          f"{args.rounds:,} rounds; load average {' '.join(load)}")
    print("| players | C rounds/s | seasalt rounds/s | seasalt/C | STOP rate C | STOP rate seasalt |")
    print("|---|---|---|---|---|---|")
    for p in players:
        c, s = best[("C", p)], best[("seasalt", p)]
        sc = sum(stop[("C", p)]) / len(stop[("C", p)])
        ss = sum(stop[("seasalt", p)]) / len(stop[("seasalt", p)])
        print(f"| {p} | {c:,.0f} | {s:,.0f} | {s / c:.3f} | {sc:.4f} | {ss:.4f} |")


if __name__ == "__main__":
    main()
