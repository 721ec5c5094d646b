"""Compile cost a user pays on a fresh machine: CPU seconds, wall seconds and peak memory of the
first run of each command with an empty numba cache, for a git ref (default main) and the
working tree, measured alternately in one run.

    python scripts/compile_times.py                          # main vs the working tree
    python scripts/compile_times.py --out docs/compile-times.md --ref 94244b5

Each measurement is a fresh process (`python -m analyzer ...`, the tree first on PYTHONPATH)
with its own new NUMBA_CACHE_DIR, timed by the kernel's accounting of that process (wait4: user
+ system CPU, and its peak resident memory), so a loaded machine changes the wall clock more
than the CPU figure. The commands do almost no work besides compiling.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from ab import ROOT, export  # noqa: E402
from bench import cpu_model  # noqa: E402

POSITION = str(ROOT / "docs" / "example_position.json")
READING = str(ROOT / "docs" / "example_reading.json")
COMMANDS = {
    "first simulate": ["simulate", "-p", "2", "--rounds", "1000", "--seed", "1"],
    "first simulate --games": ["simulate", "-p", "2", "--games", "100", "--seed", "1"],
    "first advise": ["advise", POSITION, "--samples", "1000", "--seed", "1"],
    "first advise --reading": ["advise", READING, "--samples", "1000", "--seed", "1"],
    "first tournament --policy search": [
        "tournament", "-p", "2", "--policy", "search(samples=1,continuations=1)",
        "--policy", "baseline", "--games", "2", "--seed", "1"],
    "first score": ["score", "--hand", "mermaid,crab:black"],
    "first replay": ["replay", "--seed", "1", "--players", "2"],
    "first review": ["review", "--seed", "1", "--players", "2", "--samples", "10", "--target", "10"],
    "first sweep of threshold": ["sweep", "--sweep", "stop_at=7..8", "--policy", "threshold",
                                 "--players", "2", "--games", "10", "--seed", "1"],
    "first seastead simulate": ["seastead", "simulate", "--games", "2", "--seed", "1"],
    "warmup (everything)": ["warmup"],
}


def measure(tree: pathlib.Path, args: list[str], cache: pathlib.Path) -> dict:
    """One cold run: CPU seconds, wall seconds, peak MiB."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache),
               SEASALT_CHECKPOINT_DIR=str(cache / "checkpoints"), MPLBACKEND="Agg")
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "analyzer", *args], cwd=tree, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed in {tree}:\n{err[-2000:]}")
    return {"cpu": ru.ru_utime + ru.ru_stime, "wall": wall, "peak_mib": ru.ru_maxrss / 1024}


def table(results: dict, ref: str) -> str:
    lines = ["| command | CPU s, " + ref + " | CPU s, this tree | wall s, " + ref +
             " | wall s, this tree | peak MiB, " + ref + " | peak MiB, this tree |",
             "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        a, b = r["A"], r["B"]
        lines.append(f"| {name} | {a['cpu']:.0f} | {b['cpu']:.0f} | {a['wall']:.0f} | "
                     f"{b['wall']:.0f} | {a['peak_mib']:.0f} | {b['peak_mib']:.0f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", default="main", help="git ref of the 'before' side (default main)")
    ap.add_argument("--only", action="append", choices=list(COMMANDS),
                    help="measure only these commands (repeatable)")
    ap.add_argument("--out", help="also write the table (markdown) and FILE.json")
    args = ap.parse_args()
    names = args.only or list(COMMANDS)
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"A": export(args.ref, pathlib.Path(tmp) / "a"), "B": ROOT}
        for i, name in enumerate(names):
            results[name] = {}
            for side, tree in sides.items():
                cache = pathlib.Path(tmp) / f"cache-{side}-{i}"
                results[name][side] = measure(tree, COMMANDS[name], cache)
                print(f"{name} ({args.ref if side == 'A' else 'this tree'}): "
                      f"{results[name][side]['cpu']:.0f} CPU s", file=sys.stderr, flush=True)
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    # the docs name no commit: the markdown says "before", the JSON keeps the ref
    head = (f"Compile cost of a first run with an empty numba cache (CPU seconds: user + system "
            f"of the process). Machine: {cpu_model()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}, load average after the "
            f"run {' '.join(load)}. 'this tree' is the working tree, 'before' the ref it was "
            f"measured against (named in the .json file).")
    text = head + "\n\n" + table(results, "before") + "\n"
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text)
        pathlib.Path(args.out).with_suffix(".json").write_text(json.dumps(
            {"ref": args.ref, "load": load, "commands": {n: COMMANDS[n] for n in names},
             "results": results}, indent=1))


if __name__ == "__main__":
    main()
