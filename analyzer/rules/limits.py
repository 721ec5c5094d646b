"""The limits of a run's parameters, one check per fact: player counts (2, 3 or 4), seeds, game
targets, numbers of rounds or games, and a run's seed (given or fresh). Errors speak of parameters
("players must be 2, 3 or 4, got 5", SeasaltError.param = "players"); the command line maps them to
its flags (analyzer.base.errors.FLAGS). Used where a RunSpec is built (analyzer.runs.spec) and by
whatever checks one of these facts alone (a scripted deal's players, a sweep's player counts)."""
from __future__ import annotations

import secrets

from ..base.errors import SeasaltError

PLAYER_COUNTS = (2, 3, 4)
DEFAULT_TARGETS = {2: 40, 3: 35, 4: 30}
MAX_SEED = 2 ** 64 - 1
MAX_COUNT = 10 ** 12
MAX_TARGET = 10_000


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


def run_seed(seed: int | None, resume: bool = False) -> int:
    """The seed of a run: the given one (checked), or a fresh one (a resumed run must name its
    seed)."""
    if seed is None:
        if resume:
            raise SeasaltError("--resume needs the --seed of the interrupted run (its interrupt "
                               "message shows it)")
        return secrets.randbelow(2 ** 63)
    return check_seed(seed)
