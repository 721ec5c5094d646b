"""Rotated seatings: the seed plan and the per-player aggregation shared by tournaments and sweeps.

A *lineup* is the list of specs for P seat slots. Rotation r (r = 0 .. P-1) seats slot i at seat
(i + r) mod P, so over the P rotations every slot sits in every seat exactly once and nobody gains
from sitting first. A lineup's run is one RunSpec (`rotated_spec`: the lineup, the games in all, the
seed), from which each rotation's games batch is derived (`rotations`):

* **Games**: a run of N games gives rotation r `N // P` games, plus one for the first `N % P`
  rotations, so the rotations together play exactly N games (`split_games`).
* **Seeds**: rotation r of a P-player run with seed S uses `rotation_seed(S, P, r)`, a 64-bit seed
  derived from (S, P, r) by numpy's SeedSequence (stable across numpy versions and machines). The
  seed does not depend on the specs, so the points of a sweep share their random streams (common
  random numbers: differences between points are less noisy than the separate intervals say),
  and a tournament and a sweep with the same seed and player count play on the same streams.
* **Aggregation** (`aggregate`): an *entrant* owns one or more slots (a tournament with fewer specs
  than seats fills the seats by cycling through them). Its row has every column of
  analyzer.numbers.catalogue.ROTATION_COLUMNS that the study carries, each pooled over the
  rotations and the entrant's seats by its kind (`pooled`: a count is summed; a rate is the pooled
  count over its pooled denominator with a Wilson interval; a mean is stratified over the
  rotation-and-seat cells, each weighted by its number of observations). Per entrant:
  - `wins`: games won outright by one of its seats (exact: outright wins are disjoint), with a
    Wilson interval over the games; under equal strength its expected rate is `seats / P`
    (`fair_share`).
  - `shared_wins`: shared wins summed over its seats (for an entrant with one seat: the games it
    shared), with `shared_rate` per seat played.
  - `win_share`: a game's win split among its winners (1 for an outright win, 1/k of a win shared
    by k), so the win shares of all entrants add up to 1 per game and equal strength gives exactly
    `seats / P`. The kernels count shared wins per seat, not by number of sharers: with 2 players
    k = 2 and the figure is exact; with 3 or 4, k is each rotation's average number of sharers
    (shared seats / shared games), exact whenever all shared games in a rotation have the same k.
    Normal 95% interval from the per-game shares.
  - `final_total_mean`: mean final total per seat played, with a 95% interval that combines the
    rotations' standard errors (a stratified estimate: the rotations are fixed by design).
  - sweeps also carry the swept player's round figures: void rounds (of all rounds), its LAST
    CHANCE calls per round played and their success, its mermaid points per scored round, and
    the rounds per game.
  With more than one seat per entrant its seats in one game are treated as independent for the
  intervals of `shared_rate`, `win_share` and `final_total_mean` (an approximation; the win rate's
  interval stays exact).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple, Sequence

import numpy as np

from ..rules.policies import Policy
from ..runs.spec import Backend, RunSpec, as_backend
from ..rules.limits import DEFAULT_TARGETS, run_seed
from .simulate import Planned, plan, summarize_games
from ..numbers.catalogue import GAME_LAYOUTS, ROTATION_COLUMNS, Pooled, counts, game_stat
from ..numbers.estimates import mean_ci, stratified, wilson


def derive_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed derived from `seed` and a path of non-negative integer keys."""
    ss = np.random.SeedSequence(entropy=int(seed), spawn_key=tuple(int(k) for k in keys))
    return int(ss.generate_state(1, dtype=np.uint64)[0])


def rotation_seed(seed: int, players: int, rotation: int) -> int:
    """The seed of rotation `rotation` of a `players`-player run with master seed `seed`."""
    return derive_seed(seed, players, rotation)


def split_games(games: int, parts: int) -> list[int]:
    """`games` split over `parts` rotations: N // P each, one more for the first N % P."""
    q, r = divmod(games, parts)
    return [q + (1 if i < r else 0) for i in range(parts)]


def seating(lineup: Sequence, rotation: int) -> list:
    """Specs by seat for a rotation: slot i sits at seat (i + rotation) mod P."""
    p = len(lineup)
    return [lineup[(q - rotation) % p] for q in range(p)]


def slot_at(seat: int, rotation: int, players: int) -> int:
    return (seat - rotation) % players


def rotated_spec(lineup: Sequence[str | Policy], games: int, seed: int | None,
                 expansion: str = "base", target: int | None = None,
                 backend: Backend | None = None) -> RunSpec:
    """The run specification of `games` games of `lineup` (one spec per seat slot) split over
    its rotations, validated once: at least one game per rotation. Its policies are by slot."""
    return RunSpec.build(len(lineup), "games", games, lineup, seed, expansion, target, backend,
                         min_count=len(lineup), why="one game per seating rotation")


def rotated_specs(lineups: Sequence[Sequence[str | Policy]], games: int, seed: int | None,
                  expansion: str = "base", target: int | None = None,
                  backend: Backend | None = None) -> list[RunSpec]:
    """The rotated specs of several lineups (a sweep's, one per player count) on one seed: a
    missing one is drawn, a given one checked, before any spec is built."""
    seed = run_seed(seed, as_backend(backend).resume)
    return [rotated_spec(lineup, games, seed, expansion, target, backend) for lineup in lineups]


class Asked(NamedTuple):
    """A rotated study's expansion and target as the user gave them (a target left out is None):
    its run's description (checkpoint header, messages) shows them so, its RunSpec resolved."""
    expansion: str
    target: int | None


@dataclass
class RotationRun:
    rotation: int
    seed: int
    seats: list[str]       # canonical spec per seat
    result: dict           # simulate_games output
    counters: np.ndarray   # its summed game counters (kernels.statistics GAME_STATS ...)

    def games(self) -> int:
        return self.result["games"]

    def count(self, name: str, seat: int = 0, part: str = "") -> int:
        """A counter of the run: statistic `name` of GAME_STATS or GAME_ROUND_STATS at `seat`."""
        for layout, start in GAME_LAYOUTS:
            if name in layout.by_name:
                return int(counts(self.counters, layout, name, start, part)[seat, 0])
        raise KeyError(name)


def plan_rotations(lineup: Sequence[str | Policy], games: int, seed: int,
                   expansion: str = "base", target: int | None = None) -> list[Planned]:
    """One games batch per rotation of `lineup` (one spec per seat slot); `games` in all."""
    return rotations(rotated_spec(lineup, games, seed, expansion, target))


def rotations(spec: RunSpec) -> list[Planned]:
    """The batches of a rotated run specification (rotated_spec): rotation r seats slot i at seat
    (i + r) mod P, on the seed rotation_seed(seed, P, r), with its share of the games."""
    p = spec.players
    return [plan(replace(spec, count=n, seed=rotation_seed(spec.seed, p, r),
                         policies=tuple(seating(spec.policies, r))))
            for r, n in enumerate(split_games(spec.count, p))]


def rotation_runs(planned: Sequence[Planned], counters: Sequence[np.ndarray],
                  timing: dict) -> list[RotationRun]:
    """The summaries of one lineup's rotations (batches of plan_rotations, in order)."""
    return [RotationRun(r, p.batch.seed, [x.spec for x in p.policies],
                        summarize_games(p, c, timing), np.asarray(c))
            for r, (p, c) in enumerate(zip(planned, counters))]


def _seats(run: RotationRun, slots: Sequence[int], stat: str) -> list[int]:
    """The seats of `slots` in rotation `run` for a per-seat statistic, else seat 0 once."""
    if not game_stat(stat).seats:
        return [0]
    return [(i + run.rotation) % len(run.seats) for i in slots]


def _per(run: RotationRun, col: Pooled, seats: Sequence[int]) -> list[int]:
    """The denominator of `col` at each of `seats` (the seats its statistic is counted at)."""
    if col.per in ("", "game"):
        return [run.games()] * len(seats)
    if game_stat(col.per).seats:
        return [run.count(col.per, q) for q in seats]
    return [run.count(col.per)] * len(seats)


def _count(runs, slots, col: Pooled) -> dict:
    return {col.column: sum(run.count(col.stat, q) for run in runs
                            for q in _seats(run, slots, col.stat))}


def _rate(runs, slots, col: Pooled) -> dict:
    k = n = 0
    for run in runs:
        seats = _seats(run, slots, col.stat)
        k += sum(run.count(col.stat, q) for q in seats)
        n += run.games() if col.per == "game" else sum(_per(run, col, seats))
    lo, hi = wilson(k, n) if n else (math.nan, math.nan)
    return {col.column: k / n if n else math.nan, f"{col.stem}_lo": lo, f"{col.stem}_hi": hi}


def _mean(runs, slots, col: Pooled) -> dict:
    cells = []
    for run in runs:
        seats = _seats(run, slots, col.stat)
        cells += [(n, run.count(col.stat, q), run.count(col.stat, q, "sq"))
                  for n, q in zip(_per(run, col, seats), seats)]
    m, lo, hi = stratified(cells)
    return {col.column: m, f"{col.stem}_lo": lo, f"{col.stem}_hi": hi}


def _fair(runs, slots, col: Pooled) -> dict:
    return {col.column: len(slots) / len(runs[0].seats)}


def _share(runs, slots, col: Pooled) -> dict:
    """The win share: 1 per outright win, 1/k per win shared by k (k: the rotation's mean
    number of sharers, see the module doc), with its normal interval over the games."""
    games = 0
    share_sum = share_sq = 0.0
    for run in runs:
        players = len(run.seats)
        seats = _seats(run, slots, "wins")
        w = sum(run.count("wins", q) for q in seats)
        sh = sum(run.count("shared", q) for q in seats)
        shared_games = run.count("shared_games")
        k = sum(run.count("shared", q) for q in range(players)) / shared_games \
            if shared_games else 2.0
        games += run.games()
        share_sum += w + sh / k
        share_sq += w + sh / (k * k)
    m, (lo, hi) = mean_ci(share_sum, share_sq, games)
    return {col.column: m, f"{col.stem}_lo": lo, f"{col.stem}_hi": hi}


_POOL = {"count": _count, "rate": _rate, "mean": _mean, "fair": _fair, "share": _share}


def pooled(runs: list[RotationRun], slots: Sequence[int], col: Pooled) -> dict:
    """Column `col` (and its interval) for the entrant holding seat slots `slots`."""
    return _POOL[col.how](runs, slots, col)


def column(name: str) -> Pooled:
    """The rotation column named `name` (analyzer.numbers.catalogue.ROTATION_COLUMNS)."""
    return next(c for c in ROTATION_COLUMNS if c.column == name)


def aggregate(runs: list[RotationRun], owner: Sequence[int], entrants: int,
              study: str = "t") -> list[dict]:
    """Per-entrant rows (see the module doc) from the rotations' integer counters: every column
    of ROTATION_COLUMNS that `study` ("t" tournaments, "s" sweeps) carries. `owner[i]` is the
    entrant of slot i."""
    players = len(owner)
    games = sum(run.games() for run in runs)
    out = []
    for e in range(entrants):
        slots = [i for i in range(players) if owner[i] == e]
        row = {"entrant": e, "seats": len(slots), "games": games}
        for col in ROTATION_COLUMNS:
            if study in col.rows:
                row.update(pooled(runs, slots, col))
        out.append(row)
    return out


def rounds_per_game(runs: list[RotationRun]) -> tuple[float, float, float]:
    """Mean rounds per game over all rotations, with its stratified 95% interval."""
    r = pooled(runs, [0], column("rounds_per_game_mean"))
    return r["rounds_per_game_mean"], r["rounds_per_game_lo"], r["rounds_per_game_hi"]


def default_target(players: int, target: int | None) -> int:
    return DEFAULT_TARGETS[players] if target is None else target
