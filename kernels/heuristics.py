"""The configurable heuristic player THRESHOLD: the baseline's greedy skeleton with knobs.

Every decision of kernels.policies has a THRESHOLD variant here; policies dispatches on the kind.
Knobs (parameter slots below; names, defaults and ranges live in analyzer.rules.policies):
- declaring: STOP at `stop_at`; LAST CHANCE from `last_chance_at` points, or when the lead over
  every opponent's estimate (their table points + `hand_value` per hidden hand card) is at least
  `lc_margin`, only with at most `lc_max_players` players and `lc_min_deck` cards in the deck;
- drawing: a card's *value* is its card-point gain, plus `mermaid_bonus` for a mermaid, plus
  `colour_weight` for a card of the player's largest colour group; a pile top is taken when its
  value reaches `take_at`, else the player draws from the deck and keeps the better card;
- pairs: each effect pair is played (1) or held (0) by its own switch;
- steals: from the opponent with most cards (0), the best visible table (1) or the next (2);
- burying: the unkept card goes onto the pile with fewer cards (0, as the baseline), or covers
  the pile top that is generally worth more (1: mermaid > multiplier, collector > other).
Observation: own hand, everything public (tables, hand sizes, pile tops, deck size) and, for the
crab pick only, the pile contents (perfect memory, like the baseline; docs/rules.md, "Hidden
information"). """
import numpy as np

from .cards import KIND_CATEGORY, MAX_DECK, MERMAID, NKINDS, STARFISH, TYPE_COLOUR, TYPE_KIND
from .actions import (A_BOAT, A_CRAB, A_END, A_FISH, A_LAST_CHANCE, A_LOBSTER, A_LOCK, A_STEAL,
                      A_STOP)
from .jit import kernel
from .legal import holds_pair
from .scoring import UNKNOWN, colour_bonus, gain, points
from .state import (AK, COL, CSTRIDE, DECK, DECK_LEN, DECL, HK, HLEN, NPAIRS, NPLAYERS, PILE,
                    PILE_LEN, REVEALED)

from .policy_slots import (THRESHOLD, T_BURY, T_COLOUR_WEIGHT, T_HAND_VALUE,  # noqa: F401
                           T_LAST_CHANCE_AT, T_LC_MARGIN, T_LC_MAX_PLAYERS, T_LC_MIN_DECK,
                           T_MERMAID_BONUS, T_PLAY_BOAT, T_PLAY_CRAB, T_PLAY_FISH,
                           T_PLAY_LOBSTER, T_PLAY_LOCK, T_PLAY_STEAL, T_STEAL_FROM, T_STOP_AT,
                           T_TAKE_AT)

# Generic worth of a card to anyone, for burying: mermaid 3, multiplier 2, collector 2, other 1.
STATIC_VALUE = np.array([3 if k == MERMAID else 2 if KIND_CATEGORY[k] in ("multiplier", "collector")
                         else 1 for k in range(NKINDS)], dtype=np.int64)



@kernel(forceinline=True)
def value(s, p, t, g, pp):
    """What card type t, which would gain p `g` card points, is worth to p when choosing: the
    gain plus the chasing bonuses. The choosers return the chosen card's gain to the engine,
    which then need not compute it again."""
    v = float(g)
    if TYPE_KIND[t] == MERMAID:
        v += pp[p, T_MERMAID_BONUS]
    if pp[p, T_COLOUR_WEIGHT] != 0.0:
        c = s[COL + p * CSTRIDE + TYPE_COLOUR[t]]
        if c > 0 and c == colour_bonus(s, p):
            v += pp[p, T_COLOUR_WEIGHT]
    return v


@kernel(forceinline=True)
def t_choose_draw(s, p, pp):
    """(source, gain of the card taken or UNKNOWN): the pile top of highest value if it reaches
    take_at (tie pile A; any pile if the deck is empty), else the deck."""
    best = -1
    best_v = -1e9
    best_g = UNKNOWN
    for j in range(2):
        n = s[PILE_LEN + j]
        if n > 0:
            t = s[PILE + j * MAX_DECK + n - 1]
            g = gain(s, p, t)
            v = value(s, p, t, g, pp)
            if v > best_v:
                best_v = v
                best = j
                best_g = g
    if s[DECK_LEN] == 0 or (best >= 0 and best_v >= pp[p, T_TAKE_AT]):
        return 1 + best, best_g
    return 0, UNKNOWN


@kernel(forceinline=True)
def t_choose_keep(s, p, pp, c1, c2):
    """(0 to keep c1 or 1 to keep c2, its gain): the drawn card of higher value (tie c1)."""
    g1 = gain(s, p, c1)
    g2 = gain(s, p, c2)
    if value(s, p, c1, g1, pp) >= value(s, p, c2, g2, pp):
        return 0, g1
    return 1, g2


@kernel(forceinline=True)
def t_choose_discard_pile(s, p, pp):
    """bury 0: an empty pile (A first), else the pile with fewer cards (tie A); bury 1: cover the
    top of higher generic worth (tie: the rule of bury 0)."""
    na = s[PILE_LEN]
    nb = s[PILE_LEN + 1]
    if na > 0 and nb > 0 and pp[p, T_BURY] == 1.0:
        va = STATIC_VALUE[TYPE_KIND[s[PILE + na - 1]]]
        vb = STATIC_VALUE[TYPE_KIND[s[PILE + MAX_DECK + nb - 1]]]
        if va != vb:
            return 0 if va > vb else 1
    if na == 0:
        return 0
    if nb < na:
        return 1
    return 0


@kernel(forceinline=True)
def table_points(s, q):
    """Card points anyone can see on q's table: 1 per pair or trio, 2 per starfish there."""
    return s[NPAIRS + q] + 2 * (s[AK + q * NKINDS + STARFISH] - s[HK + q * NKINDS + STARFISH])


@kernel(forceinline=True)
def t_victim(s, p, pp):
    """Eligible opponent (unrevealed, non-empty hand) by the steal_from rule; -1 if none.
    Ties go to the first after p in turn order."""
    n = s[NPLAYERS]
    rule = pp[p, T_STEAL_FROM]
    best = -1
    best_key = -1
    for i in range(1, n):
        q = (p + i) % n
        if s[REVEALED + q] != 0 or s[HLEN + q] == 0:
            continue
        if rule == 2.0:
            return q
        key = table_points(s, q) if rule == 1.0 else s[HLEN + q]
        if key > best_key:
            best_key = key
            best = q
    return best


@kernel(forceinline=True)
def _lead(s, p, pp):
    """p's points minus the highest opponent estimate (table points + hand_value per card)."""
    n = s[NPLAYERS]
    worst = -1e9
    for i in range(1, n):
        q = (p + i) % n
        est = table_points(s, q) + pp[p, T_HAND_VALUE] * s[HLEN + q]
        worst = max(worst, est)
    return points(s, p) - worst


@kernel(forceinline=True)
def t_choose_action(s, p, pp, final):
    """The baseline's play order with each effect pair switchable and the knobbed declaration."""
    deck = s[DECK_LEN]
    piles = s[PILE_LEN] + s[PILE_LEN + 1]
    if pp[p, T_PLAY_FISH] == 1.0 and holds_pair(s, p, A_FISH) and deck > 0:
        return A_FISH
    if pp[p, T_PLAY_CRAB] == 1.0 and holds_pair(s, p, A_CRAB) and piles > 0:
        return A_CRAB
    if pp[p, T_PLAY_LOBSTER] == 1.0 and holds_pair(s, p, A_LOBSTER) and deck > 0:
        return A_LOBSTER
    if (pp[p, T_PLAY_STEAL] == 1.0 and holds_pair(s, p, A_STEAL)
            and t_victim(s, p, pp) >= 0):
        return A_STEAL
    if pp[p, T_PLAY_LOCK] == 1.0 and holds_pair(s, p, A_LOCK):
        return A_LOCK
    if not final and s[DECL] == 0:
        pts = points(s, p)
        if pts >= max(7.0, pp[p, T_STOP_AT]):
            if pts >= pp[p, T_LAST_CHANCE_AT]:
                return A_LAST_CHANCE
            if (s[NPLAYERS] <= pp[p, T_LC_MAX_PLAYERS] and deck >= pp[p, T_LC_MIN_DECK]
                    and _lead(s, p, pp) >= pp[p, T_LC_MARGIN]):
                return A_LAST_CHANCE
            return A_STOP
    if pp[p, T_PLAY_BOAT] == 1.0 and holds_pair(s, p, A_BOAT) and deck + piles > 0:
        return A_BOAT
    return A_END


@kernel
def t_choose_crab_card(s, p, pp, only):
    """Highest-value card over both piles, or pile `only` if it is 0 or 1 (tie A before B,
    nearest the top)."""
    best_j = -1
    best_i = -1
    best_v = -1e9
    best_g = UNKNOWN
    for j in range(2):
        if only >= 0 and j != only:
            continue
        base = PILE + j * MAX_DECK
        for i in range(s[PILE_LEN + j] - 1, -1, -1):
            g = gain(s, p, s[base + i])
            v = value(s, p, s[base + i], g, pp)
            if v > best_v:
                best_v = v
                best_j = j
                best_i = i
                best_g = g
    return best_j, best_i, best_g


@kernel
def t_choose_lobster_card(s, p, pp, seen):
    """Highest-value card among the top `seen` deck cards (tie nearest the top)."""
    top = s[DECK_LEN] - 1
    best = 0
    best_v = -1e9
    best_g = UNKNOWN
    for i in range(seen):
        g = gain(s, p, s[DECK + top - i])
        v = value(s, p, s[DECK + top - i], g, pp)
        if v > best_v:
            best_v = v
            best = i
            best_g = g
    return best, best_g
