"""Card points and colour bonus of one player (RULES.md §7), compiled.

Every component reads the incremental counts of the state (hand kinds, hand+table kinds and
colours, pairs on the table) and can score "as if one more card of kind xk and colour xc were in
the hand" (xk = xc = -1: as is). `gain(card)` is the change of card points as a branch-free
formula over the card's kind, and the engine keeps each player's current card points cached in
the state (PTS), so the baseline's many gain evaluations cost a few dozen integer operations each.
"""
import numpy as np

from .jit import below_bound, kernel, word

from .cards import (BOAT, CAPTAIN, CAST, COLONY, CRAB, FISH, JELLYFISH, LIGHTHOUSE,
                    LOBSTER, MERMAID, NKINDS, NTYPES, OCTOPUS, PENGUIN, SAILOR, SEAHORSE, SHARK,
                    SHELL, SHOAL, STARFISH, SWIMMER, WHITE)
from .state import AK, COL, COLOUR_OF, CSTRIDE, HK, KIND_OF, NPAIRS, PTS, gain_card, lose_card


UNKNOWN = -(1 << 20)   # "gain not computed yet", for receive()

# The §7 tables that both the full score and gain() read, so that each rule is written once.
# Collections: n >= 1 cards of a collector kind are worth COLLECTOR_FIRST + COLLECTOR_STEP * (n - 1)
# (shells 0/2/4.., octopus 0/3/6.., penguins 1/3/5, sailors 0/5); 0 for other kinds.
COLLECTOR_FIRST = np.zeros(NKINDS, dtype=np.int64)
COLLECTOR_STEP = np.zeros(NKINDS, dtype=np.int64)
for _k, _first, _step in ((SHELL, 0, 2), (OCTOPUS, 0, 3), (PENGUIN, 1, 2), (SAILOR, 0, 5)):
    COLLECTOR_FIRST[_k] = _first
    COLLECTOR_STEP[_k] = _step
# Multipliers: (multiplier kind, kind it counts, points per pair of them). Every kind is in at
# most one product, so MULT_PARTNER / MULT_FACTOR give, for any kind, the other kind of its
# product and the factor (0: none): one more card of kind k adds MULT_FACTOR[k] * count(partner).
MULTIPLIERS = ((LIGHTHOUSE, BOAT, 1), (SHOAL, FISH, 1), (COLONY, PENGUIN, 2), (CAPTAIN, SAILOR, 3),
               (CAST, CRAB, 1))
MULT_KIND = np.array([m[0] for m in MULTIPLIERS], dtype=np.int64)
MULT_COUNTED = np.array([m[1] for m in MULTIPLIERS], dtype=np.int64)
MULT_PARTNER = np.zeros(NKINDS, dtype=np.uint8)   # uint8: see state.KIND_OF
MULT_FACTOR = np.zeros(NKINDS, dtype=np.int64)
for _m, _k, _f in MULTIPLIERS:
    MULT_PARTNER[_m], MULT_PARTNER[_k] = _k, _m
    MULT_FACTOR[_m] = MULT_FACTOR[_k] = _f


@kernel(inline="always")
def mermaid_points(s, p, xk, xc):
    """M: the sum of the m largest colour counts (mermaids and the seahorse are white)."""
    m = s[AK + p * NKINDS + MERMAID] + (xk == MERMAID)
    if m == 0:
        return 0
    t1 = t2 = t3 = t4 = 0
    base = COL + p * CSTRIDE
    for c in range(CSTRIDE):
        v = s[base + c] + (c == xc)
        if v > t4:
            if v > t2:
                t4 = t3
                t3 = t2
                if v > t1:
                    t2 = t1
                    t1 = v
                else:
                    t2 = v
            elif v > t3:
                t4 = t3
                t3 = v
            else:
                t4 = v
    total = t1
    if m >= 2:
        total += t2
    if m >= 3:
        total += t3
    if m >= 4:
        total += t4
    return total


@kernel(inline="always")
def held_pairs(s, p, xk):
    """Largest number of disjoint legal pairs within the hand."""
    h = HK + p * NKINDS
    crab = s[h + CRAB] + (xk == CRAB)
    lobster = s[h + LOBSTER] + (xk == LOBSTER)
    swimmer = s[h + SWIMMER] + (xk == SWIMMER)
    partner = s[h + SHARK] + (xk == SHARK) + s[h + JELLYFISH] + (xk == JELLYFISH)
    boat = s[h + BOAT] + (xk == BOAT)
    fish = s[h + FISH] + (xk == FISH)
    return min((crab + lobster) // 2, crab) + min(swimmer, partner) + boat // 2 + fish // 2


@kernel(inline="always")
def duo_points(s, p, xk):
    """D: 1 per pair on the table and per held pair, +2 per starfish (table, or hand up to held pairs)."""
    held = held_pairs(s, p, xk)
    hand_star = s[HK + p * NKINDS + STARFISH]
    table_star = s[AK + p * NKINDS + STARFISH] - hand_star
    hand_star += xk == STARFISH
    return s[NPAIRS + p] + held + 2 * table_star + 2 * min(hand_star, held)


@kernel(inline="always")
def _collection(s, a, k, xk):
    """(cards, points) of collector kind k in the hand+table counts at offset a (+1 if xk == k)."""
    n = s[a + k] + (xk == k)
    if n == 0:
        return n, 0
    return n, COLLECTOR_FIRST[k] + COLLECTOR_STEP[k] * (n - 1)


@kernel(inline="always")
def collector_points(s, p, xk):
    """C: shells 0/2/4.., octopus 0/3/6.., penguins 1/3/5, sailors 0/5; the seahorse adds one card
    to the collection it raises most (at least one card there, below the maximum)."""
    a = AK + p * NKINDS
    shell, c_shell = _collection(s, a, SHELL, xk)
    octo, c_octo = _collection(s, a, OCTOPUS, xk)
    peng, c_peng = _collection(s, a, PENGUIN, xk)
    sail, c_sail = _collection(s, a, SAILOR, xk)
    total = c_shell + c_octo + c_peng + c_sail
    if s[a + SEAHORSE] + (xk == SEAHORSE) > 0:
        if sail == 1:
            total += 5
        elif 1 <= octo < 5:
            total += 3
        elif (1 <= shell < 6) or (1 <= peng < 3):
            total += 2
    return total


@kernel(inline="always")
def multiplier_points(s, p, xk):
    """X: lighthouse per boat, shoal per fish, colony 2 per penguin, captain 3 per sailor,
    cast of crabs per crab (MULTIPLIERS); real cards in hand+table only."""
    a = AK + p * NKINDS
    total = 0
    for i in range(MULT_KIND.shape[0]):
        m = MULT_KIND[i]
        k = MULT_COUNTED[i]
        total += MULT_FACTOR[m] * (s[a + m] + (xk == m)) * (s[a + k] + (xk == k))
    return total


@kernel(inline="always")
def card_points(s, p):
    """Card points of player p: M + D + C + X (RULES.md §7), computed from the counts."""
    return _card_points(s, word(p))


@kernel
def _card_points(s, p):
    return (mermaid_points(s, p, -1, -1) + duo_points(s, p, -1) + collector_points(s, p, -1)
            + multiplier_points(s, p, -1))


@kernel
def colour_bonus(s, p):
    """Size of p's largest colour group over hand+table."""
    best = 0
    base = COL + p * CSTRIDE
    for c in range(CSTRIDE):
        if s[base + c] > best:
            best = s[base + c]
    return best


@kernel(inline="always")
def gain(s, p, t):
    """How many card points p would gain with card type t added to the hand (_gain, called
    with plain int64 arguments whatever the caller's integer types: one compiled version)."""
    return _gain(s, word(p), word(t))


@kernel(forceinline=True)
def _gain(s, p, t):
    """How many card points p would gain with card type t added to the hand.

    The hot path of every greedy player, so it is the delta of §7 rather than a re-score, and
    written without branches on the card's kind (a random kind mispredicts a kind switch most
    of the time): every component's delta is a formula over the kind that is 0 for kinds it does
    not involve. tests/test_fast_paths.py checks it against card_points over random hands."""
    t = below_bound(t, NTYPES)
    k = KIND_OF[t]
    h = HK + p * NKINDS
    a = AK + p * NKINDS
    # X: one more card of a product's kind adds the factor times the other kind's count.
    d = MULT_FACTOR[k] * s[a + MULT_PARTNER[k]]
    # D: held pairs with and without the card, and the hand starfish that they validate.
    held = held_pairs(s, p, -1)
    held_with = held_pairs(s, p, k)
    stars = s[h + STARFISH]
    stars_with = stars + (k == STARFISH)
    d += held_with - held + 2 * (min(stars_with, held_with) - min(stars, held))
    # C: the next card of a collection is worth its step, or its first value; the seahorse,
    # rare, re-ranks the collections, so then they are re-scored.
    if s[a + SEAHORSE] > 0 or k == SEAHORSE:
        d += collector_points(s, p, k) - collector_points(s, p, -1)
    else:
        d += COLLECTOR_STEP[k] if s[a + k] > 0 else COLLECTOR_FIRST[k]
    # M: one more card of colour c adds 1 iff fewer than m colours count strictly more than c
    # (ties are interchangeable); a new mermaid re-ranks everything, so it is re-scored.
    if k == MERMAID:
        d += mermaid_points(s, p, MERMAID, WHITE) - mermaid_points(s, p, -1, -1)
    else:
        m = s[a + MERMAID]
        if m > 0:
            col = COL + p * CSTRIDE
            v = s[col + COLOUR_OF[t]]
            greater = 0
            for x in range(CSTRIDE):
                greater += s[col + x] > v
            d += greater < m
    return d


@kernel(forceinline=True)
def points(s, p):
    """p's current card points, from the cache the engine keeps up to date."""
    return s[PTS + p]


@kernel(inline="always")
def gain_call(s, p, t):
    """gain() as a real call, for sites off the hot path: gain is inlined wherever it is called,
    and every copy makes the engine, which numba re-optimizes in each library that links it,
    slower to compile. One compiled version (int64 arguments)."""
    return _gain_call(s, word(p), word(t))


@kernel
def _gain_call(s, p, t):
    return _gain(s, p, t)


@kernel(forceinline=True)
def receive(s, p, t, g):
    """Card type t enters p's hand, worth g card points to p (UNKNOWN: compute it here); the
    cached card points follow. Policies that already computed the gain pass it on."""
    if g == UNKNOWN:
        g = gain_call(s, p, t)
    s[PTS + p] += g
    gain_card(s, p, t)


@kernel(forceinline=True)
def give_up(s, p, t):
    """Card type t leaves p's hand (stolen); the cached card points follow: they drop by what
    the card would gain p back, card_points(with) - card_points(without) by gain's definition."""
    lose_card(s, p, t)
    s[PTS + p] -= gain_call(s, p, t)


@kernel
def refresh_points(s, nplayers):
    """Recompute every cached card-points entry (after setting a state up by hand)."""
    for q in range(nplayers):
        s[PTS + q] = card_points(s, q)
