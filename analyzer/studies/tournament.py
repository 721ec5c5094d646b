"""Tournaments: several players against each other in rotated seats, ranked with 95% intervals.

    df = tournament(["baseline", "baseline(stop_at=9)", "baseline(stop_at=12)"], players=3,
                    games=30_000, seed=1)

Each `--policy` is an *entrant* (two identical specs are two entrants). With fewer entrants than
seats, the seats are filled by cycling through them (3 entrants, 4 seats: A B C A), so an entrant
may hold more than one seat; its expected win rate under equal strength is then seats / P
(`fair_share`). The P seatings are rotations of that lineup and the N games are split between
them (N // P each, the first N % P rotations one more): `games` is the total, not per rotation.
Rotation r uses the seed `analyzer.studies.rotation.rotation_seed(seed, P, r)`. What each column means
and how its interval is made is in analyzer.studies.rotation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pandas as pd

from .. import __version__
from ..base.errors import SeasaltError
from ..rules.policies import Policy, expert_meta, parse_policy, resolve, short_spec
from .rotation import (Asked, aggregate, rotated_spec, rotation_runs, rotation_seed,
                       rotations, rounds_per_game)
from ..runs.spec import Backend, RunSpec
from ..rules.limits import check_players
from ..runs.batches import Progress
from ..render.tidy_frames import frame, join_specs


def lineup_of(policies: Sequence[str], players: int | None) -> tuple[int, list[Policy], list[int]]:
    """(players, policy per seat slot (parsed once, `tuned` resolved), entrant of each slot)."""
    parsed = [parse_policy(s) for s in policies]
    if len(parsed) < 2:
        raise SeasaltError(f"a tournament needs at least two --policy (entrants), got {len(parsed)}")
    players = check_players(len(parsed) if players is None else players)
    if len(parsed) > players:
        raise SeasaltError(f"{len(parsed)} --policy entrants do not fit {players} seats; "
                           f"give at most {players} or raise --players")
    entrants = [resolve(p, players) for p in parsed]
    owner = [i % len(entrants) for i in range(players)]
    return players, [entrants[o] for o in owner], owner


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament, validated once: the entrants as given (--policy), their lineup's rotated run
    (`games`: rotation.rotated_spec of lineup_of's seats) and the expansion and target as asked."""
    entrants: tuple[str, ...]
    games: RunSpec
    asked: Asked

    @classmethod
    def build(cls, policies: Sequence[str], players: int | None = None, games: int = 10_000,
              seed: int | None = None, expansion: str = "base", target: int | None = None,
              backend: Backend | None = None) -> "TournamentSpec":
        """Check the entrants, the players and the run (a SeasaltError names what is wrong)."""
        lineup = lineup_of(policies, players)[1]
        return cls(tuple(policies), rotated_spec(lineup, games, seed, expansion, target, backend),
                   Asked(expansion, target))


def run_tournament(policies: Sequence[str], players: int | None = None, games: int = 10_000,
                   seed: int | None = None, backend: Backend | None = None,
                   expansion: str = "base", target: int | None = None,
                   progress: Progress | None = None) -> tuple[pd.DataFrame, dict]:
    """The ranking DataFrame and a header (metadata, rotations with their seeds, timing), run on
    `backend` (analyzer.runs.spec.Backend; None: Backend())."""
    return run(TournamentSpec.build(policies, players, games, seed, expansion, target, backend),
               progress)


def run(t: TournamentSpec, progress: Progress | None = None) -> tuple[pd.DataFrame, dict]:
    """run_tournament of a built spec, run on its backend."""
    spec, entrants, asked = t.games, t.entrants, t.asked
    players = spec.players
    owner = [i % len(entrants) for i in range(players)]
    runner = spec.backend.runner(progress)
    runner.check()
    planned = rotations(spec)
    outcome = runner.run([p.batch for p in planned], {
        "command": "tournament", "entrants": [short_spec(s) for s in entrants], "players": players,
        "games": spec.count, "expansion": asked.expansion, "target": asked.target,
        "seed": spec.seed})
    lineup = spec.specs
    runs = rotation_runs(planned, outcome.counters, outcome.timing)
    nentrants = len(set(owner))
    rows = aggregate(runs, owner, nentrants)
    specs = [lineup[owner.index(e)] for e in range(nentrants)]
    for row in rows:
        row["spec"] = specs[row["entrant"]]
    rows.sort(key=lambda r: (-r["win_rate"], r["entrant"]))
    for i, row in enumerate(rows, 1):
        row["rank"] = i
    rpg = rounds_per_game(runs)
    res0 = runs[0].result
    meta = {
        "command": "tournament",
        "seed": spec.seed,
        "players": players,
        "expansion": res0["expansion"],
        "target": spec.target,
        "rotations": players,
        "lineup": join_specs(lineup),
        "version": __version__,
        **expert_meta(spec.policies),
    }
    df = frame(({"rank": r["rank"], "entrant": r["entrant"], "spec": r["spec"], **r}
                for r in rows), meta)
    header = dict(meta)
    header.update({
        "games": spec.count,
        "lineup": lineup,
        "entrants": specs,
        "rotation_runs": [{"rotation": r.rotation, "seed": r.seed, "games": r.result["games"],
                           "seats": r.seats} for r in runs],
        "rounds_per_game_mean": rpg[0],
        "rounds_per_game_ci95": [rpg[1], rpg[2]],
        "timing": {**outcome.timing, "games_per_second":
                   outcome.units / outcome.seconds if outcome.seconds else None},
    })
    return df, header


def tournament(policies: Sequence[str], players: int | None = None, games: int = 10_000,
               seed: int | None = None, backend: Backend | None = None,
               expansion: str = "base", target: int | None = None,
               progress: Progress | None = None) -> pd.DataFrame:
    """Rank `policies` (entrants) over `games` games in rotated seats; one row per entrant,
    sorted by outright win rate. `df.attrs["header"]` keeps the seeds of the rotations."""
    df, header = run_tournament(policies, players, games, seed, backend, expansion, target,
                                progress)
    df.attrs["header"] = {k: v for k, v in header.items() if k != "timing"}
    return df


__all__ = ["tournament", "run_tournament", "run", "TournamentSpec", "lineup_of", "rotation_seed"]
