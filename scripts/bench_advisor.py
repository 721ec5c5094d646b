"""The advisor's speed and memory: a draw-step decision (docs/example_draw.json, 2 players, three
actions, ranked by P(win the game) as a new game to 40) answered with 100,000 samples and
baseline continuation, warm (compiled), best of --repeats, on one core (--jobs 1: wall clock
and the process's CPU seconds, which a busy machine does not inflate) and on every core; and
the peak memory of one process per sample count (10^4 .. 10^7), which stays flat
because the counters are summed in the kernel.

    python scripts/bench_advisor.py                              # table on stdout
    python scripts/bench_advisor.py --out docs/advisor-bench.md --json docs/advisor-bench.json

Wall clock and peak RSS (resource.getrusage of a fresh child process per count, so one count's
memory does not hide another's). Run it on an otherwise idle machine for published figures.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRAW = os.path.join(ROOT, "docs", "example_draw.json")
CHILD = """
import json, resource, sys, time
from analyzer.play.advisor import advise
from analyzer.play.position_input import load
pos = load(sys.argv[1])
advise(pos, samples=1000, seed=1)                       # compiled, warm
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
a = advise(pos, samples=int(sys.argv[2]), seed=2)
seconds = time.perf_counter() - t
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"samples": a.samples, "seconds": seconds, "rss_before_kib": before,
                  "rss_peak_kib": after, "recommendation": a.recommendation}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--counts", default="10000,100000,1000000,10000000",
                    help="sample counts for the memory rows")
    ap.add_argument("--out", help="write the markdown table here")
    ap.add_argument("--json", help="write the figures as JSON here")
    args = ap.parse_args()

    sys.path.insert(0, ROOT)
    from analyzer import __version__
    from analyzer.play.advisor import advise
    from analyzer.play.position_input import load
    from analyzer.runs.batches import max_jobs
    from analyzer.runs.spec import Backend
    from bench import cpu_model             # scripts/bench.py: one description of the machine

    pos = load(DRAW)
    advise(pos, samples=1000, seed=1)
    times, one, one_cpu = [], [], []
    for r in range(args.repeats):
        a = advise(pos, samples=100_000, seed=10 + r)
        times.append(a.meta["timing"]["seconds"])
        cpu = time.process_time()
        a = advise(pos, samples=100_000, seed=10 + r, backend=Backend(jobs=1))
        one_cpu.append(time.process_time() - cpu)
        one.append(a.meta["timing"]["seconds"])
    load1 = os.getloadavg()[0]
    rows = []
    for n in (int(c) for c in args.counts.split(",")):
        out = subprocess.run([sys.executable, "-c", CHILD, DRAW, str(n)], capture_output=True,
                             text=True, check=True, cwd=ROOT)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(rows[-1], file=sys.stderr)
    machine = (f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
               f"seasalt {__version__}, {time.strftime('%Y-%m-%d')}, {max_jobs()} threads, "
               f"load average {load1:.1f} at the start of the memory rows")
    lines = [f"Advisor, docs/example_draw.json (draw step, 2 players, 3 actions, ranked by P(win "
             f"the game) as a new game to 40, baseline continuation), warm. Machine: {machine}.",
             "",
             f"100,000 samples on one core (--jobs 1): best {min(one):.3f} s of {args.repeats} "
             f"({', '.join(f'{t:.3f}' for t in one)} s wall; "
             f"{', '.join(f'{t:.3f}' for t in one_cpu)} CPU-s)", "",
             f"100,000 samples on {max_jobs()} threads: best {min(times):.3f} s of {args.repeats} "
             f"({', '.join(f'{t:.3f}' for t in times)} s)", "",
             "| samples | seconds | samples/s | peak RSS (MiB) | RSS before the run (MiB) |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['samples']:,} | {r['seconds']:.2f} | {r['samples'] / r['seconds']:,.0f} "
                     f"| {r['rss_peak_kib'] / 1024:.1f} | {r['rss_before_kib'] / 1024:.1f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "seconds_100k": times, "seconds_100k_one_core": one,
                       "cpu_seconds_100k_one_core": one_cpu, "memory": rows}, f, indent=1)


if __name__ == "__main__":
    main()
