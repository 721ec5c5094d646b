"""The rules of a round (RULES.md §3-§6, §10), compiled: turns, duo effects, declarations, ends.

`play_round` continues from any legal state (a fresh deal, a scripted deck, a sampled position)
until the round ends, then writes END, ENDER and POINTS into the state. Decisions come from
kernels.policies; everything here is rules. `pk` (int64[P]) and `pp` (float64[P, MAX_PARAMS]) are
the seats' policy kinds and parameters, `rng` a kernels.rng stream, `tr` a trace buffer.
"""
import numpy as np

from .jit import below_bound, kernel

from .cards import (BOAT, CRAB, FISH, JELLYFISH, KIND_FIRST_TYPE, KIND_NTYPES, LOBSTER, MAX_DECK,
                    MERMAID, NKINDS, NTYPES, SHARK, STARFISH, SWIMMER)
from . import events as ev
from .events import emit
from .policies import (A_BOAT, A_CRAB, A_END, A_FISH, A_LAST_CHANCE, A_LOBSTER, A_LOCK, A_STEAL,
                       A_STOP, SRC_DECK, TRIO, choose_action, choose_crab_card, choose_discard_pile,
                       choose_draw, choose_keep, choose_lobster_card, choose_victim)
from .rng import below, shuffle
from .scoring import UNKNOWN, card_points, colour_bonus, give_up, points, receive
from .state import (AK, CUR, DECK, DECK_LEN, DECL, DECL_LAST_CHANCE, DECL_NONE, DECL_POINTS,
                    DECL_STOP, DECLARER, END, END_LC_LOST, END_LC_WON, END_MERMAIDS, END_STOP,
                    END_VOID, ENDER, HK, HLEN, HT, LOCK, MAX_PLAYERS, NPAIRS, NPLAYERS, PILE_LEN,
                    POINTS, PLAYED, PTS, REVEALED, SHUFFLED, TRIO_SLOT, TURNS, pile_top, pop_deck,
                    pop_pile, push_pile, take_from_pile, to_table)


# The two kinds of the pair that each pair action (policies.A_FISH .. A_BOAT) puts on the table.
PAIR_KIND1 = np.zeros(A_BOAT + 1, dtype=np.int64)
PAIR_KIND2 = np.zeros(A_BOAT + 1, dtype=np.int64)
for _a, _k1, _k2 in ((A_FISH, FISH, FISH), (A_CRAB, CRAB, CRAB), (A_LOBSTER, CRAB, LOBSTER),
                     (A_STEAL, SWIMMER, SHARK), (A_LOCK, SWIMMER, JELLYFISH), (A_BOAT, BOAT, BOAT)):
    PAIR_KIND1[_a], PAIR_KIND2[_a] = _k1, _k2


@kernel(inline="always")
def reveal_top(s, k, rng):
    """Fix which cards are the top k of the deck (k <= deck size). A freshly dealt deck is shuffled
    lazily: its order is drawn card by card as cards are seen, which is the same distribution
    as shuffling it all at the deal and costs only the random numbers a round uses."""
    if s[SHUFFLED]:
        n = s[DECK_LEN]
        for i in range(k):
            j = DECK + below_bound(below(rng, n - i), MAX_DECK)
            t = s[j]
            s[j] = s[DECK + n - 1 - i]
            s[DECK + n - 1 - i] = t


@kernel(inline="always")
def draw_deck(s, rng):
    """Take the top card of the deck (the deck is not empty)."""
    reveal_top(s, 1, rng)
    return pop_deck(s)


@kernel(forceinline=True)
def has_four_mermaids(s, p):
    return s[AK + p * NKINDS + MERMAID] == 4


@kernel(inline="always")
def draw_step(s, p, pk, pp, rng, tr):
    """RULES.md §4.1 with the forced cases of §10.1-3 decided here and the choices by the policy."""
    deck = s[DECK_LEN]
    na = s[PILE_LEN]
    nb = s[PILE_LEN + 1]
    if deck == 0 and na == 0 and nb == 0:
        emit(s, tr, ev.TAKE_NOTHING, p, 0, 0, 0)
        return
    if na == 0 and nb == 0:
        src = SRC_DECK
        g = UNKNOWN
    else:
        src, g = choose_draw(s, p, pk, pp)
    if src != SRC_DECK:
        j = src - 1
        t = pop_pile(s, j)
        receive(s, p, t, g)
        emit(s, tr, ev.TAKE_PILE, p, t, j, 0)
        return
    c1 = draw_deck(s, rng)
    if deck == 1:
        receive(s, p, c1, UNKNOWN)
        emit(s, tr, ev.KEEP, p, c1, -1, 0)
        return
    c2 = draw_deck(s, rng)
    i, g = choose_keep(s, p, pk, pp, c1, c2)
    if i == 0:
        kept, other = c1, c2
    else:
        kept, other = c2, c1
    receive(s, p, kept, g)
    if (na == 0) != (nb == 0):
        j = 0 if na == 0 else 1
    else:
        j = choose_discard_pile(s, p, pk, pp, other)
    push_pile(s, j, other)
    emit(s, tr, ev.KEEP, p, kept, other, 0)
    emit(s, tr, ev.DISCARD, p, other, j, 0)


@kernel(forceinline=True)
def first_type_in_hand(s, p, kind):
    """The first type of `kind` (RULES.md §1 colour order) that p holds; -1 if none."""
    base = HT + p * NTYPES + KIND_FIRST_TYPE[kind]
    for i in range(KIND_NTYPES[kind]):
        if s[base + i] > 0:
            return KIND_FIRST_TYPE[kind] + i
    return -1


@kernel(forceinline=True)
def play_pair(s, p, kind1, kind2, trio, tr):
    """Move a pair (copies in §1 order) to the table, with a starfish if `trio`; returns nothing."""
    t1 = first_type_in_hand(s, p, kind1)
    to_table(s, p, t1)
    t2 = first_type_in_hand(s, p, kind2)
    to_table(s, p, t2)
    s[NPAIRS + p] += 1
    if trio:
        t3 = first_type_in_hand(s, p, STARFISH)
        to_table(s, p, t3)
    # Playing a pair turns one held pair into one table pair: card points stay, unless a held
    # starfish loses the pair that validated it (a trio takes its starfish along: no change).
    if not trio and s[HK + p * NKINDS + STARFISH] > 0:
        s[PTS + p] = card_points(s, p)
    if trio:
        emit(s, tr, ev.TRIO, p, t1, t2, t3)
    else:
        emit(s, tr, ev.PAIR, p, t1, t2, 0)


@kernel(forceinline=True)
def crab_effect(s, p, pk, pp, tr):
    if s[PILE_LEN] + s[PILE_LEN + 1] == 0:
        emit(s, tr, ev.CRAB_TAKE, p, -1, -1, 0)
        return
    j, i, g = choose_crab_card(s, p, pk, pp)
    t = take_from_pile(s, j, i)
    receive(s, p, t, g)
    emit(s, tr, ev.CRAB_TAKE, p, t, j, 0)


@kernel(forceinline=True)
def fish_effect(s, p, rng, tr):
    if s[DECK_LEN] == 0:
        emit(s, tr, ev.FISH_DRAW, p, -1, 0, 0)
        return
    t = draw_deck(s, rng)
    receive(s, p, t, UNKNOWN)
    emit(s, tr, ev.FISH_DRAW, p, t, 0, 0)


@kernel(forceinline=True)
def steal_effect(s, p, pk, pp, rng, tr):
    """Take a uniformly random card from the hidden hand of the opponent the policy names."""
    n = s[NPLAYERS]
    eligible = False
    for q in range(n):
        if q != p and s[REVEALED + q] == 0 and s[HLEN + q] > 0:
            eligible = True
    if not eligible:
        emit(s, tr, ev.STEAL, p, -1, -1, 0)
        return
    q = choose_victim(s, p, pk, pp)
    r = below(rng, s[HLEN + q])
    base = HT + q * NTYPES
    t = 0
    while r >= s[base + t]:
        r -= s[base + t]
        t += 1
    give_up(s, q, t)
    receive(s, p, t, UNKNOWN)
    emit(s, tr, ev.STEAL, p, q, t, 0)


@kernel(forceinline=True)
def lobster_effect(s, p, pk, pp, rng, tr):
    """See the top five deck cards (all if fewer), keep one, shuffle the rest back into the deck."""
    n = s[DECK_LEN]
    if n == 0:
        emit(s, tr, ev.LOBSTER_KEEP, p, -1, 0, 0)
        return
    seen = min(5, n)
    reveal_top(s, seen, rng)
    i, g = choose_lobster_card(s, p, pk, pp, seen)
    top = DECK + n - 1
    t = s[top - i]
    s[top - i] = s[top]
    s[top] = t
    pop_deck(s)
    receive(s, p, t, g)
    emit(s, tr, ev.LOBSTER_KEEP, p, t, seen, 0)
    if not s[SHUFFLED]:
        shuffle(s, DECK, n - 1, rng)


@kernel(forceinline=True)
def declare(s, p, kind, tr):
    """STOP or LAST CHANCE by p (the caller checked the rules allow it)."""
    pts = points(s, p)
    s[DECL] = kind
    s[DECLARER] = p
    s[DECL_POINTS] = pts
    emit(s, tr, ev.DECLARE, p, kind, pts, 0)
    if kind == DECL_LAST_CHANCE:
        s[REVEALED + p] = 1
        emit(s, tr, ev.REVEAL, p, 0, 0, 0)


@kernel(inline="always")
def play_step(s, p, pk, pp, rng, final, tr):
    """RULES.md §4.2 until the policy ends the turn. Returns 1 if a boat pair asks for an extra
    turn, 2 if p now holds four mermaids, 0 otherwise (turn over, possibly by a declaration)."""
    while True:
        if has_four_mermaids(s, p):
            return 2
        a = choose_action(s, p, pk, pp, final)
        trio = a >= TRIO
        if trio:
            a -= TRIO
        if a == A_END:
            return 0
        if a == A_STOP or a == A_LAST_CHANCE:
            if final or s[DECL] != DECL_NONE or points(s, p) < 7:
                return 0  # a policy bug must not break the rules: the turn just ends
            declare(s, p, DECL_STOP if a == A_STOP else DECL_LAST_CHANCE, tr)
            return 0
        if a > A_BOAT:
            return 0
        s[PLAYED + (TRIO_SLOT if trio else a)] += 1
        play_pair(s, p, PAIR_KIND1[a], PAIR_KIND2[a], trio, tr)
        if trio:
            continue  # a trio has no effect
        if a == A_FISH:
            fish_effect(s, p, rng, tr)
        elif a == A_CRAB:
            crab_effect(s, p, pk, pp, tr)
        elif a == A_LOBSTER:
            lobster_effect(s, p, pk, pp, rng, tr)
        elif a == A_STEAL:
            steal_effect(s, p, pk, pp, rng, tr)
        elif a == A_LOCK:
            s[LOCK] = p
            emit(s, tr, ev.LOCK_ON, p, 0, 0, 0)
        elif s[DECK_LEN] + s[PILE_LEN] + s[PILE_LEN + 1] > 0:  # A_BOAT
            return 1


@kernel(inline="always")
def take_turn(s, p, pk, pp, rng, tr):
    """One whole turn of p (a locked turn, or draw + play steps with boat extra turns)."""
    locked = s[LOCK] >= 0 and s[LOCK] != p
    final = s[DECL] == DECL_LAST_CHANCE
    emit(s, tr, ev.TURN, p, locked, final, 0)
    if locked:
        if s[DECK_LEN] > 0:
            t = draw_deck(s, rng)
            receive(s, p, t, UNKNOWN)
            emit(s, tr, ev.LOCKED_DRAW, p, t, 0, 0)
        else:
            emit(s, tr, ev.LOCKED_DRAW, p, -1, 0, 0)
        return
    while True:
        draw_step(s, p, pk, pp, rng, tr)
        r = play_step(s, p, pk, pp, rng, final, tr)
        if r != 1:
            return
        emit(s, tr, ev.EXTRA_TURN, p, 0, 0, 0)


@kernel
def score_round(s, tr):
    """Write every seat's round points for a STOP or LAST CHANCE end (RULES.md §6.1-6.2)."""
    n = s[NPLAYERS]
    caller = s[DECLARER]
    if s[DECL] == DECL_STOP:
        s[END] = END_STOP
        for q in range(n):
            s[POINTS + q] = points(s, q)
    else:
        best_other = 0
        for q in range(n):
            if q != caller:
                best_other = max(best_other, points(s, q))
        won = points(s, caller) >= best_other
        s[END] = END_LC_WON if won else END_LC_LOST
        for q in range(n):
            if (q == caller) == won:
                s[POINTS + q] = points(s, q) + (colour_bonus(s, q) if won else 0)
            else:
                s[POINTS + q] = colour_bonus(s, q)
    if tr.shape[0] != 0:  # each SCORE event costs a colour_bonus call: only when tracing
        for q in range(n):
            emit(s, tr, ev.SCORE, q, s[POINTS + q], points(s, q), colour_bonus(s, q))


@kernel
def play_round(s, pk, pp, rng, tr):
    """Play turns from the current state until the round ends (RULES.md §4.3). Returns END."""
    n = s[NPLAYERS]
    while True:
        p = below_bound(s[CUR], MAX_PLAYERS)
        take_turn(s, p, pk, pp, rng, tr)
        s[TURNS] += 1
        if has_four_mermaids(s, p):
            s[END] = END_MERMAIDS
            s[ENDER] = p
            emit(s, tr, ev.MERMAID_WIN, p, 0, 0, 0)
            break
        nxt = (p + 1) % n
        if s[DECL] == DECL_STOP:
            s[ENDER] = p
            score_round(s, tr)
            break
        if s[DECL] == DECL_LAST_CHANCE:
            if p != s[DECLARER]:
                s[REVEALED + p] = 1
                emit(s, tr, ev.REVEAL, p, 0, 0, 0)
            if nxt == s[DECLARER]:
                s[ENDER] = s[DECLARER]
                score_round(s, tr)
                break
        elif s[DECK_LEN] == 0:
            s[END] = END_VOID
            s[ENDER] = p
            break
        if s[LOCK] == nxt:
            s[LOCK] = -1
            emit(s, tr, ev.LOCK_OFF, nxt, 0, 0, 0)
        s[CUR] = nxt
    emit(s, tr, ev.ROUND_END, s[ENDER], s[END], s[ENDER], 0)
    return s[END]
