"""Does reading hands make the search player stronger? (issue 25; docs/search-study.md)

    python scripts/reading_study.py --out docs/reading-study     # the figures in the docs
    python scripts/reading_study.py --games 200 --parts h2h        # a quick look

Parts, each a table (all of it written to --out as JSON and Markdown):

1. **h2h**: `search(samples=B,read=1)` against `search(samples=B)` (today's search) in full
   games, seats rotated (analyzer.studies.sweep), 95% Wilson intervals; the row read=0 is today's
   search against itself (50% by symmetry, a control). The opponents are search players, whose real
   policy is not the baseline model the reader reads them with.
2. **bots**: `search(samples=B,read=0|1)` against baseline (the model it reads with is right),
   tuned and threshold(7,7) (the model is wrong), 2, 3 and 4 players.
3. **speed**: milliseconds per decision on one core (the deciding thread's CPU time),
   decision_times of scripts/search_study.py, for read=0 and read=1.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from analyzer import __version__                       # noqa: E402
from analyzer.runs.spec import Backend                   # noqa: E402
from analyzer.studies.sweep import sweep                 # noqa: E402
from search_study import decision_times                  # noqa: E402

BOTS = ("baseline", "tuned", "threshold(stop_at=7,last_chance_at=7)")


def _rows(df, **extra):
    return [{**extra, "read": int(r["read"]), "players": int(r["players"]),
             "win_rate": float(r["win_rate"]), "lo": float(r["win_rate_lo"]),
             "hi": float(r["win_rate_hi"])} for r in df.to_dict("records")]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", default="16,64")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--games", type=int, default=1000, help="games per cell (2 players)")
    ap.add_argument("--games-more", type=int, default=None,
                    help="games per cell with 3 and 4 players (default: --games)")
    ap.add_argument("--timing-rounds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--parts", default="h2h,bots,speed")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    budgets = [int(b) for b in a.budgets.split(",")]
    players = [int(p) for p in a.players.split(",")]
    more = a.games if a.games_more is None else a.games_more
    parts = a.parts.split(",")
    result = {"version": __version__, "seed": a.seed, "python": platform.python_version(),
              "machine": platform.machine(), "cpus": os.cpu_count(), "games": a.games,
              "games_more": more, "h2h": [], "bots": [], "speed": []}
    t0 = time.time()
    for b in budgets:
        for p in players:
            games = a.games if p == 2 else more
            if "h2h" in parts:
                df = sweep(["read=0,1"], policy=f"search(samples={b})",
                           vs=[f"search(samples={b})"], players=p, games=games, seed=a.seed,
                           backend=Backend(jobs=a.jobs))
                rows = _rows(df, samples=b, opponent=f"search(samples={b})", games=games)
                result["h2h"] += rows
                for r in rows:
                    print("h2h", r, flush=True)
    if "bots" in parts:
        b = budgets[0]
        for opp in BOTS:
            for p in players:
                games = a.games if p == 2 else more
                df = sweep(["read=0,1"], policy=f"search(samples={b})", vs=[opp], players=p,
                           games=games, seed=a.seed, backend=Backend(jobs=a.jobs))
                rows = _rows(df, samples=b, opponent=opp, games=games)
                result["bots"] += rows
                for r in rows:
                    print("bots", r, flush=True)
    if "speed" in parts:
        for b in budgets:
            for read in (0, 1):
                for p in (2, 4):
                    r = decision_times(f"search(samples={b},read={read})", p, a.timing_rounds,
                                       a.seed)
                    r.update(samples=b, read=read)
                    result["speed"].append(r)
                    print("speed", r, flush=True)
    result["seconds"] = time.time() - t0
    if a.out:
        with open(a.out + ".json", "w") as f:
            json.dump(result, f, indent=1)
        with open(a.out + ".md", "w") as f:
            f.write(tables(result))
    print(tables(result))
    return 0


def _cell(r):
    return f"{100 * r['win_rate']:.1f}% | [{100 * r['lo']:.1f}%, {100 * r['hi']:.1f}%]"


def tables(res: dict) -> str:
    out = [f"Reading study: seasalt {res['version']}, seed {res['seed']}, {res['cpus']} cpus, "
           f"Python {res['python']}.", ""]
    if res["h2h"]:
        out += ["Head to head (full games, seats rotated, 95% Wilson intervals): the win rate of "
                "`search(samples=B,read=R)` against `search(samples=B)`.", "",
                "| samples | players | games | read | win rate | interval |",
                "|---:|---:|---:|---:|---:|---|"]
        out += [f"| {r['samples']} | {r['players']} | {r['games']} | {r['read']} | {_cell(r)} |"
                for r in res["h2h"]]
        out.append("")
    if res["bots"]:
        out += ["Against the bots (the reader reads every opponent as baseline: right for "
                "baseline, wrong for tuned and threshold(7,7)).", "",
                "| opponent | samples | players | games | read | win rate | interval |",
                "|---|---:|---:|---:|---:|---:|---|"]
        out += [f"| `{r['opponent']}` | {r['samples']} | {r['players']} | {r['games']} | "
                f"{r['read']} | {_cell(r)} |" for r in res["bots"]]
        out.append("")
    if res["speed"]:
        out += ["Time per decision (one core, CPU time of the deciding thread, decisions with two "
                "or more legal actions of seat 0 against baseline).", "",
                "| samples | read | players | decisions | ms/decision | p95 ms |",
                "|---:|---:|---:|---:|---:|---:|"]
        out += [f"| {r['samples']} | {r['read']} | {r['players']} | {r['decisions']} | "
                f"{r['ms_mean']:.2f} | {r['ms_p95']:.2f} |" for r in res["speed"]]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
