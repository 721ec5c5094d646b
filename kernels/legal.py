"""What may be done at a decision point (kernels.actions): the rules' small predicates, and the
list of legal actions. Shared by the engine (kernels.engine), which asks the predicates, and the
players that choose from the list (the random bot, the search player, analyzer.play.decisions).
"""
from .jit import below_bound, kernel

from .actions import (A_BOAT, A_END, A_FISH, A_LAST_CHANCE, A_STOP, COPY_SHIFT1, COPY_SHIFT2,
                      COPY_SHIFT3, DEC_CRAB_CARD, DEC_CRAB_PILE, DEC_DRAW, DEC_KEEP, DEC_LOBSTER,
                      DEC_PLAY, DEC_VICTIM, PAIR_KIND1, PAIR_KIND2, SRC_DECK, TRIO)
from .cards import KIND_FIRST_TYPE, KIND_NTYPES, MAX_DECK, NKINDS, NTYPES, STARFISH
from .scoring import points
from .state import (CRAB_PILE, CUR, DEC, DECK, DECK_LEN, DECL, DECL_NONE, HK, HLEN, HT, LEGAL,
                    MAX_LEGAL, MAX_PLAYERS, NPLAYERS, PILE, PILE_LEN, REVEALED)


@kernel(forceinline=True)
def current(s):
    """The seat whose turn it is, with its range promised to LLVM (no index wraparound)."""
    return below_bound(s[CUR], MAX_PLAYERS)


@kernel(forceinline=True)
def discard_forced(s):
    """The pile the unkept card of a deck draw must go onto, or -1 if the player chooses: with
    exactly one pile empty, that one; with both empty, A (docs/rules.md, "A turn": either, engines
    A)."""
    na = s[PILE_LEN]
    nb = s[PILE_LEN + 1]
    if na == 0:
        return 0
    if nb == 0:
        return 1
    return -1


@kernel(forceinline=True)
def can_declare(s, p):
    """STOP or LAST CHANCE is open to p now: 7+ card points, nobody declared, not a final turn."""
    return s[DECL] == DECL_NONE and points(s, p) >= 7


@kernel(forceinline=True)
def lobster_seen(s):
    """How many deck cards a crab+lobster reveals now (all if fewer than five)."""
    return min(5, s[DECK_LEN])


@kernel(forceinline=True)
def can_steal_from(s, p, q):
    return q != p and s[REVEALED + q] == 0 and s[HLEN + q] > 0


@kernel(forceinline=True)
def holds_pair(s, p, a):
    """p holds the two kinds of pair action a."""
    h = HK + p * NKINDS
    k1 = PAIR_KIND1[a]
    k2 = PAIR_KIND2[a]
    if k1 == k2:
        return s[h + k1] >= 2
    return s[h + k1] >= 1 and s[h + k2] >= 1



@kernel(forceinline=True)
def _add(s, n, a):
    if n < MAX_LEGAL:
        s[LEGAL + n] = a
    return n + 1


@kernel(inline="always")
def _distinct_type(s, base, i, lo, hi):
    """Card s[base + i] does not occur at base + lo .. base + hi - 1 (skip i)."""
    for k in range(lo, hi):
        if k != i and s[base + k] == s[base + i]:
            return False
    return True


@kernel
def legal_actions(s, copies):
    """Write the legal actions of the current decision point into s[LEGAL:] and return how many.
    With `copies` every distinct way is listed (pairs with the copies named, every card of a
    pile or of the revealed deck cards); without, one action per distinct outcome a player
    would weigh (pairs of the first copies, one card of each type, nearest the top)."""
    d = s[DEC]
    p = current(s)
    n = 0
    if d == DEC_DRAW:
        if s[DECK_LEN] > 0:
            n = _add(s, n, SRC_DECK)
        for j in range(2):
            if s[PILE_LEN + j] > 0:
                n = _add(s, n, 1 + j)
    elif d == DEC_KEEP:
        top = DECK + s[DECK_LEN] - 1
        nkeep = 1 if s[top] == s[top - 1] else 2
        forced = discard_forced(s)
        for j in range(2):
            if forced < 0 or forced == j:
                for i in range(nkeep):
                    n = _add(s, n, i + 2 * j)
    elif d == DEC_PLAY:
        n = _add(s, n, A_END)
        if can_declare(s, p):
            n = _add(s, n, A_STOP)
            n = _add(s, n, A_LAST_CHANCE)
        h = HT + p * NTYPES
        stars = s[HK + p * NKINDS + STARFISH]
        for a in range(A_FISH, A_BOAT + 1):
            if not holds_pair(s, p, a):
                continue
            if not copies:
                n = _add(s, n, a)
                if stars > 0:
                    n = _add(s, n, a + TRIO)
                continue
            k1 = PAIR_KIND1[a]
            k2 = PAIR_KIND2[a]
            for t1 in range(KIND_FIRST_TYPE[k1], KIND_FIRST_TYPE[k1] + KIND_NTYPES[k1]):
                if s[h + t1] == 0:
                    continue
                lo2 = t1 if k1 == k2 else KIND_FIRST_TYPE[k2]
                for t2 in range(lo2, KIND_FIRST_TYPE[k2] + KIND_NTYPES[k2]):
                    if s[h + t2] < (2 if t2 == t1 else 1):
                        continue
                    pa = a | ((t1 + 1) << COPY_SHIFT1) | ((t2 + 1) << COPY_SHIFT2)
                    n = _add(s, n, pa)
                    for t3 in range(KIND_FIRST_TYPE[STARFISH],
                                    KIND_FIRST_TYPE[STARFISH] + KIND_NTYPES[STARFISH]):
                        if s[h + t3] > 0:
                            n = _add(s, n, (pa + TRIO) | ((t3 + 1) << COPY_SHIFT3))
    elif d == DEC_CRAB_PILE:
        for j in range(2):
            if s[PILE_LEN + j] > 0:
                n = _add(s, n, j)
    elif d == DEC_CRAB_CARD:
        j = s[CRAB_PILE]
        base = PILE + j * MAX_DECK
        m = s[PILE_LEN + j]
        for i in range(m - 1, -1, -1):
            if copies or _distinct_type(s, base, i, i + 1, m):
                n = _add(s, n, i)
    elif d == DEC_LOBSTER:
        seen = lobster_seen(s)
        top = DECK + s[DECK_LEN] - 1
        for i in range(seen):
            if copies or _distinct_type(s, top - i, 0, 1, i + 1):
                n = _add(s, n, i)
    elif d == DEC_VICTIM:
        for q in range(s[NPLAYERS]):
            if can_steal_from(s, p, q):
                n = _add(s, n, q)
    return n


@kernel
def named_card(s, a):
    """The card that action `a` at the decision point of s names (the pile top taken, the card
    kept, the card taken from a searched pile or from the lobster's cards), or -1: the one
    reading of an action's card (the search player's decision log, analyzer.play.decisions)."""
    d = s[DEC]
    n = s[DECK_LEN]
    if d == DEC_DRAW:
        if a == SRC_DECK:
            return -1
        return s[PILE + (a - 1) * MAX_DECK + s[PILE_LEN + a - 1] - 1]
    if d == DEC_KEEP:
        return s[DECK + n - 1 - (a & 1)]
    if d == DEC_CRAB_CARD:
        return s[PILE + s[CRAB_PILE] * MAX_DECK + a]
    if d == DEC_CRAB_PILE:                   # from 2 on: pile and card named at once
        if a < 2:
            return -1
        return s[PILE + ((a - 2) & 1) * MAX_DECK + ((a - 2) >> 1)]
    if d == DEC_LOBSTER:
        return s[DECK + n - 1 - a]
    return -1
