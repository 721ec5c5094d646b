"""Seastead search player: CPU time per searched decision on one thread.

Plays --games games of the search player against the heuristic (seats alternating) on this
thread and divides the process's CPU seconds by the searches made (each action with a choice,
and each dive's split); then times --positions single decisions (search_plan, mid-game positions
of heuristic games) one by one for their spread. CPU time, not wall clock: other jobs on a shared
machine do not inflate it.

    python scripts/bench_seastead_search.py --games 400 --out docs/seastead-search.md
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from datetime import date

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__)))
from bench import cpu_model  # noqa: E402

from analyzer import __version__  # noqa: E402
from analyzer.seastead.components import Setup, load  # noqa: E402
from analyzer.seastead.players import parse_player, player_arrays  # noqa: E402
from analyzer.seastead.scripted import Table  # noqa: E402
from kernels.rng import seed_stream  # noqa: E402
from kernels.seastead import layout as L  # noqa: E402
from kernels.seastead.search_batch import play_any, search_plan  # noqa: E402


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--player", default="search")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--note", default="")
    ap.add_argument("--out")
    a = ap.parse_args()
    comps = load()
    spec = parse_player(a.player).spec
    cfg = Setup().array(comps)
    s = np.zeros(L.STATE_SIZE, dtype=np.int32)
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    tr, sc = np.zeros((0, 5), dtype=np.int32), np.zeros((0, 6), dtype=np.int32)
    seats = [player_arrays([parse_player(spec), parse_player("heuristic")]),
             player_arrays([parse_player("heuristic"), parse_player(spec)])]
    play_any(s, comps.cp, cfg, *seats[0], seed_stream(0, 0), tr, sc, ob,
             np.zeros(4, dtype=np.int64))                       # compile or load
    stats = np.zeros(4, dtype=np.int64)
    c0 = cpu_seconds()
    for g in range(a.games):
        play_any(s, comps.cp, cfg, *seats[g % 2], seed_stream(1, g), tr, sc, ob, stats)
    cpu = cpu_seconds() - c0
    per_decision = 1000 * cpu / stats[0]
    per_action = 1000 * cpu / stats[2]
    pk, pp = player_arrays([parse_player(spec)] * 2)               # either seat may search
    t = Table(comps, 999)
    search_plan(t.s, t.cp, 0, pp, seed_stream(2, 0))             # compile or load
    times = []
    for i in range(a.positions):
        t = Table(comps, 1000 + i)
        t.play([], stop_after=1 + i % 30, fallback="heuristic")
        if t.at("TRIG_ROUND") >= 0:
            continue
        c = time.thread_time()
        search_plan(t.s, t.cp, t.at("ACTIONS") % 2, pp, seed_stream(2, i))
        times.append(1000 * (time.thread_time() - c))
    q = np.percentile(times, [50, 90, 99, 100])
    head = (f"Seastead search player `{spec}` against heuristic, 2 players, A sides, illustrative "
            f"(invented) components, one thread. Machine: {cpu_model()}, Python "
            f"{platform.python_version()}, seasalt {__version__}, {date.today()}."
            + (f" {a.note}." if a.note else ""))
    lines = [head, "",
             f"- {a.games:,} games: {stats[0]:,} searched decisions, {stats[1]:,} rollouts, "
             f"{cpu:.1f} CPU-s: **{per_decision:.2f} ms per searched decision** "
             f"({per_action:.2f} ms per action of the search seat)",
             f"- {len(times)} single decisions timed one by one (thread CPU time): median "
             f"{q[0]:.2f} ms, 90% {q[1]:.2f}, 99% {q[2]:.2f}, max {q[3]:.2f}"]
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            json.dump({"head": head, "games": a.games, "decisions": int(stats[0]),
                       "rollouts": int(stats[1]), "actions": int(stats[2]), "cpu_s": cpu,
                       "ms_per_decision": per_decision, "ms_per_action": per_action,
                       "single_ms_p50_p90_p99_max": [float(x) for x in q]}, f, indent=1)


if __name__ == "__main__":
    main()
