"""Seastead positions for `seasalt seastead advise FILE`: a game as its setup, its seed and the
choices made so far (analyzer.seastead.table.Game), read from a JSON file with `//` comments
and checked field by field, so that a mistake names the field to fix.
"""
from __future__ import annotations

import json
import pathlib

from ..base.errors import SeasaltError
from ..play.position_template import strip_comments
from ..rules.limits import check_seed
from .components import ComponentsError, Setup, load
from .table import KINDS, Game

TEMPLATE = """\
// A Seastead position for `seasalt seastead advise FILE`: a game at the table, as its setup,
// the seed of its shuffles (game 0 of `seasalt seastead simulate --seed S`, as `seastead
// replay --seed S` shows it) and every choice made so far, in order. Lines from // on are
// comments. The advice is asked for the next decision after the choices.
{
  "seed": 7,
  // optional: "solo": true (against the Rebel Seastead), "sides" (default "AAAA"), "decree"
  // (a starting decree's name, with B sides), "components" (a components file; default the
  // shipped illustrative set)
  "sides": "AAAA",
  // each choice: [seat, kind, a, b, c, d], one of the options the game offered then, as
  // `seastead advise --json` lists them ("row"); decisions with one option are not asked.
  // kinds and their fields: action (0 dive | 1 build, type, location, cost | 2 spend,
  // specialist), split (half, dive card), wild (resource), dock (display slot, tile, dock slot,
  // dock tile), specialist (display slot, specialist), ship (location), location_effect
  // (1 apply | 0 skip, location), spend (specialist | -1, window), move_ship (from, to),
  // move_building (from, to, type), swap (tile, tile, locked tile), refresh (specialist),
  // decree (entering, under), port_bonus (tile, slot, cleanup | -1, -1 decline)
  "choices": [
    [0, "wild", 0, 0, 0, 0], [0, "wild", 1, 0, 0, 0], [1, "wild", 0, 0, 0, 0],
    [1, "wild", 1, 0, 0, 0], [1, "wild", 2, 0, 0, 0],
    [0, "split", 0, 0, 0, 0],
    [1, "action", 0, 0, 0, 0], [1, "split", 0, 3, 0, 0],
    [0, "wild", 3, 0, 0, 0], [0, "action", 0, 0, 0, 0], [0, "split", 0, 1, 0, 0],
    [1, "action", 1, 0, 12, 3], [1, "dock", 0, 2, 0, 2], [1, "location_effect", 1, 12, 0, 0],
    [0, "action", 1, 0, 7, 3], [0, "dock", 1, 1, 0, 9], [0, "location_effect", 1, 7, 0, 0],
    [1, "action", 1, 1, 19, 3], [1, "specialist", 2, 5, 0, 0],
    [1, "location_effect", 1, 19, 0, 0], [1, "spend", -1, 2, 0, 0]
  ]
}
"""


EXAMPLE: dict = json.loads(strip_comments(TEMPLATE))
FIELDS = ("seed", "sides", "solo", "decree", "components", "choices")


def _problem(where: str, text: str) -> SeasaltError:
    return SeasaltError(f"{where}: {text}")


def read_position(path: str) -> dict:
    """A position file's JSON object: a regular file of at most 1 MiB (a link to /dev/zero, a
    pipe or a folder is refused, never read without end), UTF-8 JSON with `//` comments; one
    error line naming the file otherwise."""
    from ..play.position_input import GAME_FILE_BYTES, read_small_file
    hint = "see `seasalt seastead advise --template`"
    if not pathlib.Path(path).exists() and not pathlib.Path(path).is_symlink():
        raise SeasaltError(f"{path}: no such file (write one with `seasalt seastead advise "
                           f"--template > position.json`)")
    raw = read_small_file(path, GAME_FILE_BYTES, "a Seastead position")
    try:
        data = json.loads(strip_comments(raw.decode("utf-8-sig")))
    except UnicodeDecodeError as e:
        raise SeasaltError(f"{path}: not UTF-8 text (byte {raw[e.start]:#04x} at offset "
                           f"{e.start}); {hint}") from None
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise SeasaltError(f"{path}: not a JSON position ({e}); {hint}") from None
    if not isinstance(data, dict):
        raise SeasaltError(f"{path}: a position is a JSON object with the fields "
                           f"{', '.join(FIELDS)}")
    return data


def game_of(data: dict, where: str = "position") -> Game:
    """The game a position describes: its setup, seed and choices, checked field by field."""
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise _problem(where, f"unknown field {unknown[0]!r} (fields: {', '.join(FIELDS)})")
    if "seed" not in data:
        raise _problem(where, "the field 'seed' (the game's seed, as `seastead replay --seed`) "
                              "is missing")
    try:
        seed = check_seed(data["seed"])
    except SeasaltError as e:
        raise _problem(f"{where} field 'seed'", str(e)) from None
    try:
        comps = load(data.get("components"))
    except ComponentsError:
        raise
    except SeasaltError as e:
        raise _problem(f"{where} field 'components'", str(e).replace("--components ", "")) \
            from None
    solo = data.get("solo", False)
    if not isinstance(solo, bool):
        raise _problem(f"{where} field 'solo'", f"true or false, got {solo!r}")
    sides, decree = data.get("sides", "AAAA"), data.get("decree")
    if not isinstance(sides, str) or not (decree is None or isinstance(decree, str)):
        raise _problem(where, "'sides' is a text such as \"AAAA\" and 'decree' a decree's name "
                              "or null")
    setup = Setup(solo, sides, decree)
    try:
        setup.array(comps)
    except SeasaltError as e:
        raise _problem(where, _fields(str(e))) from None
    rows = data.get("choices", [])
    if not isinstance(rows, list):
        raise _problem(f"{where} field 'choices'", "a list of [seat, kind, a, b, c, d] rows")
    return Game(comps, setup, seed, tuple(_row(r, f"{where} choices[{k}]")
                                          for k, r in enumerate(rows)))


def _fields(text: str) -> str:
    """A message about command-line options, about the file's fields of the same names."""
    for name in ("components", "sides", "decree"):
        text = text.replace(f"--{name}", f"the field '{name}'")
    return text


def _row(r, where: str) -> tuple[int, ...]:
    if not (isinstance(r, list) and len(r) == 6 and r[1] in KINDS
            and all(isinstance(v, int) and not isinstance(v, bool) for v in r[:1] + r[2:])):
        raise _problem(where, f"a choice is [seat, kind, a, b, c, d] with kind one of "
                              f"{', '.join(KINDS)} and whole numbers elsewhere, got {r!r}")
    return (r[0], KINDS.index(r[1]), *r[2:])
