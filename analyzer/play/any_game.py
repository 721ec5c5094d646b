"""Simulate, replay and advise any game that meets kernels.protocol: the bots play games to
their end, a game is told decision by decision, and a decision's options are ranked by P(win
game) with their intervals. Seastead's advice is this advice with its compiled rollouts; a new
game gets all three by meeting the protocol (docs/architecture.md, "A third game").

    from analyzer.play.any_game import advise, replay, simulate
    r = simulate(MyGame.deal, games=2000, seed=1)
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from kernels.protocol import Decision, Position, Values
from kernels.rng import seed_stream

from .. import __version__
from ..base.errors import SeasaltError
from ..numbers.estimates import wilson

Progress = Callable[[int, int], None]


def game_seed(seed: int, g: int) -> int:
    """Game g's seed in a run of `seed` (a stream per game: any games, any order)."""
    return int(seed_stream(seed, g)[0])


def play_out(pos: Position) -> Position:
    """The game played to its end by the game's bot."""
    while (d := pos.decision()) is not None:
        pos = pos.apply(pos.bot(d))
    return pos


def simulate(deal: Callable[[int], Position], games: int, seed: int,
             progress: Progress | None = None) -> dict:
    """`games` games of the bots, game g dealt by deal(game_seed(seed, g)): each seat's wins (a
    shared win a half) and mean margin, with 95% intervals, and the decisions per game."""
    if games < 1:
        raise SeasaltError(f"games must be at least 1, got {games}")
    wins = margins = None
    sq = None
    decisions = 0
    facts = None
    for g in range(games):
        pos = deal(game_seed(seed, g))
        facts = pos.facts
        while (d := pos.decision()) is not None:
            pos = pos.apply(pos.bot(d))
            decisions += 1
        res, mar = (np.array(x, dtype=float) for x in pos.result())
        wins = res if wins is None else wins + res
        margins = mar if margins is None else margins + mar
        sq = mar * mar if sq is None else sq + mar * mar
        if progress is not None:
            progress(g + 1, games)
    seats = []
    for q in range(len(wins)):
        mean = margins[q] / games
        sd = np.sqrt(max(0.0, sq[q] / games - mean * mean) * games / max(1, games - 1))
        half = 1.959963984540054 * sd / np.sqrt(games)
        lo, hi = wilson(float(wins[q]), games)
        seats.append({"seat": q, "wins": {"rate": float(wins[q]) / games, "ci95": [lo, hi]},
                      "margin": {"mean": float(mean), "ci95": [float(mean - half),
                                                               float(mean + half)]}})
    return {"command": "simulate", "game": facts.name, "version": __version__, "seed": seed,
            "games": games, "seats": seats, "decisions_per_game": decisions / games}


def replay(pos: Position) -> dict:
    """The game from `pos` to its end, the bots deciding: every decision with its options'
    count and the option taken, in the game's words; the result."""
    steps = []
    while (d := pos.decision()) is not None:
        i = pos.bot(d)
        steps.append({"seat": d.seat, "kind": pos.facts.decision_kinds[d.kind],
                      "options": len(d.options), "taken": i, "text": pos.option_text(d, i)})
        pos = pos.apply(i)
    res, mar = pos.result()
    return {"command": "replay", "game": pos.facts.name, "version": __version__,
            "seed": pos.seed, "decisions": steps, "result": list(res), "margin": list(mar)}


def rollout_values(pos: Position, d: Decision, samples: int, seed: int,
                   progress: Progress | None = None) -> Values:
    """Position.values for a game that offers `redeal(seat, rng) -> Position` (what the seat
    cannot see dealt anew, the decision unchanged): each redeal played on with each option,
    then by the bots to the end."""
    m = len(d.options)
    out = np.zeros((samples, m, 2))
    for r in range(samples):
        dealt = pos.redeal(d.seat, np.random.default_rng(game_seed(seed, r)))
        for i in range(m):
            end = play_out(dealt.apply(i))
            res, mar = end.result()
            out[r, i] = res[d.seat], mar[d.seat]
        if progress is not None:
            progress(r + 1, samples)
    return Values.of(out)


def advise(pos: Position, samples: int, seed: int, progress: Progress | None = None,
           values: Callable[..., Values] | None = None, rollout: str = "the game's bot") -> dict:
    """The decision's options ranked by P(win game) for the seat deciding, with 95% intervals
    and each one's paired difference from the best (`values`: pos.values unless given;
    `rollout`: who plays after the option, in words)."""
    d = pos.decision()
    if d is None:
        raise SeasaltError("the game is over: there is no decision to advise")
    v = (values or pos.values)(d, samples, seed, progress)
    best = v.best()
    options = []
    for i in range(len(d.options)):
        lo, hi = wilson(float(v.sums[i, 0]), v.n)
        diff, dlo, dhi = v.diff(i, best)
        options.append({"option": i, "row": [int(x) for x in d.options[i]],
                        "text": pos.option_text(d, i),
                        "win_game": {"rate": v.rate(i), "ci95": [lo, hi]},
                        "vs_best": {"diff": diff, "ci95": [dlo, dhi]},
                        "margin_mean": float(v.sums[i, 1]) / v.n})
    order = sorted(range(len(options)),
                   key=lambda i: (i != best, -v.sums[i, 0], -v.sums[i, 1], i))
    kind = pos.facts.decision_kinds[d.kind]
    return {"game": pos.facts.name, "version": __version__, "seed": seed, "samples": v.n,
            "rollout": rollout, "position": pos.describe(),
            "decision": {"seat": d.seat, "kind": kind, "options": len(d.options)},
            "best": best, "ranking": order, "options": options,
            "choice_row": [d.seat, kind, *options[best]["row"]]}
