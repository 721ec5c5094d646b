"""The run specification: what a simulation run is, validated once where it is built.

    spec = RunSpec.build(players=3, unit="games", count=20_000, policies=["baseline"], seed=7)

A RunSpec is frozen: click builds it (through the library functions), and it reaches the Runner
unchanged; nothing after `build` checks players, seed, target, count or policies again. The checks
themselves are the free functions below, one per fact, also used by studies whose runs share
some facts (a sweep's player counts, a tournament's lineup).

Errors speak of parameters ("players must be 2, 3 or 4, got 5", SeasaltError.param = "players");
the command line maps them to its flags (analyzer.faces.cli.FLAGS).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Sequence

from ..rules.notation import check_expansion
from ..base.errors import SeasaltError
from ..rules.policies import Policy, seat_policies

PLAYER_COUNTS = (2, 3, 4)
DEFAULT_TARGETS = {2: 40, 3: 35, 4: 30}
MAX_SEED = 2 ** 64 - 1
MAX_COUNT = 10 ** 12
MAX_TARGET = 10_000
UNITS = ("rounds", "games")


def check_players(players: int) -> int:
    """A player count of the game: 2, 3 or 4."""
    if players not in PLAYER_COUNTS:
        raise SeasaltError(f"players must be 2, 3 or 4, got {players}", param="players")
    return players


def check_seed(seed: int) -> int:
    """A seed of the random streams: 0 to 2**64-1."""
    if not 0 <= seed <= MAX_SEED:
        raise SeasaltError(f"seed must be between 0 and 2**64-1, got {seed}", param="seed")
    return int(seed)


def check_target(target: int | None, players: int) -> int:
    """A game's target score (None: the default for the player count)."""
    if target is None:
        return DEFAULT_TARGETS[players]
    if not 1 <= target <= MAX_TARGET:
        raise SeasaltError(f"target must be between 1 and {MAX_TARGET}, got {target}",
                           param="target")
    return target


def check_count(count: int, unit: str, low: int = 1, why: str = "", high: int = MAX_COUNT,
                high_text: str = "10**12") -> int:
    """A number of rounds, games (or pairs) from `low` (`why`: what the minimum stands for)."""
    if not low <= count <= high:
        lo = f"{low} ({why})" if why else str(low)
        raise SeasaltError(f"{unit} must be between {lo} and {high_text}, got {count}",
                           param=unit)
    return count


def check_jobs(jobs: int | None) -> int | None:
    """Threads or local worker processes: 1 to the core count (None: all of them)."""
    from .backends import max_jobs
    if jobs is not None and not 1 <= jobs <= max_jobs():
        raise SeasaltError(f"jobs must be between 1 and {max_jobs()} (cores), got {jobs}",
                           param="jobs")
    return jobs


def run_seed(seed: int | None, resume: bool = False) -> int:
    """The seed of a run: the given one (checked), or a fresh one (a resumed run must name its
    seed)."""
    if seed is None:
        if resume:
            raise SeasaltError("--resume needs the --seed of the interrupted run (its interrupt "
                               "message shows it)")
        return secrets.randbelow(2 ** 63)
    return check_seed(seed)


@dataclass(frozen=True)
class Backend:
    """Where and how a run's tasks are computed (analyzer.runs.backends.Runner's options)."""
    jobs: int | None = None
    scheduler: str | None = None
    checkpoint: str | None = None
    resume: bool = False
    restart: bool = False

    def runner(self, progress=None):
        from .backends import Runner
        return Runner(self.jobs, self.scheduler, self.checkpoint, self.resume, progress,
                      self.restart)


@dataclass(frozen=True)
class RunSpec:
    """One batch of `count` rounds or games: players, seat policies (parsed, aliases resolved),
    seed, target (games only; resolved to the default), expansion and backend."""
    players: int
    unit: str
    count: int
    seed: int
    expansion: str
    policies: tuple[Policy, ...]
    target: int | None = None
    backend: Backend = field(default_factory=Backend)

    @classmethod
    def build(cls, players: int, unit: str, count: int,
              policies: Sequence[str | Policy] = ("baseline",), seed: int | None = None,
              expansion: str = "base", target: int | None = None,
              backend: Backend | None = None, min_count: int = 1, why: str = "") -> "RunSpec":
        """Validate everything once (a SeasaltError names the parameter at fault); a missing
        seed becomes a fresh one."""
        if unit not in UNITS:
            raise ValueError(f"unknown unit {unit!r}")
        expansion = check_expansion(expansion)
        check_players(players)
        check_count(count, unit, min_count, why)
        backend = Backend() if backend is None else backend
        seed = run_seed(seed, backend.resume)
        if unit == "rounds":
            if target is not None:
                raise SeasaltError("target applies only to games", param="target")
        else:
            target = check_target(target, players)
        pols = tuple(seat_policies(list(policies), players))
        return cls(players, unit, int(count), seed, expansion, pols, target, backend)

    @property
    def specs(self) -> list[str]:
        return [p.spec for p in self.policies]
