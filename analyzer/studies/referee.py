"""The referee's values of a game (analyzer.play.luck's luck and skill): the game walked
decision point by decision point (every seat's), each point seen by a referee who knows every
hand and pile but not the deck's order, and the seat's P(win game) there estimated on the models'
play (kernels.advisor.evaluate) in BLOCKS blocks, so that each change of it, measured on one set
of samples, gets its variance from the spread of its blocks. `measure` gives every change of a
game that is not zero by construction: a chance term where cards were revealed, a decision term
where a player's choice differs from its model's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Sequence

import numpy as np

from kernels import actions as kac
from kernels import advisor as ka
from kernels import cards as kc
from kernels import search as ksr
from kernels import state as ks
from kernels.engine import play_round, step
from kernels.game import deal, settle_round
from kernels.policies import EXTERNAL, bot_choice
from kernels.rng import seed_stream

Label = Callable[[np.ndarray, int], str]     # an action at a state, in words

MODEL_DRAWS = 64            # draws of a bot's choice that give the model's expectation
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
         seed: int, answer: Callable[[np.ndarray, int], int] | None = None,
         external: Collection[int] = (), max_rounds: int = 0
         ) -> tuple[list[Point], bool, list[int], np.ndarray]:
    """The game of (players, deck, target, pk/pp, seed) stopped at every seat's decision point,
    each answered by the seat's bot as the engine would (so it is the same game: the caller may
    check the trace), a seat of `external` by answer(state, seat) (the actions played from
    outside the engine: a page's game, a search player's); after `max_rounds` rounds (0: no
    limit) the game stops unwon. Returns the points, whether chance followed the last one, the
    winners and the trace."""
    ext = np.full_like(pk, EXTERNAL)
    s = ks.new_state()
    rng = seed_stream(seed, 0)
    tr = np.zeros((CAPACITY + 1, 5), dtype=np.int32)
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    points: list[Point] = []
    starter, rnd, chance = 0, 0, True
    while True:
        rnd += 1
        deal(s, players, deck, starter, rng, tr)
        play_round(s, ext, pp, rng, tr)
        chance = True
        while int(s[ks.DEC]) != kac.DEC_DONE:
            q = int(s[ks.CUR])
            a = answer(s, q) if q in external else int(bot_choice(s, pk, pp, rng)[0])
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


def measure(points: Sequence[Point], chance_after: bool, result: float,
            start: tuple[float, float], valuer: Valuer, pk: np.ndarray, pp: np.ndarray,
            seed: int, progress: Callable[[int, int], None] | None = None,
            stop: Callable[[], None] | None = None, label: Label | None = None) -> list[Term]:
    """Every change of the seat's P(win) from `start` (before the first deal; (mean, variance))
    to `result` that is not zero by construction, in game order: a chance term where cards
    were revealed since the last point, a decision term where the player's choice differs from
    its model's (pk/pp: model_choices). `label` names the actions in the terms' words."""
    label = label or (lambda s, a: f"action {a}")
    terms: list[Term] = []
    prev: Point | None = None
    for k, p in enumerate(points):
        if stop is not None:
            stop()
        model = model_choices(p.state, pk, pp, seed, k)
        if p.chance_before:
            v = valuer.value(p, model, 2 * k)
            if prev is None:            # the first deal: against start, measured apart
                t = _term("chance", None, p, _chance_words(prev, p, label), v - start[0])
                t.var = float(v.var(ddof=1) / len(v)) + start[1]
            else:
                t = _term("chance", None, p, _chance_words(prev, p, label),
                          v - valuer.action(prev, 2 * k))
            terms.append(t)
        if model != {p.action: 1.0}:
            terms.append(_term("decision", p.actor, p, label(p.state, p.action),
                               valuer.decision(p, model, 2 * k + 1)))
        prev = p
        if progress is not None:
            progress(k + 1, len(points))
    if chance_after and prev is not None:
        terms.append(_term("chance", None, prev, "the round's last cards",
                           result - valuer.action(prev, 2 * len(points))))
    return terms


def _chance_words(prev: Point | None, p: Point, label: Label) -> str:
    if prev is None or prev.round != p.round:
        return f"round {p.round} dealt"
    return f"after seat {prev.actor}: {label(prev.state, prev.action)}"
