"""The card catalogue (docs/rules.md, "The cards"): the single source of truth for kinds, colours
and copies.

Everything else (compiled lookup arrays, card names for parsing, deck composition, validation)
is derived from the tables in this module. A *card type* is a distinct (kind, colour) pair; copies
of one type cannot be told apart, so the engine stores type ids and counts, never card identities.
"""
from __future__ import annotations

import numpy as np

COLOURS = (
    "white", "dark_blue", "light_blue", "black", "yellow", "green",
    "purple", "grey", "light_orange", "pink", "orange",
)

# kind, category, expansion ("base" or "extra-salt"), copies per colour in docs/rules.md, "The
# cards" order. The order of kinds and of colours within a kind is the order of docs/rules.md, "The
# cards"; the baseline (docs/players.md) relies on it to choose which copies form a played pair.
CATALOGUE = (
    ("mermaid", "mermaid", "base", (("white", 4),)),
    ("crab", "duo", "base", (("dark_blue", 2), ("light_blue", 2), ("black", 1), ("yellow", 2),
                             ("green", 1), ("grey", 1))),
    ("boat", "duo", "base", (("dark_blue", 2), ("light_blue", 2), ("black", 2), ("yellow", 2))),
    ("fish", "duo", "base", (("dark_blue", 2), ("light_blue", 1), ("black", 2), ("yellow", 1),
                             ("green", 1))),
    ("swimmer", "duo", "base", (("dark_blue", 1), ("light_blue", 1), ("black", 1), ("yellow", 1),
                                ("light_orange", 1))),
    ("shark", "duo", "base", (("dark_blue", 1), ("light_blue", 1), ("black", 1), ("green", 1),
                              ("purple", 1))),
    ("shell", "collector", "base", (("dark_blue", 1), ("light_blue", 1), ("black", 1),
                                    ("yellow", 1), ("green", 1), ("grey", 1))),
    ("octopus", "collector", "base", (("light_blue", 1), ("yellow", 1), ("green", 1),
                                      ("purple", 1), ("grey", 1))),
    ("penguin", "collector", "base", (("purple", 1), ("light_orange", 1), ("pink", 1))),
    ("sailor", "collector", "base", (("pink", 1), ("orange", 1))),
    ("lighthouse", "multiplier", "base", (("purple", 1),)),
    ("shoal", "multiplier", "base", (("grey", 1),)),
    ("colony", "multiplier", "base", (("green", 1),)),
    ("captain", "multiplier", "base", (("light_orange", 1),)),
    ("jellyfish", "duo", "extra-salt", (("purple", 1), ("pink", 1))),
    ("lobster", "duo", "extra-salt", (("black", 1),)),
    ("cast_of_crabs", "multiplier", "extra-salt", (("green", 1),)),
    ("starfish", "special", "extra-salt", (("dark_blue", 1), ("light_blue", 1), ("yellow", 1))),
    ("seahorse", "special", "extra-salt", (("white", 1),)),
)

EXPANSIONS = ("base", "extra-salt")

KINDS = tuple(row[0] for row in CATALOGUE)
NKINDS = len(KINDS)
NCOLOURS = len(COLOURS)

# Kind ids as module constants: numba folds module-level ints into compiled code.
MERMAID, CRAB, BOAT, FISH, SWIMMER, SHARK, SHELL, OCTOPUS, PENGUIN, SAILOR = range(10)
LIGHTHOUSE, SHOAL, COLONY, CAPTAIN, JELLYFISH, LOBSTER, CAST, STARFISH, SEAHORSE = range(10, 19)
WHITE = 0

# One row per card type: (kind id, colour id, copies, expansion id).
_TYPES = [
    (KINDS.index(kind), COLOURS.index(colour), copies, EXPANSIONS.index(exp))
    for kind, _cat, exp, colours in CATALOGUE
    for colour, copies in colours
]
NTYPES = len(_TYPES)
TYPE_KIND = np.array([t[0] for t in _TYPES], dtype=np.int64)
TYPE_COLOUR = np.array([t[1] for t in _TYPES], dtype=np.int64)
TYPE_COPIES = np.array([t[2] for t in _TYPES], dtype=np.int64)
TYPE_EXPANSION = np.array([t[3] for t in _TYPES], dtype=np.int64)
# First type id of each kind, and how many types (colours) the kind has: types of one kind are
# contiguous, in docs/rules.md, "The cards" colour order.
KIND_FIRST_TYPE = np.array([int(np.argmax(TYPE_KIND == k)) for k in range(NKINDS)], dtype=np.int64)
KIND_NTYPES = np.array([int((TYPE_KIND == k).sum()) for k in range(NKINDS)], dtype=np.int64)
MAX_KIND_TYPES = int(KIND_NTYPES.max())   # 6: crabs and shells come in six colours
KIND_CATEGORY = tuple(row[1] for row in CATALOGUE)
IS_DUO_KIND = np.array([c == "duo" for c in KIND_CATEGORY], dtype=np.bool_)

MAX_DECK = int(TYPE_COPIES.sum())  # 66: every card of every expansion

# The legal pairs of docs/rules.md, "The cards", the one table of pair legality: (effect, kind,
# kind). A pair is played for its effect; a trio is a pair plus a starfish (Extra Salt).
# kernels.actions numbers the effects (A_*), scoring counts held pairs by it, the validators and
# texts of the analysis layer (score, replay, advisor) read it.
PAIRS = (
    ("fish", "fish", "fish"),
    ("crab", "crab", "crab"),
    ("crab_lobster", "crab", "lobster"),
    ("swimmer_shark", "swimmer", "shark"),
    ("swimmer_jellyfish", "swimmer", "jellyfish"),
    ("boat", "boat", "boat"),
)
PAIR_KINDS = tuple((KINDS.index(a), KINDS.index(b)) for _e, a, b in PAIRS)


def type_id(kind: str, colour: str) -> int:
    """The type id of (kind, colour); KeyError if that card does not exist."""
    for t, (k, c, _n, _e) in enumerate(_TYPES):
        if KINDS[k] == kind and COLOURS[c] == colour:
            return t
    raise KeyError(f"{kind}:{colour}")


def type_name(t: int) -> str:
    """Card notation `kind:colour` of a type id."""
    return f"{KINDS[TYPE_KIND[t]]}:{COLOURS[TYPE_COLOUR[t]]}"


def deck_types(expansion: str = "base") -> np.ndarray:
    """The full deck as an array of type ids (58 cards base, 66 with Extra Salt), in type order."""
    allowed = EXPANSIONS.index(expansion)
    keep = TYPE_EXPANSION <= allowed
    return np.repeat(np.arange(NTYPES, dtype=np.int64)[keep], TYPE_COPIES[keep])


def copies_in(expansion: str = "base") -> np.ndarray:
    """Copies of each type in the deck of `expansion` (0 for types not in it)."""
    return np.where(TYPE_EXPANSION <= EXPANSIONS.index(expansion), TYPE_COPIES, 0)
