"""The run specification: what a simulation run is, validated once where it is built.

    spec = RunSpec.build(players=3, unit="games", count=20_000, policies=["baseline"], seed=7)

A RunSpec is frozen: the command line builds it in one place (analyzer.faces.options.spec_of),
and the studies whose spec holds one take it whole (simulate.run; a tournament's, a sweep's, a
replay's and a review's spec carry it, built through analyzer.studies.rotation.rotated_spec for
rotated lineups). It reaches the Runner unchanged; nothing after `build` checks players, seed,
target, count or policies again. The checks themselves are analyzer.rules.limits' free
functions, one per fact, also used by studies whose runs share some facts (a sweep's player
counts, a tournament's lineup). Every study's spec and run are listed in
analyzer.faces.studies.

Errors speak of parameters ("players must be 2, 3 or 4, got 5", SeasaltError.param = "players");
the command line maps them to its flags (analyzer.base.errors.FLAGS).

Where a run is computed is one Backend: the command line builds it from its flags in one place
(analyzer.faces.options.backend_of), and every study takes it whole as `backend` (None: the
default Backend()); no study builds one from loose jobs, scheduler or checkpoint values.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Sequence

from ..rules.notation import check_expansion
from ..base.errors import SeasaltError
from ..rules.limits import (check_count, check_players, check_target, flag, run_seed,
                           whole)
from ..rules.policies import Policy, seat_policies

UNITS = ("rounds", "games")


@dataclass(frozen=True)
class Backend:
    """Where and how a run's tasks are computed (analyzer.runs.backends.Runner's options): the
    command line builds one from its flags (analyzer.faces.options.backend_of), studies take it
    as `backend`, and `runner()` is the one way to make a Runner."""
    jobs: int | None = None
    scheduler: str | None = None
    checkpoint: str | None = None
    resume: bool = False
    restart: bool = False
    keep: bool = True       # False: keep no checkpoint (short runs identical ones may make at once)

    def __post_init__(self) -> None:
        """Each option's type checked where a Backend is made (jobs=1.5 is refused, not rounded);
        the values where it runs (Runner.check: jobs within the cores)."""
        if self.jobs is not None:
            whole(self.jobs, "jobs")
        for name in ("scheduler", "checkpoint"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, (str, os.PathLike)):
                raise SeasaltError(f"{name} must be text, got {value!r}", param=name)
        for name in ("resume", "restart", "keep"):
            flag(getattr(self, name), name)

    def runner(self, progress=None):
        from .backends import Runner
        return Runner(self.jobs, self.scheduler, self.checkpoint, self.resume, progress,
                      self.restart, self.keep)


ONE_THREAD = Backend(jobs=1)     # the play session's short runs: one thread
# `seasalt warmup`'s tiny runs: one thread, no checkpoint, so that a killed warmup leaves nothing
# a later run must resume and two warmups at once never meet in one
WARMUP = Backend(jobs=1, keep=False)


def as_backend(backend: Backend | None) -> Backend:
    """The Backend a study was given (None: the default one); anything else is refused."""
    if backend is None:
        return Backend()
    if not isinstance(backend, Backend):
        raise SeasaltError(f"backend must be a seasalt.Backend such as Backend(jobs=2), got "
                           f"{backend!r}", param="backend")
    return backend


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
        backend = as_backend(backend)
        seed = run_seed(seed, backend.resume)
        if unit == "rounds":
            if target is not None:
                raise SeasaltError("target applies only to games", param="target")
        else:
            target = check_target(target, players)
        pols = tuple(seat_policies(policies, players))
        return cls(players, unit, int(count), seed, expansion, pols, target, backend)

    @property
    def specs(self) -> list[str]:
        return [p.spec for p in self.policies]
