"""docs/calibration.md's table: `seasalt calibrate` on each field, on seeds used nowhere else.

    python scripts/calibration_study.py                  # every field (about 40 minutes)
    python scripts/calibration_study.py --only baseline-2p

Each study is analyzer.play.calibrate's, run with reading on (each opponent read as its own
policy), so one run gives the P(win) as printed (unweighted) and weighted by the history. The
results go to analyzer/play/calibration.json (shipped: the advisor's one-line caveat quotes
it, analyzer.play.calibration) with each study's settings, version and time, and into the
marked table of docs/calibration.md; the reliability diagram of the first field to
docs/calibration-2p.png. A study's games are kept in --work as it
goes (its journal), so an interrupted run continues where it stopped.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import platform
import time

from analyzer import __version__
from analyzer.play.calibration import BOUND, refresh
from analyzer.runs.spec import Backend
from analyzer.play.calibrate import CalibrateSpec, reliability_figure, run as run_calibrate

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "analyzer" / "play" / "calibration.json"
CHART = ROOT / "docs" / "calibration-2p.png"
# name, players, field, games, seed (fresh seeds: game g is seed + g)
STUDIES = (("baseline-2p", 2, "baseline", 2000, 20261206),
           ("random-2p", 2, "random", 400, 30261206),
           ("tuned-2p", 2, "tuned2", 400, 40261206),
           ("expert-2p", 2, "expert2", 400, 50261206),
           ("baseline-3p", 3, "baseline", 400, 60261206),
           ("baseline-4p", 4, "baseline", 400, 70261206))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", action="append", help="run only these studies (by name)")
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--work", default="calibration-work", help="folder of the journals")
    a = ap.parse_args()
    work = pathlib.Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    done = json.loads(OUT.read_text()) if OUT.exists() else {"studies": {}}
    for name, players, field, games, seed in STUDIES:
        if a.only and name not in a.only:
            continue
        journal = work / f"{name}.jsonl"
        fresh = not journal.exists()
        spec = CalibrateSpec.build(players, [field], games, seed, samples=a.samples,
                                   backend=Backend(checkpoint=str(journal),
                                                   resume=journal.exists()))
        start = time.time()
        result, _ = run_calibrate(spec, lambda d, t: print(f"\r{name}: {d}/{t}", end="",
                                                           flush=True))
        seconds = time.time() - start
        print(f"\r{name}: {games} games in {seconds:.0f} s")
        before = done["studies"].get(name, {})
        done["studies"][name] = {   # the time of a run that computed every game here
            **result, "seconds": round(seconds) if fresh else before.get("seconds"),
            "machine": platform.processor() or platform.machine()}
        if name == STUDIES[0][0]:
            reliability_figure(result).savefig(CHART, dpi=110)
    done["version"] = __version__
    OUT.write_text(json.dumps(done, indent=1, allow_nan=False) + "\n")
    doc = ROOT / "docs" / "calibration.md"
    bound = json.loads(BOUND.read_text(encoding="utf-8"))
    doc.write_text(refresh(doc.read_text(encoding="utf-8"), done["studies"], bound),
                   encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} and the table of {doc.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
