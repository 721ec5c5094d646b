"""Card points and colour bonus of one player (RULES.md §7), compiled.

Everything reads the incremental counts of the state (hand kinds, hand+table kinds, hand+table
colours, pairs on the table), so one evaluation is a few dozen integer operations and
`gain(card)` is an add, a score and a subtract.
"""
from numba import njit

from .cards import (BOAT, CAPTAIN, CAST, COLONY, CRAB, FISH, JELLYFISH, LIGHTHOUSE, LOBSTER,
                    MERMAID, NCOLOURS, NKINDS, OCTOPUS, PENGUIN, SAILOR, SEAHORSE, SHARK, SHELL,
                    SHOAL, STARFISH, SWIMMER)
from .state import AK, COL, HK, NPAIRS, gain_card, lose_card


@njit(cache=True, inline="always")
def mermaid_points(s, p):
    """M: the sum of the m largest colour counts (mermaids and the seahorse are white)."""
    m = s[AK + p * NKINDS + MERMAID]
    if m == 0:
        return 0
    t1 = t2 = t3 = t4 = 0
    base = COL + p * NCOLOURS
    for c in range(NCOLOURS):
        v = s[base + c]
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


@njit(cache=True, inline="always")
def held_pairs(s, p):
    """Largest number of disjoint legal pairs within the hand."""
    h = HK + p * NKINDS
    crab = s[h + CRAB]
    return (min((crab + s[h + LOBSTER]) // 2, crab) + min(s[h + SWIMMER], s[h + SHARK] + s[h + JELLYFISH])
            + s[h + BOAT] // 2 + s[h + FISH] // 2)


@njit(cache=True, inline="always")
def duo_points(s, p):
    """D: 1 per pair on the table and per held pair, +2 per starfish (table, or hand up to held pairs)."""
    held = held_pairs(s, p)
    hand_star = s[HK + p * NKINDS + STARFISH]
    table_star = s[AK + p * NKINDS + STARFISH] - hand_star
    return s[NPAIRS + p] + held + 2 * table_star + 2 * min(hand_star, held)


@njit(cache=True, inline="always")
def _collector(n, step, first):
    """Points of n cards of a collection worth `first` for one and `step` more per extra card."""
    if n == 0:
        return 0
    return first + step * (n - 1)


@njit(cache=True, inline="always")
def collector_points(s, p):
    """C: shells 0/2/4.., octopus 0/3/6.., penguins 1/3/5, sailors 0/5; the seahorse adds one card
    to the collection it raises most (at least one card there, below the maximum)."""
    a = AK + p * NKINDS
    shell = s[a + SHELL]
    octo = s[a + OCTOPUS]
    peng = s[a + PENGUIN]
    sail = s[a + SAILOR]
    total = _collector(shell, 2, 0) + _collector(octo, 3, 0) + _collector(peng, 2, 1) + _collector(sail, 5, 0)
    if s[a + SEAHORSE] > 0:
        best = 0
        if sail == 1:
            best = 5
        elif 1 <= octo < 5:
            best = 3
        elif (1 <= shell < 6) or (1 <= peng < 3):
            best = 2
        total += best
    return total


@njit(cache=True, inline="always")
def multiplier_points(s, p):
    """X: lighthouse per boat, shoal per fish, colony 2 per penguin, captain 3 per sailor,
    cast of crabs per crab; real cards in hand+table only."""
    a = AK + p * NKINDS
    return (s[a + LIGHTHOUSE] * s[a + BOAT] + s[a + SHOAL] * s[a + FISH]
            + 2 * s[a + COLONY] * s[a + PENGUIN] + 3 * s[a + CAPTAIN] * s[a + SAILOR]
            + s[a + CAST] * s[a + CRAB])


@njit(cache=True)
def card_points(s, p):
    """Card points of player p: M + D + C + X (RULES.md §7)."""
    return mermaid_points(s, p) + duo_points(s, p) + collector_points(s, p) + multiplier_points(s, p)


@njit(cache=True)
def colour_bonus(s, p):
    """Size of p's largest colour group over hand+table."""
    best = 0
    base = COL + p * NCOLOURS
    for c in range(NCOLOURS):
        if s[base + c] > best:
            best = s[base + c]
    return best


@njit(cache=True)
def gain(s, p, t, now):
    """Card points of p with card type t added to the hand, minus `now` (p's current points)."""
    gain_card(s, p, t)
    v = card_points(s, p)
    lose_card(s, p, t)
    return v - now
