"""How honest the advisor's P(win game) has been measured to be, for the answers to quote.

calibration.json (next to this file) holds `seasalt calibrate`'s results on each field
(scripts/calibration_study.py writes it; docs/calibration.md shows it). `caveat(players,
field)` is the one line advise, review and the page add where the measurement found the
printed P(win) optimistic for that field: the steps that left their 95% interval, with sizes.
"""
from __future__ import annotations

import functools
import json
import pathlib
from typing import Sequence

from ..numbers.estimates import holds
from ..render.text_tables import wrap
from ..rules.policies import short_spec

PATH = pathlib.Path(__file__).with_name("calibration.json")


@functools.cache
def studies() -> dict:
    """The shipped calibration studies by name (empty if the file is missing)."""
    try:
        return json.loads(PATH.read_text(encoding="utf-8"))["studies"]
    except (OSError, ValueError, KeyError):
        return {}


def study_for(players: int, opponents: Sequence[str]) -> dict | None:
    """The study of this many players whose field (one policy in every seat, by its full
    spec) is the opponents' policy, or None."""
    specs = set(opponents)
    for s in studies().values():
        if s["players"] == players and set(s["policies"]) == specs:
            return s
    return None





def _pts(mean: float, lo: float, hi: float, digits: int) -> str:
    return f"{100 * mean:.{digits}f} [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"


def caveat(players: int, opponents: Sequence[str], read: bool = False) -> dict | None:
    """How the P(win) printed against these opponents (weighted by the history if `read`)
    was measured to drift, in the steps whose 95% interval left 0 (from a decision to the next
    round's start; to the result), or None when it was not measured or held: the study, its
    games, those steps and `words`, one sentence as lines of at most 90 columns (JSON fits
    100 columns as the advice's explanation does)."""
    s = study_for(players, opponents)
    if s is None:
        return None
    st = s["figures"]["read" if read and "read" in s["figures"] else "plain"]["steps"]
    parts, steps = [], {}
    for key, words in (("round_end", "this P(win) had {} {} points on average by the next "
                                     "round's start"),
                       ("result", "games were won {1} points {0} often than it said")):
        m, (lo, hi) = st[key]["mean"], st[key]["ci95"]
        if not holds(st[key]):
            steps[key] = {"mean": m, "ci95": [lo, hi]}
            way = ("risen", "fallen") if key == "round_end" else ("more", "less")
            parts.append(words.format(way[hi < 0], _pts(abs(m), *sorted((abs(lo), abs(hi))),
                                                          1)))
    if not parts:
        return None
    text = (f"Measured against these opponents ({s['games']:,} games of seasalt calibrate; "
            f"docs/calibration.md): from a decision, " + ", and ".join(parts) + ".")
    return {"games": s["games"], "seed": s["seed"], "figures": "read" if read else "plain",
            "steps": steps, "words": wrap(text, 90, hang="")}


BLOCKS = {name: (f"<!-- calibration:{name} -->", f"<!-- /calibration:{name} -->")
          for name in ("table", "bound", "split")}
SEES = {"plain": "what the seat sees (as printed)", "hands": "also the opponents' hands",
        "all": "everything (the deck's order too)"}
BOUND = pathlib.Path(__file__).resolve().parents[2] / "docs" / "calibration-bound.json"


def _step(d: dict) -> str:
    """A step in points of P(win), with its interval; 0 inside it or not."""
    m, (lo, hi) = d["mean"], d["ci95"]
    mark = "" if holds(d) else " **≠0**"
    return f"{100 * m:+.2f} [{100 * lo:+.2f}, {100 * hi:+.2f}]{mark}"


def markdown_table(studies: dict) -> str:
    """docs/calibration.md's table of the shipped studies: per field and P(win) (as printed,
    and weighted by the history), the three steps in points of P(win) and the Brier score, each
    with its 95% interval."""
    rows = ["| field | players | games | P(win) | to the next decision | to the round's end | "
            "to the result | Brier score |",
            "|---|---:|---:|---|---|---|---|---|"]
    names = {"plain": "as printed", "read": "read"}
    for s in studies.values():
        for key, f in s["figures"].items():
            st, b = f["steps"], f["brier"]
            rows.append(f"| {short_spec(s['policies'][0])} | {s['players']} | {s['games']:,} | "
                        f"{names[key]} | {_step(st['next'])} | {_step(st['round_end'])} | "
                        f"{_step(st['result'])} | {b['mean']:.4f} [{b['ci95'][0]:.4f}, "
                        f"{b['ci95'][1]:.4f}] |")
    return "\n".join(rows)


def bound_table(bound: dict) -> str:
    """The diagnostic's table (scripts/calibration_bound.py): the same games' steps with the
    unseen cards dealt uniformly and with the opponents' hands seen."""
    rows = ["| the advisor sees | to the next decision | to the round's end | to the result | "
            "Brier score |", "|---|---|---|---|---|"]
    for key, name in SEES.items():
        f = bound["figures"][key]
        st, b = f["steps"], f["brier"]
        rows.append(f"| {name} | {_step(st['next'])} | {_step(st['round_end'])} | "
                    f"{_step(st['result'])} | {b['mean']:.4f} [{b['ci95'][0]:.4f}, "
                    f"{b['ci95'][1]:.4f}] |")
    return "\n".join(rows)


def split_table(bound: dict) -> str:
    """The same games' moves split by what happened after each decision (the diagnostic's
    `split_by_later`), which docs/calibration.md shows to be biased even for an honest P(win)."""
    rows = ["| the advisor sees | within a round | at a new round | last decision to result |",
            "|---|---|---|---|"]
    for key, name in SEES.items():
        sp = bound["figures"][key]["split_by_later"]
        rows.append(f"| {name} | " + " | ".join(
            _step({"mean": sp[k]["mean"], "ci95": [sp[k]["lo"], sp[k]["hi"]]})
            for k in ("within", "new_round", "last_to_result")) + " |")
    return "\n".join(rows)


def refresh(text: str, studies: dict, bound: dict) -> str:
    """`text` (docs/calibration.md) with its marked tables rewritten from `studies` (the
    shipped calibration.json's) and `bound` (docs/calibration-bound.json)."""
    for name, body in (("table", markdown_table(studies)), ("bound", bound_table(bound)),
                       ("split", split_table(bound))):
        open_, close = BLOCKS[name]
        start, end = text.index(open_) + len(open_), text.index(close)
        text = text[:start] + "\n" + body + "\n" + text[end:]
    return text
