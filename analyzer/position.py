"""A position at the table, as one player knows it (RULES.md §9), read from JSON and validated.

    {
      "players": 2, "seat": 0, "expansion": "base",
      "hand": "mermaid,mermaid,shell:black,shell:yellow,crab:dark_blue",
      "table": "boat:black,boat:yellow",
      "opponents": [{"seat": 1, "table": "fish:black,fish:green", "hand_size": 5,
                     "known": "shark:green"}],
      "piles": {"A": {"size": 4, "top": "octopus:grey"},
                "B": {"cards": "crab:black,penguin:pink"}},
      "deck": 40,
      "totals": [12, 20], "target": 40,
      "lock": null
    }

`hand`/`table`: the asker's cards; `opponents`: every other seat's table, hand size and the cards
the asker knows are in that hand (seen taken from a pile); `piles`: each pile's size and top, or
its full contents bottom first (perfect memory); `deck`: cards in the deck; optional `totals`
(running totals by seat) and `target`; optional `lock` (seat of the caster of an active
jellyfish lock). Card lists are strings in seasalt's notation or lists of names.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from kernels import cards as kc
from kernels import state as ks
from kernels.actions import DEC_PLAY
from kernels.scoring import card_points, refresh_points

from .cards import card_name, check_copies, check_expansion, parse_cards
from .errors import SeasaltError
from .score import check_table

_KEYS = {"players", "seat", "expansion", "hand", "table", "opponents", "piles", "deck", "totals",
         "target", "lock"}
_OPP_KEYS = {"seat", "table", "hand_size", "known"}
_PILE_KEYS = {"size", "top", "cards"}
UNKNOWN_SLOT = -1


@dataclass
class Position:
    """A validated position: the template state (unknown pile slots hold -1), the pool of cards
    whose place the asker does not know, and the unknown hand cards of each seat."""
    players: int
    seat: int
    expansion: str
    template: np.ndarray
    pool: np.ndarray
    unknown_hand: np.ndarray
    totals: np.ndarray | None
    target: int | None
    points: int
    source: dict


class _Huge:
    """An integer of too many digits to convert (json.loads would fail without saying where)."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def _number(text: str):
    return int(text) if len(text) <= 100 else _Huge(len(text))


def _show(value) -> str:
    """A value for a message: its JSON-ish repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _cards(value, where: str, expansion: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, list):
        if not all(isinstance(v, str) for v in value):
            raise SeasaltError(f"{where}: expected card names, got {_show(value)}")
        value = ",".join(value)
    if not isinstance(value, str):
        raise SeasaltError(f"{where}: expected a card list, got {_show(value)}")
    try:
        return parse_cards(value, expansion)
    except SeasaltError as e:
        raise SeasaltError(f"{where}: {e}") from None


def _int(value, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SeasaltError(f"{where} must be a whole number from {low} to {high}, got "
                           f"{_show(value)}")
    return value


def _keys(obj, allowed: set[str], where: str) -> dict:
    if not isinstance(obj, dict):
        raise SeasaltError(f"{where} must be an object, got {_show(obj)}")
    extra = set(obj) - allowed
    if extra:
        raise SeasaltError(f"{where}: unknown key {sorted(extra)[0]!r}; valid: {', '.join(sorted(allowed))}")
    return obj


MAX_BYTES = 1 << 20       # a position is a few hundred bytes


def load(path: str) -> dict:
    """Read a position file (`-` for standard input) as JSON; `//` comments are allowed
    (analyzer.position_template). Anything that is not a readable, UTF-8, sensibly nested
    JSON file is a SeasaltError naming the file."""
    import sys
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise SeasaltError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise SeasaltError(f"{path}: too large for a position file (over {MAX_BYTES:,} bytes)")
    return decode(data, path)


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


def parse(obj: dict) -> Position:
    """Validate a position object and build its template state."""
    _keys(obj, _KEYS, "position")
    for key in ("players", "seat", "hand", "opponents", "piles", "deck"):
        if key not in obj:
            raise SeasaltError(f"position: missing key {key!r}")
    expansion = obj.get("expansion", "base")
    if not isinstance(expansion, str):
        raise SeasaltError(f'expansion must be "base" or "extra-salt", got {_show(expansion)}')
    expansion = check_expansion(expansion)
    players = _int(obj["players"], "players", 2, 4)
    me = _int(obj["seat"], "seat", 0, players - 1)
    hand = _cards(obj["hand"], "hand", expansion)
    table = _cards(obj.get("table"), "table", expansion)
    check_table(table)

    opps = obj["opponents"]
    if not isinstance(opps, list):
        raise SeasaltError("opponents must be a list with one entry per other seat")
    by_seat: dict[int, dict] = {}
    for o in opps:
        _keys(o, _OPP_KEYS, "opponent")
        q = _int(o.get("seat"), "opponent seat", 0, players - 1)
        if q == me or q in by_seat:
            raise SeasaltError(f"opponent seat {q} is the asker's seat or listed twice")
        size = _int(o.get("hand_size"), f"seat {q} hand_size", 0, kc.MAX_DECK)
        known = _cards(o.get("known"), f"seat {q} known", expansion)
        if len(known) > size:
            raise SeasaltError(f"seat {q}: {len(known)} known cards but a hand of {size}")
        t = _cards(o.get("table"), f"seat {q} table", expansion)
        check_table(t)
        by_seat[q] = {"size": size, "known": known, "table": t}
    missing = sorted(set(range(players)) - {me} - set(by_seat))
    if missing:
        raise SeasaltError(f"opponents: seat {missing[0]} is missing")

    piles = _keys(obj["piles"], {"A", "B"}, "piles")
    pile_cards: list[list[int]] = []
    for name in ("A", "B"):
        pile = _keys(piles.get(name, {"size": 0}), _PILE_KEYS, f"pile {name}")
        if "cards" in pile:
            cards = _cards(pile["cards"], f"pile {name} cards", expansion)
            if "size" in pile and _int(pile["size"], f"pile {name} size", 0,
                                       kc.MAX_DECK) != len(cards):
                raise SeasaltError(f"pile {name}: size {pile['size']} but {len(cards)} cards listed")
            if "top" in pile and cards and \
                    _cards(pile["top"], f"pile {name} top", expansion) != cards[-1:]:
                raise SeasaltError(f"pile {name}: the top is the last card of its list")
        else:
            if "top" in pile and "size" not in pile:
                raise SeasaltError(f"pile {name}: give its size (the number of cards in it) with "
                                   f"its top, or all its cards as \"cards\"")
            size = _int(pile.get("size", 0), f"pile {name} size", 0, kc.MAX_DECK)
            top = _cards(pile.get("top"), f"pile {name} top", expansion)
            if size > 0 and len(top) != 1:
                raise SeasaltError(f"pile {name}: give its top card (one card) or its cards")
            if size == 0 and top:
                raise SeasaltError(f"pile {name}: an empty pile has no top card")
            cards = [UNKNOWN_SLOT] * (size - 1) + top
        pile_cards.append(cards)
    deck = _int(obj["deck"], "deck", 0, kc.MAX_DECK)

    known_groups = [hand, table, *[o["known"] + o["table"] for o in by_seat.values()],
                    *[[t for t in p if t >= 0] for p in pile_cards]]
    check_copies(known_groups, expansion)
    full = kc.copies_in(expansion)
    placed = (len(hand) + len(table) + sum(o["size"] + len(o["table"]) for o in by_seat.values())
              + sum(len(p) for p in pile_cards) + deck)
    if placed != int(full.sum()):
        raise SeasaltError(f"sizes do not add up: hands, tables, piles and deck hold {placed} cards, "
                           f"the {expansion} deck has {int(full.sum())}")

    counts = full.copy()
    for g in known_groups:
        for t in g:
            counts[t] -= 1
    pool = np.repeat(np.arange(kc.NTYPES, dtype=np.int64), counts)

    s = ks.new_state()
    ks.load_deck(s, players, np.zeros(0, dtype=np.int64), me)
    for j, cards in enumerate(pile_cards):
        for t in cards:
            ks.push_pile(s, j, t)
    for t in hand:
        ks.gain_card(s, me, t)
    _place_table(s, me, table)
    unknown = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    for q, o in by_seat.items():
        for t in o["known"]:
            ks.gain_card(s, q, t)
        _place_table(s, q, o["table"])
        unknown[q] = o["size"] - len(o["known"])
    lock = obj.get("lock")
    if lock is not None:
        lock = _int(lock, "lock", 0, players - 1)
        if lock != me:
            raise SeasaltError(f"seat {lock}'s jellyfish lock is in force: a locked turn cannot declare")
        s[ks.LOCK] = lock
    refresh_points(s, players)
    s[ks.DEC] = DEC_PLAY               # the asker is in the play step of their turn
    pts = int(card_points(s, me))
    if pts < 7:
        raise SeasaltError(f"you hold {pts} card points: declaring needs at least 7, so STOP and "
                           "LAST CHANCE are not open to you yet")

    totals = target = None
    if "totals" in obj or "target" in obj:
        if "totals" not in obj or "target" not in obj:
            raise SeasaltError("give both totals and target, or neither")
        tl = obj["totals"]
        if not isinstance(tl, list) or len(tl) != players:
            raise SeasaltError(f"totals must list {players} running totals, one per seat")
        totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
        for q, v in enumerate(tl):
            totals[q] = _int(v, f"totals[{q}]", 0, 10_000)
        target = _int(obj["target"], "target", 1, 10_000)
        if totals.max() >= target:
            raise SeasaltError(f"a total already reaches the target {target}: the game is over")
    return Position(players, me, expansion, s, pool, unknown, totals, target, pts, obj)


def _place_table(s: np.ndarray, q: int, types: list[int]) -> None:
    for t in types:
        ks.gain_card(s, q, t)
        ks.to_table(s, q, t)
    s[ks.NPAIRS + q] = sum(1 for t in types if kc.IS_DUO_KIND[kc.TYPE_KIND[t]]) // 2


def describe(pos: Position) -> str:
    """One line: who asks, with what."""
    hand = [card_name(t) for t in range(kc.NTYPES)
            for _ in range(int(pos.template[ks.HT + pos.seat * kc.NTYPES + t]))]
    return (f"seat {pos.seat} of {pos.players}, {pos.points} card points, hand {', '.join(hand)}; "
            f"{pos.source['deck']} cards in the deck")
