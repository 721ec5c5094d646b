"""What a seat saw at a reviewed decision, in words: enough to set the decision again as a
practice position on the page (its review offers the costliest ones, kept in the browser)."""
from __future__ import annotations

import numpy as np

from kernels import actions as kac
from kernels import cards as kc
from kernels import state as ks

from ..rules.notation import card_name


def _cards(counts: np.ndarray) -> list[str]:
    """Card names of a by-type count row, in type order."""
    return [card_name(t) for t in range(kc.NTYPES) for _ in range(int(counts[t]))]


def seen(view: np.ndarray, seat: int, totals: list[int]) -> dict:
    """The seat's view at its decision (a marked state: kernels.search.mark_known): its hand,
    the cards it has just seen on the deck (two drawn to keep one, or a lobster's), the piles'
    tops and sizes, every table, every hand's size, the deck's size and the running totals."""
    n = int(view[ks.NPLAYERS])
    deck = int(view[ks.DECK_LEN])
    dec = int(view[ks.DEC])
    shown = 2 if dec == kac.DEC_KEEP else min(5, deck) if dec == kac.DEC_LOBSTER else 0
    piles = []
    for j in range(2):
        size = int(view[ks.PILE_LEN + j])
        top = int(view[ks.PILE + j * kc.MAX_DECK + size - 1]) if size else -1
        piles.append({"size": size, "top": card_name(top) if top >= 0 else None})
    return {"hand": _cards(view[ks.HT + seat * kc.NTYPES:ks.HT + (seat + 1) * kc.NTYPES]),
            "seen": [card_name(int(view[ks.DECK + deck - 1 - i])) for i in range(shown)],
            "piles": piles,
            "tables": [_cards(view[ks.TT + q * kc.NTYPES:ks.TT + (q + 1) * kc.NTYPES])
                       for q in range(n)],
            "hand_sizes": [int(v) for v in view[ks.HLEN:ks.HLEN + n]],
            "deck": deck, "totals": list(totals)}
