"""The limits of a run's parameters, one check per fact: player counts (2, 3 or 4), seeds, game
targets, numbers of rounds or games, and a run's seed (given or fresh). Errors speak of parameters
("players must be 2, 3 or 4, got 5", SeasaltError.param = "players"); the command line maps them to
its flags (analyzer.base.errors.FLAGS). Used where a RunSpec is built (analyzer.runs.spec) and by
whatever checks one of these facts alone (a scripted deal's players, a sweep's player counts).

The types come first (`whole`, `real`, `text`, `flag`): the Python face refuses what the command
line could not have been given (1000.5 rounds, seed 1.5, samples=True) instead of rounding it."""
from __future__ import annotations

import math
import numbers
import secrets

from ..base.errors import SeasaltError

PLAYER_COUNTS = (2, 3, 4)
DEFAULT_TARGETS = {2: 40, 3: 35, 4: 30}
MAX_SEED = 2 ** 64 - 1
MAX_COUNT = 10 ** 12
MAX_TARGET = 10_000
MAX_REVIEW_SAMPLES = 1_000_000
MAX_ADVISE_SAMPLES = 10_000_000


def whole(value, param: str) -> int:
    """`value` as an int if it is a whole number of an integer type (int, a numpy integer); a
    float, a bool or text is a SeasaltError naming `param`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SeasaltError(f"{param} must be a whole number, got {value!r}", param=param)
    return int(value)


def real(value, param: str) -> float:
    """`value` as a float if it is a finite number (not a bool or text)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not math.isfinite(value):
        raise SeasaltError(f"{param} must be a number, got {value!r}", param=param)
    return float(value)


def text(value, param: str, example: str = "") -> str:
    """`value` if it is a string (`example`: what one looks like, for the message)."""
    if not isinstance(value, str):
        like = f" such as {example}" if example else ""
        raise SeasaltError(f"{param} must be text{like}, got {value!r}", param=param)
    return value


def flag(value, param: str) -> bool:
    """`value` if it is True or False."""
    if not isinstance(value, bool):
        raise SeasaltError(f"{param} must be True or False, got {value!r}", param=param)
    return value


def check_players(players: int) -> int:
    """A player count of the game: 2, 3 or 4."""
    players = whole(players, "players")
    if players not in PLAYER_COUNTS:
        raise SeasaltError(f"players must be 2, 3 or 4, got {players}", param="players")
    return players


def check_seed(seed: int) -> int:
    """A seed of the random streams: 0 to 2**64-1."""
    seed = whole(seed, "seed")
    if not 0 <= seed <= MAX_SEED:
        raise SeasaltError(f"seed must be between 0 and 2**64-1, got {seed}", param="seed")
    return int(seed)


def check_target(target: int | None, players: int) -> int:
    """A game's target score (None: the default for the player count)."""
    if target is None:
        return DEFAULT_TARGETS[players]
    target = whole(target, "target")
    if not 1 <= target <= MAX_TARGET:
        raise SeasaltError(f"target must be between 1 and {MAX_TARGET}, got {target}",
                           param="target")
    return target


def check_count(count: int, unit: str, low: int = 1, why: str = "", high: int = MAX_COUNT,
                high_text: str = "10**12") -> int:
    """A number of rounds, games (or pairs) from `low` (`why`: what the minimum stands for)."""
    count = whole(count, unit)
    if not low <= count <= high:
        lo = f"{low} ({why})" if why else str(low)
        raise SeasaltError(f"{unit} must be between {lo} and {high_text}, got {count}",
                           param=unit)
    return count


def run_seed(seed: int | None, resume: bool = False) -> int:
    """The seed of a run: the given one (checked), or a fresh one (a resumed run must name its
    seed)."""
    if seed is None:
        if resume:
            raise SeasaltError("--resume needs the --seed of the interrupted run (its interrupt "
                               "message shows it)")
        return secrets.randbelow(2 ** 63)
    return check_seed(seed)


def check_review(players: int, seat: int, samples: int) -> None:
    """A review's seat (a seat of the game) and samples per decision (2 to MAX_REVIEW_SAMPLES)."""
    if not 0 <= seat < players:
        raise SeasaltError(f"seat must be a seat of the game, 0 to {players - 1}, got {seat}",
                           param="seat")
    if not 2 <= samples <= MAX_REVIEW_SAMPLES:
        raise SeasaltError(f"samples must be between 2 and {MAX_REVIEW_SAMPLES:,}, got {samples}",
                           param="samples")


def check_budget(samples: int | None, precision: float | None) -> None:
    """An advice's budget: samples (1 to MAX_ADVISE_SAMPLES) or a precision (a 95% half-width
    from 0.0005 to 0.5), not both; neither: the advisor's default."""
    if samples is not None and precision is not None:
        raise SeasaltError("give --samples or --precision, not both",
                           page="give Samples or Precision, not both: empty one of them")
    if samples is not None:
        check_count(samples, "samples", high=MAX_ADVISE_SAMPLES, high_text=str(MAX_ADVISE_SAMPLES))
    if precision is not None and not 0.0005 <= real(precision, "precision") <= 0.5:
        raise SeasaltError(f"--precision must be between 0.0005 and 0.5, got {precision}",
                           page=f"Precision must be between 0.0005 and 0.5, got {precision}")
