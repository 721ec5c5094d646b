"""Answers about any game of kernels.protocol as text: the advice at a decision
(analyzer.play.any_game.advise; `seasalt seastead advise`), from its JSON-ready data."""
from __future__ import annotations

import json
from typing import Mapping

from .text_tables import WIDTH, fit, pct_digits, points_ci, rate_ci, wrap

OPTION_WIDTH = 60


def _cut(text: str) -> str:
    return text if len(text) <= OPTION_WIDTH else text[:OPTION_WIDTH - 3] + "..."


def _apart(nxt: Mapping, samples: int) -> str:
    """Whether the next best option is told apart from the best (their paired interval)."""
    lo, hi = nxt["vs_best"]["ci95"]
    if hi < 0:
        return (f"ahead of the next, \"{nxt['text']}\", by {-100 * hi:.1f} to {-100 * lo:.1f} "
                f"points of P(win game)")
    return (f"not told apart from \"{nxt['text']}\" at {samples:,} redeals (their difference's "
            f"interval holds 0: more --samples may separate them)")


def game_advice_text(r: Mapping) -> str:
    """One line per option, the best first (marked *): P(win game) [95%], its difference from
    the best's (paired: the same redeals) and the mean margin; then the best option, and whether
    it is told apart from the next best."""
    d = r["decision"]
    opts = [r["options"][i] for i in r["ranking"]]
    lines = wrap(f"{r['game']} advice: seat {d['seat']}'s {d['kind'].replace('_', ' ')} "
                 f"decision, {d['options']} options, {r['position']}", WIDTH)
    lines += wrap(f"Each option played to the end on {r['samples']:,} redeals of what seat "
                  f"{d['seat']} cannot see, every seat then playing {r['rollout']}: "
                  f"P(win game) of seat {d['seat']} with its 95% interval, its difference from the "
                  f"best option's in points (paired: the same redeals) and the mean score margin.",
                  WIDTH)
    digits = pct_digits(v for o in opts for v in (o["win_game"]["rate"], *o["win_game"]["ci95"]))
    keys = [("  option", "<", [("* " if k == 0 else "  ") + _cut(o["text"])
                               for k, o in enumerate(opts)])]
    lines += [""] + fit(keys, [
        ("P(win game)", ">", [rate_ci(o["win_game"]["rate"], *o["win_game"]["ci95"], digits)
                              for o in opts]),
        ("vs best", ">", ["" if k == 0 else points_ci(o["vs_best"]["diff"], *o["vs_best"]["ci95"])
                          for k, o in enumerate(opts)]),
        ("margin", ">", [f"{o['margin_mean']:+.2f}" for o in opts])], indent=" ") + [""]
    lines += wrap(f"best: {opts[0]['text']} (the choice {json.dumps(r['choice_row'])}); "
                  + (_apart(opts[1], r["samples"]) if len(opts) > 1 else "the only option"),
                  WIDTH)
    lines.append(f"seasalt {r['version']}; redeals --seed {r['seed']}")
    return "\n".join(lines)
