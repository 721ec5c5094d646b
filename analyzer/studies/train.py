"""`seasalt train`: the expert's weights, by approximate policy iteration from the search player.

Generation 1: search players (the teachers) play games against themselves, the baseline and
the tuned player; at each of their decisions every legal action's features (kernels/expert.py)
and the search's estimate of its chance to win the game (kernels/expert_train.py) become one
row. The weights are the least-squares fit of the actions' values, relative to their decision,
by their features (a ridge of `ridge`). Generation k: the same with the teachers' rollouts and
model of the opponents played by generation k-1 (Tesauro and Galperin's rollout improvement,
repeated), the previous expert one more field. Each generation is measured head to head
against the one before and against the baseline (seats rotated).

Same seed, same weights: every block of games has its own stream from (seed, generation, field,
block); blocks are fitted in their order, with a fixed summation order (expert_train.accumulate),
and the weights are rounded to 9 significant digits, so thread count and machine do not move
them. The file holds the rows and measurements of every generation; the CPU time (compiling
included) is only said, since it is not the same on two machines.
"""
from __future__ import annotations

import concurrent.futures as cf
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from kernels import cards as kc
from kernels import policy_slots as slots

from .. import __version__
from ..base.errors import SeasaltError
from ..numbers.estimates import wilson
from ..rules.expert import dump
from ..rules.limits import DEFAULT_TARGETS
from ..rules.policies import parse_policy, policy_arrays

BLOCKS = 8                      # blocks of games per field (the unit of work and of seeding)
ROWS_PER_BLOCK = 400_000        # room for one block's rows (a 2-player game writes about 500)
TEACHER_FIRST = ("threshold(stop_at=8,last_chance_at=8)", "threshold(stop_at=7,last_chance_at=7)")
FIELDS = ("baseline", "tuned")  # bots the teachers also meet, besides themselves


@dataclass(frozen=True)
class TrainSpec:
    """What `seasalt train` does: for each player count, `generations` generations of
    `games` teacher games per field at `samples` deals a decision, a ridge of `ridge`, each
    generation measured over `eval_games` games."""
    players: tuple[int, ...] = (2, 3, 4)
    generations: int = 2
    games: int = 800
    samples: int = 256
    eval_games: int = 4000
    ridge: float = 1.0
    seed: int = 2026
    jobs: int = 2

    @classmethod
    def build(cls, **values) -> "TrainSpec":
        """A checked spec from any of the fields (a SeasaltError names the option at fault)."""
        return cls(**values).check()

    def check(self) -> "TrainSpec":
        for p in self.players:
            if p not in (2, 3, 4):
                raise SeasaltError(f"--players takes 2, 3 or 4, got {p}")
        for name, low in (("generations", 1), ("games", BLOCKS), ("samples", 1),
                          ("eval_games", 2), ("jobs", 1)):
            if getattr(self, name) < low:
                raise SeasaltError(f"--{name.replace('_', '-')} must be at least {low}")
        return self


@dataclass
class Generation:
    """One generation's weights and its measurements."""
    players: int
    index: int
    weights: np.ndarray
    rows: int
    decisions: int
    seconds: float
    vs_previous: tuple[float, float, float] | None = None     # win rate [95%] against gen - 1
    vs_baseline: tuple[float, float, float] | None = None
    measures: dict = field(default_factory=dict)


def _seats(kinds: list, players: int) -> tuple[np.ndarray, np.ndarray]:
    """pk, pp of seats given as spec strings or weight vectors (an expert with those weights)."""
    pk = np.zeros(players, dtype=np.int64)
    pp = np.zeros((players, slots.MAX_PARAMS), dtype=np.float64)
    for q, s in enumerate(kinds):
        if isinstance(s, np.ndarray):
            pk[q] = slots.EXPERT
            pp[q, :slots.E_SIZE] = s
        else:
            k, v = policy_arrays([parse_policy(s, players=players)])
            pk[q], pp[q] = k[0], v[0]
    return pk, pp


def _fields(players: int, samples: int, previous: np.ndarray | None):
    """(seats, rollout player, opponents' model) of each field of a generation's teacher games:
    self-play (base game and Extra Salt), then the teacher in each seat in turn against each bot
    of FIELDS and the previous generation."""
    teacher = f"search(samples={samples})"
    me, model = TEACHER_FIRST if previous is None else (previous, previous)
    out = [([teacher] * players, me, model, "base"), ([teacher] * players, me, model, "extra-salt")]
    for opp in FIELDS + (() if previous is None else ("previous",)):
        o = previous if opp == "previous" else opp
        for q in range(players):
            seats = [o] * players
            seats[q] = teacher
            out.append((seats, me, o, "base"))
    return out


def _label(players: int, seats, me, model, expansion: str, games: int, seed: int, jobs: int,
           A: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    """Play one field's teacher games in BLOCKS blocks and add their rows to A, b (in block
    order). Returns (rows, decisions)."""
    from kernels import expert_train as kt
    pk, pp = _seats(seats, players)
    rpk = np.zeros((players, players), dtype=np.int64)
    rpp = np.zeros((players, players, slots.MAX_PARAMS), dtype=np.float64)
    for o in range(players):
        if pk[o] == slots.SEARCH:
            rpk[o], rpp[o] = _seats([me if q == o else model for q in range(players)], players)
    deck = kc.deck_types(expansion)
    target = DEFAULT_TARGETS[players]
    per_block = max(1, games // BLOCKS)

    def block(i: int):
        X = np.zeros((ROWS_PER_BLOCK, slots.E_SIZE))
        R = np.zeros((ROWS_PER_BLOCK, kt.R_WIDTH))
        n = kt.label_games(players, deck, target, pk, pp, rpk, rpp, seed, i, per_block, X, R)
        return X, R, n

    rows = decisions = 0
    with cf.ThreadPoolExecutor(jobs) as ex:
        for X, R, n in ex.map(block, range(BLOCKS)):
            kt.accumulate(X, R, n, A, b)
            rows += n
            decisions += len(np.unique(R[:n, kt.R_GROUP]))
    return rows, decisions


def fit(A: np.ndarray, b: np.ndarray, ridge: float) -> np.ndarray:
    """The ridge solution of the normal equations, rounded to 9 significant digits."""
    w = np.linalg.solve(A + ridge * np.eye(A.shape[0]), b)
    return np.array([float(f"{x:.9g}") for x in w])


def match(a, b_, players: int, games: int, seed: int, jobs: int = 2) -> tuple[float, float, float]:
    """Outright win rate [95%] of player `a` in each seat in turn against `b_` in the others
    (a spec or expert weights), games // players per seating, base game."""
    from kernels import batch as kb
    wins = n = 0
    per = max(1, games // players)
    blocks = -(-per // kb.GAME_BLOCK)
    for q in range(players):
        pk, pp = _seats([a if i == q else b_ for i in range(players)], players)
        out = np.zeros((blocks, kb.G_SIZE), dtype=np.int64)

        def one(i: int) -> None:
            kb.run_engine(True, players, kc.deck_types("base"), per, DEFAULT_TARGETS[players], pk,
                          pp, seed + q, i, out[i:i + 1])

        with cf.ThreadPoolExecutor(jobs) as ex:
            list(ex.map(one, range(blocks)))
        wins += int(out[:, kb.G_WINS + q].sum())
        n += per
    lo, hi = wilson(wins, n)
    return wins / n, lo, hi


def train_players(spec: TrainSpec, players: int,
                  say: Callable[[str], None] = lambda _: None) -> list[Generation]:
    """Every generation of the expert for `players` players (train's module doc)."""
    gens: list[Generation] = []
    previous = None
    for g in range(1, spec.generations + 1):
        t0 = time.process_time()
        A = np.zeros((slots.E_SIZE, slots.E_SIZE))
        b = np.zeros(slots.E_SIZE)
        rows = decisions = 0
        fields = _fields(players, spec.samples, previous)
        for i, (seats, me, model, expansion) in enumerate(fields):
            games = spec.games if i < 2 else spec.games // players
            seed = (spec.seed * 100_000 + players * 10_000 + g * 100 + i) % (1 << 63)
            say(f"{players} players, generation {g}: teacher games {i + 1}/{len(fields)}")
            r, d = _label(players, seats, me, model, expansion, games // (2 if i < 2 else 1),
                          seed, spec.jobs, A, b)
            rows += r
            decisions += d
        w = fit(A, b, spec.ridge)
        say(f"{players} players, generation {g}: measuring")
        gen = Generation(players, g, w, rows, decisions, 0.0)
        gen.vs_baseline = match(w, "baseline", players, spec.eval_games, spec.seed + 7, spec.jobs)
        if previous is not None:
            gen.vs_previous = match(w, previous, players, spec.eval_games, spec.seed + 11,
                                    spec.jobs)
        gen.seconds = time.process_time() - t0
        gens.append(gen)
        previous = w
    return gens


def best(gens: list[Generation]) -> Generation:
    """The generation shipped: the one that wins most often against the baseline (a later
    generation can beat the one before head to head and still be weaker against the field)."""
    return max(gens, key=lambda g: g.vs_baseline[0])


def weights_data(spec: TrainSpec, results: dict[int, list[Generation]], command: str) -> dict:
    """The weights file's contents: the shipped generation per player count and the record of
    every generation."""
    pct = lambda t: None if t is None else [round(100 * x, 1) for x in t]   # noqa: E731
    return {
        "size": slots.E_SIZE, "blocks": [list(b) for b in slots.BLOCKS], "version": __version__,
        "command": command, "spec": {k: v for k, v in asdict(spec).items() if k != "jobs"},
        "players": {str(p): best(g).weights.tolist() for p, g in results.items()},
        "generations": {str(p): [{"generation": x.index, "rows": x.rows,
                                  "decisions": x.decisions,
                                  "win_rate_vs_previous": pct(x.vs_previous),
                                  "win_rate_vs_baseline": pct(x.vs_baseline),
                                  "shipped": x is best(g)} for x in g]
                        for p, g in results.items()},
    }


def run(spec: TrainSpec, command: str, say: Callable[[str], None] = lambda _: None
        ) -> tuple[str, dict[int, list[Generation]]]:
    """Run the whole training (of a spec built or checked): the weights file's text and every
    generation."""
    spec = spec.check()
    results = {p: train_players(spec, p, say) for p in spec.players}
    return dump(weights_data(spec, results, command)), results
