"""A `seasalt replay --json` file given to `seasalt review --replay FILE`: read with its fields'
types checked (load_replay), then compared with the game its seed plays (check_replay_file)."""
from __future__ import annotations

import json

from ..base.errors import SeasaltError


REPLAY_MAX_BYTES = 16 << 20      # a replay file is some 100 kB
IGNORED = {"version", "text"}      # may change between versions while the game stays the same


def check_replay_file(obj: dict, game: dict) -> None:
    """The `seasalt replay --json` file is the game reviewed: every field but IGNORED equal to
    what `seasalt replay` gives for its seed, players, policies, expansion and target (its
    events, final hands, tables, scores, totals, winners...); the first that differs is named."""
    from ..render.output import json_safe
    where = _first_difference(obj, json.loads(json.dumps(json_safe(game))), "")
    if where is not None:
        raise SeasaltError(f"the replay file's field {where} differs from the game its seed, "
                           f"players and policies play here (another seasalt version, or an "
                           f"edited file)")


def _first_difference(theirs, mine, path: str) -> str | None:
    """The path of the first place where `theirs` (the file) differs from `mine`, or None."""
    if isinstance(mine, dict):
        if not isinstance(theirs, dict):
            return path or "(the whole file)"
        for k in mine:
            if k in IGNORED:
                continue
            if k not in theirs:
                return f"{path}.{k}".lstrip(".") + " (missing)"
            d = _first_difference(theirs[k], mine[k], f"{path}.{k}")
            if d is not None:
                return d.lstrip(".")
        extra = [k for k in theirs if k not in mine and k not in IGNORED]
        return f"{path}.{extra[0]}".lstrip(".") + " (not written by seasalt replay)" \
            if extra else None
    if isinstance(mine, list):
        if not isinstance(theirs, list) or len(theirs) != len(mine):
            return path
        for i, (t, m) in enumerate(zip(theirs, mine)):
            d = _first_difference(t, m, f"{path}[{i}]")
            if d is not None:
                return d
        return None
    if type(theirs) is not type(mine) and not (isinstance(mine, float)
                                                and type(theirs) is int):
        return path
    return None if theirs == mine else path


def _replay_field(obj: dict, path: str, key: str, ok, want: str):
    value = obj[key]
    if not ok(value):
        from .position_input import quote_value
        raise SeasaltError(f"{path}: field {key!r} must be {want}, got {quote_value(value)} (write the "
                           f"file with `seasalt replay --json`)")
    return value


def load_replay(path: str) -> dict:
    """Read a `seasalt replay --json` file: the game's seed, players, policies, expansion and
    target, each checked for its type here (the file's field named), the rest checked against
    the replayed game by review()."""
    from .position_input import decode
    try:
        with open(path, "rb") as f:
            data = f.read(REPLAY_MAX_BYTES + 1)
    except OSError as e:
        raise SeasaltError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > REPLAY_MAX_BYTES:
        raise SeasaltError(f"{path}: too large for a replay file (over {REPLAY_MAX_BYTES >> 20} "
                           f"MiB)")
    obj = decode(data, path)
    if not isinstance(obj, dict):
        raise SeasaltError(f"{path}: expected the JSON object of `seasalt replay --json`")
    for key in ("seed", "players", "policies", "expansion", "target"):
        if key not in obj:
            raise SeasaltError(f"{path}: missing key {key!r} (write it with `seasalt replay --json`)")

    def whole(lo, hi):
        return lambda v: type(v) is int and lo <= v <= hi
    _replay_field(obj, path, "seed", whole(0, 2 ** 64 - 1), "a whole number from 0 to 2**64-1")
    _replay_field(obj, path, "players", whole(2, 4), "a whole number from 2 to 4")
    _replay_field(obj, path, "policies", lambda v: isinstance(v, list) and 0 < len(v) <= 4 and
                  all(isinstance(x, str) and len(x) <= 1000 for x in v),
                  "a list of policy specs (text)")
    _replay_field(obj, path, "expansion", lambda v: isinstance(v, str) and len(v) <= 100,
                  "an expansion's name (text)")
    _replay_field(obj, path, "target", lambda v: v is None or whole(1, 10_000)(v),
                  "null or a whole number from 1 to 10000")
    return obj
