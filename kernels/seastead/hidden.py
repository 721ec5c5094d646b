"""What no Seastead seat can see, redealt: the orders of the face-down decks.

A seat that decides sees the board, every reserve, the displays and the discard pile; it does not
see the order of the dive deck within a dealt layer, nor of the specialist, dock and decree decks.
`determinize` redeals exactly that, so a rollout from a redealt state knows what a player knows.
Used by the search player (kernels.seastead.search) and by a seat asked at the table
(kernels.seastead.players.ask), which may be in the middle of an action.
"""
from ..jit import kernel
from ..rng import shuffle
from . import layout as L


@kernel
def redeal(s, lo, n, rng):
    """s[lo:lo + n] sorted, then shuffled: the result depends on which cards are there and on
    `rng`, never on their order (which the seat does not know)."""
    for i in range(lo + 1, lo + n):
        v = s[i]
        j = i - 1
        while j >= lo and s[j] > v:
            s[j + 1] = s[j]
            j -= 1
        s[j + 1] = v
    shuffle(s, lo, n, rng)


@kernel(inline="always")
def determinize(s, cp, rng, shown):
    """Redeal in place what no seat can see: the dive deck's order within each run of one group
    (Shallows, Shelf and Depths are dealt in layers, which every player knows; the whole deck
    once it has been reshuffled), and the orders of the specialist, dock and decree decks (a
    decree put under the deck is forgotten: less than its chooser knows, never more). The top
    `shown` decrees stay: they are face up while a seat chooses between them."""
    n = s[L.DECK_LEN]
    if s[L.RESHUFFLES] > 0:
        redeal(s, L.DECK, n, rng)
    else:
        lo = 0
        while lo < n:
            g = cp[L.DV_GROUP + s[L.DECK + lo]]
            hi = lo + 1
            while hi < n and cp[L.DV_GROUP + s[L.DECK + hi]] == g:
                hi += 1
            redeal(s, L.DECK + lo, hi - lo, rng)
            lo = hi
    redeal(s, L.SPEC_DECK, s[L.SPEC_DECK_LEN], rng)
    redeal(s, L.DOCK_DECK, s[L.DOCK_DECK_LEN], rng)
    redeal(s, L.DCK, s[L.DCK_LEN] - shown, rng)
