"""The baseline's round, specialised: the commonest batch run, at close to C speed.

`fast_round` plays the same round as `game.new_round` (deal, then kernels.engine with the
baseline of kernels.policies in every seat) and leaves the same state and the same random
stream: every counter, fixture and later round is bit-identical. kernels.batch runs it when
every seat is the baseline (`applies`); everything else goes through the general engine, which
stays the one definition of the rules.

What it leaves out, and why that is exact here: no seat is external or random, so there is no
stage dispatch, decision-point bookkeeping or event emission; with base-game cards only, `gain`
has no held-pair recount or seahorse branch and playing a pair never changes card points (with
Extra Salt cards in the deck it calls scoring's gain, and adds the lobster, the lock and locked
turns). What it does like the C yardstick (scripts/csim, PERFORMANCE_NOTES.md): the random
stream and the deck and pile lengths live in locals (the state's int32 stores cannot alias
them), the policy is straight-line code, the mermaid term reads GX, and the state is indexed
without numba's negative-index wraparound (jit.ux). tests/kernels/test_fastround.py plays the
same games both ways and compares totals, statistics, final state and stream.
"""
import numpy as np

from .actions import (A_BOAT, A_CRAB, A_FISH, A_LOBSTER, A_LOCK, A_STEAL, DEC_DONE, PH_DRAW,
                      PH_END, PH_TURN)
from .cards import (BOAT, CRAB, FISH, KIND_FIRST_TYPE, KIND_NTYPES, MAX_DECK, MAX_KIND_TYPES,
                    JELLYFISH, LOBSTER, MERMAID, NKINDS, NTYPES, SEAHORSE, SHARK, STARFISH, SWIMMER,
                    TYPE_EXPANSION)
from .jit import below_bound, kernel, once, ux
from .policies import BASELINE, LAST_CHANCE_AT, STOP_AT
from .rng import scale, xoshiro
from .scoring import TYPE_GAIN, card_points, gain_call
from .state import (AK, COL, CRAB_PILE, CSTRIDE, CUR, DEC, DECK, DECK_LEN, DECL, DECL_LAST_CHANCE,
                    DECL_NONE, DECL_POINTS, DECL_STOP, DECLARER, END, END_LC_LOST, END_LC_WON,
                    END_MERMAIDS, END_STOP, END_VOID, ENDER, GX, HK, HLEN, HT, LOCK, NPAIRS,
                    NPLAYERS, PILE, PILE_LEN, PLAYED, POINTS, PTS, REVEALED, SHUFFLED,
                    STARTER, STATE_CORE, TT, TURNS)

FIRST_EXTRA = int(np.argmax(TYPE_EXPANSION > 0))   # Extra Salt's types come after the base game's
assert (TYPE_EXPANSION[FIRST_EXTRA:] > 0).all()


def applies(nplayers: int, pk: np.ndarray) -> bool:
    """fast_round or fast_round_extra plays these rounds exactly: baseline seats."""
    return bool((pk[:nplayers] == BASELINE).all())


def with_extra_salt(deck: np.ndarray) -> bool:
    """The deck holds Extra Salt cards: fast_round_extra, not fast_round."""
    return bool((deck >= FIRST_EXTRA).any())


@kernel(forceinline=True)
def _reveal(s, dlen, i, r0, r1, r2, r3):
    """engine.reveal_top's i-th step on a lazily shuffled deck of dlen cards: a uniformly chosen
    card of the first dlen - i swaps into position dlen - 1 - i. (r0..r3, that card)."""
    r0, r1, r2, r3, x = xoshiro(r0, r1, r2, r3)
    j = DECK + below_bound(scale(x, dlen - i), MAX_DECK)
    top = DECK + dlen - 1 - i
    t = s[ux(j)]
    s[ux(j)] = s[ux(top)]
    s[ux(top)] = t
    return r0, r1, r2, r3, t


@kernel(forceinline=True)
def _gain(s, p, t, extra):
    """What card t would gain p: _base_gain, unless an Extra Salt card that changes how a hand
    scores is held or drawn (a lobster, jellyfish or starfish: held pairs counted in full; a
    seahorse: collections re-ranked, white no longer the mermaids alone); then scoring's gain,
    as a real call. (A cast of crabs is a plain product: TYPE_GAIN has it.)"""
    if extra:
        h = HK + p * NKINDS
        k = TYPE_GAIN[ux(t)] & 31
        if (s[ux(h + LOBSTER)] + s[ux(h + JELLYFISH)] + s[ux(h + STARFISH)]
                + s[ux(AK + p * NKINDS + SEAHORSE)] + (k == LOBSTER) + (k == JELLYFISH)
                + (k == STARFISH) + (k == SEAHORSE)) > 0:
            return gain_call(s, p, t)
    return _base_gain(s, p, t)


@kernel(forceinline=True)
def _base_gain(s, p, t):
    """scoring.gain for a base-game hand and card: the same table word, without the Extra Salt
    branches (no lobster, jellyfish, starfish or seahorse can be held)."""
    g = TYPE_GAIN[ux(t)]
    k = g & 31
    h = HK + p * NKINDS
    a = AK + p * NKINDS
    d = ((g >> 14) & 3) * s[ux(a + ((g >> 9) & 31))]
    n = s[ux(h + k)]
    d += (((g >> 16) & 1) & n) + (((g >> 17) & 1) & (n < s[ux(h + ((g >> 18) & 31))]))
    d += ((g >> 26) & 7) if s[ux(a + k)] > 0 else ((g >> 23) & 7)
    m = s[ux(a + MERMAID)]
    gx = GX + p * CSTRIDE
    if k == MERMAID:
        # White holds the m mermaids: the top-(m+1) sum rises by 1 at x = m and by
        # [GX[x] > m] at every other x (scoring._gain's loop, with m < 4 and white = m).
        # GX falls with x, so the x with GX[x] > m are a prefix 0 .. c - 1, and x = m is one
        # of them exactly when m < c.
        c = 0
        while s[ux(gx + c)] > m:
            c += 1
        d += 1 + c - (m < c)
    elif m > 0:
        d += s[ux(gx + s[ux(COL + p * CSTRIDE + ((g >> 5) & 15))])] < m
    return d


@kernel(forceinline=True)
def _receive(s, p, t, g):
    """scoring.receive: state.gain_card, and the cached points rise by the card's gain g."""
    s[ux(PTS + p)] += g
    s[ux(HT + p * NTYPES + t)] += 1
    w = TYPE_GAIN[ux(t)]
    k = w & 31
    s[ux(HK + p * NKINDS + k)] += 1
    s[ux(AK + p * NKINDS + k)] += 1
    c = COL + p * CSTRIDE + ((w >> 5) & 15)
    v = s[ux(c)]
    s[ux(GX + p * CSTRIDE + v)] += 1
    s[ux(c)] = v + 1
    s[ux(HLEN + p)] += 1


@kernel(forceinline=True)
def _lose(s, p, t):
    """state.lose_card."""
    s[ux(HT + p * NTYPES + t)] -= 1
    w = TYPE_GAIN[ux(t)]
    k = w & 31
    s[ux(HK + p * NKINDS + k)] -= 1
    s[ux(AK + p * NKINDS + k)] -= 1
    c = COL + p * CSTRIDE + ((w >> 5) & 15)
    v = s[ux(c)] - 1
    s[ux(GX + p * CSTRIDE + v)] -= 1
    s[ux(c)] = v
    s[ux(HLEN + p)] -= 1


@kernel(forceinline=True)
def _to_table(s, p, kind):
    """The first copy of `kind` in p's hand ("The cards" order) goes to the table
    (state.to_table)."""
    first = KIND_FIRST_TYPE[kind]
    n = KIND_NTYPES[kind]
    base = HT + p * NTYPES + first
    t = first
    for i in range(MAX_KIND_TYPES - 1, -1, -1):      # no early exit: it mispredicts
        if (i < n) & (s[ux(base + i)] > 0):
            t = first + i
    s[ux(HT + p * NTYPES + t)] -= 1
    s[ux(TT + p * NTYPES + t)] += 1
    s[ux(HK + p * NKINDS + kind)] -= 1
    s[ux(HLEN + p)] -= 1


@kernel(forceinline=True)
def _play_pair(s, p, k1, k2, a, extra):
    """Pair action a of kinds k1, k2, the first copies in "The cards" order (engine.play_pair; the
    baseline plays no trio): card points stay, unless a held starfish loses its pair."""
    s[ux(PLAYED + a)] += 1
    _to_table(s, p, k1)
    _to_table(s, p, k2)
    s[ux(NPAIRS + p)] += 1
    if extra and s[ux(HK + p * NKINDS + STARFISH)] > 0:
        s[ux(PTS + p)] = card_points(s, p)


@kernel(forceinline=True)
def _victim(s, p, n):
    """policies.steal_target: most cards in an unrevealed hand, tie the first after p."""
    best = -1
    best_len = 0
    q = p
    for _ in range(1, n):
        q = q + 1 if q + 1 < n else 0
        if s[ux(REVEALED + q)] == 0 and s[ux(HLEN + q)] > best_len:
            best_len = s[ux(HLEN + q)]
            best = q
    return best


@kernel(forceinline=True)
def _colour_bonus(s, q):
    best = 0
    for c in range(CSTRIDE):
        best = max(best, s[ux(COL + q * CSTRIDE + c)])
    return best


@kernel(inline="always")
def _score(s, n, decl, caller):
    """engine.score_round without tracing."""
    if decl == DECL_STOP:
        s[END] = END_STOP
        for q in range(n):
            s[ux(POINTS + q)] = s[ux(PTS + q)]
        return
    best_other = 0
    for q in range(n):
        if q != caller:
            best_other = max(best_other, s[ux(PTS + q)])
    won = s[ux(PTS + caller)] >= best_other
    s[END] = END_LC_WON if won else END_LC_LOST
    for q in range(n):
        if (q == caller) == won:
            s[ux(POINTS + q)] = s[ux(PTS + q)] + (_colour_bonus(s, q) if won else 0)
        else:
            s[ux(POINTS + q)] = _colour_bonus(s, q)


@once
@kernel
def fast_round(s, nplayers, deck, starter, pk, pp, rng, tr):
    """game.new_round when `applies` and the deck has only base-game cards (pk all baseline;
    tr is not written): the same final state (through STATE_CORE) and stream. Returns END."""
    _deal(s, nplayers, deck, starter, rng)
    return continue_round(s, pp, rng, PH_TURN)


@once
@kernel
def fast_round_extra(s, nplayers, deck, starter, pk, pp, rng, tr):
    """fast_round for a deck with Extra Salt cards."""
    _deal(s, nplayers, deck, starter, rng)
    return continue_round_extra(s, pp, rng, PH_TURN)


@kernel(inline="always")
def _deal(s, nplayers, deck, starter, rng):
    """game.deal_round: the cleared state, a lazily shuffled deck, piles A and B flipped."""
    for i in range(STATE_CORE):
        s[ux(i)] = 0
    s[NPLAYERS] = nplayers
    s[DECLARER] = -1
    s[LOCK] = -1
    s[ENDER] = -1
    s[STARTER] = starter
    s[CUR] = starter
    s[SHUFFLED] = 1
    dlen = deck.shape[0]
    for i in range(dlen):
        s[ux(DECK + i)] = deck[i]
    r0, r1, r2, r3 = rng[0], rng[1], rng[2], rng[3]
    r0, r1, r2, r3, s[PILE] = _reveal(s, dlen, 0, r0, r1, r2, r3)
    r0, r1, r2, r3, s[PILE + MAX_DECK] = _reveal(s, dlen, 1, r0, r1, r2, r3)
    rng[0], rng[1], rng[2], rng[3] = r0, r1, r2, r3
    s[DECK_LEN] = dlen - 2
    s[PILE_LEN] = 1
    s[PILE_LEN + 1] = 1


@once
@kernel
def continue_round(s, pp, rng, stage):
    """The round in s, from the stage `stage` of seat CUR's turn (PH_TURN: its start, as dealt;
    or kernels.engine.act's answer: PH_DRAW, PH_PLAY or PH_END) to its end, as the general
    engine plays it when every seat is the baseline (`applies`), the deck holds base-game cards
    and is lazily shuffled (SHUFFLED): the same final state (through STATE_CORE, DEC_DONE) and
    stream. fast_round, and kernels.rollout (the search player's and advisor's rounds).
    Returns END."""
    return _resume(s, pp, rng, stage, False)


@once
@kernel
def continue_round_extra(s, pp, rng, stage):
    """continue_round for a deck with Extra Salt cards."""
    return _resume(s, pp, rng, stage, True)


@kernel(inline="always")
def _resume(s, pp, rng, stage, extra):
    """_play from the state's own turn and stage (continue_round)."""
    return _play(s, np.int64(s[NPLAYERS]), pp, rng, extra, rng[0], rng[1], rng[2], rng[3],
                 np.int64(s[CUR]), np.int64(s[DECK_LEN]), np.int64(s[PILE_LEN]),
                 np.int64(s[PILE_LEN + 1]), np.int64(s[DECL]), np.int64(s[DECLARER]),
                 np.int64(s[LOCK]), np.int64(s[TURNS]), stage)


@kernel(inline="always")
def _play(s, n, pp, rng, extra, r0, r1, r2, r3, p, dlen, na, nb, decl, caller, lock, turns,
          stage):
    """The turns of a round from seat p's turn on, entered at `stage` of that turn (PH_TURN:
    its start), with the stream (r0..r3), the deck and pile lengths, the declaration, lock and
    turn count in locals; written back at the end."""
    while True:
        stop_at = max(7.0, pp[ux(p), STOP_AT])
        lc_at = pp[ux(p), LAST_CHANCE_AT]
        h = HK + p * NKINDS
        if stage == PH_TURN:
            # A locked turn (engine.start_turn, docs/rules.md, "Pair effects"): the top deck card,
            # nothing else.
            locked = lock >= 0 and lock != p
            if locked and dlen > 0:
                r0, r1, r2, r3, t = _reveal(s, dlen, 0, r0, r1, r2, r3)
                dlen -= 1
                _receive(s, p, t, _gain(s, p, t, extra))
            draw = True
        else:                          # resumed within the turn (continue_round)
            locked = stage == PH_END   # (only the turn's end is left: as a locked turn's)
            draw = stage == PH_DRAW
            stage = PH_TURN
        # ---- draw step (engine.start_draw, policies.choose_draw / choose_keep) ----
        while not locked:
            if draw:
                draw = False
                src = -1                       # 0/1: take that pile's top; 2: the deck
                g = 0
                if na == 0 and nb == 0:
                    src = 2 if dlen > 0 else 3
                else:
                    ga = _gain(s, p, s[ux(PILE + na - 1)], extra) if na > 0 else -99
                    gb = _gain(s, p, s[ux(PILE + MAX_DECK + nb - 1)], extra) if nb > 0 else -99
                    j = 1 if gb > ga else 0
                    g = gb if gb > ga else ga
                    src = j if dlen == 0 or g >= 1 else 2
                if src < 2:
                    if src == 0:
                        na -= 1
                        t = s[ux(PILE + na)]
                    else:
                        nb -= 1
                        t = s[ux(PILE + MAX_DECK + nb)]
                    _receive(s, p, t, g)
                elif src == 2:
                    if dlen == 1:
                        r0, r1, r2, r3, t = _reveal(s, dlen, 0, r0, r1, r2, r3)
                        dlen = 0
                        _receive(s, p, t, _gain(s, p, t, extra))
                    else:
                        r0, r1, r2, r3, c1 = _reveal(s, dlen, 0, r0, r1, r2, r3)
                        r0, r1, r2, r3, c2 = _reveal(s, dlen, 1, r0, r1, r2, r3)
                        dlen -= 2
                        g1 = _gain(s, p, c1, extra)
                        g2 = _gain(s, p, c2, extra)
                        if g1 >= g2:
                            kept, other, g = c1, c2, g1
                        else:
                            kept, other, g = c2, c1, g2
                        _receive(s, p, kept, g)
                        # An empty pile (A first), else the one with fewer cards (tie A).
                        if na == 0 or (nb != 0 and nb >= na):
                            s[ux(PILE + na)] = other
                            na += 1
                        else:
                            s[ux(PILE + MAX_DECK + nb)] = other
                            nb += 1
            # ---- play step (engine.start_play / apply_play, policies.choose_action) ----
            if s[ux(AK + p * NKINDS + MERMAID)] == 4:
                break
            if s[ux(h + FISH)] >= 2 and dlen > 0:
                _play_pair(s, p, FISH, FISH, A_FISH, extra)
                r0, r1, r2, r3, t = _reveal(s, dlen, 0, r0, r1, r2, r3)
                dlen -= 1
                _receive(s, p, t, _gain(s, p, t, extra))
                continue
            if s[ux(h + CRAB)] >= 2 and na + nb > 0:
                _play_pair(s, p, CRAB, CRAB, A_CRAB, extra)
                if na > 0 and nb > 0 or na > 1 or nb > 1:
                    best_j = -1
                    best_i = -1
                    best_g = -99
                    for jj in range(2):
                        m = na if jj == 0 else nb
                        base = PILE + jj * MAX_DECK
                        for i in range(m - 1, -1, -1):
                            g = _gain(s, p, s[ux(base + i)], extra)
                            if g > best_g:
                                best_g = g
                                best_j = jj
                                best_i = i
                else:
                    best_j = 0 if na > 0 else 1
                    best_i = 0
                    best_g = _gain(s, p, s[ux(PILE + best_j * MAX_DECK)], extra)
                if na == 0 or nb == 0:
                    s[CRAB_PILE] = 0 if na > 0 else 1   # as the engine leaves it
                base = PILE + best_j * MAX_DECK
                m = na if best_j == 0 else nb
                t = s[ux(base + best_i)]
                for q in range(best_i, m - 1):
                    s[ux(base + q)] = s[ux(base + q + 1)]
                if best_j == 0:
                    na -= 1
                else:
                    nb -= 1
                _receive(s, p, t, best_g)
                continue
            if extra and s[ux(h + CRAB)] >= 1 and s[ux(h + LOBSTER)] >= 1 and dlen > 0:
                _play_pair(s, p, CRAB, LOBSTER, A_LOBSTER, extra)
                seen = min(5, dlen)
                for i in range(seen):
                    r0, r1, r2, r3, t = _reveal(s, dlen, i, r0, r1, r2, r3)
                top = DECK + dlen - 1
                best_i = 0
                best_g = -99
                for i in range(seen):       # the highest gain, tie nearest the top
                    g = _gain(s, p, s[ux(top - i)], extra)
                    if g > best_g:
                        best_g = g
                        best_i = i
                t = s[ux(top - best_i)]
                s[ux(top - best_i)] = s[ux(top)]
                s[ux(top)] = t
                dlen -= 1                   # (the rest stay: the deck is drawn lazily anyway)
                _receive(s, p, t, best_g)
                continue
            if s[ux(h + SWIMMER)] >= 1 and s[ux(h + SHARK)] >= 1:
                q = _victim(s, p, n)
                if q >= 0:
                    _play_pair(s, p, SWIMMER, SHARK, A_STEAL, extra)
                    r0, r1, r2, r3, x = xoshiro(r0, r1, r2, r3)
                    r = scale(x, s[ux(HLEN + q)])
                    base = HT + q * NTYPES
                    t = 0
                    while r >= s[ux(base + t)]:
                        r -= s[ux(base + t)]
                        t += 1
                    _lose(s, q, t)
                    s[ux(PTS + q)] -= _gain(s, q, t, extra)
                    _receive(s, p, t, _gain(s, p, t, extra))
                    continue
            if extra and s[ux(h + SWIMMER)] >= 1 and s[ux(h + JELLYFISH)] >= 1:
                _play_pair(s, p, SWIMMER, JELLYFISH, A_LOCK, extra)
                lock = p
                continue
            if decl == DECL_NONE:
                pts = s[ux(PTS + p)]
                if pts >= stop_at:
                    decl = DECL_LAST_CHANCE if pts >= lc_at else DECL_STOP
                    caller = p
                    s[DECL_POINTS] = pts
                    if decl == DECL_LAST_CHANCE:
                        s[ux(REVEALED + p)] = 1
                    break
            if s[ux(h + BOAT)] >= 2 and dlen + na + nb > 0:
                _play_pair(s, p, BOAT, BOAT, A_BOAT, extra)
                draw = True
                continue
            break
        # ---- end of turn (engine.end_turn) ----
        turns += 1
        end = 0
        if s[ux(AK + p * NKINDS + MERMAID)] == 4:
            end = END_MERMAIDS
            s[ENDER] = p
        else:
            nxt = p + 1 if p + 1 < n else 0
            if decl == DECL_STOP:
                s[ENDER] = p
                end = END_STOP
            elif decl == DECL_LAST_CHANCE:
                if p != caller:
                    s[ux(REVEALED + p)] = 1
                if nxt == caller:
                    s[ENDER] = caller
                    end = END_LC_WON
            elif dlen == 0:
                end = END_VOID
                s[ENDER] = p
        if end != 0:
            break
        if lock == nxt:
            lock = -1
        p = nxt
    rng[0], rng[1], rng[2], rng[3] = r0, r1, r2, r3
    s[CUR] = p
    s[DECK_LEN] = dlen
    s[PILE_LEN] = na
    s[PILE_LEN + 1] = nb
    s[TURNS] = turns
    s[LOCK] = lock
    s[DECL] = decl
    s[DECLARER] = caller
    s[DEC] = DEC_DONE
    if end == END_STOP or end == END_LC_WON:
        _score(s, n, decl, caller)
    else:
        s[END] = end
    return s[END]
