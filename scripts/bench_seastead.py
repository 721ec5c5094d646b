"""Seastead throughput: games/s on one thread and on two, for two-player games (A sides, B sides
with decrees) and solo, heuristic players, the illustrative components; best of --repeats runs
of the public API after a warm-up that compiles. Wall clock: say whether the machine was shared.
The one-thread run also gives games per CPU-second of this process, which other jobs on a
shared machine do not lower (they only take wall-clock time from it).

    python scripts/bench_seastead.py --games 200000 --out docs/seastead-bench.md
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
from datetime import date

sys.path.insert(0, os.path.join(os.path.dirname(__file__)))
from bench import cpu_model  # noqa: E402

from analyzer import __version__  # noqa: E402
from analyzer.seastead.components import Setup, load  # noqa: E402
from analyzer.seastead.runs import simulate  # noqa: E402
from analyzer.runs.spec import Backend  # noqa: E402

CASES = [("2 players, A sides", ["heuristic"], Setup()),
         ("2 players, B sides (decrees)", ["heuristic"], Setup(sides="BBBB")),
         ("2 players, random players", ["random"], Setup()),
         ("solo against the Boss", ["heuristic"], Setup(solo=True))]


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--note", default="", help="e.g. 'machine shared with other jobs'")
    ap.add_argument("--out", help="also write the table (markdown) here, and .json beside it")
    a = ap.parse_args()
    comps = load()
    threads = [int(x) for x in a.threads.split(",")]
    rows = []
    for label, players, setup in CASES:
        simulate(64, players, 1, comps, setup, Backend(jobs=1))   # compile or load the kernels
        rates, per_cpu = {}, 0.0
        for j in threads:
            best = 0.0
            for _ in range(a.repeats):
                c0 = cpu_seconds()
                r = simulate(a.games, players, 1, comps, setup, Backend(jobs=j))
                if j == 1:
                    per_cpu = max(per_cpu, a.games / (cpu_seconds() - c0))
                best = max(best, r["timing"]["games_per_second"])
            rates[j] = best
        rows.append({"case": label, "games_per_cpu_s": per_cpu,
                     **{f"games_per_s_{j}": rates[j] for j in threads}})
        print(label, {j: round(r) for j, r in rates.items()}, flush=True)
    head = (f"Seastead, illustrative (invented) components, {a.games:,} games per figure, best "
            f"of {a.repeats}. Machine: {cpu_model()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, seasalt {__version__}, {date.today()}."
            + (f" {a.note}." if a.note else ""))
    lines = [head, "", "| case | games per CPU-second (1 thr) | "
             + " | ".join(f"games/s ({j} thr)" for j in threads)
             + " | speed-up |", "|---|" + "---|" * (len(threads) + 2)]
    for r in rows:
        rates = [r[f"games_per_s_{j}"] for j in threads]
        lines.append(f"| {r['case']} | {r['games_per_cpu_s']:,.0f} | "
                     + " | ".join(f"{x:,.0f}" for x in rates) + f" | {rates[-1] / rates[0]:.2f} |")
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            json.dump({"head": head, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
