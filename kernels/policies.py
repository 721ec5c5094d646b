"""The bots' decisions. A policy is an integer kind plus a float parameter vector per seat.

At each decision point of kernels.engine (kernels.actions) a bot answers through `bot_choice`: one
chooser per decision kind, each returning a legal action (with the gain of the card it takes when it
computed one), which engine.apply_action applies as it applies an external seat's action. Each
chooser dispatches on the kind. Adding a heuristic means one branch per chooser here plus one
registry entry in analyzer.rules.policies, which owns names, parameters and defaults.

BASELINE is ../docs/players.md (the baseline) exactly; it uses the memory view of the piles for its
crab rule (docs/rules.md, "Hidden information") and nothing else beyond the public state and its own
hand. RANDOM takes a uniformly random legal action (every copy and card counted) at every decision
point. SEARCH (kernels.search) is not a bot: it has its own drivers. """
import numpy as np

from .jit import kernel, once

from .actions import (A_BOAT, A_CRAB, A_END, A_FISH, A_LAST_CHANCE, A_LOBSTER, A_LOCK, A_STEAL,
                      A_STOP, DEC_CRAB_CARD, DEC_CRAB_PILE, DEC_DRAW, DEC_KEEP, DEC_LOBSTER,
                      DEC_PLAY, SRC_DECK, SRC_PILE_A)
from .legal import current, discard_forced, holds_pair, legal_actions, lobster_seen
from .rng import below
from .cards import MAX_DECK
from .expert import expert_action
from .heuristics import (THRESHOLD, t_choose_action, t_choose_crab_card, t_choose_discard_pile,
                         t_choose_draw, t_choose_keep, t_choose_lobster_card, t_victim)
from .scoring import UNKNOWN, gain, points
from .state import (CRAB_PILE, DEC, DECK, DECK_LEN, DECL, DECL_LAST_CHANCE, DECL_NONE, HLEN,
                    LEGAL, NPLAYERS, PILE, PILE_LEN, REVEALED)

from .policy_slots import (BASELINE, EXPERT, EXTERNAL, EXTERNAL_KINDS, LAST_CHANCE_AT,  # noqa: F401
                           MAX_PARAMS, RANDOM, SEARCH, STOP_AT)
# Whether the engine stops at a kind's decision points instead of asking its chooser, by kind.
# A new compiled bot takes the next free number and False here: no other kind moves.
IS_EXTERNAL = np.zeros(8, dtype=np.bool_)
IS_EXTERNAL[list(EXTERNAL_KINDS)] = True


@kernel(forceinline=True)
def external(pk, p):
    """Seat p is not a bot: the engine stops at its decision points instead of asking it."""
    return IS_EXTERNAL[pk[p]]


@kernel(forceinline=True)
def greedy(pk, p):
    """Seat p is a bot whose play-step chooser draws no random number and ends the turn (A_END)
    whenever the rules leave nothing else open (baseline, threshold)."""
    return pk[p] == BASELINE or pk[p] == THRESHOLD


@kernel
def random_action(s, rng):
    """RANDOM: a uniformly random legal action of the current decision point (every copy and
    card counted as its own action)."""
    n = legal_actions(s, True)
    return s[LEGAL + below(rng, n)]


@kernel(inline="always")
def _best_pile(s, p):
    """(pile, gain) of the non-empty pile whose top gains most, tie pile A; (-1, -99) if none."""
    best = -1
    best_gain = -99
    for j in range(2):
        n = s[PILE_LEN + j]
        if n > 0:
            g = gain(s, p, s[PILE + j * MAX_DECK + n - 1])
            if g > best_gain:
                best_gain = g
                best = j
    return best, best_gain


@kernel(inline="always")
def choose_draw(s, p, pk, pp, rng):
    """(source SRC_*, gain of the card it takes or UNKNOWN) at DEC_DRAW. Must be legal."""
    if pk[p] == RANDOM:
        return random_action(s, rng), UNKNOWN
    if pk[p] == THRESHOLD:
        return t_choose_draw(s, p, pp)
    j, g = _best_pile(s, p)
    if s[DECK_LEN] == 0 or (j >= 0 and g >= 1):
        return SRC_PILE_A + j, g
    return SRC_DECK, UNKNOWN


@kernel(inline="always")
def choose_keep(s, p, pk, pp, c1, c2, rng):
    """Of two cards drawn from the deck (c1 first): (0 to keep c1 or 1 to keep c2, its gain)."""
    if pk[p] == RANDOM:
        return random_action(s, rng) & 1, UNKNOWN
    if pk[p] == THRESHOLD:
        return t_choose_keep(s, p, pp, c1, c2)
    g1 = gain(s, p, c1)
    g2 = gain(s, p, c2)
    if g1 >= g2:
        return 0, g1
    return 1, g2


@kernel(inline="always")
def choose_discard_pile(s, p, pk, pp, card, rng):
    """Pile (0 = A, 1 = B) for the unkept card, asked only when both piles are non-empty (else
    the rules decide: engine.discard_forced)."""
    if pk[p] == RANDOM:
        return below(rng, 2)
    if pk[p] == THRESHOLD:
        return t_choose_discard_pile(s, p, pp)
    if s[PILE_LEN] == 0:
        return 0
    if s[PILE_LEN + 1] < s[PILE_LEN]:
        return 1
    return 0


@kernel(forceinline=True)
def steal_target(s, p):
    """Opponent with the most cards in an unrevealed hand, tie: first after p; -1 if none."""
    n = s[NPLAYERS]
    best = -1
    best_len = 0
    for i in range(1, n):
        q = (p + i) % n
        if s[REVEALED + q] == 0 and s[HLEN + q] > best_len:
            best_len = s[HLEN + q]
            best = q
    return best


@kernel(inline="always")
def choose_action(s, p, pk, pp, final, rng):
    """Next play-step action (A_*) at DEC_PLAY. `final` is true in a LAST CHANCE final turn.
    Declarations are chosen only when the rules allow one."""
    if pk[p] == RANDOM:
        return random_action(s, rng)
    if pk[p] == THRESHOLD:
        return t_choose_action(s, p, pp, final)
    deck = s[DECK_LEN]
    piles = s[PILE_LEN] + s[PILE_LEN + 1]
    if holds_pair(s, p, A_FISH) and deck > 0:
        return A_FISH
    if holds_pair(s, p, A_CRAB) and piles > 0:
        return A_CRAB
    if holds_pair(s, p, A_LOBSTER) and deck > 0:
        return A_LOBSTER
    if holds_pair(s, p, A_STEAL) and steal_target(s, p) >= 0:
        return A_STEAL
    if holds_pair(s, p, A_LOCK):
        return A_LOCK
    if not final and s[DECL] == DECL_NONE:
        pts = points(s, p)
        if pts >= max(7.0, pp[p, STOP_AT]):
            if pts >= pp[p, LAST_CHANCE_AT]:
                return A_LAST_CHANCE
            return A_STOP
    if holds_pair(s, p, A_BOAT) and deck + piles > 0:
        return A_BOAT
    return A_END


@kernel(forceinline=True)
def choose_crab_card(s, p, pk, pp, only, rng):
    """(pile, index from the bottom, gain) of the card to take with a crab pair: the highest gain
    over both piles (or pile `only` if it is 0 or 1), tie pile A before B and, within a pile,
    nearest the top. The piles searched are not all empty."""
    if pk[p] == RANDOM:
        j = random_action(s, rng) if only < 0 else only
        return j, below(rng, s[PILE_LEN + j]), UNKNOWN
    if pk[p] == THRESHOLD:
        return t_choose_crab_card(s, p, pp, only)
    best_j = -1
    best_i = -1
    best_gain = -99
    for j in range(2):
        if only >= 0 and j != only:
            continue
        base = PILE + j * MAX_DECK
        for i in range(s[PILE_LEN + j] - 1, -1, -1):
            g = gain(s, p, s[base + i])
            if g > best_gain:
                best_gain = g
                best_j = j
                best_i = i
    return best_j, best_i, best_gain


@kernel
def choose_victim(s, p, pk, pp, rng):
    """Opponent to steal from (some opponent is eligible)."""
    if pk[p] == RANDOM:
        return random_action(s, rng)
    if pk[p] == THRESHOLD:
        return t_victim(s, p, pp)
    return steal_target(s, p)


@kernel
def choose_lobster_card(s, p, pk, pp, seen, rng):
    """(which of the `seen` top deck cards to keep: 0 = the top card, 1 = the next, ...; its
    gain): highest gain, tie nearest the top."""
    if pk[p] == RANDOM:
        return random_action(s, rng), UNKNOWN
    if pk[p] == THRESHOLD:
        return t_choose_lobster_card(s, p, pp, seen)
    top = s[DECK_LEN] - 1
    best = 0
    best_gain = -99
    for i in range(seen):
        g = gain(s, p, s[DECK + top - i])
        if g > best_gain:
            best_gain = g
            best = i
    return best, best_gain


@once
@kernel
def bot_choice(s, pk, pp, rng):
    """`choice`, compiled once for callers outside the round loop (review, bot_action)."""
    return choice(s, s[DEC], pk, pp, rng)


@kernel(inline="always")
def choice(s, d, pk, pp, rng):
    """(action, gain of the card it takes or UNKNOWN): the current seat's bot at this decision
    point, one chooser per decision kind, answered in kernels.actions' encoding. The engine asks it
    at every bot decision and applies the answer with engine.apply_action, as it applies an external
    seat's action; a crab search names pile and card at once (the bots remember both piles)."""
    p = current(s)
    if pk[p] == EXPERT:
        return expert_action(s, pp[p]), UNKNOWN
    if d == DEC_PLAY:
        return choose_action(s, p, pk, pp, s[DECL] == DECL_LAST_CHANCE, rng), UNKNOWN
    if d == DEC_DRAW:
        return choose_draw(s, p, pk, pp, rng)
    if d == DEC_KEEP:
        n = s[DECK_LEN]
        c1 = s[DECK + n - 1]
        c2 = s[DECK + n - 2]
        i, g = choose_keep(s, p, pk, pp, c1, c2, rng)
        j = discard_forced(s)
        if j < 0:
            j = choose_discard_pile(s, p, pk, pp, c2 if i == 0 else c1, rng)
        return i + 2 * j, g
    if d == DEC_CRAB_PILE:
        j, i, g = choose_crab_card(s, p, pk, pp, -1, rng)
        return 2 + j + 2 * i, g
    if d == DEC_CRAB_CARD:
        j, i, g = choose_crab_card(s, p, pk, pp, s[CRAB_PILE], rng)
        return i, g
    if d == DEC_LOBSTER:
        return choose_lobster_card(s, p, pk, pp, lobster_seen(s), rng)
    return choose_victim(s, p, pk, pp, rng), UNKNOWN


@kernel
def bot_action(s, pk, pp, rng):
    """bot_choice's action, a crab search as its pile (the action an external seat would give at
    DEC_CRAB_PILE): for players that weigh the bots' choice (kernels.search, kernels.reading)."""
    a, _g = bot_choice(s, pk, pp, rng)
    if s[DEC] == DEC_CRAB_PILE:
        return (a - 2) & 1
    return a
