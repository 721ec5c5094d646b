"""How much of a game is luck: games of a strong player (the expert) among baseline players,
each reviewed for its luck and skill (analyzer.play.luck) with every seat's model the baseline,
so that the strong seat's `skill` is what its decisions add over the baseline's.

Per game, every change of the strong seat's P(win game) is either the cards' (a chance term) or
a decision's. Squared and summed over the game (less each term's estimation variance, so that
noise does not count as movement), they say how much of what moved the seat's chances during the
game came from the cards: the *luck share*, over the games the ratio of the sums, its 95% interval
by the delta method. Also the strong player's edge (its decisions' mean change of P(win) a game),
and the spread of a game's luck (its standard deviation, less the estimation noise).

A batch of G games is a Runner batch whose block is one game (game g: its own seed, the strong
player in seat g mod P), its counters the game's figures in fixed point (FIXED units per 1), so
that the study runs, resumes and sums as every other (analyzer.runs)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..numbers.estimates import Z95, mean_ci
from ..rules.limits import DEFAULT_TARGETS
from ..rules.policies import parse_policy, policy_arrays, seat_policies, short_spec
from ..runs.batches import TaskGrid
from .rotation import derive_seed

FIXED = 10 ** 9
# A game's counters, in this order (fixed point but GAMES and WON).
FIGURES = ("games", "won", "start", "luck", "luck2", "luck3", "luck4", "skill", "skill2",
           "residual", "residual2", "q_luck", "q_all", "q_luck2", "q_all2", "q_luck_all",
           "noise_luck")
AT = {name: i for i, name in enumerate(FIGURES)}


@dataclass(frozen=True, eq=False)
class LuckBatch(TaskGrid):
    """`count` games of `strong` among baseline players (module doc), each reviewed on `samples`
    samples per term; `starts` is each seat's P(win) when every seat plays the baseline. A
    block is one game, a task one block; it declares its own driver."""
    players: int
    strong: str
    count: int
    seed: int
    samples: int
    starts: tuple[float, ...]
    kind: str = "luck"
    unit: str = "games"
    engine: str = "luck"

    @property
    def block(self) -> int:
        return 1

    @property
    def width(self) -> int:
        return len(FIGURES)

    def driver(self):
        return run_luck_games

    def task_blocks(self) -> int:
        return 1

    def args(self) -> tuple:
        return (self.players, self.strong, self.seed, self.samples, self.starts)

    def key(self) -> dict:
        return {"kind": self.kind, "players": self.players, "strong": self.strong,
                "count": self.count, "seed": self.seed, "samples": self.samples,
                "starts": list(self.starts)}


def run_luck_games(players: int, strong: str, seed: int, samples: int,
                   starts: tuple[float, ...], lo: int, out: np.ndarray) -> None:
    """Games lo .. lo + out.shape[0] - 1 of a LuckBatch, each into its row of `out`."""
    from kernels import cards as kc
    from . import referee as luck
    deck = kc.deck_types("base")
    target = DEFAULT_TARGETS[players]
    mk, mp = policy_arrays(seat_policies(["baseline"], players))
    for row, g in enumerate(range(lo, lo + out.shape[0])):
        q = g % players
        specs = ["baseline"] * players
        specs[q] = strong
        pk, pp = policy_arrays(seat_policies(specs, players))
        s = derive_seed(seed, g)
        points, after, winners, _ = luck.walk(players, deck, target, pk, pp, s)
        result = 1.0 if winners == [q] else 0.0
        terms = luck.measure(points, after, result, (starts[q], 0.0),
                             luck.Valuer(q, mk, mp, deck, target, samples, s), mk, mp, s)
        out[row] = game_counters(terms, q, result, starts[q])


def game_counters(terms, seat: int, result: float, start: float) -> np.ndarray:
    """One game's FIGURES (module doc) from its terms (analyzer.play.luck.Term)."""
    chance = [t for t in terms if t.kind == "chance"]
    mine = [t for t in terms if t.kind == "decision" and t.seat == seat]
    luck = sum(t.mean for t in chance)
    skill = sum(t.mean for t in mine)
    residual = result - start - sum(t.mean for t in terms)
    q_luck = sum(t.mean ** 2 - t.var for t in chance)
    q_all = sum(t.mean ** 2 - t.var for t in terms)
    v = {"games": 1, "won": int(result), "start": start, "luck": luck, "luck2": luck ** 2,
         "luck3": luck ** 3, "luck4": luck ** 4, "skill": skill, "skill2": skill ** 2, "residual": residual, "residual2": residual ** 2,
         "q_luck": q_luck, "q_all": q_all, "q_luck2": q_luck ** 2, "q_all2": q_all ** 2,
         "q_luck_all": q_luck * q_all, "noise_luck": sum(t.var for t in chance)}
    return np.array([v[k] if k in ("games", "won") else round(v[k] * FIXED) for k in FIGURES],
                    dtype=np.int64)


def plan(seed: int, games: int, samples: int, players=(2, 3, 4)) -> list[LuckBatch]:
    """A batch per player count: the expert of that count among baseline players; each seat's
    start measured on 50 games of baseline players per game studied (at least 2,000; a seed of
    its own)."""
    from ..runs.spec import Backend
    from .simulate import simulate_games
    out = []
    for p in players:
        r = simulate_games(p, max(2_000, 50 * games), ["baseline"], derive_seed(seed, 100 + p),
                           Backend(keep=False))
        starts = tuple(w / r["games"] for w in r["wins"])
        out.append(LuckBatch(p, parse_policy("expert", players=p).spec, games,
                             derive_seed(seed, p), samples, starts))
    return out


def frame(batches: list[LuckBatch], counters: list[np.ndarray]) -> pd.DataFrame:
    """One row per player count: the luck share, the strong player's edge, a game's luck spread,
    the mean luck and residual (0 when honest), each with its 95% interval."""
    rows = []
    for b, c in zip(batches, counters):
        f = {k: c[AT[k]] / (1 if k in ("games", "won") else FIXED) for k in FIGURES}
        n = int(f["games"])
        row = {"players": b.players, "player": short_spec(b.strong), "against": "baseline",
               "games": n, "samples": b.samples, "won": int(f["won"])}
        share, half = ratio(f, n)
        row.update(luck_share=share, luck_share_lo=share - half, luck_share_hi=share + half)
        for k in ("skill", "luck", "residual"):
            m, (lo, hi) = mean_ci(f[k], f[k + "2"], n)
            row.update({k: m, f"{k}_lo": lo, f"{k}_hi": hi})
        sd, lo, hi = spread(f, n)
        row.update(luck_sd=sd, luck_sd_lo=lo, luck_sd_hi=hi)
        rows.append(row)
    return pd.DataFrame(rows)


def spread(f: dict, n: int) -> tuple[float, float, float]:
    """(sd, lo, hi): the standard deviation of a game's luck less its estimation noise (the
    games' mean noise variance), its 95% interval from the variance's (normal, with the
    variance's standard error sqrt((m4 - s^4) / n) from the central moments)."""
    m = f["luck"] / n
    m2 = f["luck2"] / n - m * m
    m4 = (f["luck4"] / n - 4 * m * f["luck3"] / n + 6 * m * m * f["luck2"] / n
          - 3 * m ** 4)
    var = m2 - f["noise_luck"] / n
    half = Z95 * math.sqrt(max(m4 - m2 * m2, 0.0) / n) if n > 1 else math.nan
    root = lambda x: math.sqrt(max(x, 0.0))      # noqa: E731
    return root(var), root(var - half), root(var + half)


def ratio(f: dict, n: int) -> tuple[float, float]:
    """(R, half-width): R = sum q_luck / sum q_all over the games, its 95% half-width by the
    delta method from the games' sums, squares and cross products."""
    a, b = f["q_luck"] / n, f["q_all"] / n
    if n < 2 or b <= 0:
        return (a / b if b > 0 else math.nan), math.nan
    r = a / b
    saa = (f["q_luck2"] - n * a * a) / (n - 1)
    sbb = (f["q_all2"] - n * b * b) / (n - 1)
    sab = (f["q_luck_all"] - n * a * b) / (n - 1)
    var = max(saa - 2 * r * sab + r * r * sbb, 0.0) / (n * b * b)
    return r, Z95 * math.sqrt(var)
