"""Card points and colour bonus of one player's hand and table (docs/rules.md, "Scoring: card
points"), by the compiled kernel.

    >>> score_hand("mermaid,shell:black,shell:grey", table="boat:black,boat:yellow")
    {'card_points': 5, 'colour_bonus': 2,
     'breakdown': {'mermaids': 2, 'duos': 1, 'collections': 2, 'multipliers': 0}}

The cards are validated first (names, colours, expansion, copies that exist across hand and table,
and a table that could have been played: pairs, and trios with Extra Salt); a mistake raises
SeasaltError with a one-line message. The numbers come from kernels.scoring on a state built by
analyzer.rules.setups.build_state, so they are the engine's own scores.
"""
from __future__ import annotations

import inspect
from collections import Counter
from typing import Sequence

from kernels import cards as kc

from .notation import check_copies, check_expansion, parse_cards
from ..base.errors import SeasaltError

Cards = str | Sequence[str]

# Kinds that may lie on a table: the cards of played pairs, and starfish of played trios.
_TABLE_KINDS = frozenset(k for _e, k1, k2 in kc.PAIRS for k in (k1, k2)) | {"starfish"}


def _kernel(fn, s, p) -> int:
    """Call a compiled scoring function of (s, p). Any further parameters are the kernel's
    "as if one more card of kind xk / colour xc were in hand" arguments, where -1 means as is."""
    try:
        nargs = len(inspect.signature(getattr(fn, "py_func", fn)).parameters)
    except (TypeError, ValueError):
        nargs = 2
    return int(fn(s, p, *([-1] * (nargs - 2))))


def _as_text(cards: Cards | None) -> str:
    if cards is None:
        return ""
    if isinstance(cards, str):
        return cards
    if not isinstance(cards, (list, tuple)):
        raise SeasaltError(f"cards must be given as text like 'crab:black,mermaid' or a list of "
                           f"names, got {cards!r}")
    items = list(cards)
    for item in items:
        if not isinstance(item, str):
            raise SeasaltError(f"cards must be given as names like 'crab:black', got {item!r}")
    return ",".join(items)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _pairings(kinds: Counter) -> tuple[int, Counter]:
    """(most pairs of kernels.cards PAIRS the duo cards `kinds` can form, the cards left over
    by such a split), by a search over the few pair kinds."""
    best: tuple[int, Counter] = (0, +kinds)
    seen = set()

    def search(left: Counter, made: int) -> None:
        nonlocal best
        key = tuple(sorted((+left).items()))
        if key in seen:
            return
        seen.add(key)
        if made > best[0] or (made == best[0] and sum(left.values()) < sum(best[1].values())):
            best = (made, +left)
        for _effect, k1, k2 in kc.PAIRS:
            if left[k1] >= 1 + (k1 == k2) and left[k2] >= 1:
                nxt = left.copy()
                nxt[k1] -= 1
                nxt[k2] -= 1
                search(nxt, made + 1)

    search(Counter(kinds), 0)
    return best


_LEGAL_PAIRS = ", ".join(f"{k1}+{k2}" for _e, k1, k2 in kc.PAIRS)


def check_table(types: Sequence[int], whose: str = "the table") -> int:
    """Raise SeasaltError unless the table cards can be split into played pairs (docs/rules.md, "The
    cards", kernels.cards PAIRS) and trios (a pair plus one starfish). Returns the number of pairs
    and trios."""
    kinds = Counter(kc.KINDS[kc.TYPE_KIND[t]] for t in types)
    for kind in kinds:
        if kind not in _TABLE_KINDS:
            raise SeasaltError(f"illegal table: a {kind} cannot be on {whose} (only pairs and "
                               "trios are played)")
    stars = kinds.pop("starfish", 0)
    pairs, left = _pairings(kinds)
    if left:
        names = [f"{n} {k}" if k.endswith("fish") else _plural(n, k)
                 for k, n in sorted(left.items())]
        pairs = [f"{k1}+{k2}" for _e, k1, k2 in kc.PAIRS if k1 in left or k2 in left]
        raise SeasaltError(f"illegal table: {', '.join(names)} on {whose}: no pair "
                           f"({', '.join(pairs)})")
    if stars > pairs:
        raise SeasaltError(f"illegal table: {stars} starfish for {_plural(pairs, 'pair')} on "
                           f"{whose}; a starfish is only played in a trio with a pair")
    return pairs


def score_hand(hand: Cards, table: Cards = "", expansion: str = "base") -> dict:
    """Card points (with their four components) and colour bonus of one player.

    `hand` and `table` are comma-separated card notation or lists of card names. Raises
    SeasaltError for unknown cards or colours, Extra Salt cards outside `extra-salt`, more copies
    than exist, or a table that no sequence of plays could have produced."""
    expansion = check_expansion(expansion)
    hand_text, table_text = _as_text(hand), _as_text(table)
    hand_ids = parse_cards(hand_text, expansion)
    table_ids = parse_cards(table_text, expansion)
    check_copies([hand_ids, table_ids], expansion)
    check_table(table_ids)
    from kernels import scoring as ksc          # the engine, once the cards are known good
    from .setups import build_state
    s = build_state(2, hands={0: hand_text}, tables={0: table_text}, expansion=expansion)
    breakdown = {
        "mermaids": _kernel(ksc.mermaid_points, s, 0),
        "duos": _kernel(ksc.duo_points, s, 0),
        "collections": _kernel(ksc.collector_points, s, 0),
        "multipliers": _kernel(ksc.multiplier_points, s, 0),
    }
    points = _kernel(ksc.card_points, s, 0)
    if points != sum(breakdown.values()):  # the kernel's total and its parts must agree
        raise RuntimeError(f"card points {points} != sum of components {breakdown}")
    return {"card_points": points, "colour_bonus": int(ksc.colour_bonus(s, 0)), "breakdown": breakdown}
