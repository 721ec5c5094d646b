"""Batch simulations: N independent rounds or N full games, reduced to JSON-ready summaries.

Each summary is a pure function of (players, count, policies, seed, expansion, target) except its
`timing` entry: blocks have fixed sizes and their own random streams (kernels.batch), so the
backend, thread count and worker count only change how fast the answer comes
(analyzer.runs.backends). A run is a built RunSpec (analyzer.runs.spec): `run(spec)` plans it
(`plan`: a Batch), runs it on the spec's backend and summarizes it (`summarize_rounds`,
`summarize_games`). The command line builds the spec; `simulate_rounds` and `simulate_games` build
it from keywords (as `plan_rounds` and `plan_games` do for a plan alone). Sweeps and tournaments run
the batches of all their seatings and grid points together.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from kernels import cards as kc

from .. import __version__
from ..runs.batches import Progress
from .batch import Batch
from ..runs.backends import Outcome
from ..rules.policies import Policy, expert_meta, policy_arrays, rollout_arrays
from ..runs.spec import Backend, RunSpec
from ..rules.limits import DEFAULT_TARGETS
from ..numbers.catalogue import GAME_LAYOUTS, ROUND_STATS, ROUND_TABLES, estimates, render


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
        **expert_meta(policies),
    }


def simulate_rounds(players: int, rounds: int, policies: Sequence[str] = ("baseline",),
                    seed: int | None = None, backend: Backend | None = None,
                    expansion: str = "base", progress: Progress | None = None) -> dict:
    """Simulate `rounds` independent rounds, each from a fresh shuffle with seat 0 starting,
    on `backend` (threads, Dask, checkpoint: analyzer.runs.spec.Backend; None: Backend())."""
    return run(RunSpec.build(players, "rounds", rounds, policies, seed, expansion,
                             backend=backend), progress)


def run(spec: RunSpec, progress: Progress | None = None) -> dict:
    """The summary of a built run specification (rounds or games: simulate_rounds' or
    simulate_games' result), run on its backend; the command line builds the spec itself."""
    planned = plan(spec)
    outcome = spec.backend.runner(progress).run([planned.batch],
                                                _describe(planned, f"simulate --{spec.unit}"))
    summarize = summarize_rounds if spec.unit == "rounds" else summarize_games
    return summarize(planned, outcome.counters[0], _timing(outcome, spec.unit))


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
    """The JSON-ready summary of a rounds batch from its summed counters (every statistic of
    the catalogue, kernels.statistics ROUND_STATS)."""
    players, rounds = planned.batch.players, planned.batch.count
    est = estimates(c, ROUND_STATS, rounds, players)
    out = _header(players, planned.batch.seed, planned.policies, planned.expansion)
    out["rounds"] = rounds
    out.update(render(est, ROUND_TABLES))
    if planned.expansion == "extra-salt":
        played = out["pairs_played"]
        counts = {"locks": played["swimmer_jellyfish"], "lobster_searches": played["crab_lobster"],
                  "trios": played["trio"]}
        out["extra_salt"] = {**counts, "per_round": {k: v / rounds for k, v in counts.items()}}
    out["timing"] = timing
    return out


def simulate_games(players: int, games: int, policies: Sequence[str] = ("baseline",),
                   seed: int | None = None, backend: Backend | None = None,
                   expansion: str = "base", target: int | None = None,
                   progress: Progress | None = None) -> dict:
    """Simulate `games` full games (docs/rules.md, "A game") to `target` (default 40/35/30 by
    players), on `backend` (analyzer.runs.spec.Backend; None: Backend())."""
    return run(RunSpec.build(players, "games", games, policies, seed, expansion, target,
                             backend), progress)


def summarize_games(planned: Planned, c: np.ndarray, timing: dict) -> dict:
    """The JSON-ready summary of a games batch from its summed counters (kernels.statistics
    GAME_STATS, then the round statistics GAME_ROUND_STATS)."""
    players, games = planned.batch.players, planned.batch.count
    out = _header(players, planned.batch.seed, planned.policies, planned.expansion)
    out.update({"games": games, "target": planned.batch.target})
    for layout, start in GAME_LAYOUTS:
        out.update(render(estimates(c, layout, games, players, start)))
    out["timing"] = timing
    return out
