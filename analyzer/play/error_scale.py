"""Where a review's error rate sits among seasalt's own players: scripts/error_scale.py reviewed
each of them (2-player games against the baseline, the baseline playing the reviewed seat on
after each decision, the review's default samples) and wrote error_scale.json beside this file;
a review quotes it with the game's own rate placed by intervals."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from ..render.text_tables import points_ci

SCALE = Path(__file__).with_name("error_scale.json")


@lru_cache(maxsize=1)
def load() -> dict | None:
    """The measured scale (None if it was never measured)."""
    return json.loads(SCALE.read_text()) if SCALE.exists() else None


def place(rate: float, lo: float, hi: float, model: str | None = None) -> dict | None:
    """The scale and where an error rate with its 95% interval sits on it: the players it
    cannot be told from (`near`), else the nearest below and above; `words` in short phrases
    (JSON lines stay narrow). `model` is the reviewed seat's model (the scale's own is the
    baseline: other models measure on another yardstick, and the words say so)."""
    s = load()
    if s is None:
        return None
    rows = sorted(s["scale"], key=lambda r: r["error_rate"])
    near = [r["player"] for r in rows if not (hi < r["ci95"][0] or lo > r["ci95"][1])]
    below = [r["player"] for r in rows if r["ci95"][1] < lo]
    above = [r["player"] for r in rows if r["ci95"][0] > hi]
    if near:
        where = ["not distinguishable from", *[f"{p} or" for p in near[:-1]], near[-1]]
    elif below and above:
        where = [f"between {below[-1]}", f"and {above[0]}"]
    elif above:
        where = ["below every player of the scale", f"(the lowest: {above[0]})"]
    else:
        where = ["above every player of the scale", f"(the highest: {below[-1]})"]
    other = model is not None and model.split("(")[0] != s["model"]
    words = [f"seasalt's scale ({s['players']} players against the {s['against']},",
             f"the {s['model']} playing the reviewed seat on,",
             f"{s['games']} games each, {s['samples']:,} samples):",
             *[f"{r['player']} {points_ci(r['error_rate'], *r['ci95'], 2)};" for r in rows],
             "this error rate is", *where]
    words[-1] += "." if not other else ""
    if other:
        words += [f"(but this review plays the seat on with {model.split('(')[0]},",
                  "another yardstick)."]
    return {"near": near, "below": below[-1] if below else None,
            "above": above[0] if above else None, "comparable": not other, "words": words,
            "scale": [{k: r[k] for k in ("player", "error_rate", "ci95", "games")}
                      for r in rows]}
