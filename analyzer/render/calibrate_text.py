"""`seasalt calibrate`'s text: the steps of an honest P(win), the Brier score, the reliability
table and the luck and skill over the games, within 100 columns. From the study's JSON-ready
dict alone (analyzer.play.calibrate)."""
from __future__ import annotations

import math

from ..numbers.estimates import holds
from ..rules.policies import short_spec
from .text_tables import points_ci, table, wrap

# The steps an honest P(win) does not move on average: (key, label, what it measures).
STEPS = (("next", "to the next decision", "from each decision to the seat's next one (the "
                                          "result after its last)"),
         ("round_end", "to the round's end", "from each decision to the first decision of the "
                                             "next round (the result if the game ended)"),
         ("result", "to the result", "the game's result (1 won outright, else 0) minus each "
                                     "decision's P(win)"))


def _num(x: float, pct: bool = False) -> str:
    return "n/a" if x is None or math.isnan(x) else (f"{100 * x:.1f}%" if pct else f"{x:+.4f}")


def _ci(d: dict) -> str:
    lo, hi = d["ci95"]
    return f"{_num(d['mean'])} [{_num(lo)}, {_num(hi)}]"


def format_calibration(r: dict) -> str:
    """The study as text within 100 columns: the steps, the Brier score and the reliability
    table, for each P(win) measured."""
    pols = ", ".join(dict.fromkeys(short_spec(p) for p in r["policies"]))
    lines = wrap(f"seasalt calibrate: seat {r['seat']} of {r['games']:,} {r['players']}-player "
                 f"games ({pols}; {r['expansion']} deck), seeds {r['seed']} to "
                 f"{r['seed'] + r['games'] - 1}, {r['samples']:,} samples per decision, "
                 f"{r['decisions']:,} decisions, seat {r['seat']} won {r['won']:,} games; "
                 f"seasalt {r['version']}")
    names = {"plain": "P(win) as advise and review print it (the unseen cards dealt uniformly)",
             "read": f"P(win) weighted by the round's history (reading {r['reading']}, "
                     f"tremble {r['tremble']})"}
    for key, f in r["figures"].items():
        lines += [""] + wrap(names[key] + ":")
        rows = [(label, _ci(f["steps"][k]), f"{f['steps'][k]['n']:,}",
                 "yes" if holds(f["steps"][k]) else "no") for k, label, _ in STEPS]
        rows.append(("Brier score", _ci(f["brier"]).replace("+", ""), f"{f['brier']['n']:,}",
                     ""))
        lines += table([("step", "<", [x[0] for x in rows]),
                        ("mean [95% interval]", "<", [x[1] for x in rows]),
                        ("n", ">", [x[2] for x in rows]),
                        ("0 inside", "<", [x[3] for x in rows])], indent="  ")
        rel = f["reliability"]
        lines += [""] + table([
            ("P(win) quoted", "<", [f"{100 * x['bin'][0]:.0f}-{100 * x['bin'][1]:.0f}%"
                                    for x in rel]),
            ("decisions", ">", [f"{x['decisions']:,}" for x in rel]),
            ("mean quoted", ">", [_num(x["predicted"], True) for x in rel]),
            ("won", ">", [_num(x["won"], True) for x in rel]),
            ("95% interval", "<", [f"[{_num(x['won_ci95'][0], True)}, "
                                   f"{_num(x['won_ci95'][1], True)}]" for x in rel])],
            indent="  ")
    lines += [""] + wrap("Each step is measured from every decision, its interval clustered by "
                         "game. An honest P(win) moves by 0 on average at every step, and the "
                         "decisions quoted at x% are won x% of the time (docs/calibration.md).")
    lines += _luck_lines(r)
    return "\n".join(lines)


def _luck_lines(r: dict) -> list[str]:
    """The luck and skill over the games (luck_over), as a table."""
    f = r.get("luck_and_skill")
    if not f or not f["games"]:
        return []
    names = {"start": "start (P(win) before the deal)", "luck": "luck (the cards)",
             "skill": f"skill (seat {r['seat']}'s decisions)",
             "opponents": "opponents' decisions", "result": "result (won outright)",
             "residual": "residual (estimation noise)", "error_rate": "error rate per decision"}
    keys = list(names)
    lines = [""] + wrap(f"seat {r['seat']}'s P(win game) from before the deal to the result, "
                        "per game (points of %; docs/advisor.md, \"Luck and skill\"):")
    lines += table([("term", "<", [names[k] for k in keys]),
                    ("mean [95% interval]", "<", [_pct_ci(f[k], k not in ("start", "result"))
                                                    for k in keys])], indent="  ")
    lines += wrap(f"the residual's own 95% interval held 0 in {f['residual_covered']:,} of "
                  f"{f['games']:,} games.", indent="  ")
    return lines


def _pct_ci(d: dict, sign: bool = True) -> str:
    return points_ci(d["mean"], *d["ci95"], 1, sign)
