"""Regenerate the README's charts in docs/ from a fixed-seed study.

    .venv/bin/python scripts/gallery.py        # docs/stop_threshold.png, last_chance.png, mermaids.png
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pandas as pd

from analyzer.studies.report import run_demo_results
from reports import charts

DOCS = Path(__file__).resolve().parent.parent / "docs"
SEED = 20240601


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        files = run_demo_results(Path(d), seed=SEED, log=lambda s: print(s, file=sys.stderr))
        frames = {f.name: pd.read_csv(f) for f in files}
        pick = lambda prefix: [df for n, df in frames.items() if n.startswith(prefix)]
        figs = {"stop_threshold": charts.stop_threshold(frames["sweep-stop_at.csv"]),
                "last_chance": charts.last_chance(pick("last-chance-"), min_calls=30),
                "mermaids": charts.mermaids(pick("mermaids-"))}
    for name, fig in figs.items():
        fig.savefig(DOCS / f"{name}.png", dpi=90)
        print(f"wrote docs/{name}.png", file=sys.stderr)


if __name__ == "__main__":
    main()
