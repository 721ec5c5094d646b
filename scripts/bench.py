"""Throughput of the engine with the baseline player: rounds/s and games/s for 2, 3 and 4 players,
base game and Extra Salt, on one thread and on every thread, with the machine described; the
advisor's time for 100,000 sampled deals of a typical 2-player position; and the backends
(threads, a Dask LocalCluster started by the run, an already running Dask cluster) on one
2-player games run, if Dask is installed.

    python scripts/bench.py                          # table on stdout
    python scripts/bench.py --out docs/bench.md      # also write the table (README links it)

Each figure is the best of --repeats timed runs of the public API (analyzer.studies.simulate) after a
warm-up that compiles; wall-clock, so run it on an otherwise idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

from analyzer import __version__
from analyzer.play.advisor import advise
from analyzer.runs.batches import max_jobs
from analyzer.runs.spec import Backend
from analyzer.studies.simulate import simulate_games, simulate_rounds

EXAMPLE_POSITION = os.path.join(os.path.dirname(__file__), "..", "docs", "example_position.json")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def best_rate(run, count: int, repeats: int) -> float:
    """Best items/second over `repeats` runs of run(count) (its timing.seconds)."""
    best = 0.0
    for _ in range(repeats):
        out = run(count)
        best = max(best, count / out["timing"]["seconds"])
    return best


def measure_backends(games: int, repeats: int) -> dict[str, float]:
    """Seconds for one games run on each backend (empty without Dask). Same seed: the results
    must be identical, which is checked here too."""
    try:
        import distributed
    except ImportError:
        print("Dask is not installed: no backend comparison (pip install -e '.[dask]')")
        return {}
    jobs = max_jobs()
    runs = {f"threads ({jobs})": Backend(jobs=jobs),
            f"dask, --scheduler local ({jobs} worker processes, started by the run)":
                Backend(jobs=jobs, scheduler="local")}
    out, results = {}, []
    with distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        running = Backend(scheduler=cluster.scheduler_address)
        runs[f"dask, running cluster ({jobs} worker processes)"] = running
        simulate_games(2, 2_000, seed=1, backend=running)   # warm the workers
        for label, backend in runs.items():
            best = float("inf")
            for _ in range(repeats):
                t0 = time.perf_counter()
                r = simulate_games(2, games, seed=7, backend=backend)
                best = min(best, time.perf_counter() - t0)
            results.append({k: v for k, v in r.items() if k != "timing"})
            out[label] = best
            print(f"measured {label}", flush=True)
    assert all(r == results[0] for r in results), "backends disagree"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2_000_000, help="rounds per measurement")
    ap.add_argument("--games", type=int, default=100_000, help="games per measurement")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--expansions", default="base,extra-salt")
    ap.add_argument("--samples", type=int, default=100_000, help="advisor samples per measurement")
    ap.add_argument("--backend-games", type=int, default=2_000_000,
                    help="games of the backend comparison (0: skip it)")
    ap.add_argument("--out", help="also write the markdown table here")
    ap.add_argument("--json", dest="json_out", help="also write the figures as JSON here")
    args = ap.parse_args()

    threads = sorted({1, max_jobs()})
    rows = []
    for expansion in args.expansions.split(","):
        for players in [int(p) for p in args.players.split(",")]:
            simulate_rounds(players, 20_000, seed=1, expansion=expansion)       # compile, warm up
            simulate_games(players, 200, seed=1, expansion=expansion)
            row = {"expansion": expansion, "players": players}
            for jobs in threads:
                row[f"rounds_per_s_{jobs}"] = best_rate(
                    lambda n: simulate_rounds(players, n, seed=7, backend=Backend(jobs=jobs),
                                              expansion=expansion),
                    args.rounds, args.repeats)
                row[f"games_per_s_{jobs}"] = best_rate(
                    lambda n: simulate_games(players, n, seed=7, backend=Backend(jobs=jobs),
                                             expansion=expansion),
                    args.games, args.repeats)
            rows.append(row)
            print(f"measured {expansion} {players} players", flush=True)

    with open(EXAMPLE_POSITION) as f:
        position = json.load(f)
    advise(position, samples=2_000, seed=1)                           # compile, warm up
    advisor = {}
    for label, play_on in (("STOP + LAST CHANCE", False), ("STOP + LAST CHANCE + play on", True)):
        advisor[label] = min(advise(position, samples=args.samples, seed=7, play_on=play_on)
                             .meta["timing"]["seconds"] for _ in range(args.repeats))

    backends = measure_backends(args.backend_games, args.repeats) if args.backend_games else {}

    machine = (f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
               f"seasalt {__version__}, {time.strftime('%Y-%m-%d')}")
    head = ["expansion", "players"]
    for jobs in threads:
        head += [f"rounds/s ({jobs} thr)", f"games/s ({jobs} thr)"]
    if len(threads) > 1:
        head += [f"rounds speed-up {threads[-1]}/1"]
    lines = [f"Baseline player, {args.rounds:,} rounds / {args.games:,} games per figure, best of "
             f"{args.repeats}. Machine: {machine}.", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["expansion"], str(r["players"])]
        for jobs in threads:
            cells += [f"{r[f'rounds_per_s_{jobs}']:,.0f}", f"{r[f'games_per_s_{jobs}']:,.0f}"]
        if len(threads) > 1:
            cells.append(f"{r[f'rounds_per_s_{threads[-1]}'] / r['rounds_per_s_1']:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"Advisor, docs/example_position.json (2 players, 37 cards in the deck), "
              f"{args.samples:,} sampled deals, all threads, best of {args.repeats}:", "",
              "| options | seconds | deals/s |", "|---|---|---|"]
    for label, sec in advisor.items():
        lines.append(f"| {label} | {sec:.3f} | {args.samples / sec:,.0f} |")
    if backends:
        lines += ["", f"Backends: {args.backend_games:,} games, 2 players, baseline, best of "
                  f"{args.repeats}, wall clock of the whole run (a LocalCluster's start included):",
                  "", "| backend | seconds | games/s |", "|---|---|---|"]
        for label, sec in backends.items():
            lines.append(f"| {label} | {sec:.2f} | {args.backend_games / sec:,.0f} |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table + "\n")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"machine": machine, "rows": rows, "advisor_seconds": advisor,
                       "backend_seconds": backends, "backend_games": args.backend_games}, f,
                      indent=1)


if __name__ == "__main__":
    main()
