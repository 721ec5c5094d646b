"""Luck and skill in a reviewed game: the seat's chance to win the game followed from before the
first deal to the result, each change put down to the cards, to the seat or to an opponent.

A referee who knows every hand and pile but not the deck's order values each moment: the seat's
P(win game) when every player plays on as its model (the review's models: for a seed review the
players' own policies). The game is walked decision point by decision point (every seat's), and
its P(win) changes at two kinds of event:

- a *decision* of seat q: the value of the action taken minus the model's expectation there (the
  mean over what the model would do, its choices counted from MODEL_DRAWS draws of the bot). A
  player who plays as its model changes nothing; the seat's own decisions add up to its `skill`,
  the others' to `opponents`;
- *chance*: the cards the deck revealed (draws, the deal of a round, a random steal, the lobster's
  reveal) between one decision point and the next: the value after them minus the value of the
  action before them, which is their expectation. These add up to `luck`.

`start` is the seat's rate of games won by the models over START_GAMES fresh games (its P(win)
before the first deal); `result` is 1 if the seat won the game outright, else 0. Each term is
measured on its own samples (common random numbers within a term), so start + luck + skill +
opponents differs from the result by the estimation noise: `residual`. Every figure is in P(win
game) (0 to 1) with its 95% interval (conservative: the variances of a term's two estimates add).
A step with no chance in it and a choice the model makes for sure cost no samples.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Collection, Sequence

import numpy as np

from kernels import actions as kac
from kernels import cards as kc
from kernels import search as ksr
from kernels import state as ks
from kernels.engine import play_round, step
from kernels.game import deal, settle_round
from kernels.policies import EXTERNAL, bot_choice
from kernels.rng import seed_stream

from kernels import advisor as ka

from ..numbers.estimates import Z95
from ..runs.spec import Backend
from .advisor import action_label

MODEL_DRAWS = 64            # draws of a bot's choice that give the model's expectation
START_GAMES = 4000          # fresh games that measure `start`
LUCK = 0x10C4_5EA5_A17D_0000  # the luck streams: seed ^ LUCK, apart from the review's own
SPACING = 1 << 32           # samples of event k start at k * SPACING
BLOCKS = 16                 # blocks of an estimate's samples (batch means: its variance)
CAPACITY = 200_000          # trace events of one game


@dataclass
class Point:
    """A decision point of the game, as the referee sees it."""
    state: np.ndarray       # the whole state (every hand; the deck's cards, not their order)
    totals: np.ndarray      # the running totals before this round (int64[MAX_PLAYERS])
    round: int
    turn: int
    actor: int
    action: int
    chance_before: bool     # cards were revealed (or a round dealt) since the previous point


def walk(players: int, deck: np.ndarray, target: int, pk: np.ndarray, pp: np.ndarray,
         seed: int, given: Sequence[int] = (), external: Collection[int] = (),
         max_rounds: int = 0) -> tuple[list[Point], bool, list[int], np.ndarray]:
    """The game of (players, deck, target, pk/pp, seed) stopped at every seat's decision point,
    each answered by the seat's bot as the engine would (so it is the same game: the caller may
    check the trace), a seat of `external` by the next action of `given` (the actions played
    from outside the engine, in order: a page's game); after `max_rounds` rounds (0: no limit)
    the game stops unwon. Returns the points, whether chance followed the last one, the
    winners and the trace."""
    ext = np.full_like(pk, EXTERNAL)
    s = ks.new_state()
    rng = seed_stream(seed, 0)
    tr = np.zeros((CAPACITY + 1, 5), dtype=np.int32)
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    points: list[Point] = []
    starter, rnd, chance = 0, 0, True
    moves = iter(given)
    while True:
        rnd += 1
        deal(s, players, deck, starter, rng, tr)
        play_round(s, ext, pp, rng, tr)
        chance = True
        while int(s[ks.DEC]) != kac.DEC_DONE:
            q = int(s[ks.CUR])
            a = next(moves) if q in external else int(bot_choice(s, pk, pp, rng)[0])
            points.append(Point(s.copy(), totals.copy(), rnd, int(s[ks.TURNS]) + 1,
                                int(s[ks.CUR]), a, chance))
            before = rng.copy()
            step(s, a, ext, pp, rng, tr)
            chance = not np.array_equal(before, rng)
        if settle_round(s, players, target, totals, winners):
            return points, chance, [q for q in range(players) if winners[q]], tr
        if rnd == max_rounds:
            return points, chance, [], tr
        starter = (int(s[ks.ENDER]) + 1) % players


def referee_view(s: np.ndarray, seat: int, full: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(template, pool): s with only the deck's order unknown (kernels.search.mark_known told
    every hand and the whole of both piles): the deck's unseen cards blanked, dealt again from
    the pool on every sample."""
    know = np.zeros(ksr.K_SIZE, dtype=np.int64)
    know[ksr.K_HAND:ksr.K_HAND + ks.MAX_PLAYERS * kc.NTYPES] = \
        s[ks.HT:ks.HT + ks.MAX_PLAYERS * kc.NTYPES]
    w = np.zeros(ksr.W_INT, dtype=np.int64)
    view = ks.new_state()
    m = int(ksr.mark_known(view, s, know, seat, full, w))
    return view, w[ksr.W_POOL:ksr.W_POOL + m].copy()


def model_choices(s: np.ndarray, pk: np.ndarray, pp: np.ndarray, seed: int, k: int
                  ) -> dict[int, float]:
    """What the model of the seat to play does at s: each action's share of MODEL_DRAWS draws of
    its bot (one action, share 1, for a bot that always chooses alike), on streams of its own."""
    counts: dict[int, int] = {}
    for i in range(MODEL_DRAWS):
        a = int(bot_choice(s, pk, pp, seed_stream(seed ^ LUCK ^ 1, k * SPACING + i))[0])
        counts[a] = counts.get(a, 0) + 1
    return {a: c / MODEL_DRAWS for a, c in counts.items()}


@dataclass
class Term:
    """One change of the seat's P(win): its mean and the variance of that estimate."""
    kind: str               # "chance" or "decision"
    seat: int | None        # who decided (None: chance)
    round: int
    turn: int
    words: str
    mean: float
    var: float


def _term(kind: str, seat: int | None, p: Point, words: str, blocks: np.ndarray) -> Term:
    """A term from its per-block estimates (equal blocks of the same samples: batch means)."""
    return Term(kind, seat, p.round, p.turn, words, float(blocks.mean()),
                float(blocks.var(ddof=1) / len(blocks)))


class Valuer:
    """The referee's P(win) of the reviewed seat at the game's points, on the review's models:
    each estimate in BLOCKS equal blocks of samples, so that a difference of two estimates on
    the same samples gets its variance from the spread of its blocks."""

    def __init__(self, seat: int, pk: np.ndarray, pp: np.ndarray, deck: np.ndarray, target: int,
                 samples: int, seed: int):
        self.seat, self.pk, self.pp, self.deck, self.target = seat, pk, pp, deck, target
        self.samples, self.seed = max(samples, BLOCKS), np.uint64(seed ^ LUCK)
        self.full = np.bincount(deck, minlength=kc.NTYPES).astype(np.int64)

    def wins(self, p: Point, actions: Sequence[int], k: int) -> np.ndarray:
        """float[BLOCKS, actions]: the seat's rate of games won in each block of the samples of
        event k, each action of `actions` taken at p (the models playing on)."""
        template, pool = referee_view(p.state, self.seat, self.full)
        na = len(actions)
        counts = np.zeros((BLOCKS, na, ka.NCOUNTERS), np.int64)
        cross = np.zeros((BLOCKS, na, na, ka.NCROSS), np.int64)
        raw = np.zeros((BLOCKS, 2), np.int64)
        ka.evaluate(template, pool, np.zeros(ks.MAX_PLAYERS, np.int64), np.zeros((0, 3), np.int64),
                    self.seat, np.array(actions, np.int64), self.pk, self.pp, self.deck,
                    self.target, p.totals, self.seed, k * SPACING, self.samples, counts, cross, raw)
        if raw[:, 1].any():
            raise RuntimeError("a referee's deal found no possible deal")
        n = np.diff((self.samples * np.arange(BLOCKS + 1)) // BLOCKS)
        return counts[:, :, ka.N_GAME] / n[:, None]

    def value(self, p: Point, model: dict[int, float], k: int) -> np.ndarray:
        """Per block: the seat's P(win) at p, the player to act choosing as `model`."""
        return self.wins(p, list(model), k) @ np.array(list(model.values()))

    def action(self, p: Point, k: int) -> np.ndarray:
        """Per block: the seat's P(win) after p's action."""
        return self.wins(p, [p.action], k)[:, 0]

    def decision(self, p: Point, model: dict[int, float], k: int) -> np.ndarray:
        """Per block: p's action's value minus the model's expectation (the same samples)."""
        acts = list(dict.fromkeys([p.action, *model]))
        w = self.wins(p, acts, k)
        return w[:, 0] - w @ np.array([model.get(a, 0.0) for a in acts])


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
    seat = valuer.seat
    terms: list[Term] = []
    prev: Point | None = None
    for k, p in enumerate(points):
        if stop is not None:
            stop()
        model = model_choices(p.state, pk, pp, seed, k)
        if p.chance_before:
            v = valuer.value(p, model, 2 * k)
            if prev is None:            # the first deal: against start, measured apart
                t = _term("chance", None, p, _chance_words(prev, p), v - start[0])
                t.var = float(v.var(ddof=1) / len(v)) + start[1]
            else:
                t = _term("chance", None, p, _chance_words(prev, p),
                          v - valuer.action(prev, 2 * k))
            terms.append(t)
        if model != {p.action: 1.0}:
            terms.append(_term("decision", p.actor, p, action_label(p.state, p.action),
                               valuer.decision(p, model, 2 * k + 1)))
        prev = p
        if progress is not None:
            progress(k + 1, len(points))
    result = 1.0 if won else 0.0
    if chance_after and prev is not None:
        terms.append(_term("chance", None, prev, "the round's last cards",
                           result - valuer.action(prev, 2 * len(points))))
    return summary(terms, start, result, seat)


def _chance_words(prev: Point | None, p: Point) -> str:
    if prev is None or prev.round != p.round:
        return f"round {p.round} dealt"
    return f"after seat {prev.actor}: {action_label(prev.state, prev.action)}"


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


TERMS = ("start", "luck", "skill", "opponents", "residual")


def flat(d: dict) -> dict:
    """The summary's keys of a decomposition: each term's mean with `_lo`/`_hi`, the result."""
    out: dict = {"result": d["result"]}
    for k in TERMS:
        out[k], out[k + "_lo"], out[k + "_hi"] = d[k]["mean"], *d[k]["ci95"]
    return out


WHAT = {"start": "before the first deal", "luck": "deals, draws, steals, reveals",
        "skill": "the seat's decisions vs its model",
        "opponents": "theirs vs their models", "residual": "estimation noise",
        "result": "1 won outright, else 0"}


def format_luck(r: dict, top: int = 3) -> list[str]:
    """A review's luck and skill (`r["luck"]`) as a table within 100 columns, and the biggest
    swings of luck."""
    from ..render.text_tables import table, wrap
    d, q = r.get("luck"), r["seat"]
    if not d:
        return []
    counts = d["counts"]
    rows = [(k, d[k]) for k in TERMS[:-1]] + [("residual", d["residual"])]
    lines = [""] + wrap(f"seat {q}'s chance to win the game from before the deal to the result "
                        "(points of %; a referee's view: every hand known, not the deck's order; "
                        "docs/advisor.md, \"Luck and skill\"):")
    lines += table([
        ("term", "<", [k for k, _ in rows] + ["result"]),
        ("change", ">", [f"{100 * v['mean']:.1f}" if k == "start" else f"{100 * v['mean']:+.1f}"
                         for k, v in rows] + [f"{100 * d['result']:.0f}"]),
        ("95% interval", "<", [_interval(v, k != "start") for k, v in rows]
         + ["won" if d["result"] else "not won"]),
        ("events", ">", ["", str(counts["luck"]), str(counts["skill"]), str(counts["opponents"]),
                         "", ""]),
        ("what", "<", [WHAT[k] for k, _ in rows] + [WHAT["result"]])], indent="  ")
    swings = sorted((e for e in d["events"] if e["kind"] == "chance"),
                    key=lambda e: -abs(e["change"]))[:top]
    if swings:
        lines += wrap("biggest swings of luck: " + "; ".join(
            f"round {e['round']}, turn {e['turn']}, {e['words']} {100 * e['change']:+.1f}"
            for e in swings) + ".", indent="  ", hang="    ")
    return lines


def _interval(v: dict, sign: bool) -> str:
    f = "+.1f" if sign else ".1f"
    return f"[{100 * v['ci95'][0]:{f}}, {100 * v['ci95'][1]:{f}}]"
