"""Card points and colour bonus of one player (docs/rules.md, "Scoring: card points"), compiled.

Every component reads the incremental counts of the state (hand kinds, hand+table kinds and
colours, pairs on the table) and can score "as if one more card of kind xk and colour xc were in
the hand" (xk = xc = -1: as is). `gain(card)` is the change of card points as a branch-free
formula over the card's kind, and the engine keeps each player's current card points cached in
the state (PTS), so the baseline's many gain evaluations cost a few dozen integer operations each.
"""
import numpy as np

from .jit import below_bound, kernel, word

from .cards import (BOAT, CAPTAIN, CAST, COLONY, CRAB, FISH, JELLYFISH, KIND_FIRST_TYPE,
                    LIGHTHOUSE, LOBSTER, MERMAID, NKINDS, NTYPES, OCTOPUS, PAIR_KINDS, PENGUIN,
                    SAILOR, SEAHORSE, SHARK, SHELL, SHOAL, STARFISH, SWIMMER, TYPE_COLOUR,
                    TYPE_EXPANSION, TYPE_KIND, WHITE)
from .state import AK, COL, CSTRIDE, GX, HK, NPAIRS, PTS, gain_card, lose_card


UNKNOWN = -(1 << 20)   # "gain not computed yet", for receive()

# The "Scoring: card points" tables that both the full score and gain() read, so that each rule is
# written once. Collections: n >= 1 cards of a collector kind are worth COLLECTOR_FIRST +
# COLLECTOR_STEP * (n - 1) (shells 0/2/4.., octopus 0/3/6.., penguins 1/3/5, sailors 0/5); 0 for
# other kinds.
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
MULT_PARTNER = np.zeros(NKINDS, dtype=np.int64)
MULT_FACTOR = np.zeros(NKINDS, dtype=np.int64)
for _m, _k, _f in MULTIPLIERS:
    MULT_PARTNER[_m], MULT_PARTNER[_k] = _k, _m
    MULT_FACTOR[_m] = MULT_FACTOR[_k] = _f
# Held pairs of the base game, from the one table of pair legality (cards.PAIR_KINDS): a kind
# pairing with itself (SAME_PAIR) completes a pair on an odd count; a kind of a cross pair
# (CROSS_PAIR) when it has fewer cards than PAIR_PARTNER. With a lobster, jellyfish or starfish
# about, gain() counts the held pairs in full (held_pairs).
SAME_PAIR = np.zeros(NKINDS, dtype=np.int64)
CROSS_PAIR = np.zeros(NKINDS, dtype=np.int64)
PAIR_PARTNER = np.zeros(NKINDS, dtype=np.int64)
for _a, _b in PAIR_KINDS:
    if TYPE_EXPANSION[KIND_FIRST_TYPE[_a]] or TYPE_EXPANSION[KIND_FIRST_TYPE[_b]]:
        continue
    if _a == _b:
        SAME_PAIR[_a] = 1
    else:
        CROSS_PAIR[_a] = CROSS_PAIR[_b] = 1
        PAIR_PARTNER[_a], PAIR_PARTNER[_b] = _b, _a
FULL_PAIRS = (LOBSTER, JELLYFISH, STARFISH)   # kinds after which held pairs are counted in full

# What gain() reads about a card type, packed into one word per type so that a gain costs one
# table load (a chain of loads kind -> partner -> count was a third of gain's time): each field
# is (shift, bits), all derived from the tables above.
G_FIELDS = dict(kind=(0, 5), colour=(5, 4), mult_partner=(9, 5), mult_factor=(14, 2),
                same_pair=(16, 1), cross_pair=(17, 1), pair_partner=(18, 5),
                first=(23, 3), step=(26, 3), full_pairs=(29, 1))
TYPE_GAIN = np.zeros(NTYPES, dtype=np.int64)
for _t in range(NTYPES):
    _k = int(TYPE_KIND[_t])
    _vals = dict(kind=_k, colour=int(TYPE_COLOUR[_t]), mult_partner=int(MULT_PARTNER[_k]),
                 mult_factor=int(MULT_FACTOR[_k]), same_pair=int(SAME_PAIR[_k]),
                 cross_pair=int(CROSS_PAIR[_k]), pair_partner=int(PAIR_PARTNER[_k]),
                 first=int(COLLECTOR_FIRST[_k]), step=int(COLLECTOR_STEP[_k]),
                 full_pairs=int(_k in FULL_PAIRS))
    for _name, (_shift, _bits) in G_FIELDS.items():
        assert 0 <= _vals[_name] < (1 << _bits), _name
        TYPE_GAIN[_t] |= _vals[_name] << _shift


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


@kernel(forceinline=True)
def mermaid_total(s, p):
    """mermaid_points(s, p, -1, -1) from the colour table GX: the sum of the m largest colour
    counts is the sum over x of min(m, GX[x]), and GX falls with x, so the loop ends at the
    first x no colour exceeds (a few steps, where sorting the 16 colours cost 7% of a
    batch round; the statistics' counting lines use it)."""
    m = s[AK + p * NKINDS + MERMAID]
    total = 0
    if m > 0:
        gx = GX + p * CSTRIDE
        x = 0
        while x < CSTRIDE and s[gx + x] > 0:
            total += min(m, s[gx + x])
            x += 1
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
    """D: 1 per pair on the table and per held pair, +2 per starfish (table, or hand up to held
    pairs)."""
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
    """Card points of player p: M + D + C + X (docs/rules.md, "Scoring: card points"), computed from
    the counts."""
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

    The hot path of every greedy player, so it is the delta of "Scoring: card points" rather than a
    re-score, read from per-kind tables without branches on the card's kind (a random kind
    mispredicts a kind switch most of the time). Two rare cases take a slower exact branch: an Extra
    Salt pair card or starfish in the hand or drawn (held pairs re-counted), a seahorse (collections
    re-ranked), and a drawn mermaid (mermaid score re-summed over GX).
    tests/kernels/test_fast_paths.py checks it against card_points over random hands."""
    g = TYPE_GAIN[below_bound(t, NTYPES)]
    k = g & 31
    h = HK + p * NKINDS
    a = AK + p * NKINDS
    # X: one more card of a product's kind adds the factor times the other kind's count.
    d = ((g >> 14) & 3) * s[a + ((g >> 9) & 31)]
    # D: a same-kind pair kind completes a pair on an odd count, a cross pair kind when it has
    # fewer than its partner; lobsters, jellyfish and starfish need the full count.
    if s[h + LOBSTER] + s[h + JELLYFISH] + s[h + STARFISH] + ((g >> 29) & 1) > 0:
        held = held_pairs(s, p, -1)
        held_with = held_pairs(s, p, k)
        stars = s[h + STARFISH]
        stars_with = stars + (k == STARFISH)
        d += held_with - held + 2 * (min(stars_with, held_with) - min(stars, held))
    else:
        n = s[h + k]
        d += (((g >> 16) & 1) & n) + (((g >> 17) & 1) & (n < s[h + ((g >> 18) & 31)]))
    # C: the next card of a collection is worth its step, or its first value; the seahorse
    # re-ranks the collections, so then they are re-scored.
    if s[a + SEAHORSE] > 0 or k == SEAHORSE:
        d += collector_points(s, p, k) - collector_points(s, p, -1)
    else:
        d += ((g >> 26) & 7) if s[a + k] > 0 else ((g >> 23) & 7)
    # M: with m mermaids, one more card of colour c adds 1 iff fewer than m colours hold more
    # cards than c (GX[count(c)] < m; never with m = 0); a new mermaid raises m, so the sum
    # over GX is taken again.
    m = s[a + MERMAID]
    col = COL + p * CSTRIDE
    gx = GX + p * CSTRIDE
    if k == MERMAID:                   # (at most four colours count, as in mermaid_points)
        w = s[col + WHITE]
        m0 = min(m, 4)
        m1 = min(m + 1, 4)
        for x in range(CSTRIDE):
            v = s[gx + x]
            d += min(m1, v + (x == w)) - min(m0, v)
    else:
        d += s[gx + below_bound(s[col + ((g >> 5) & 15)], CSTRIDE)] < m
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
