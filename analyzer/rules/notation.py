"""Card notation (`kind[:colour]`, comma-separated) to type ids and back, with validation.

Names come from kernels.cards, the single source of truth; `dark-blue` and `dark_blue` are both
accepted, case does not matter, and the colour may be left out only for single-colour kinds.
The names printed on the cards (`Shoal of Fish`, `Penguin Colony`, ...) and `gray` are accepted
as aliases (ALIASES); output always uses the short names.
"""
from __future__ import annotations

import difflib
from collections import Counter
from typing import Iterable

import numpy as np

from kernels import cards as kc

from ..base.errors import SeasaltError
from .limits import text


# Other spellings of kinds and colours: the English names printed on the cards, and `gray`.
# Keys are normalized (lower case, `_` for spaces and hyphens).
KIND_ALIASES = {"shoal_of_fish": "shoal", "penguin_colony": "colony", "cast_of_crab": "cast_of_crabs",
                "sea_horse": "seahorse", "star_fish": "starfish", "jelly_fish": "jellyfish"}
COLOUR_ALIASES = {"gray": "grey"}


def _norm(word: str) -> str:
    return "_".join(word.strip().lower().replace("-", " ").replace("_", " ").split())


def _quote(text: str) -> str:
    """A card as the user wrote it, for a message (cut short)."""
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _kind(word: str, text: str) -> str:
    """The catalogue kind of a normalized kind word, or SeasaltError (with a suggestion)."""
    kind = KIND_ALIASES.get(word, word)
    if kind in kc.KINDS:
        return kind
    close = difflib.get_close_matches(word, [*kc.KINDS, *KIND_ALIASES], n=1, cutoff=0.75)
    hint = f" (did you mean {KIND_ALIASES.get(close[0], close[0])!r}?)" if close else ""
    raise SeasaltError(f"unknown card kind {_quote(text)}{hint}" + (
        "" if hint else "; the kinds are in docs/rules.md, \"The cards\""))


class ExtraSaltCard(SeasaltError):
    """An Extra Salt card in a base-game card list. The fix depends on where the list was
    written: this message names the command line's option; a file names its field
    (analyzer.play.position_input)."""

    def __init__(self, kind: str):
        super().__init__(f"{kind} is an Extra Salt card; add --expansion extra-salt")
        self.kind = kind


def parse_card(text: str, expansion: str = "base") -> int:
    """One card in `kind[:colour]` notation to its type id, checked against the expansion."""
    kind_word, _, colour = text.partition(":")
    kind = _kind(_norm(kind_word), text)
    colour = _norm(colour)
    colour = COLOUR_ALIASES.get(colour, colour)
    k = kc.KINDS.index(kind)
    first, n = int(kc.KIND_FIRST_TYPE[k]), int(kc.KIND_NTYPES[k])
    colours = [kc.COLOURS[kc.TYPE_COLOUR[t]] for t in range(first, first + n)]
    if not colour:
        if n > 1:
            raise SeasaltError(f"{kind} needs a colour ({kind}:COLOUR): {', '.join(colours[:-1])} "
                               f"or {colours[-1]}")
        t = first
    elif colour not in kc.COLOURS:
        raise SeasaltError(f"unknown colour {_quote(colour)} in {_quote(text)}; valid colours: "
                           f"{', '.join(kc.COLOURS)}")
    elif colour not in colours:
        raise SeasaltError(f"there is no {colour} {kind}; {kind} comes in {', '.join(colours)}")
    else:
        t = first + colours.index(colour)
    if kc.TYPE_EXPANSION[t] > kc.EXPANSIONS.index(expansion):
        raise ExtraSaltCard(kind)
    return t


def parse_cards(text: str | None, expansion: str = "base") -> list[int]:
    """A comma-separated card list (empty or None: no cards) to type ids."""
    if text is None or not text.strip():
        return []
    return [parse_card(item, expansion) for item in text.split(",")]


def check_expansion(expansion: str) -> str:
    text(expansion, "expansion", "'base' or 'extra-salt'")
    name = _norm(expansion).replace("_", "-")
    if name not in kc.EXPANSIONS:
        raise SeasaltError(f"unknown expansion {expansion!r}; valid: {', '.join(kc.EXPANSIONS)}")
    return name


def check_copies(groups: Iterable[Iterable[int]], expansion: str = "base") -> None:
    """Raise if the cards of all groups together use a type more often than the deck holds it."""
    counts = Counter(t for g in groups for t in g)
    copies = kc.copies_in(expansion)
    for t, n in sorted(counts.items()):
        if n > copies[t]:
            raise SeasaltError(f"{n} x {card_name(t)} listed, only {copies[t]} exist")


def card_name(t: int) -> str:
    """`kind:colour`, or just `kind` for single-colour kinds."""
    k = int(kc.TYPE_KIND[t])
    return kc.KINDS[k] if kc.KIND_NTYPES[k] == 1 else kc.type_name(t)


def counts_vector(types: Iterable[int]) -> np.ndarray:
    """Counts by type id of a card list."""
    return np.bincount(np.asarray(list(types), dtype=np.int64), minlength=kc.NTYPES)
