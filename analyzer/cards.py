"""Card notation (`kind[:colour]`, comma-separated) to type ids and back, with validation.

Names come from kernels.cards, the single source of truth; `dark-blue` and `dark_blue` are both
accepted, case does not matter, and the colour may be left out only for single-colour kinds.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

import numpy as np

from kernels import cards as kc

from .errors import SeasaltError


def _norm(word: str) -> str:
    return word.strip().lower().replace("-", "_").replace(" ", "_")


def parse_card(text: str, expansion: str = "base") -> int:
    """One card in `kind[:colour]` notation to its type id, checked against the expansion."""
    kind, _, colour = _norm(text).partition(":")
    if kind not in kc.KINDS:
        raise SeasaltError(f"unknown card kind {text.strip()!r}; valid kinds: {', '.join(kc.KINDS)}")
    k = kc.KINDS.index(kind)
    first, n = int(kc.KIND_FIRST_TYPE[k]), int(kc.KIND_NTYPES[k])
    colours = [kc.COLOURS[kc.TYPE_COLOUR[t]] for t in range(first, first + n)]
    if not colour:
        if n > 1:
            raise SeasaltError(f"{kind} needs a colour ({kind}:COLOUR); it comes in {', '.join(colours)}")
        t = first
    elif colour not in kc.COLOURS:
        raise SeasaltError(f"unknown colour {colour!r} in {text.strip()!r}; valid colours: {', '.join(kc.COLOURS)}")
    elif colour not in colours:
        raise SeasaltError(f"there is no {colour} {kind}; {kind} comes in {', '.join(colours)}")
    else:
        t = first + colours.index(colour)
    if kc.TYPE_EXPANSION[t] > kc.EXPANSIONS.index(expansion):
        raise SeasaltError(f"{kind} is an Extra Salt card; add --expansion extra-salt")
    return t


def parse_cards(text: str | None, expansion: str = "base") -> list[int]:
    """A comma-separated card list (empty or None: no cards) to type ids."""
    if text is None or not text.strip():
        return []
    return [parse_card(item, expansion) for item in text.split(",")]


def check_expansion(expansion: str) -> str:
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
