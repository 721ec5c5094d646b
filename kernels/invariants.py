"""Consistency checks of a round state, for tests: every card in exactly one place, and the
incremental counts (by kind, by colour, hand sizes, cached points) equal to what the type counts
imply. Allocation-free, so that the trace hook calling it keeps the hot path free of refcounting."""
from .jit import kernel

from .cards import (MAX_DECK, NKINDS, NTYPES, TYPE_COLOUR, TYPE_COPIES, TYPE_EXPANSION,
                    TYPE_KIND)
from .scoring import card_points
from .state import (AK, COL, CSTRIDE, DECK, DECK_LEN, GX, HK, HLEN, HT, MAX_PLAYERS, PILE, PILE_LEN,
                    PTS, TT)


@kernel
def _census(s, t):
    """Copies of type t found in the deck, the piles, the hands and the tables."""
    n = 0
    for i in range(s[DECK_LEN]):
        n += s[DECK + i] == t
    for j in range(2):
        for i in range(s[PILE_LEN + j]):
            n += s[PILE + j * MAX_DECK + i] == t
    for p in range(MAX_PLAYERS):
        n += s[HT + p * NTYPES + t] + s[TT + p * NTYPES + t]
    return n


@kernel
def state_errors(s):
    """0 if `s` is consistent; otherwise a code naming the first broken invariant:
    1 a count is out of range, 2 a card type is not present exactly as often as it exists
    (base deck, or base + Extra Salt), 3 kind counts, 4 colour counts, 5 hand sizes disagree,
    6 the cached card points differ from a fresh count, 7 the colour thresholds (GX) disagree
    with the colour counts."""
    if not (0 <= s[DECK_LEN] <= MAX_DECK and 0 <= s[PILE_LEN] <= MAX_DECK and 0 <= s[PILE_LEN + 1] <= MAX_DECK):
        return 1
    for p in range(MAX_PLAYERS):
        for t in range(NTYPES):
            if s[HT + p * NTYPES + t] < 0 or s[TT + p * NTYPES + t] < 0:
                return 1
    extra = False
    for t in range(NTYPES):
        if TYPE_EXPANSION[t] == 1 and _census(s, t) > 0:
            extra = True
    for t in range(NTYPES):
        want = TYPE_COPIES[t] if (TYPE_EXPANSION[t] == 0 or extra) else 0
        if _census(s, t) != want:
            return 2
    for p in range(MAX_PLAYERS):
        for k in range(NKINDS):
            hand = 0
            both = 0
            for t in range(NTYPES):
                if TYPE_KIND[t] == k:
                    hand += s[HT + p * NTYPES + t]
                    both += s[HT + p * NTYPES + t] + s[TT + p * NTYPES + t]
            if hand != s[HK + p * NKINDS + k] or both != s[AK + p * NKINDS + k]:
                return 3
        for c in range(CSTRIDE):
            both = 0
            for t in range(NTYPES):
                if TYPE_COLOUR[t] == c:
                    both += s[HT + p * NTYPES + t] + s[TT + p * NTYPES + t]
            if both != s[COL + p * CSTRIDE + c]:
                return 4
        n = 0
        for t in range(NTYPES):
            n += s[HT + p * NTYPES + t]
        if n != s[HLEN + p]:
            return 5
        if s[PTS + p] != card_points(s, p):
            return 6
        for x in range(CSTRIDE):
            more = 0
            for c in range(CSTRIDE):
                more += s[COL + p * CSTRIDE + c] > x
            if more != s[GX + p * CSTRIDE + x]:
                return 7
    return 0
