"""Hand reading: how likely an opponent model makes the public choices a seat saw in the round,
given a deal of the cards that seat cannot see. The search player (kernels.search, `read=1`) and
the advisor (analyzer.play.reading) weight their deals by it.

**What is read.** Every choice of each modelled opponent q in the round so far (observe), each
judged on a *view*: the deal wound back to the moment of that choice.

- At each draw step with a choice: its source (the deck or a pile's top) and, after a deck
  draw, which card went down on which pile. "Passed a shark on the pile: held no swimmer then."
- At each play step: each pair played, and the end of a turn with no pair played and no
  declaration. "A visible 9-point table and no declaration: holds little."

**The view.** Walking the round's trace back from now, each public event is undone: discards
come off the piles, pile takes go back (and leave q's hand), deck draws go back as a count,
pairs go back to their player's hand, a declaration and a reveal are withdrawn, a card the seat
stole from q or q stole from it changes hands back. The cards q gained out of sight (the card
kept from a deck draw, a fish's draw, a lobster's card, a card stolen from a third seat, a locked
turn's draw) are the hidden part: each is some card of q's hand at that moment, and q's hand
before it is that hand without it. Each *explanation* (which card each hidden gain was) gives
every view of q's hand exactly; the reading searches them depth first, most recent gain first,
the choices each card explains tried first, and keeps the explanation the model fits best. Other
seats' hands in a view keep their cards as they are now with their sizes wound back (a model of
q reads only its own hand, the tables, the piles, the deck count, the turn count and hand
sizes).

**Where reading starts** (observe): after the round's deal; after the last crab search that
took a card (which card left the pile is hidden, so the piles before it cannot be rebuilt); for
q also after the last steal from q by a seat other than the reader (q lost a card the seat did
not see), and at most MAX_GAINS hidden gains of q back. `mismatches` never reads a hidden field
of the trace (a kept card, a fish's, lobster's or crab's card, a card stolen between others):
only public facts, and whether a draw found a card.

**The likelihood** of a deal is cost_weight(c) = TREMBLE ** m * ((1 + TREMBLE) / 2) ** h for
its reading cost c = MISS * m + h, the smallest over the explanations searched: m choices the
model (its chooser, kernels.policies.bot_action, asked on the view) would not have made, and h
deck draws whose kept card only one of the two draw orders explains (the two cards come off the
deck in a random order: a keep that either order explains is twice as likely as one that only
one order does). A model that never errs gives 0 or 1 per choice (a consistency filter); the
tremble (a documented parameter, default 0.05) keeps every deal possible so that deals are never
all rejected, and a tremble of 1 makes every deal weigh the same (uniform deals). Only models
that draw no random number are read (baseline, threshold and the expert: IS_READABLE); any
other model gives cost 0. The search over explanations stops after MAX_NODES tries beyond its
first complete explanation, keeping the best found.
"""
import numpy as np

from .jit import kernel, once
from .policy_slots import DEFAULT_TREMBLE  # noqa: F401  (the reading's default)
from .reading_kinds import READABLE_KINDS

from . import events as ev
from .actions import (A_END, DEC_DRAW, DEC_KEEP, DEC_PLAY, PAIR_ACTIONS, PAIR_KIND1, PAIR_KIND2,
                      SRC_DECK, SRC_PILE_A, TRIO)
from .cards import MAX_DECK, NKINDS, NTYPES
from .policies import bot_action
from .scoring import card_points
from .state import (CUR, DEC, DECK, DECK_LEN, DECL, DECL_NONE, HK, HLEN, HT, KIND_OF, LOCK,
                    MAX_PLAYERS, NPAIRS, NPLAYERS, PILE, PILE_LEN, PTS, REVEALED, STATE_CORE, TT,
                    TURNS, copy_state, gain_card, lose_card)

# An observation row per opponent seat q: obs[q * OBS_WIDTH + O_*] (int64[OBS_SIZE]).
O_FIRST = 0       # the first trace row read (0: q is not read)
O_TURNS = 1       # q's turns with choices begun in the rows read
OBS_WIDTH = 2
OBS_SIZE = MAX_PLAYERS * OBS_WIDTH
# A deal's reading cost: MISS per choice the model would not have made, plus 1 per deck draw
# whose kept card only one of the two draw orders explains (module doc, "The likelihood").
MISS = 64
MAX_MISMATCHES = 2 * MAX_PLAYERS     # the advisor's buckets: more weighs as this many
MAX_TIES = 15                        # ... and as this many draws explained one way

# The kinds read, by kind (kernels.reading_kinds: models that draw no random number).
IS_READABLE = np.zeros(8, dtype=np.bool_)
IS_READABLE[list(READABLE_KINDS)] = True

MAX_GAINS = 24                       # hidden gains of one opponent read back from now
MAX_NODES = 4096                     # explanations tried beyond the first complete one
UNKNOWN = 1 << 20                    # an option whose own mismatches are not worked out yet
# The search's stack: per depth (one hidden gain) the view before it, the cards that could
# explain it with their own mismatches (-1: not in hand), its trace row, the mismatches before
# it and the last card tried.
K_OPTS = STATE_CORE
K_ROW = K_OPTS + NTYPES
K_M = K_ROW + 1
K_TRIED = K_M + 1
K_BEST = K_TRIED + 1                 # the best cost found when the search came to this gain
K_WIDTH = K_BEST + 1
# Then a table of the states already searched through: (q's hand at a hidden gain's row, the
# fewest further mismatches from there: exact, or a lower bound), so that explanations
# differing only in the order of the same cards are not searched twice (the search is then
# over sets, not orders), and another deal whose explanation comes to the same hand at the
# same gain is not read from there again. A state's further mismatches depend only on the
# round's rows and the model read, so the table is kept from deal to deal while those stay
# (MEMO_FOR: their fingerprint) and cleared when they change.
MEMO = MAX_GAINS * K_WIDTH
MEMO_SLOTS = 8192                    # a power of two; a key and a value each
MEMO_LIST = MEMO + 2 * MEMO_SLOTS    # the slots in use, so that clearing costs what was used
MEMO_USED = MEMO_LIST + MEMO_SLOTS // 2
MEMO_FOR = MEMO_USED + 1
STACK_SIZE = MEMO_FOR + 1


@kernel(forceinline=True)
def _hidden_gain(tr, r, q, o):
    """Row r is a card q gained out of seat o's sight (module doc)."""
    if tr[r, 1] != q:
        return False
    code = tr[r, 0]
    if code == ev.KEEP:
        return True
    if code == ev.FISH_DRAW or code == ev.LOBSTER_KEEP or code == ev.LOCKED_DRAW:
        return tr[r, 2] >= 0
    if code == ev.STEAL:
        return tr[r, 2] >= 0 and tr[r, 2] != o
    return False


@kernel
def observe(s, tr, o, obs):
    """Fill obs (module doc) with the rows seat o reads of each opponent in the trace `tr` of
    the round in s; returns the number of the opponents' turns with choices read."""
    n = s[NPLAYERS]
    last = min(tr[0, 0], tr.shape[0] - 1)
    for i in range(OBS_SIZE):
        obs[i] = 0
    first = 1        # the round's first row: after its deal (a replay's trace holds the game)
    for r in range(last, 0, -1):
        if tr[r, 0] == ev.DEAL:
            first = r + 1
            break
    for r in range(first, last + 1):
        if tr[r, 0] == ev.CRAB_TAKE and tr[r, 2] >= 0:
            first = r + 1
    total = 0
    for q in range(n):
        if q == o or s[REVEALED + q] != 0:
            continue
        start = first
        gains = 0
        for r in range(last, first - 1, -1):
            if tr[r, 0] == ev.STEAL and tr[r, 2] == q and tr[r, 1] != o:
                start = r + 1
                break
            if _hidden_gain(tr, r, q, o):
                gains += 1
                if gains > MAX_GAINS:
                    start = r + 1
                    break
        if start > last:
            continue
        turns = 0
        t0 = start                               # a turn of q under way at the first row
        while t0 > 1 and tr[t0, 0] != ev.TURN:
            t0 -= 1
        if t0 < start and tr[t0, 0] == ev.TURN and tr[t0, 1] == q and tr[t0, 2] == 0:
            turns += 1
        for r in range(start, last + 1):
            if tr[r, 0] == ev.TURN and tr[r, 1] == q and tr[r, 2] == 0:
                turns += 1
        if turns > 0:
            obs[q * OBS_WIDTH + O_FIRST] = start
            obs[q * OBS_WIDTH + O_TURNS] = turns
            total += turns
    return total


@once
@kernel
def mismatches(d, o, tr, obs, pk, pp, v, stack, rng):
    """The reading cost of the deal d (module doc: MISS per choice read in obs the model pk/pp
    would not have made, plus 1 per keep one draw order explains), the smallest over the
    explanations searched, summed over the opponents read; its likelihood is cost_weight. v: a
    scratch state;
    stack: int64[STACK_SIZE]; rng: a scratch stream (the models read draw nothing)."""
    n = d[NPLAYERS]
    last = min(tr[0, 0], tr.shape[0] - 1)
    key = _fingerprint(o, tr, last, obs, pk, pp)
    if stack[MEMO_FOR] != key:                  # other rows or another model: start afresh
        for j in range(stack[MEMO_USED]):
            stack[MEMO + 2 * stack[MEMO_LIST + j]] = 0
        stack[MEMO_USED] = 0
        stack[MEMO_FOR] = key
    m = 0
    for q in range(n):
        first = obs[q * OBS_WIDTH + O_FIRST]
        if q == o or first == 0 or not IS_READABLE[pk[q]]:
            continue
        m += _read_seat(d, o, q, tr, first, last, pk, pp, v, stack, rng)
    return m


@kernel
def _fingerprint(o, tr, last, obs, pk, pp):
    """A nonzero 64-bit hash of what a state's further mismatches depend on: the reader, the
    rows read, where each opponent's reading starts, and the model read (kinds, parameters)."""
    h = np.int64(o) * np.int64(-7046029254386353131) + np.int64(last)
    start = last
    for i in range(OBS_SIZE):
        h = (h ^ np.int64(obs[i])) * np.int64(1099511628211)
        if i % OBS_WIDTH == O_FIRST and obs[i] > 0:
            start = min(start, obs[i])
    for r in range(max(start - 1, 1), last + 1):
        for c in range(tr.shape[1]):
            h = (h ^ np.int64(tr[r, c])) * np.int64(1099511628211)
    for q in range(pk.shape[0]):
        h = (h ^ np.int64(pk[q])) * np.int64(1099511628211)
        for j in range(pp.shape[1]):
            h = (h ^ np.int64(pp[q, j] * 1048576.0)) * np.int64(1099511628211)
    return h | np.int64(1)


@once
@kernel
def _read_seat(d, o, q, tr, first, last, pk, pp, v, stack, rng):
    """The smallest reading cost of q's choices in rows first .. last over the explanations of its
    hidden gains (module doc): a depth-first search, each depth one hidden gain (most recent
    first), its view kept on `stack` so that the next card can be tried from it."""
    copy_state(v, d)
    best = 1 << 30
    nodes = 0
    depth = 0
    r = last
    m = 0
    fresh = -1                                   # the depth whose stored view v still is
    while True:
        # walk back to the next hidden gain or past the first row read
        while r >= first and not _hidden_gain(tr, r, q, o) and m < best:
            m += _undo(v, tr, r, q, o, last, pk, pp, rng)
            r -= 1
            fresh = -1
        if m < best and r >= first:
            base = depth * K_WIDTH
            m += _ended(v, tr, r, q, last, pk, pp, rng)
            _undo_public(v, tr, r, q, o)
            for i in range(STATE_CORE):
                stack[base + i] = v[i]
            stack[base + K_ROW] = r
            stack[base + K_M] = m
            stack[base + K_TRIED] = -1
            stack[base + K_BEST] = best
            seen = _memo_find(stack, _memo_key(v, 0, q, r))
            if seen >= 0 and (seen & 1) == 1:    # searched from here before, to the end
                best = min(best, m + (seen >> 1))
                if best == 0:
                    return 0
            elif seen >= 0 and m + (seen >> 1) >= best:
                pass                             # searched from here before: nothing better
            elif not _mark_options(v, q, stack, base + K_OPTS):
                m += MISS                        # no card of q's hand can be it: not this deal
                r -= 1
                continue
            else:
                fresh = depth
                depth += 1
        elif m < best:
            best = m
            if best == 0:
                return 0
        # the next card to try, at the deepest gain that has one left
        found = False
        while depth > 0 and not found:
            base = (depth - 1) * K_WIDTH
            t, local = _next_option(v, fresh == depth - 1, tr, q, pk, pp, stack, base, rng)
            fresh = depth - 1 if fresh == depth - 1 else -1
            capped = best < (1 << 30) and nodes >= MAX_NODES
            if t < 0 or stack[base + K_M] + local >= best or capped:
                if not capped:                   # every card tried or bounded: remember it,
                    # exact if the best was found below this gain, else a lower bound
                    exact = best < stack[base + K_BEST]
                    _memo_put(stack, _memo_key(stack, base, q, stack[base + K_ROW]),
                              2 * (best - stack[base + K_M]) + exact)
                depth -= 1
                continue
            if best < (1 << 30):
                nodes += 1
            stack[base + K_TRIED] = local * NTYPES + t
            if fresh != depth - 1:
                for i in range(STATE_CORE):
                    v[i] = stack[base + i]
            lose_card(v, q, t)
            fresh = -1
            m = stack[base + K_M] + local
            r = stack[base + K_ROW] - 1
            found = True
        if not found:
            return best


@kernel(forceinline=True)
def _memo_key(v, at, q, r):
    """A nonzero 64-bit key of (row r, q's hand in the state at v[at:])."""
    h = np.int64(r) * np.int64(-7046029254386353131) + np.int64(1442695040888963407)
    for t in range(NTYPES):
        h = (h ^ np.int64(v[at + HT + q * NTYPES + t])) * np.int64(1099511628211)
    return h | np.int64(1)


@kernel(forceinline=True)
def _memo_find(stack, key):
    """The value stored for key (2 x the fewest further mismatches, + 1 if exact), or -1."""
    i = key & np.int64(MEMO_SLOTS - 1)
    for _ in range(MEMO_SLOTS):
        k = stack[MEMO + 2 * i]
        if k == 0:
            return -1
        if k == key:
            return stack[MEMO + 2 * i + 1]
        i = (i + 1) & (MEMO_SLOTS - 1)
    return -1


@kernel(forceinline=True)
def _memo_put(stack, key, value):
    """Store (key, value): value = 2 f + exact, where no explanation from that state has fewer
    than f further mismatches (exactly f if exact); of two values the larger is kept (an exact
    one over any bound, which cannot exceed it). A half-full table stores nothing more (the
    search is then only slower)."""
    if stack[MEMO_USED] >= MEMO_SLOTS // 2:
        return
    i = key & np.int64(MEMO_SLOTS - 1)
    for _ in range(MEMO_SLOTS):
        k = stack[MEMO + 2 * i]
        if k == 0:
            stack[MEMO + 2 * i] = key
            stack[MEMO + 2 * i + 1] = value
            stack[MEMO_LIST + stack[MEMO_USED]] = i
            stack[MEMO_USED] += 1
            return
        if k == key:
            stack[MEMO + 2 * i + 1] = max(value, stack[MEMO + 2 * i + 1])
            return
        i = (i + 1) & (MEMO_SLOTS - 1)


@kernel(forceinline=True)
def _mark_options(v, q, stack, at):
    """Mark each card of q's hand in v (the view just before a hidden gain, the card still in
    hand) as an option whose own mismatches are not yet known (UNKNOWN), the others -1. False
    if q's hand is empty."""
    any_card = False
    for t in range(NTYPES):
        stack[at + t] = UNKNOWN if v[HT + q * NTYPES + t] > 0 else -1
        any_card = any_card or v[HT + q * NTYPES + t] > 0
    return any_card


@kernel(inline="always")
def _next_option(v, is_view, tr, q, pk, pp, stack, base, rng):
    """(card, its own mismatches) after the last tried at the gain at depth `base`, in order of
    mismatches then card; (-1, 0) when none is left. An option's mismatches are worked out
    when needed (_option_misses): cards in order until one that fits, so that a deal whose
    first explanation fits costs one card's check per gain, not every card's. v: the view at
    this gain if is_view (left so), else scratch."""
    tried = stack[base + K_TRIED]
    at = base + K_OPTS
    if tried < NTYPES:                           # no option, or only fitting ones, tried yet
        copied = is_view
        for t in range(tried + 1 if tried >= 0 else 0, NTYPES):
            if stack[at + t] == UNKNOWN:
                if not copied:
                    for i in range(STATE_CORE):
                        v[i] = stack[base + i]
                    copied = True
                stack[at + t] = _option_misses(v, tr, stack[base + K_ROW], q, t, pk, pp, rng)
            if stack[at + t] == 0:
                return t, 0
    key = 1 << 30
    for t in range(NTYPES):
        loc = stack[at + t]
        if loc >= 0:
            k = loc * NTYPES + t
            if tried < k < key:
                key = k
    if key == 1 << 30:
        return -1, 0
    return key % NTYPES, key // NTYPES


@kernel(inline="always")
def _option_misses(v, tr, r, q, t, pk, pp, rng):
    """The reading cost of the hidden gain's own choices at row r had the card been t (v: the
    view before the gain, t still in q's hand; left as it was): for a deck draw, drawing from
    the deck, and keeping t and putting the other card where it did; no choice for the other
    gains."""
    if tr[r, 0] != ev.KEEP:
        return 0
    lose_card(v, q, t)
    n = v[DECK_LEN]
    keep = (v[CUR], v[DEC], v[LOCK], v[PTS + q], v[DECK + n - 1], v[DECK + n - 2])
    miss = _deck_draw_misses(v, tr, r, q, t, pk, pp, rng)
    v[CUR], v[DEC], v[LOCK], v[PTS + q], v[DECK + n - 1], v[DECK + n - 2] = keep
    gain_card(v, q, t)
    return miss


@kernel(inline="always")
def _deck_draw_misses(v, tr, r, q, t, pk, pp, rng):
    """With v the view before q's deck draw at row r (the kept card t not in hand): 1 if the
    model would not have drawn from the deck, plus 1 if of t and the card it put down (either
    drawn first) it would not have kept t and put the other on the pile it did."""
    miss = 0
    _set_view(v, q, DEC_DRAW)
    if _draw_is_a_choice(v) and bot_action(v, pk, pp, rng) != SRC_DECK:
        miss += MISS
    y = tr[r, 3]
    if y < 0 or r + 1 > tr.shape[0] - 1 or tr[r + 1, 0] != ev.DISCARD:
        return miss                              # one card drawn: nothing kept by choice
    j = tr[r + 1, 3]
    n = v[DECK_LEN]
    fits = 0
    v[DEC] = DEC_KEEP
    for order in range(2):
        v[DECK + n - 1] = t if order == 0 else y
        v[DECK + n - 2] = y if order == 0 else t
        a = bot_action(v, pk, pp, rng)
        if (a & 1) == order and (a >> 1) == j:
            fits += 1
    if fits == 0:
        return miss + MISS
    return miss if fits == 2 else miss + 1


@kernel(forceinline=True)
def _draw_is_a_choice(v):
    """The draw step in v offers a choice (kernels.engine.start_draw forces the others)."""
    na = v[PILE_LEN]
    nb = v[PILE_LEN + 1]
    if na == 0 and nb == 0:
        return False
    return not (v[DECK_LEN] == 0 and (na == 0 or nb == 0))


@kernel(inline="always")
def _undo(v, tr, r, q, o, last, pk, pp, rng):
    """Undo row r (not a hidden gain of q) in the view v, checking q's choice there; returns
    the mismatches found (module doc)."""
    miss = _ended(v, tr, r, q, last, pk, pp, rng)
    code = tr[r, 0]
    p = tr[r, 1]
    _undo_public(v, tr, r, q, o)
    if code == ev.PAIR or code == ev.TRIO:
        _unplay(v, p, tr[r, 2])
        _unplay(v, p, tr[r, 3])
        a = _pair_action(tr[r, 2], tr[r, 3])
        if code == ev.TRIO:
            _unplay(v, p, tr[r, 4])
            a += TRIO
        v[NPAIRS + p] -= 1
        if p == q:
            _set_view(v, q, DEC_PLAY)
            if bot_action(v, pk, pp, rng) != a:
                miss += MISS
    elif code == ev.TAKE_PILE and p == q:
        x = tr[r, 2]
        if v[HT + q * NTYPES + x] <= 0:          # cannot happen in a consistent deal
            return miss + MISS
        lose_card(v, q, x)
        _set_view(v, q, DEC_DRAW)
        if _draw_is_a_choice(v) and bot_action(v, pk, pp, rng) != SRC_PILE_A + tr[r, 3]:
            miss += MISS
    elif code == ev.STEAL and p == q and tr[r, 2] == o:
        x = tr[r, 3]                             # q stole x from the reader: it saw x
        if v[HT + q * NTYPES + x] <= 0:
            return miss + MISS
        lose_card(v, q, x)
    elif code == ev.STEAL and p == o and tr[r, 2] == q:
        gain_card(v, q, tr[r, 3])                # the reader stole x from q
    elif code == ev.DECLARE:
        v[DECL] = DECL_NONE
    elif code == ev.REVEAL:
        v[REVEALED + p] = 0
    return miss


@kernel(inline="always")
def _ended(v, tr, r, q, last, pk, pp, rng):
    """1 if row r is the last of a turn of q with choices that q ended with no pair played and
    no declaration and the model would not have ended it there (v: the view after row r)."""
    code = tr[r, 0]
    if not (r == last or tr[r + 1, 0] == ev.TURN) or code == ev.DECLARE or code == ev.EXTRA_TURN:
        return 0
    t0 = r
    while t0 > 1 and tr[t0, 0] != ev.TURN:
        t0 -= 1
    if tr[t0, 0] != ev.TURN or tr[t0, 1] != q or tr[t0, 2] != 0:
        return 0
    _set_view(v, q, DEC_PLAY)
    return MISS if bot_action(v, pk, pp, rng) != A_END else 0


@kernel
def _undo_public(v, tr, r, q, o):
    """The piles, the deck count and the other seats' hand sizes of v before row r (discards
    come off, pile takes go back, deck draws go back as a count, a card gained leaves its
    seat's hand, a stolen card goes back: by type where the reader saw it). q's own hand is
    the caller's. The caller has made sure no crab search took a card after row r."""
    code = tr[r, 0]
    p = tr[r, 1]
    gained = False
    if code == ev.TURN:
        v[TURNS] -= 1                            # the turn before had not ended yet
    elif code == ev.DISCARD:
        v[PILE_LEN + tr[r, 3]] -= 1
    elif code == ev.TAKE_PILE:
        j = tr[r, 3]
        v[PILE + j * MAX_DECK + v[PILE_LEN + j]] = tr[r, 2]
        v[PILE_LEN + j] += 1
        gained = True
    elif code == ev.KEEP:
        v[DECK_LEN] += 2 if tr[r, 3] >= 0 else 1
        gained = True
    elif code == ev.FISH_DRAW or code == ev.LOCKED_DRAW or code == ev.LOBSTER_KEEP:
        if tr[r, 2] >= 0:
            v[DECK_LEN] += 1
            gained = True
    elif code == ev.STEAL and tr[r, 2] >= 0:
        x = tr[r, 2]
        if p == o:
            lose_card(v, o, tr[r, 3])
        elif p != q:
            v[HLEN + p] -= 1
        if x == o:
            gain_card(v, o, tr[r, 3])
        elif x != q:
            v[HLEN + x] += 1
    if gained and p != q:
        v[HLEN + p] -= 1


@kernel(forceinline=True)
def _pair_action(t1, t2):
    """The play action (A_*) of a pair of card types t1, t2 (kernels.cards PAIRS)."""
    k1 = KIND_OF[t1]
    k2 = KIND_OF[t2]
    for a in PAIR_ACTIONS:
        if ((PAIR_KIND1[a] == k1 and PAIR_KIND2[a] == k2)
                or (PAIR_KIND1[a] == k2 and PAIR_KIND2[a] == k1)):
            return a
    return -1


@kernel(forceinline=True)
def _unplay(v, p, t):
    """A card p played to its table goes back to its hand (kernels.state.to_table undone)."""
    v[TT + p * NTYPES + t] -= 1
    v[HT + p * NTYPES + t] += 1
    v[HK + p * NKINDS + KIND_OF[t]] += 1
    v[HLEN + p] += 1


@kernel(forceinline=True)
def _set_view(v, q, dec):
    """v is q's decision point `dec`, unlocked, its card points up to date."""
    v[CUR] = q
    v[DEC] = dec
    v[LOCK] = -1
    v[PTS + q] = card_points(v, q)           # the models read only their own points


@kernel(forceinline=True)
def cost_weight(cost, tremble):
    """The likelihood of a deal of reading cost `cost` (mismatches): tremble per mismatch,
    (1 + tremble) / 2 per deck draw one order explains (module doc)."""
    return tremble ** (cost // MISS) * (0.5 + 0.5 * tremble) ** (cost % MISS)


@kernel(forceinline=True)
def bucket(cost):
    """The advisor's bucket of a reading cost (the mismatches and one-way draws capped)."""
    return min(cost // MISS, MAX_MISMATCHES) * (MAX_TIES + 1) + min(cost % MISS, MAX_TIES)


BUCKETS = (MAX_MISMATCHES + 1) * (MAX_TIES + 1)


def bucket_weights(tremble: float) -> np.ndarray:
    """The likelihood of each of the advisor's buckets (cost_weight of its cost)."""
    i = np.arange(BUCKETS)
    t = float(tremble)
    return t ** (i // (MAX_TIES + 1)) * (0.5 + 0.5 * t) ** (i % (MAX_TIES + 1))


def new_obs() -> np.ndarray:
    return np.zeros(OBS_SIZE, dtype=np.int64)


def new_stack() -> np.ndarray:
    return np.zeros(STACK_SIZE, dtype=np.int64)
