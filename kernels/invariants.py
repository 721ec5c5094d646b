"""Consistency checks of a round state, for tests: every card in exactly one place, and the
incremental counts (by kind, by colour, hand sizes) equal to what the type counts imply."""
import numpy as np
from numba import njit

from .cards import (MAX_DECK, NCOLOURS, NKINDS, NTYPES, TYPE_COLOUR, TYPE_COPIES, TYPE_EXPANSION,
                    TYPE_KIND)
from .state import AK, COL, DECK, DECK_LEN, HK, HLEN, HT, MAX_PLAYERS, PILE, PILE_LEN, TT


@njit(cache=True)
def state_errors(s):
    """0 if `s` is consistent; otherwise a code naming the first broken invariant:
    1 a count is negative, 2 a card type is not present exactly as often as it exists
    (base deck, or base + Extra Salt), 3 kind counts, 4 colour counts, 5 hand sizes disagree."""
    census = np.zeros(NTYPES, dtype=np.int64)
    if s[DECK_LEN] < 0 or s[DECK_LEN] > MAX_DECK or s[PILE_LEN] < 0 or s[PILE_LEN + 1] < 0:
        return 1
    for i in range(s[DECK_LEN]):
        census[s[DECK + i]] += 1
    for j in range(2):
        for i in range(s[PILE_LEN + j]):
            census[s[PILE + j * MAX_DECK + i]] += 1
    for p in range(MAX_PLAYERS):
        for t in range(NTYPES):
            if s[HT + p * NTYPES + t] < 0 or s[TT + p * NTYPES + t] < 0:
                return 1
            census[t] += s[HT + p * NTYPES + t] + s[TT + p * NTYPES + t]
    extra = False
    for t in range(NTYPES):
        if TYPE_EXPANSION[t] == 1 and census[t] > 0:
            extra = True
    for t in range(NTYPES):
        want = TYPE_COPIES[t] if (TYPE_EXPANSION[t] == 0 or extra) else 0
        if census[t] != want:
            return 2
    for p in range(MAX_PLAYERS):
        hk = np.zeros(NKINDS, dtype=np.int64)
        ak = np.zeros(NKINDS, dtype=np.int64)
        col = np.zeros(NCOLOURS, dtype=np.int64)
        n = 0
        for t in range(NTYPES):
            h = s[HT + p * NTYPES + t]
            a = h + s[TT + p * NTYPES + t]
            hk[TYPE_KIND[t]] += h
            ak[TYPE_KIND[t]] += a
            col[TYPE_COLOUR[t]] += a
            n += h
        for k in range(NKINDS):
            if hk[k] != s[HK + p * NKINDS + k] or ak[k] != s[AK + p * NKINDS + k]:
                return 3
        for c in range(NCOLOURS):
            if col[c] != s[COL + p * NCOLOURS + c]:
                return 4
        if n != s[HLEN + p]:
            return 5
    return 0
