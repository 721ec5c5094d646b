"""The review's error-rate scale: seasalt's own players reviewed as `seasalt review` reviews a
game, so that a player's error rate can be placed among them.

    python scripts/error_scale.py                 # 100 2-player games per player (about 12 min)
    python scripts/error_scale.py --only tuned    # measure one player again, keep the others
    python scripts/error_scale.py --games 20 --out /tmp/scale.json

For each player of PLAYERS, `--games` 2-player games with the player in seat 0 and the baseline
in seat 1 (game g of player k on seed SEED + 1000 k + g), seat 0 reviewed at the review's default
samples with reading off (the advisor's choice and the losses are the same with it on) and the
baseline playing seat 0 on after each decision whatever its player (MODEL: one yardstick for
all, the model a game of the page measures its user with). A game's
error rate is the mean loss over its decisions with a choice; the scale gives each player's mean
over its games with its 95% interval (normal, across games). Written to
analyzer/play/error_scale.json, which the review quotes.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from analyzer import __version__

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "analyzer" / "play" / "error_scale.json"
PLAYERS = ("random", "baseline", "expert", "search(samples=64)", "search(samples=256)", "tuned")
SEED = 20261207100
SAMPLES = 2000
MODEL = "baseline"


def one(args: tuple[str, int, int]) -> dict:
    """Game g of a player reviewed: its error rate and how many decisions had a choice."""
    from analyzer.play.review import ReviewSpec, run
    from analyzer.runs.spec import ONE_THREAD
    player, seed, samples = args
    r = run(ReviewSpec.build(2, [player, "baseline"], seed, 0, samples, "base", None, ONE_THREAD,
                             reading="off", model=MODEL))
    s = r["summary"]
    return {"seed": seed, "error_rate": s["error_rate"], "decisions": s["error_rate_decisions"],
            "won": int(r["winners"] == [0])}


def cpu_model() -> str:
    """The processor's model name (Linux), else the platform's word for it."""
    info = pathlib.Path("/proc/cpuinfo")
    for line in (info.read_text().splitlines() if info.exists() else []):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--only", action="append", choices=PLAYERS,
                    help="measure only these players; the others are kept from --out")
    a = ap.parse_args()
    t0 = time.time()
    names = [p for p in PLAYERS if not a.only or p in a.only]
    work = [(p, SEED + 1000 * PLAYERS.index(p) + g, a.samples) for p in names
            for g in range(a.games)]
    with ProcessPoolExecutor(a.jobs) as pool:
        done = list(pool.map(one, work, chunksize=1))
    prev = json.loads(pathlib.Path(a.out).read_text()) if a.only else {"scale": [], "seconds": 0}
    rows = [r for r in prev["scale"] if r["player"] not in names]
    for k, p in enumerate(names):
        games = done[k * a.games:(k + 1) * a.games]
        rates = [x["error_rate"] for x in games]
        m = sum(rates) / len(rates)
        sd = math.sqrt(sum((x - m) ** 2 for x in rates) / (len(rates) - 1))
        half = 1.959963984540054 * sd / math.sqrt(len(rates))
        rows.append({"player": p, "games": len(games), "error_rate": m,
                     "ci95": [m - half, m + half],
                     "decisions": sum(x["decisions"] for x in games),
                     "won": sum(x["won"] for x in games),
                     "seeds": [games[0]["seed"], games[-1]["seed"]]})
        print(f"{p:22} {100 * m:+.2f} [{100 * (m - half):+.2f}, {100 * (m + half):+.2f}] "
              f"points a decision ({len(games)} games)")
    out = {"players": 2, "against": "baseline", "seat": 0, "model": MODEL, "samples": a.samples,
           "games": a.games, "reading": "off", "version": __version__,
           "machine": cpu_model(),
           "seconds": round(time.time() - t0) + prev["seconds"],      # every player's, in all
           "scale": sorted(rows, key=lambda r: PLAYERS.index(r["player"]))}
    pathlib.Path(a.out).write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {a.out} in {out['seconds']} s")


if __name__ == "__main__":
    main()
