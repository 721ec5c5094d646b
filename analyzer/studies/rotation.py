"""Rotated seatings: the seed plan and the per-player aggregation shared by tournaments and sweeps.

A *lineup* is the list of specs for P seat slots. Rotation r (r = 0 .. P-1) seats slot i at seat
(i + r) mod P, so over the P rotations every slot sits in every seat exactly once and nobody gains
from sitting first. Each rotation is one games batch (`analyzer.studies.simulate.plan_games`):

* **Games**: a run of N games gives rotation r `N // P` games, plus one for the first `N % P`
  rotations, so the rotations together play exactly N games (`split_games`).
* **Seeds**: rotation r of a P-player run with seed S uses `rotation_seed(S, P, r)`, a 64-bit seed
  derived from (S, P, r) by numpy's SeedSequence (stable across numpy versions and machines). The
  seed does not depend on the specs, so the points of a sweep share their random streams (common
  random numbers: differences between points are less noisy than the separate intervals say),
  and a tournament and a sweep with the same seed and player count play on the same streams.
* **Aggregation** (`aggregate`): an *entrant* owns one or more slots (a tournament with fewer specs
  than seats fills the seats by cycling through them). Per entrant:
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
  With more than one seat per entrant its seats in one game are treated as independent for the
  intervals of `shared_rate`, `win_share` and `final_total_mean` (an approximation; the win rate's
  interval stays exact).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from ..rules.policies import Policy
from ..runs.spec import Backend, RunSpec
from ..rules.limits import DEFAULT_TARGETS
from .simulate import Planned, plan, summarize_games
from ..numbers.catalogue import GAME_LAYOUTS, counts
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


def aggregate(runs: list[RotationRun], owner: Sequence[int], entrants: int) -> list[dict]:
    """Per-entrant statistics (see the module doc), from the rotations' integer counters.
    `owner[i]` is the entrant of slot i."""
    players = len(owner)
    out = []
    for e in range(entrants):
        slots = [i for i in range(players) if owner[i] == e]
        games = wins = shared = 0
        share_sum = share_sq = 0.0
        total_cells = []
        for run in runs:
            n = run.games()
            games += n
            seats = [(i + run.rotation) % players for i in slots]
            w = sum(run.count("wins", q) for q in seats)
            sh = sum(run.count("shared", q) for q in seats)
            wins += w
            shared += sh
            shared_games = run.count("shared_games")
            k = sum(run.count("shared", q) for q in range(players)) / shared_games \
                if shared_games else 2.0
            share_sum += w + sh / k
            share_sq += w + sh / (k * k)
            total_cells += [(n, run.count("final_total", q), run.count("final_total", q, "sq"))
                            for q in seats]
        seat_games = games * len(slots)
        share_mean, share_ci = mean_ci(share_sum, share_sq, games)
        t_mean, t_lo, t_hi = stratified(total_cells)
        w_lo, w_hi = wilson(wins, games)
        s_lo, s_hi = wilson(shared, seat_games)
        out.append({
            "entrant": e,
            "seats": len(slots),
            "games": games,
            "wins": wins,
            "win_rate": wins / games,
            "win_rate_lo": w_lo,
            "win_rate_hi": w_hi,
            "fair_share": len(slots) / players,
            "shared_wins": shared,
            "shared_rate": shared / seat_games,
            "shared_rate_lo": s_lo,
            "shared_rate_hi": s_hi,
            "win_share": share_mean,
            "win_share_lo": share_ci[0],
            "win_share_hi": share_ci[1],
            "final_total_mean": t_mean,
            "final_total_lo": t_lo,
            "final_total_hi": t_hi,
        })
    return out


def rounds_per_game(runs: list[RotationRun]) -> tuple[float, float, float]:
    """Mean rounds per game over all rotations, with its stratified 95% interval."""
    return stratified([(r.games(), r.count("rounds_per_game"), r.count("rounds_per_game", 0, "sq"))
                       for r in runs])


def slot_round_stats(runs: list[RotationRun], slot: int) -> dict:
    """Round-level figures of the player in seat slot `slot` over every rotation, and of the
    rounds themselves: void-round rate, LAST CHANCE calls per round and their success, mermaid
    points per scored round; each with a 95% interval."""
    players = len(runs[0].seats)
    rounds = void = calls = won = 0
    cells, weights = [], []
    for run in runs:
        q = (slot + run.rotation) % players
        rounds += run.count("rounds_played")
        void += run.count("void")
        calls += run.count("last_chance_calls", q)
        won += run.count("last_chance_won", q)
        cells.append((run.count("scored"), run.count("mermaid_points", q),
                      run.count("mermaid_points", q, "sq")))
        # each rotation weighted by its rounds that were not void (as recorded in the fixtures;
        # the four-mermaid rounds among them have no mermaid-points observation)
        weights.append(run.count("rounds_played") - run.count("void"))
    void_lo, void_hi = wilson(void, rounds)
    calls_lo, calls_hi = wilson(calls, rounds)
    won_lo, won_hi = wilson(won, calls) if calls else (math.nan, math.nan)
    m_mean, m_lo, m_hi = stratified(cells, weights)
    return {
        "void_rate": void / rounds, "void_rate_lo": void_lo, "void_rate_hi": void_hi,
        "last_chance_per_round": calls / rounds,
        "last_chance_per_round_lo": calls_lo, "last_chance_per_round_hi": calls_hi,
        "last_chance_calls": calls,
        "last_chance_success": won / calls if calls else math.nan,
        "last_chance_success_lo": won_lo, "last_chance_success_hi": won_hi,
        "mermaid_points_per_round_mean": m_mean, "mermaid_points_per_round_lo": m_lo,
        "mermaid_points_per_round_hi": m_hi,
    }


def default_target(players: int, target: int | None) -> int:
    return DEFAULT_TARGETS[players] if target is None else target
