"""The protocol every game seasalt plays meets, so that one advisor, replay and simulator serve
them all (analyzer.play.any_game), and a new game plugs in without an edit to analyzer/.

A game declares its facts once (`GameFacts`, as OpenSpiel's GameType and GameInfo do: its seats,
its kinds of decision, the most options a decision lists, the sizes of a state and of a trace
event). A position of the game (`Position`) is stopped at a decision point: it offers the
decision (`Decision`: the seat, the kind, the legal options as rows of integers, the state), a
new position for each option (`apply`), what a seat observes, the game's own bot, chance (the
values of the options, played to the end on redeals of what the deciding seat cannot see) and,
once no decision is left, the result. Nothing here is compiled: kernels run the games, this
names what they offer.

Sea Salt & Paper (analyzer.play.table: a Play-view game stopped at its seat's decision points,
kernels.engine's DEC_*, its values the advisor's evaluation) and Seastead (analyzer.seastead.table:
a game played again to its next decision by kernels.seastead.table) both meet it;
docs/architecture.md has the checklist for a third.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class GameFacts:
    """What a game is, declared once."""
    name: str
    seats: tuple[int, ...]              # the numbers of seats it is played with
    decision_kinds: tuple[str, ...]     # Decision.kind indexes these
    max_options: int                    # options one decision lists at most
    state_size: int                     # words of a position's state
    trace_width: int                    # words of one trace event (0: no trace)


@dataclass(frozen=True, eq=False)
class Decision:
    """A decision point: `seat` chooses one row of `options` (int[n, k]); `state` is the
    game's state at that moment (which may hold what the seat cannot see)."""
    seat: int
    kind: int
    options: np.ndarray
    state: np.ndarray

    def row(self, i: int) -> tuple[int, ...]:
        """Option i as a choice row: (seat, kind, *fields)."""
        return (self.seat, self.kind, *(int(v) for v in self.options[i]))


@dataclass(frozen=True)
class Values:
    """What rollouts measured over n redeals: each option's summed result (a win 1, a shared
    win 0.5, a loss 0) and summed score margin, and for every pair (i, j) the sum over redeals
    of the squared difference of their results (every option on the same redeals: paired)."""
    n: int
    sums: np.ndarray            # float64[m, 2]
    pair_sq: np.ndarray         # float64[m, m]

    def rate(self, i: int) -> float:
        return float(self.sums[i, 0]) / self.n

    def diff(self, i: int, j: int) -> tuple[float, float, float]:
        """P(win) of option i minus option j, with its paired 95% interval."""
        d = (self.sums[i, 0] - self.sums[j, 0]) / self.n
        if self.n < 2:
            return float(d), -1.0, 1.0
        var = max(0.0, (self.pair_sq[i, j] / self.n - d * d) * self.n / (self.n - 1))
        half = 1.959963984540054 * np.sqrt(var / self.n)
        return float(d), float(max(-1.0, d - half)), float(min(1.0, d + half))

    def best(self) -> int:
        """Most wins, then the larger margin, then the first listed."""
        m = len(self.sums)
        return max(range(m), key=lambda i: (self.sums[i, 0], self.sums[i, 1], -i))

    @classmethod
    def of(cls, results: np.ndarray) -> "Values":
        """From per-redeal results float64[n, m, 2] (result, margin)."""
        w = results[:, :, 0]
        return cls(len(results), results.sum(axis=0),
                   ((w[:, :, None] - w[:, None, :]) ** 2).sum(axis=0))

    def __add__(self, other: "Values") -> "Values":
        return Values(self.n + other.n, self.sums + other.sums, self.pair_sq + other.pair_sq)


@runtime_checkable
class Position(Protocol):
    """A position of a game, stopped at its next decision point (or over)."""
    facts: GameFacts
    seed: int

    def decision(self) -> Decision | None:
        """The decision to make now; None once the game is over."""

    def apply(self, i: int) -> "Position":
        """The position after the deciding seat takes option i."""

    def option_text(self, d: Decision, i: int) -> str:
        """Option i of d in the game's words."""

    def describe(self) -> str:
        """Where the game stands, in a few words (for the answers' first line)."""

    def observation(self, seat: int) -> dict:
        """What `seat` sees now (JSON-ready): never what it cannot see."""

    def result(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Once over: each seat's result (1 a win, 0.5 shared, 0 a loss) and score margin."""

    def bot(self, d: Decision) -> int:
        """The option the game's default player takes at d."""

    def values(self, d: Decision, samples: int, seed: int,
               progress: Callable[[int, int], None] | None = None) -> Values:
        """Every option of d played to the end on `samples` redeals of what d's seat cannot
        see, the same redeals for every option (analyzer.play.any_game.rollout_values does it
        for a game that offers `redeal`)."""
