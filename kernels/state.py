"""The round state: one flat int32 array with fixed offsets (pgx-style fixed-shape state).

A single array is cheap to copy (the advisor samples positions), to pass to every kernel, and to
inspect from Python. Cards are type ids (kernels.cards); hands and tables are counts by type,
kept together with counts by kind (hand, hand+table) and by colour (hand+table), so that scoring
is a few dozen integer operations. Deck and piles are ordered stacks whose top is the last entry.
"""
import numpy as np
from .jit import below_bound, kernel

# The offsets, declared in kernels/state_layout.py (read without compiling anything); every name
# there is also this module's, where the kernels have always found them.
from .state_layout import *  # noqa: F401,F403


@kernel
def clear(s, nplayers):
    """Reset `s` to an empty round for `nplayers`: no cards anywhere, nothing declared."""
    s[:] = 0
    s[NPLAYERS] = nplayers
    s[DECLARER] = -1
    s[LOCK] = -1
    s[ENDER] = -1


@kernel
def load_deck(s, nplayers, deck, starter):
    """Empty round for `nplayers` whose deck is `deck` (top = last entry), `starter` to play."""
    clear(s, nplayers)
    n = deck.shape[0]
    for i in range(n):
        s[DECK + i] = deck[i]
    s[DECK_LEN] = n
    s[CUR] = starter
    s[STARTER] = starter


@kernel
def flip_piles(s):
    """Turn the top deck card face-up as pile A, then the next as pile B (docs/rules.md, "A
    game")."""
    for j in range(2):
        s[DECK_LEN] -= 1
        s[PILE + j * MAX_DECK] = s[DECK + s[DECK_LEN]]
        s[PILE_LEN + j] = 1


@kernel
def deal(s, nplayers, deck, starter):
    """Fresh round from an ordered `deck` (top = last): load it, then flip piles A and B."""
    load_deck(s, nplayers, deck, starter)
    flip_piles(s)


@kernel(forceinline=True)
def gain_card(s, p, t):
    """Card type `t` enters player p's hand."""
    t = below_bound(t, NTYPES)
    s[HT + p * NTYPES + t] += 1
    k = KIND_OF[t]
    s[HK + p * NKINDS + k] += 1
    s[AK + p * NKINDS + k] += 1
    c = COL + p * CSTRIDE + COLOUR_OF[t]
    v = below_bound(s[c], CSTRIDE)
    s[GX + p * CSTRIDE + v] += 1
    s[c] = v + 1
    s[HLEN + p] += 1


@kernel(forceinline=True)
def lose_card(s, p, t):
    """Card type `t` leaves player p's hand (stolen, or returned by a scripted setup)."""
    t = below_bound(t, NTYPES)
    s[HT + p * NTYPES + t] -= 1
    k = KIND_OF[t]
    s[HK + p * NKINDS + k] -= 1
    s[AK + p * NKINDS + k] -= 1
    c = COL + p * CSTRIDE + COLOUR_OF[t]
    v = below_bound(s[c] - 1, CSTRIDE)
    s[GX + p * CSTRIDE + v] -= 1
    s[c] = v
    s[HLEN + p] -= 1


@kernel(forceinline=True)
def to_table(s, p, t):
    """Card type `t` moves from p's hand to p's table (colour and hand+table counts unchanged)."""
    t = below_bound(t, NTYPES)
    s[HT + p * NTYPES + t] -= 1
    s[TT + p * NTYPES + t] += 1
    s[HK + p * NKINDS + KIND_OF[t]] -= 1
    s[HLEN + p] -= 1


@kernel(forceinline=True)
def hand_kind(s, p, k):
    return s[HK + p * NKINDS + k]


@kernel(forceinline=True)
def pile_top(s, j):
    """Top type of pile j, or -1 if it is empty."""
    n = below_bound(s[PILE_LEN + j], MAX_DECK + 1)
    if n == 0:
        return -1
    return s[PILE + j * MAX_DECK + n - 1]


@kernel(forceinline=True)
def pop_pile(s, j):
    """Take the top card of pile j (not empty)."""
    j = below_bound(j, 2)
    n = below_bound(s[PILE_LEN + j] - 1, MAX_DECK)
    s[PILE_LEN + j] = n
    return below_bound(s[PILE + j * MAX_DECK + n], NTYPES)


@kernel(forceinline=True)
def push_pile(s, j, t):
    """Put card type t on top of pile j."""
    j = below_bound(j, 2)
    n = below_bound(s[PILE_LEN + j], MAX_DECK)
    s[PILE + j * MAX_DECK + n] = t
    s[PILE_LEN + j] = n + 1


@kernel(forceinline=True)
def take_from_pile(s, j, i):
    """Remove and return the card at depth index i (0 = bottom) of pile j; the rest keep order."""
    base = PILE + j * MAX_DECK
    n = s[PILE_LEN + j]
    t = s[base + i]
    for q in range(i, n - 1):
        s[base + q] = s[base + q + 1]
    s[PILE_LEN + j] = n - 1
    return t


@kernel(forceinline=True)
def pop_deck(s):
    """Take the top card of an ordered deck (not empty)."""
    n = below_bound(s[DECK_LEN] - 1, MAX_DECK)
    s[DECK_LEN] = n
    return below_bound(s[DECK + n], NTYPES)


@kernel(forceinline=True)
def copy_state(dst, src):
    """dst = src for the round itself (the scratch list of legal actions is not copied)."""
    for i in range(STATE_CORE):
        dst[i] = src[i]


def new_state() -> np.ndarray:
    """An all-zero state array."""
    return np.zeros(STATE_SIZE, dtype=np.int32)


def card_census(s: np.ndarray) -> np.ndarray:
    """Copies of every type found in deck, piles, hands and tables (for the conservation check)."""
    counts = np.zeros(NTYPES, dtype=np.int64)
    np.add.at(counts, s[DECK:DECK + s[DECK_LEN]], 1)
    for j in range(2):
        base = PILE + j * MAX_DECK
        np.add.at(counts, s[base:base + s[PILE_LEN + j]], 1)
    for p in range(MAX_PLAYERS):
        counts += s[HT + p * NTYPES:HT + (p + 1) * NTYPES]
        counts += s[TT + p * NTYPES:TT + (p + 1) * NTYPES]
    return counts

