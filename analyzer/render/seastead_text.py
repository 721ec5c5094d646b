"""Seastead's answers as text: the advice at a decision (`seasalt seastead advise`), from its
JSON-ready data (analyzer.seastead.advice.run)."""
from __future__ import annotations

import json
from typing import Mapping

from .text_tables import WIDTH, pct_digits, rate_ci, table, wrap

OPTION_WIDTH = 60


def _cut(text: str) -> str:
    return text if len(text) <= OPTION_WIDTH else text[:OPTION_WIDTH - 3] + "..."


def seastead_advice_text(r: Mapping) -> str:
    """One line per option, the best first (marked *): P(win game) [95%] and the mean margin;
    then the best option, and whether its interval is apart from the next best's."""
    d = r["decision"]
    opts = [r["options"][i] for i in r["ranking"]]
    lines = wrap(f"Seastead advice: seat {d['seat']}'s {d['kind'].replace('_', ' ')} decision "
                 f"in round {d['round']}, {d['options']} options, after {r['choices']} choices "
                 f"of game {r['game_seed']} ({r['setup']})", WIDTH)
    lines += wrap(f"Each option played to the end on {r['samples']:,} redeals of what no seat "
                  f"sees (the decks' orders), every seat then playing {r['model_label']}: "
                  f"P(win game) of seat {d['seat']} with its 95% interval, and the mean score "
                  f"margin.", WIDTH)
    digits = pct_digits(v for o in opts for v in (o["win_game"]["rate"], *o["win_game"]["ci95"]))
    lines += [""] + table([
        ("", "<", ["*" if k == 0 else "" for k in range(len(opts))]),
        ("option", "<", [_cut(o["text"]) for o in opts]),
        ("P(win game)", ">", [rate_ci(o["win_game"]["rate"], *o["win_game"]["ci95"], digits)
                              for o in opts]),
        ("margin", ">", [f"{o['margin_mean']:+.2f}" for o in opts])]) + [""]
    best = opts[0]
    row = json.dumps(r["choice_row"])
    text = f"best: {best['text']} (the choice {row})"
    if len(opts) > 1:
        nxt = opts[1]
        if best["win_game"]["ci95"][0] <= nxt["win_game"]["ci95"][1]:
            text += (f"; not told apart from \"{nxt['text']}\" at {r['samples']:,} redeals "
                     f"(the intervals overlap: more --samples separate them)")
        else:
            text += "; its interval is above every other option's"
    lines += wrap(text, WIDTH)
    lines.append(f"seasalt {r['version']}; redeals --seed {r['seed']}")
    return "\n".join(lines)
