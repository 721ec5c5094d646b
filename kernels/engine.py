"""The rules of a round (docs/rules.md, "A game" to "Ending a round", "Edge cases, decided"),
compiled, as decision points and actions.

The rules run from stage to stage (turn start, draw step, play step, turn end) through chance
(draws, the stolen card, the lobster shuffle; `rng` is a kernels.rng stream) and forced steps.
Wherever the current player CUR must choose among at least two legal actions, the state records
the decision point (DEC = kernels.actions.DEC_*), the stage is PH_DECIDE, and:

* a bot (baseline, threshold, random: kernels.policies) answers with an action
  (policies.choice), which `apply_action` applies, and the rules go on (`answer`);
* an *external* seat (the search player, a person through analyzer.play.decisions) is not asked
  here: the run stops with the state at that decision point, `legal_actions` lists what may be
  done, and `step` applies the chosen action with the same `act` and runs on to the next
  external decision point or the round's end (DEC_DONE).

Bots and external players answer in the same actions, applied by the same function: this module
is the only implementation of the rules. `pk` (int64[P]) and `pp` (float64[P, MAX_PARAMS]) are the
seats' policy kinds and parameters, `tr` a trace buffer (kernels.events; zero rows: off).
"""
from .jit import below_bound, kernel, once, word

from .actions import (A_BOAT, A_CRAB, A_END, A_FISH, A_LAST_CHANCE, A_LOBSTER, A_LOCK, A_STEAL,
                      A_STOP, BASE_MASK, COPY_SHIFT1, COPY_SHIFT2, COPY_SHIFT3, DEC_CRAB_CARD,
                      DEC_CRAB_PILE, DEC_DONE, DEC_DRAW, DEC_KEEP, DEC_LOBSTER, DEC_PLAY,
                      DEC_START, DEC_VICTIM, PAIR_KIND1, PAIR_KIND2, PH_DECIDE, PH_DRAW, PH_END,
                      PH_PLAY, PH_STOP, PH_TURN, SRC_DECK, TRIO)
from .cards import (KIND_FIRST_TYPE, KIND_NTYPES, MAX_DECK, MAX_KIND_TYPES, MERMAID, NKINDS,
                    NTYPES, STARFISH)
from . import events as ev
from .events import emit
from .legal import (can_declare, can_steal_from, current, discard_forced, holds_pair,
                    lobster_seen)
from .policies import choice, external, greedy
from .rng import below, shuffle
from .scoring import UNKNOWN, card_points, colour_bonus, give_up, points, receive
from .state import (AK, CRAB_PILE, CUR, DEC, DECK, DECK_LEN, DECL, DECL_LAST_CHANCE, DECL_POINTS,
                    DECL_STOP, DECLARER, END, END_LC_LOST, END_LC_WON, END_MERMAIDS, END_STOP,
                    END_VOID, ENDER, HK, HLEN, HT, LOCK, NPAIRS, NPLAYERS, PILE_LEN, PLAYED,
                    POINTS, PTS, REVEALED, SHUFFLED, TRIO_SLOT, TURNS, pop_deck, pop_pile,
                    push_pile, take_from_pile, to_table)


# ---------------------------------------------------------------------------------------------
# Chance and small rules

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


@kernel(forceinline=True)
def first_type_in_hand(s, p, kind):
    """The first type of `kind` (docs/rules.md, "The cards" colour order) that p holds; -1 if none.
    A fixed number of steps without branches (every kind has at most MAX_KIND_TYPES types; the
    counts read past the kind's own are masked out): the early exit of a scan mispredicted."""
    first = KIND_FIRST_TYPE[kind]
    n = KIND_NTYPES[kind]
    base = HT + p * NTYPES + first
    found = -1
    for i in range(MAX_KIND_TYPES - 1, -1, -1):
        if (i < n) & (s[base + i] > 0):
            found = first + i
    return found


# ---------------------------------------------------------------------------------------------
# Stages

@kernel(inline="always")
def start_turn(s, rng, tr):
    """A turn begins: a locked turn (docs/rules.md, "Pair effects") is played out here, others go to
    the draw step."""
    p = current(s)
    locked = s[LOCK] >= 0 and s[LOCK] != p
    emit(s, tr, ev.TURN, p, locked, s[DECL] == DECL_LAST_CHANCE, 0)
    if locked:
        if s[DECK_LEN] > 0:
            t = draw_deck(s, rng)
            receive(s, p, t, UNKNOWN)
            emit(s, tr, ev.LOCKED_DRAW, p, t, 0, 0)
        else:
            emit(s, tr, ev.LOCKED_DRAW, p, -1, 0, 0)
        return PH_END
    return PH_DRAW


@kernel(inline="always")
def start_draw(s, rng, tr):
    """docs/rules.md, "A turn" and edge cases 1-3: the forced cases here, a choice of source at
    DEC_DRAW."""
    p = current(s)
    deck = s[DECK_LEN]
    na = s[PILE_LEN]
    nb = s[PILE_LEN + 1]
    if na == 0 and nb == 0:
        if deck == 0:
            emit(s, tr, ev.TAKE_NOTHING, p, 0, 0, 0)
            return PH_PLAY
        return draw_from_deck(s, p, rng, tr)
    if deck == 0 and (na == 0 or nb == 0):
        return take_pile(s, p, 1 if na == 0 else 0, UNKNOWN, tr)
    s[DEC] = DEC_DRAW
    return PH_DECIDE


@kernel(inline="always")
def draw_source(s, p, src, g, rng, tr):
    """DEC_DRAW: the deck (SRC_DECK) or a pile's top (g: its worth to p, or UNKNOWN)."""
    if src == SRC_DECK:
        return draw_from_deck(s, p, rng, tr)
    return take_pile(s, p, src - 1, g, tr)


@kernel(inline="always")
def draw_from_deck(s, p, rng, tr):
    """Draw two (one if that is all): with two, what to keep is decided at DEC_KEEP with the two
    cards revealed on top of the deck (the first drawn on top)."""
    if s[DECK_LEN] == 1:
        c1 = draw_deck(s, rng)
        receive(s, p, c1, UNKNOWN)
        emit(s, tr, ev.KEEP, p, c1, -1, 0)
        return PH_PLAY
    reveal_top(s, 2, rng)
    forced = discard_forced(s)
    n = s[DECK_LEN]
    c1 = s[DECK + n - 1]
    c2 = s[DECK + n - 2]
    if forced >= 0 and c1 == c2:
        return keep(s, p, 2 * forced, UNKNOWN, tr)   # two copies of one card, one pile: no choice
    s[DEC] = DEC_KEEP
    return PH_DECIDE


@kernel(inline="always")
def take_pile(s, p, j, g, tr):
    t = pop_pile(s, j)
    receive(s, p, t, g)
    emit(s, tr, ev.TAKE_PILE, p, t, j, 0)
    return PH_PLAY


@kernel(inline="always")
def keep(s, p, a, g, tr):
    """DEC_KEEP: keep one of the two drawn cards (worth g to p, or UNKNOWN), discard the other."""
    c1 = pop_deck(s)
    c2 = pop_deck(s)
    if a & 1:
        kept, other = c2, c1
    else:
        kept, other = c1, c2
    receive(s, p, kept, g)
    j = a >> 1
    push_pile(s, j, other)
    emit(s, tr, ev.KEEP, p, kept, other, 0)
    emit(s, tr, ev.DISCARD, p, other, j, 0)
    return PH_PLAY


@kernel(forceinline=True)
def play_open(s, p):
    """p has something to do in the play step besides ending the turn."""
    for a in range(A_FISH, A_BOAT + 1):
        if holds_pair(s, p, a):
            return True
    return can_declare(s, p)


@kernel(inline="always")
def start_play(s, pk):
    """The play step (again): four mermaids end the turn at once (docs/rules.md, "A turn"); with
    nothing but ending the turn open, it ends; otherwise DEC_PLAY."""
    p = current(s)
    if has_four_mermaids(s, p):
        return PH_END
    # A greedy bot ends the turn itself when nothing else is open: asking it costs less than
    # asking the rules first (and draws no random number, unlike the random bot).
    if not greedy(pk, p) and not play_open(s, p):
        return PH_END
    s[DEC] = DEC_PLAY
    return PH_DECIDE


@kernel(forceinline=True)
def play_pair(s, p, a, trio, tr):
    """Move pair action a's two cards to the table (the copies named in `a`, else the first in
    "The cards" order), with a starfish if `trio`."""
    base = a & BASE_MASK
    if trio:
        base -= TRIO
    t1 = ((a >> COPY_SHIFT1) & 0xFF) - 1
    if t1 < 0:
        t1 = first_type_in_hand(s, p, PAIR_KIND1[base])
    to_table(s, p, t1)
    t2 = ((a >> COPY_SHIFT2) & 0xFF) - 1
    if t2 < 0:
        t2 = first_type_in_hand(s, p, PAIR_KIND2[base])
    to_table(s, p, t2)
    s[NPAIRS + p] += 1
    t3 = 0
    if trio:
        t3 = ((a >> COPY_SHIFT3) & 0xFF) - 1
        if t3 < 0:
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
def apply_play(s, a, rng, tr):
    """DEC_PLAY: end the turn, declare, or play a pair or trio and resolve its effect ("Pair
    effects")."""
    p = current(s)
    base = a & BASE_MASK
    trio = base >= TRIO
    if trio:
        base -= TRIO
    if base == A_END:
        return PH_END
    if base == A_STOP or base == A_LAST_CHANCE:
        if can_declare(s, p):
            declare(s, p, DECL_STOP if base == A_STOP else DECL_LAST_CHANCE, tr)
        return PH_END           # (an illegal declaration just ends the turn)
    if base > A_BOAT:
        return PH_END
    s[PLAYED + (TRIO_SLOT if trio else base)] += 1
    play_pair(s, p, a, trio, tr)
    if trio:
        return PH_PLAY          # a trio has no effect
    if base == A_FISH:
        if s[DECK_LEN] == 0:
            emit(s, tr, ev.FISH_DRAW, p, -1, 0, 0)
        else:
            t = draw_deck(s, rng)
            receive(s, p, t, UNKNOWN)
            emit(s, tr, ev.FISH_DRAW, p, t, 0, 0)
        return PH_PLAY
    if base == A_CRAB:
        na = s[PILE_LEN]
        nb = s[PILE_LEN + 1]
        if na + nb == 0:
            emit(s, tr, ev.CRAB_TAKE, p, -1, -1, 0)
            return PH_PLAY
        if na == 0 or nb == 0:
            s[CRAB_PILE] = 1 if na == 0 else 0
            return start_crab_card(s, p, tr)
        s[DEC] = DEC_CRAB_PILE
        return PH_DECIDE
    if base == A_LOBSTER:
        if s[DECK_LEN] == 0:
            emit(s, tr, ev.LOBSTER_KEEP, p, -1, 0, 0)
            return PH_PLAY
        seen = lobster_seen(s)
        reveal_top(s, seen, rng)
        if seen == 1:
            return lobster_keep(s, p, 0, UNKNOWN, rng, tr)
        s[DEC] = DEC_LOBSTER
        return PH_DECIDE
    if base == A_STEAL:
        victims = 0
        q = -1
        for r in range(s[NPLAYERS]):
            if can_steal_from(s, p, r):
                victims += 1
                q = r
        if victims == 0:
            emit(s, tr, ev.STEAL, p, -1, -1, 0)
            return PH_PLAY
        if victims == 1:
            return steal(s, p, q, rng, tr)
        s[DEC] = DEC_VICTIM
        return PH_DECIDE
    if base == A_LOCK:
        s[LOCK] = p
        emit(s, tr, ev.LOCK_ON, p, 0, 0, 0)
        return PH_PLAY
    if s[DECK_LEN] + s[PILE_LEN] + s[PILE_LEN + 1] > 0:      # A_BOAT: another draw + play step
        emit(s, tr, ev.EXTRA_TURN, p, 0, 0, 0)
        return PH_DRAW
    return PH_PLAY


@kernel(inline="always")
def start_crab_card(s, p, tr):
    """The searched pile is CRAB_PILE: with one card it is taken, else DEC_CRAB_CARD."""
    j = s[CRAB_PILE]
    if s[PILE_LEN + j] == 1:
        return crab_take(s, p, j, 0, UNKNOWN, tr)
    s[DEC] = DEC_CRAB_CARD
    return PH_DECIDE


@kernel(inline="always")
def crab_take(s, p, j, i, g, tr):
    """Take the card at index i (0 = bottom) of pile j; the rest keep their order."""
    t = take_from_pile(s, j, i)
    receive(s, p, t, g)
    emit(s, tr, ev.CRAB_TAKE, p, t, j, 0)
    return PH_PLAY


@kernel(inline="always")
def lobster_keep(s, p, i, g, rng, tr):
    """Keep the i-th revealed deck card (0 = top); the rest go back and the deck is shuffled."""
    n = s[DECK_LEN]
    seen = lobster_seen(s)
    top = DECK + n - 1
    t = s[top - i]
    s[top - i] = s[top]
    s[top] = t
    pop_deck(s)
    receive(s, p, t, g)
    emit(s, tr, ev.LOBSTER_KEEP, p, t, seen, 0)
    if not s[SHUFFLED]:
        shuffle(s, DECK, n - 1, rng)
    return PH_PLAY


@kernel(inline="always")
def steal(s, p, q, rng, tr):
    """Take a uniformly random card from q's hidden hand."""
    r = below(rng, s[HLEN + q])
    base = HT + q * NTYPES
    t = 0
    while r >= s[base + t]:
        r -= s[base + t]
        t += 1
    give_up(s, q, t)
    receive(s, p, t, UNKNOWN)
    emit(s, tr, ev.STEAL, p, q, t, 0)
    return PH_PLAY


@kernel
def score_round(s, tr):
    """Write every seat's round points for a STOP or LAST CHANCE end (docs/rules.md, "Ending a
    round"-6.2)."""
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


@kernel(inline="always")
def end_turn(s, tr):
    """docs/rules.md, "A turn": four mermaids, STOP, LAST CHANCE reveals and end, void; else next
    seat."""
    n = s[NPLAYERS]
    p = current(s)
    s[TURNS] += 1
    if has_four_mermaids(s, p):
        s[END] = END_MERMAIDS
        s[ENDER] = p
        emit(s, tr, ev.MERMAID_WIN, p, 0, 0, 0)
        return end_round(s, tr)
    nxt = p + 1 if p + 1 < n else 0        # (no integer division on the turn path)
    if s[DECL] == DECL_STOP:
        s[ENDER] = p
        score_round(s, tr)
        return end_round(s, tr)
    if s[DECL] == DECL_LAST_CHANCE:
        if p != s[DECLARER]:
            s[REVEALED + p] = 1
            emit(s, tr, ev.REVEAL, p, 0, 0, 0)
        if nxt == s[DECLARER]:
            s[ENDER] = s[DECLARER]
            score_round(s, tr)
            return end_round(s, tr)
    elif s[DECK_LEN] == 0:
        s[END] = END_VOID
        s[ENDER] = p
        return end_round(s, tr)
    if s[LOCK] == nxt:
        s[LOCK] = -1
        emit(s, tr, ev.LOCK_OFF, nxt, 0, 0, 0)
    s[CUR] = nxt
    return PH_TURN


@kernel(forceinline=True)
def end_round(s, tr):
    emit(s, tr, ev.ROUND_END, s[ENDER], s[END], s[ENDER], 0)
    s[DEC] = DEC_DONE
    return PH_STOP


@once
@kernel
def advance(s, ph, pk, pp, rng, tr):
    """Run stages from `ph` until an external seat's decision point or the round's end. A real
    call, compiled once: play_round and step share it (inlined, each had its own copy)."""
    while ph != PH_STOP:
        if ph == PH_DECIDE:
            if external(pk, current(s)):
                return
            ph = answer(s, pk, pp, rng, tr)
        elif ph == PH_PLAY:
            ph = start_play(s, pk)
        elif ph == PH_END:
            ph = end_turn(s, tr)
        elif ph == PH_TURN:
            ph = start_turn(s, rng, tr)
        else:
            ph = start_draw(s, rng, tr)


@kernel(inline="always")
def answer(s, pk, pp, rng, tr):
    """The current seat's bot answers the decision point (policies.choice) and its action
    is applied as an external seat's is (act). Returns the stage that follows."""
    d = s[DEC]              # (read once: LLVM can then join the two dispatches on it)
    a, g = choice(s, d, pk, pp, rng)
    return apply_action(s, d, a, g, rng, tr)


# ---------------------------------------------------------------------------------------------
# The API: apply an action, list the legal ones

@once
@kernel
def step(s, a, pk, pp, rng, tr):
    """Apply action `a` at the current decision point (`act`) and run on to the next external
    decision point or the round's end. The action must be legal (legal_actions)."""
    advance(s, act(s, a, UNKNOWN, rng, tr), pk, pp, rng, tr)


@once
@kernel
def act(s, a, g, rng, tr):
    """apply_action, compiled once for the callers outside the round loop (step, rollouts)."""
    return apply_action(s, s[DEC], a, g, rng, tr)


@kernel(inline="always")
def apply_action(s, d, a, g, rng, tr):
    """The action's own effect at the current decision point, up to the stage that follows,
    which it returns (PH_DECIDE at the next decision point it leads to, PH_STOP at DEC_DONE).
    `g` is what the card taken is worth to the player if the chooser computed it (UNKNOWN
    otherwise). A bot's answers and an external seat's actions both come here;
    kernels.rollout.play_on goes on from the stage it returns with
    kernels.fastround.continue_round (the search player's and advisor's rounds)."""
    p = current(s)
    if d == DEC_PLAY:
        ph = apply_play(s, a, rng, tr)
    elif d == DEC_DRAW:
        ph = draw_source(s, p, a, g, rng, tr)
    elif d == DEC_KEEP:
        ph = keep(s, p, a, g, tr)
    elif d == DEC_CRAB_PILE:
        if a >= 2:
            ph = crab_take(s, p, (a - 2) & 1, (a - 2) >> 1, g, tr)
        else:
            s[CRAB_PILE] = a
            ph = start_crab_card(s, p, tr)
    elif d == DEC_CRAB_CARD:
        ph = crab_take(s, p, s[CRAB_PILE], a, g, tr)
    elif d == DEC_LOBSTER:
        ph = lobster_keep(s, p, a, g, rng, tr)
    elif d == DEC_VICTIM:
        ph = steal(s, p, a, rng, tr)
    elif d == DEC_START:
        ph = PH_TURN
    else:
        ph = PH_STOP    # DEC_DONE: the round is over
    return ph


@kernel(inline="always")
def play_round(s, pk, pp, rng, tr):
    """Run the round in `s` from the start of the current player's turn (DEC_START: as dealt or
    built) or from a decision point already answered, until an external seat must decide or the
    round ends. With bots in every seat that is the end: returns END (0 if stopped)."""
    if s[DEC] == DEC_START:
        advance(s, word(PH_TURN), pk, pp, rng, tr)
    return s[END]
