"""Deals of the cards a seat cannot place: the one sampler of the search player (kernels.search)
and the advisor (kernels.advisor).

A *marked* state is a round state at a decision point in which everything seat o cannot place
is blank: each hidden hand holds only the cards o knows are in it, and every pile or deck slot
whose card o does not know holds UNSEEN. With the *pool* (the cards o cannot place, in type
order) and the number of unknown cards of each hand, `fill_unknown` deals the pool, uniformly
shuffled, into the blanks: the hands in seat order, then the blank slots of pile A bottom-up and
of pile B, then the blank deck slots from the bottom. The filled deck is marked shuffled: its
order is drawn card by card as it is revealed (kernels.engine.reveal_top), so where in the deck
a card was put does not matter.

Every arrangement of the pool's physical cards is equally likely, so a deal is uniform over the
deals the marks allow; what the rules exclude besides (kernels.advisor: nobody holds four
mermaids) is for the caller to reject.
"""
from .jit import kernel

from .cards import MAX_DECK, NTYPES
from .rng import shuffle
from .scoring import refresh_points
from .state import DECK, DECK_LEN, NPLAYERS, PILE, PILE_LEN, SHUFFLED, UNSEEN, gain_card


@kernel
def pool_from_counts(w, counts, pool):
    """Write the cards of the counts w[counts:counts + NTYPES] at w[pool:] in type order (a
    negative count adds nothing); returns how many."""
    m = 0
    for t in range(NTYPES):
        for _ in range(w[counts + t]):
            w[pool + m] = t
            m += 1
    return m


@kernel
def fill_unknown(d, w, pool, m, unknown, rng):
    """Deal the m cards at w[pool:], shuffled with `rng`, into the blanks of the marked state d
    (module doc): w[unknown + q] cards into each hand q, then every UNSEEN pile slot (A from the
    bottom, then B), then every UNSEEN deck slot; the deck is marked shuffled and the cached
    card points recomputed. Returns m minus the number of blanks (0 when they match; a blank
    left over keeps UNSEEN, a card left over is dropped)."""
    shuffle(w, pool, m, rng)
    n = d[NPLAYERS]
    used = 0
    for q in range(n):
        for _ in range(w[unknown + q]):
            if used < m:
                gain_card(d, q, w[pool + used])
            used += 1
    for j in range(2):
        base = PILE + j * MAX_DECK
        for i in range(d[PILE_LEN + j]):
            if d[base + i] == UNSEEN:
                if used < m:
                    d[base + i] = w[pool + used]
                used += 1
    for i in range(d[DECK_LEN]):
        if d[DECK + i] == UNSEEN:
            if used < m:
                d[DECK + i] = w[pool + used]
            used += 1
    d[SHUFFLED] = 1
    refresh_points(d, n)
    return m - used
