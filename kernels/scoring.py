"""Card points and colour bonus of one player (RULES.md §7), compiled.

Every component reads the incremental counts of the state (hand kinds, hand+table kinds and
colours, pairs on the table) and can score "as if one more card of kind xk and colour xc were in
the hand" (xk = xc = -1: as is). `gain(card)` re-scores only the components that kind can change,
and the engine keeps each player's current card points cached in the state (PTS), so the
baseline's many gain evaluations cost a handful of integer operations each.
"""
from .jit import kernel

from .cards import (BOAT, CAPTAIN, CAST, COLONY, CRAB, FISH, JELLYFISH, LIGHTHOUSE,
                    LOBSTER, MERMAID, NKINDS, OCTOPUS, PENGUIN, SAILOR, SEAHORSE, SHARK,
                    SHELL, SHOAL, STARFISH, SWIMMER, TYPE_COLOUR, TYPE_KIND, WHITE)
from .state import AK, COL, CSTRIDE, HK, NPAIRS, PTS, gain_card, lose_card


UNKNOWN = -(1 << 20)   # "gain not computed yet", for receive()


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
def _collector(n, step, first):
    """Points of n cards of a collection worth `first` for one and `step` more per extra card."""
    if n == 0:
        return 0
    return first + step * (n - 1)


@kernel(inline="always")
def collector_points(s, p, xk):
    """C: shells 0/2/4.., octopus 0/3/6.., penguins 1/3/5, sailors 0/5; the seahorse adds one card
    to the collection it raises most (at least one card there, below the maximum)."""
    a = AK + p * NKINDS
    shell = s[a + SHELL] + (xk == SHELL)
    octo = s[a + OCTOPUS] + (xk == OCTOPUS)
    peng = s[a + PENGUIN] + (xk == PENGUIN)
    sail = s[a + SAILOR] + (xk == SAILOR)
    total = _collector(shell, 2, 0) + _collector(octo, 3, 0) + _collector(peng, 2, 1) + _collector(sail, 5, 0)
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
    cast of crabs per crab; real cards in hand+table only."""
    a = AK + p * NKINDS
    return ((s[a + LIGHTHOUSE] + (xk == LIGHTHOUSE)) * (s[a + BOAT] + (xk == BOAT))
            + (s[a + SHOAL] + (xk == SHOAL)) * (s[a + FISH] + (xk == FISH))
            + 2 * (s[a + COLONY] + (xk == COLONY)) * (s[a + PENGUIN] + (xk == PENGUIN))
            + 3 * (s[a + CAPTAIN] + (xk == CAPTAIN)) * (s[a + SAILOR] + (xk == SAILOR))
            + (s[a + CAST] + (xk == CAST)) * (s[a + CRAB] + (xk == CRAB)))


@kernel
def card_points(s, p):
    """Card points of player p: M + D + C + X (RULES.md §7), computed from the counts."""
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


@kernel
def gain(s, p, t):
    """How many card points p would gain with card type t added to the hand.

    The hot path of every greedy player, so it is the delta of §7 by kind rather than a re-score;
    tests check it against card_points over many random hands."""
    k = TYPE_KIND[t]
    h = HK + p * NKINDS
    a = AK + p * NKINDS
    d = 0
    # M: one more card of colour c adds 1 iff fewer than m colours count strictly more than c
    # (ties are interchangeable); a new mermaid re-ranks everything, so it is re-scored.
    if k == MERMAID:
        d += mermaid_points(s, p, MERMAID, WHITE) - mermaid_points(s, p, -1, -1)
    else:
        m = s[a + MERMAID]
        if m > 0:
            col = COL + p * CSTRIDE
            v = s[col + TYPE_COLOUR[t]]
            greater = 0
            for x in range(CSTRIDE):
                greater += s[col + x] > v
            d += greater < m
    if CRAB <= k <= SHARK or k == JELLYFISH or k == LOBSTER:
        # D: held pairs grow by dh (0 or 1); a held starfish may become valid with them.
        crab = s[h + CRAB]
        lobster = s[h + LOBSTER]
        partner = s[h + SHARK] + s[h + JELLYFISH]
        if k == CRAB:
            dh = min((crab + 1 + lobster) // 2, crab + 1) - min((crab + lobster) // 2, crab)
            d += s[a + CAST]
        elif k == LOBSTER:
            dh = min((crab + lobster + 1) // 2, crab) - min((crab + lobster) // 2, crab)
        elif k == BOAT:
            dh = s[h + BOAT] & 1
            d += s[a + LIGHTHOUSE]
        elif k == FISH:
            dh = s[h + FISH] & 1
            d += s[a + SHOAL]
        elif k == SWIMMER:
            dh = s[h + SWIMMER] < partner
        else:  # shark, jellyfish
            dh = partner < s[h + SWIMMER]
        d += dh
        stars = s[h + STARFISH]
        if dh and stars > 0:
            d += 2 * (stars > held_pairs(s, p, -1))
    elif k == STARFISH:
        d += 2 * (s[h + STARFISH] < held_pairs(s, p, -1))
    elif k == LIGHTHOUSE:
        d += s[a + BOAT]
    elif k == SHOAL:
        d += s[a + FISH]
    elif k == COLONY:
        d += 2 * s[a + PENGUIN]
    elif k == CAPTAIN:
        d += 3 * s[a + SAILOR]
    elif k == CAST:
        d += s[a + CRAB]
    elif k != MERMAID:  # shell, octopus, penguin, sailor, seahorse
        d += collector_points(s, p, k) - collector_points(s, p, -1)
        if k == PENGUIN:
            d += 2 * s[a + COLONY]
        elif k == SAILOR:
            d += 3 * s[a + CAPTAIN]
    return d


@kernel
def points(s, p):
    """p's current card points, from the cache the engine keeps up to date."""
    return s[PTS + p]


@kernel
def receive(s, p, t, g):
    """Card type t enters p's hand, worth g card points to p (UNKNOWN: compute it here); the
    cached card points follow. Policies that already computed the gain pass it on."""
    if g == UNKNOWN:
        g = gain(s, p, t)
    s[PTS + p] += g
    gain_card(s, p, t)


@kernel
def give_up(s, p, t):
    """Card type t leaves p's hand (stolen); the cached card points follow."""
    lose_card(s, p, t)
    s[PTS + p] = card_points(s, p)


@kernel
def refresh_points(s, nplayers):
    """Recompute every cached card-points entry (after setting a state up by hand)."""
    for q in range(nplayers):
        s[PTS + q] = card_points(s, q)
