"""Batch simulations: N independent rounds or N full games, reduced to JSON-ready summaries.

Each summary is a pure function of (players, count, policies, seed, expansion, target) except its
`timing` entry: blocks have fixed sizes and their own random streams (kernels.batch), so the
backend, thread count and worker count only change how fast the answer comes
(analyzer.backends). A run is planned (`plan_rounds`, `plan_games`: a Batch), run (a Runner) and
summarized (`summarize_rounds`, `summarize_games`); sweeps and tournaments run the batches of
all their seatings and grid points together.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from kernels import batch
from kernels import game as kg
from kernels import cards as kc
from kernels import policies as kp
from kernels.state import END_NAMES, TRIO_SLOT

from . import __version__
from .backends import Batch, Outcome, Progress, Runner, max_jobs  # noqa: F401 (re-exported)
from .policies import Policy, policy_arrays, rollout_arrays
from .runspec import DEFAULT_TARGETS, MAX_COUNT, Backend, RunSpec, run_seed  # noqa: F401
from .stats import mean_ci, wilson

# Pairs counted by the effect they were played for (kernels.policies action codes).
PLAYED_NAMES = {kp.A_FISH: "fish", kp.A_CRAB: "crab", kp.A_LOBSTER: "crab_lobster",
                kp.A_STEAL: "swimmer_shark", kp.A_LOCK: "swimmer_jellyfish", kp.A_BOAT: "boat",
                TRIO_SLOT: "trio"}


def new_seed() -> int:
    """A fresh random seed, for runs where the user gave none (it is recorded in the output)."""
    return secrets.randbelow(2 ** 63)


@dataclass
class Planned:
    """A batch and what its summary needs besides the counters."""
    batch: Batch
    policies: list[Policy]
    expansion: str


def plan(spec: RunSpec) -> Planned:
    """The batch of a run specification (validated when it was built: nothing is checked here)."""
    pols = list(spec.policies)
    pk, pp = policy_arrays(pols)
    rpk, rpp = rollout_arrays(pols)
    if spec.unit == "rounds":
        target = DEFAULT_TARGETS[spec.players] if rpk is not None else 0  # search seats value a game
    else:
        target = spec.target
    return Planned(Batch(spec.unit, spec.players, kc.deck_types(spec.expansion), spec.count, pk,
                         pp, spec.seed, target, rpk, rpp),
                   pols, spec.expansion)


def plan_rounds(players: int, rounds: int, policies: Sequence[str | Policy], seed: int,
                expansion: str) -> Planned:
    return plan(RunSpec.build(players, "rounds", rounds, policies, seed, expansion))


def plan_games(players: int, games: int, policies: Sequence[str | Policy], seed: int,
               expansion: str, target: int | None) -> Planned:
    return plan(RunSpec.build(players, "games", games, policies, seed, expansion, target))


def _timing(outcome: Outcome, unit: str) -> dict:
    t = dict(outcome.timing)
    t[f"{unit}_per_second"] = outcome.units / outcome.seconds if outcome.seconds else None
    return t


def _header(players: int, seed: int, policies, expansion: str) -> dict:
    return {
        "players": players,
        "seed": seed,
        "policies": [p.spec for p in policies],
        "expansion": expansion,
        "version": __version__,
    }


def _hist_stats(hist: np.ndarray) -> tuple[int, float, tuple[float, float]]:
    values = np.arange(hist.size, dtype=np.float64)
    n = int(hist.sum())
    mean, ci = mean_ci(float((values * hist).sum()), float((values ** 2 * hist).sum()), n)
    return n, mean, ci


def _last_chance_by_points(c: np.ndarray) -> dict:
    """LAST CHANCE calls and wins by the caller's card points at the call, with Wilson intervals."""
    out = {}
    for v in range(batch.HIST):
        calls = int(c[batch.R_LC_HIST + v])
        if calls:
            won = int(c[batch.R_LC_WON_HIST + v])
            out[str(v)] = {"calls": calls, "won": won, "rate": won / calls,
                           "ci95": list(wilson(won, calls))}
    return out


def _mermaid_payoff(c: np.ndarray) -> list[dict]:
    """Per number of mermaids held at the end of a scored round: player-rounds, mean round points
    and mean mermaid points (M of RULES.md §7), with intervals for the round points."""
    out = []
    for m in range(5):
        n = int(c[batch.R_MHELD + m])
        if n:
            mean, ci = mean_ci(float(c[batch.R_MHELD_PTS + m]), float(c[batch.R_MHELD_SQ + m]), n)
            out.append({"mermaids": m, "player_rounds": n, "round_points_mean": mean,
                        "round_points_ci95": list(ci),
                        "mermaid_points_mean": float(c[batch.R_MHELD_MPTS + m]) / n})
    return out


def game_round_stats(c: np.ndarray, players: int, games: int) -> dict:
    """The per-round statistics of a games run (kernels.game.GS_*), with intervals."""
    def g(i: int) -> int:
        return int(c[batch.G_STATS + i])

    def seats(i: int) -> list[int]:
        return [g(i + q) for q in range(players)]

    rounds, scored = g(kg.GS_ROUNDS), g(kg.GS_SCORED)
    lc, lc_won = seats(kg.GS_LC), seats(kg.GS_LC_WON)
    mpts = [mean_ci(float(g(kg.GS_MPTS + q)), float(g(kg.GS_MPTS_SQ + q)), scored)
            for q in range(players)]
    return {
        "rounds_played": rounds,
        "void_rounds": g(kg.GS_VOID),
        "void_rate": {"rate": g(kg.GS_VOID) / rounds, "ci95": list(wilson(g(kg.GS_VOID), rounds))},
        "turns_per_round_mean": g(kg.GS_TURNS) / rounds,
        "stop_calls": seats(kg.GS_STOP),
        "last_chance_calls": lc,
        "last_chance_won": lc_won,
        "last_chance_success": [{"rate": (w / n) if n else None, "ci95": list(wilson(w, n))}
                                for w, n in zip(lc_won, lc)],
        "mermaid_points_per_round_mean": [m for m, _ in mpts],
        "mermaid_points_per_round_ci95": [list(ci) for _, ci in mpts],
        "rounds_with_mermaids": seats(kg.GS_MHELD),
    }


def simulate_rounds(players: int, rounds: int, policies: Sequence[str] = ("baseline",),
                    seed: int | None = None, jobs: int | None = None, expansion: str = "base",
                    progress: Progress | None = None, scheduler: str | None = None,
                    checkpoint: str | None = None, resume: bool = False,
                    restart: bool = False) -> dict:
    """Simulate `rounds` independent rounds, each from a fresh shuffle with seat 0 starting.
    `scheduler`, `checkpoint`, `resume` and `restart` choose the backend
    (analyzer.backends.Runner)."""
    spec = RunSpec.build(players, "rounds", rounds, policies, seed, expansion,
                         backend=Backend(jobs, scheduler, checkpoint, resume, restart))
    planned = plan(spec)
    outcome = spec.backend.runner(progress).run([planned.batch],
                                                _describe(planned, "simulate --rounds"))
    return summarize_rounds(planned, outcome.counters[0], _timing(outcome, "rounds"))


def _describe(planned: Planned, command: str) -> dict:
    """The run's options, for checkpoint headers and mismatch messages."""
    b = planned.batch
    unit = "rounds" if b.kind == "rounds" else "games"
    out = {"command": command, "players": b.players, unit: b.count,
           "policies": [p.short for p in planned.policies], "expansion": planned.expansion}
    if b.kind == "games":
        out["target"] = b.target
    out["seed"] = b.seed
    return out


def summarize_rounds(planned: Planned, c: np.ndarray, timing: dict) -> dict:
    """The JSON-ready summary of a rounds batch from its summed counters."""
    players, rounds, pols = planned.batch.players, planned.batch.count, planned.policies
    expansion = planned.expansion
    ends = {END_NAMES[i]: int(c[batch.R_END + i]) for i in range(1, len(END_NAMES))}
    seat_mean, seat_ci = [], []
    for q in range(players):
        m, ci = mean_ci(float(c[batch.R_SEAT_SUM + q]), float(c[batch.R_SEAT_SQ + q]), rounds)
        seat_mean.append(m)
        seat_ci.append(list(ci))
    turns_mean, turns_ci = mean_ci(float(c[batch.R_TURNS_SUM]), float(c[batch.R_TURNS_SQ]), rounds)
    dhist = c[batch.R_DECL_HIST:batch.R_DECL_HIST + batch.HIST]
    ndecl, decl_mean, decl_ci = _hist_stats(dhist)
    thist = c[batch.R_TURNS_HIST:batch.R_TURNS_HIST + batch.HIST]
    out = _header(players, planned.batch.seed, pols, expansion)
    out.update({
        "rounds": rounds,
        "end": ends,
        "end_rate": {k: {"rate": v / rounds, "ci95": list(wilson(v, rounds))} for k, v in ends.items()},
        "seat_points_mean": seat_mean,
        "seat_points_ci95": seat_ci,
        "declared_rounds": ndecl,
        "declarer_card_points_mean": decl_mean,
        "declarer_card_points_ci95": list(decl_ci),
        "declarer_card_points_hist": {str(i): int(v) for i, v in enumerate(dhist) if v},
        "turns_mean": turns_mean,
        "turns_ci95": list(turns_ci),
        "turns_hist": {str(i): int(v) for i, v in enumerate(thist) if v},
        "pairs_played": {name: int(c[batch.R_PLAYED + a]) for a, name in PLAYED_NAMES.items()},
        "last_chance_by_points": _last_chance_by_points(c),
        "mermaid_payoff": _mermaid_payoff(c),
        **({"extra_salt": {
            "locks": int(c[batch.R_PLAYED + kp.A_LOCK]),
            "lobster_searches": int(c[batch.R_PLAYED + kp.A_LOBSTER]),
            "trios": int(c[batch.R_PLAYED + TRIO_SLOT]),
            "per_round": {"locks": c[batch.R_PLAYED + kp.A_LOCK] / rounds,
                          "lobster_searches": c[batch.R_PLAYED + kp.A_LOBSTER] / rounds,
                          "trios": c[batch.R_PLAYED + TRIO_SLOT] / rounds},
        }} if expansion == "extra-salt" else {}),
        "timing": timing,
    })
    return out


def simulate_games(players: int, games: int, policies: Sequence[str] = ("baseline",),
                   seed: int | None = None, jobs: int | None = None, expansion: str = "base",
                   target: int | None = None, progress: Progress | None = None,
                   scheduler: str | None = None, checkpoint: str | None = None,
                   resume: bool = False, restart: bool = False) -> dict:
    """Simulate `games` full games (RULES.md §8) to `target` (default 40/35/30 by players).
    `scheduler`, `checkpoint`, `resume` and `restart` choose the backend
    (analyzer.backends.Runner)."""
    spec = RunSpec.build(players, "games", games, policies, seed, expansion, target,
                         Backend(jobs, scheduler, checkpoint, resume, restart))
    planned = plan(spec)
    outcome = spec.backend.runner(progress).run([planned.batch],
                                                _describe(planned, "simulate --games"))
    return summarize_games(planned, outcome.counters[0], _timing(outcome, "games"))


def summarize_games(planned: Planned, c: np.ndarray, timing: dict) -> dict:
    """The JSON-ready summary of a games batch from its summed counters."""
    players, games, target = planned.batch.players, planned.batch.count, planned.batch.target

    def seats(offset: int) -> list[int]:
        return [int(c[offset + q]) for q in range(players)]

    wins = seats(batch.G_WINS)
    totals = [mean_ci(float(c[batch.G_TOTAL_SUM + q]), float(c[batch.G_TOTAL_SQ + q]), games)
              for q in range(players)]
    rounds_mean, rounds_ci = mean_ci(float(c[batch.G_ROUNDS_SUM]), float(c[batch.G_ROUNDS_SQ]), games)
    out = _header(players, planned.batch.seed, planned.policies, planned.expansion)
    out.update({
        "games": games,
        "target": target,
        "wins": wins,
        "win_rate": [{"rate": w / games, "ci95": list(wilson(w, games))} for w in wins],
        "shared_wins": int(c[batch.G_SHARED_GAMES]),
        "shared_wins_by_seat": seats(batch.G_SHARED),
        "mermaid_wins": int(c[batch.G_MERMAID_GAMES]),
        "mermaid_wins_by_seat": seats(batch.G_MERMAID),
        "rounds_per_game_mean": rounds_mean,
        "rounds_per_game_ci95": list(rounds_ci),
        "final_total_mean": [m for m, _ in totals],
        "final_total_ci95": [list(ci) for _, ci in totals],
        **game_round_stats(c, players, games),
        "timing": timing,
    })
    return out
