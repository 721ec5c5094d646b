"""Reading a position's input: the bytes of a file (bounded, regular files only), JSON with `//`
comments, and the checked values a position is made of (whole numbers in range, objects with known
keys, card lists), each mistake a one-line SeasaltError that names where it is. Shared by
`seasalt advise FILE`, `seasalt serve`'s request bodies (analyzer.faces.web.app) and game files
(analyzer.play.session); analyzer.play.position builds and validates the Position from them."""
from __future__ import annotations

import json

from kernels.state_layout import UNSEEN

from ..base.errors import SeasaltError
from ..rules.notation import ExtraSaltCard, parse_card, parse_cards


class _Huge:
    """An integer of too many digits to convert (json.loads would fail without saying where)."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def _number(text: str) -> int | _Huge:
    return int(text) if len(text) <= 100 else _Huge(len(text))


def quote_value(value) -> str:
    """A value for a message: its JSON-ish repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def parse_card_list(value, where: str, expansion: str, unknown: bool = False) -> list[int]:
    """A card list (string or list of names); with `unknown`, `?` entries are UNSEEN."""
    if value is None:
        return []
    if isinstance(value, list):
        if not all(isinstance(v, str) for v in value):
            raise SeasaltError(f"{where}: expected card names, got {quote_value(value)}")
        value = ",".join(value)
    if not isinstance(value, str):
        raise SeasaltError(f"{where}: expected a card list, got {quote_value(value)}")
    try:
        if not unknown:
            return parse_cards(value, expansion)
        if not value.strip():
            return []
        return [UNSEEN if item.strip() == "?" else parse_card(item, expansion)
                for item in value.split(",")]
    except ExtraSaltCard as e:
        raise extra_salt_in_file(e.kind, where) from None
    except SeasaltError as e:
        raise SeasaltError(f"{where}: {e}") from None


def file_card(text: str, where: str, expansion: str) -> int:
    """One card of a file (a history turn's), its mistakes named by `where`."""
    try:
        return parse_card(str(text), expansion)
    except ExtraSaltCard as e:
        raise extra_salt_in_file(e.kind, where) from None
    except SeasaltError as e:
        raise SeasaltError(f"{where}: {e}") from None


def extra_salt_in_file(kind: str, where: str) -> SeasaltError:
    """An Extra Salt card in a base-game file: the fix is the file's field (on the page, also
    its Expansion control)."""
    return SeasaltError(f'{where}: {kind} is an Extra Salt card; add "expansion": "extra-salt" '
                        f'to the file',
                        page=f'{where}: {kind} is an Extra Salt card; choose the expansion '
                             f'extra-salt (in a file: "expansion": "extra-salt")')


def checked_int(value, where: str, low: int, high: int) -> int:
    """`value` if it is a whole number from low to high, else a SeasaltError naming `where`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SeasaltError(f"{where} must be a whole number from {low} to {high}, got "
                           f"{quote_value(value)}")
    return value


def checked_keys(obj, allowed: set[str], where: str) -> dict:
    """`obj` if it is an object with no key outside `allowed`, else a SeasaltError naming
    `where`."""
    if not isinstance(obj, dict):
        raise SeasaltError(f"{where} must be an object, got {quote_value(obj)}")
    extra = set(obj) - allowed
    if extra:
        raise SeasaltError(f"{where}: unknown key {sorted(extra)[0]!r}; valid: {', '.join(sorted(allowed))}")
    return obj


MAX_BYTES = 1 << 20       # a position is a few hundred bytes
GAME_FILE_BYTES = 1 << 20  # a game file is a few kilobytes


def load(path: str) -> dict:
    """Read a position file (`-` for standard input) as JSON; `//` comments are allowed
    (analyzer.play.position_template). Anything that is not a readable, UTF-8, sensibly nested
    JSON file is a SeasaltError naming the file."""
    import sys
    if path == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise SeasaltError(f"-: too large for a position file (over {MAX_BYTES:,} bytes)")
    else:
        data = read_small_file(path, MAX_BYTES, "a position file")
    return decode(data, path)


def read_game_file(path: str) -> object:
    """A game file (`seasalt serve`'s Play view saves them) as JSON, not yet checked (see
    analyzer.play.session.Game.from_file)."""
    return decode(read_small_file(path, GAME_FILE_BYTES, "a game file"), path)


def read_small_file(path: str, limit: int, what: str) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them (position and game files):
    a pipe (whose open() would wait for a writer), a device or a folder, an unreadable file
    or a larger one is a SeasaltError naming `path`."""
    import os
    import stat
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise SeasaltError(f"{path}: not a regular file (a directory, a device or a pipe)")
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise SeasaltError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise SeasaltError(f"{path}: too large for {what} (over {limit:,} bytes)")
    return data


def decode(data: bytes, source: str) -> object:
    """A position file's bytes as JSON (not yet validated: see parse). `source` names the file in
    messages; `seasalt serve` passes the request body here, so both read positions alike."""
    from .position_template import strip_comments
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SeasaltError(f"{source}: not UTF-8 text (byte {data[e.start]:#04x} at offset "
                           f"{e.start})") from None
    try:
        return json.loads(strip_comments(text), parse_int=_number)
    except json.JSONDecodeError as e:
        raise SeasaltError(f"{source}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise SeasaltError(f"{source}: not a position (nested too deeply)") from None
    except ValueError as e:            # e.g. an integer of more than 4300 digits
        raise SeasaltError(f"{source}: not valid JSON ({e})") from None
