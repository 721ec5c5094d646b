"""Seastead at the table: a game as its setup and the choices made so far, stopped at its next
decision (kernels.seastead.table); answered by a person, a bot or the advisor through one
`apply`.

    g = Game(load(), Setup(), seed=7)
    d = g.decision()                  # seat, kind, the legal options, the state at that moment
    g = g.apply(0)                    # play option 0; g.decision() is None once the game is over

A decision with one option is never asked (the engine plays it). A game is the same game for
the same setup, seed and choices: the seed drives the shuffles (the dive deck's layers, the
specialist, dock and decree decks), the choices every decision.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernels.seastead import layout as L

from ..base.errors import SeasaltError
from .components import Components, Setup

Row = tuple[int, int, int, int, int, int]       # (seat, kind, a, b, c, d)
KINDS = L.KIND_NAMES


@dataclass(frozen=True, eq=False)
class Decision:
    """The decision a game stopped at: `seat` chooses one row of `options` (int32[n, 4], fields
    per kind in kernels.seastead.layout.K_*); `state` is the game's state at that moment."""
    seat: int
    kind: int
    options: np.ndarray
    state: np.ndarray

    @property
    def kind_name(self) -> str:
        return KINDS[self.kind]

    def row(self, i: int) -> Row:
        return (self.seat, self.kind, *(int(v) for v in self.options[i]))


@dataclass(frozen=True)
class Game:
    """A Seastead game at the table: components, setup, the seed of its shuffles, the choices."""
    comps: Components
    setup: Setup
    seed: int
    choices: tuple[Row, ...] = ()
    _stop: list = field(default_factory=list, init=False, repr=False, compare=False)

    def stream(self) -> np.ndarray:
        """The game's stream (kernels.rng.seed_stream(seed, 0): game 0 of `seastead simulate
        --seed S`), in the 8 words a table replay carries."""
        from kernels.rng import seed_stream
        rng = np.zeros(8, dtype=np.uint64)
        rng[:4] = seed_stream(self.seed, 0)
        return rng

    def params(self, model: np.ndarray | None = None) -> np.ndarray:
        """Every seat's parameters for a table replay: `model`'s rows (heuristic slots) or zeros,
        with P_ASK as the fallback once the choices are used up."""
        pp = np.zeros((2, L.MAX_PARAMS)) if model is None else model.astype(np.float64).copy()
        pp[:, L.H_FALLBACK] = L.P_ASK
        return pp

    def script(self, extra: int = 0) -> np.ndarray:
        sc = np.zeros((1 + len(self.choices) + extra, 6), dtype=np.int32)
        if self.choices:
            sc[1:1 + len(self.choices)] = np.array(self.choices, dtype=np.int32)
        return sc

    def play(self, trace_rows: int = 0) -> tuple[Decision | None, np.ndarray, np.ndarray]:
        """(the decision the game stops at or None if it is over, the state then, the trace)."""
        from kernels.seastead.players import Asked
        from kernels.seastead.table import replay
        s = np.zeros(L.STATE_SIZE, dtype=np.int32)
        ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
        tr = np.zeros((trace_rows + 1 if trace_rows else 0, 5), dtype=np.int32)
        sc = self.script()
        sc[0, L.ASK_MODE] = L.ASK_STOP
        try:
            replay(s, self.comps.cp, self.setup.array(self.comps), self.params(), self.stream(),
                   tr, sc, ob)
            stop = None
        except Asked:
            n = int(sc[0, 5])
            stop = Decision(int(sc[0, 3]), int(sc[0, 4]), ob[:n].copy(), s.copy())
        if sc[0, 1] != 0 or int(sc[0, 0]) != len(self.choices):
            k = int(sc[0, 1] or sc[0, 0] + 1) - 1
            raise SeasaltError(f"choices[{k}] {self._row_text(k)} is not a legal option of the "
                               f"game at that point: remove it and the choices after it")
        return stop, s, tr

    def _row_text(self, k: int) -> str:
        if k >= len(self.choices):
            return "(none)"
        seat, kind, *rest = self.choices[k]
        name = KINDS[kind] if 0 <= kind < len(KINDS) else str(kind)
        return f"[{seat}, {name!r}, " + ", ".join(map(str, rest)) + "]"

    def decision(self) -> Decision | None:
        """The next decision, or None once the game is over (scored)."""
        if not self._stop:
            self._stop.append(self.play()[0])
        return self._stop[0]

    def apply(self, i: int) -> Game:
        """The game after the seat at the decision takes option i."""
        d = self.decision()
        if d is None:
            raise SeasaltError("the game is over: there is no decision to answer")
        if not 0 <= i < len(d.options):
            raise SeasaltError(f"option {i} does not exist: this {d.kind_name} decision has "
                               f"options 0 to {len(d.options) - 1}")
        return Game(self.comps, self.setup, self.seed, self.choices + (d.row(i),))

    def final(self) -> np.ndarray:
        """The scored state of a game that is over."""
        stop, s, _ = self.play()
        if stop is not None:
            raise SeasaltError("the game is not over: seat "
                               f"{stop.seat} has a {stop.kind_name} decision to make")
        return s


def heuristic_choice(game: Game, d: Decision, params: np.ndarray) -> int:
    """What a heuristic seat with `params` (float64[2, MAX_PARAMS]) takes at `d`."""
    from kernels.seastead.players import heuristic
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    ob[:len(d.options)] = d.options
    return int(heuristic(d.state.copy(), game.comps.cp, d.seat, d.kind, ob, len(d.options),
                         params.astype(np.float64)))


@dataclass(frozen=True)
class Values:
    """What `option_values` measured over n redeals: each option's summed result (a win 1, a
    shared win 0.5) and margin, and for every pair (i, j) the sum over redeals of the squared
    difference of their results (the same redeals for every option: differences are paired)."""
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
        """Most wins, then the larger margin, then the first listed (the search player's rule)."""
        m = len(self.sums)
        return max(range(m), key=lambda i: (self.sums[i, 0], self.sums[i, 1], -i))


def option_values(game: Game, d: Decision, model: np.ndarray, rounds: int, stream: np.ndarray,
                  chunk: int = 0, progress=None, only: list[int] | None = None) -> Values:
    """Each option of `d` (or the options `only`, in that order) played to the end on `rounds`
    redeals, every seat playing the heuristic with its row of `model` after the option
    (kernels.seastead.table.rollouts); `stream` (uint64[4], the redeals' stream) is advanced."""
    from kernels.seastead.table import rollouts
    opts = np.array(range(len(d.options)) if only is None else only, dtype=np.int64)
    m = len(opts)
    sums, pair_sq = np.zeros((m, 2)), np.zeros((m, m))
    s = np.zeros(L.STATE_SIZE, dtype=np.int32)
    ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
    start = game.stream()[:4].copy()
    pp, cfg, sc = game.params(model), game.setup.array(game.comps), game.script()
    done, chunk = 0, chunk or rounds
    while done < rounds:
        out = np.zeros((min(chunk, rounds - done), m, 2))
        rollouts(s, game.comps.cp, cfg, pp, start, sc, d.seat, opts, stream, out, ob)
        sums += out.sum(axis=0)
        w = out[:, :, 0]
        pair_sq += ((w[:, :, None] - w[:, None, :]) ** 2).sum(axis=0)
        done += len(out)
        if progress is not None:
            progress(done, rounds)
    return Values(rounds, sums, pair_sq)
