"""The specs of a replayed and of a reviewed game of bots: what the user asked, checked before
the engine loads (this module imports no kernel), so a mistake is one quick error line. Their runs
are analyzer.play.replay.run and analyzer.play.review.run."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..base.errors import SeasaltError
from ..rules.policies import check_review_options
from ..runs.spec import Backend, RunSpec


@dataclass(frozen=True)
class ReplaySpec:
    """One game to replay, validated once: game 0 of `game`, traced in `capacity` events (None:
    grown as needed up to MAX_CAPACITY; a number: TraceOverflow if the game needs more)."""
    game: RunSpec
    capacity: int | None = None

    @classmethod
    def build(cls, players: int, policies: Sequence[str] = ("baseline",),
              seed: int | None = None, expansion: str = "base", target: int | None = None,
              capacity: int | None = None) -> "ReplaySpec":
        """Check the game (a SeasaltError names the parameter at fault) and the capacity."""
        if capacity is not None and (type(capacity) is not int or capacity < 1):
            raise SeasaltError(f"capacity must be a whole number of events, at least 1, got "
                               f"{capacity!r}", param="capacity")
        return cls(RunSpec.build(players, "games", 1, policies, seed, expansion, target),
                   capacity)


@dataclass(frozen=True)
class ReviewSpec:
    """A review of one seat's decisions in a game of bots, validated once: the game (game 0 of
    `game`), the seat, the advisor's samples, the hand reading and its tremble, `model` (a bot's
    spec the reviewed seat plays on with, instead of its own) and `replay_file` (a `seasalt
    replay --json` of the game, checked against it)."""
    game: RunSpec
    seat: int = 0
    samples: int = 2000
    reading: str = "own"
    tremble: float | None = None
    model: str | None = None
    replay_file: dict | None = None

    @classmethod
    def build(cls, players: int, policies: Sequence[str] = ("baseline",), seed: int | None = None,
              seat: int = 0, samples: int = 2000, expansion: str = "base",
              target: int | None = None, backend: Backend | None = None, reading: str = "own",
              tremble: float | None = None, replay_file: dict | None = None,
              model: str | None = None) -> "ReviewSpec":
        """Check the game, the seat, the samples and the reading (a SeasaltError names the
        parameter at fault)."""
        game = RunSpec.build(players, "games", 1, policies, seed, expansion, target, backend)
        check_review_options(game, seat, samples, reading, tremble)
        return cls(game, seat, samples, reading, tremble, model, replay_file)
