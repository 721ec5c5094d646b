"""Luck and skill in a reviewed game: the seat's chance to win the game followed from before the
first deal to the result, each change put down to the cards, to the seat or to an opponent.

A referee who knows every hand and pile but not the deck's order values each moment
(analyzer.studies.referee): the seat's P(win game) when every player plays on as its model (the
review's models: for a seed review the players' own policies). The game is walked decision point
by decision point (every seat's), and its P(win) changes at two kinds of event:

- a *decision* of seat q: the value of the action taken minus the model's expectation there (the
  mean over what the model would do). A player who plays as its model changes nothing; the
  seat's own decisions add up to its `skill`, the others' to `opponents`;
- *chance*: the cards revealed (draws, the deal of a round, a random steal, the lobster's reveal)
  between one decision point and the next: the value after them minus the value of the action
  before them, which is their expectation. These add up to `luck`.

`start` is the seat's rate of games won by the models over START_GAMES fresh games (its P(win)
before the first deal); `result` is 1 if the seat won the game outright, else 0. Each term is
measured on samples of its own (the values before and after on the same ones), its variance
from the spread of their blocks, so start + luck + skill + opponents differs from the result by
the estimation noise: `residual`. Every figure is in P(win game) (0 to 1) with its 95% interval.
A step with no chance in it and a choice the model makes for sure cost no samples.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Sequence

from ..numbers.estimates import Z95
from ..render.review_text import TERMS
from ..runs.spec import Backend
from ..studies.referee import LUCK, Point, Term, Valuer, measure
from .advisor import action_label

if TYPE_CHECKING:                 # annotations only: numpy is the caller's
    import numpy as np

START_GAMES = 4000          # fresh games that measure `start`


def start_value(players: int, policies: Sequence[str], seat: int, expansion: str, target: int,
                seed: int, backend: Backend | None) -> tuple[float, float]:
    """(mean, variance): the seat's rate of games won outright by the models, START_GAMES fresh
    games on a seed of their own."""
    from ..studies.simulate import simulate_games
    short = Backend(jobs=(backend or Backend()).jobs, keep=False)   # no checkpoint: a short run
    r = simulate_games(players, START_GAMES, policies, seed ^ LUCK, short, expansion, target)
    p = r["wins"][seat] / START_GAMES
    return p, p * (1 - p) / (START_GAMES - 1)


def decompose(points: Sequence[Point], chance_after: bool, won: bool, start: tuple[float, float],
              valuer: Valuer, pk: np.ndarray, pp: np.ndarray, seed: int,
              progress: Callable[[int, int], None] | None = None,
              stop: Callable[[], None] | None = None) -> dict:
    """The seat's P(win) from `start` to the result, term by term (module doc): a JSON-ready
    dict with start, luck, skill, opponents, result and residual (each {"mean", "ci95"}) and
    every term that is not zero by construction."""
    result = 1.0 if won else 0.0
    return summary(measure(points, chance_after, result, start, valuer, pk, pp, seed, progress,
                           stop, action_label), start, result, valuer.seat)


def summary(terms: Sequence[Term], start: tuple[float, float], result: float, seat: int) -> dict:
    """The sums of the terms by kind and the residual, each with its 95% interval."""
    def total(ts: Sequence[Term], extra: float = 0.0, extra_var: float = 0.0) -> dict:
        m = sum(t.mean for t in ts) + extra
        half = Z95 * math.sqrt(sum(t.var for t in ts) + extra_var)
        return {"mean": m, "ci95": [m - half, m + half]}

    luck = [t for t in terms if t.kind == "chance"]
    own = [t for t in terms if t.kind == "decision" and t.seat == seat]
    others = [t for t in terms if t.kind == "decision" and t.seat != seat]
    s = total([], start[0], start[1])
    parts = {"start": s, "luck": total(luck), "skill": total(own), "opponents": total(others)}
    explained = sum(v["mean"] for v in parts.values())
    res = total(terms, 0.0, start[1])
    half = (res["ci95"][1] - res["ci95"][0]) / 2
    resid = result - explained
    return {**parts, "result": result,
            "residual": {"mean": resid, "ci95": [resid - half, resid + half]},
            "counts": {"luck": len(luck), "skill": len(own), "opponents": len(others)},
            "events": [{"kind": t.kind, "seat": t.seat, "round": t.round, "turn": t.turn,
                        "words": t.words, "change": t.mean,
                        "ci95": [t.mean - Z95 * math.sqrt(t.var), t.mean + Z95 * math.sqrt(t.var)]}
                       for t in terms]}


def flat(d: dict) -> dict:
    """The summary's keys of a decomposition: each term's mean with `_lo`/`_hi`, the result."""
    out: dict = {"result": d["result"]}
    for k in TERMS:
        out[k], out[k + "_lo"], out[k + "_hi"] = d[k]["mean"], *d[k]["ci95"]
    return out


