"""The advisor's compiled core: sample the hidden cards of a position and play every option on
the same sample (common random numbers).

A position is a *template* state holding what the asker knows (own hand and table, every table,
cards known in opponents' hands, known pile cards, with -1 in the pile slots whose card is
unknown) plus the *pool* of cards whose place is unknown. Sample i deals the pool, shuffled by
the stream (seed, i), into the opponents' unknown hand slots, then the unknown pile slots, and
leaves the rest as the deck (shuffled lazily). Each option is then played from a copy:

- STOP: everyone scores now (RULES.md §6.1);
- LAST CHANCE: the asker declares, every opponent takes a final turn, the bet resolves (§6.2);
- PLAY ON: the asker ends the turn without declaring and the round goes on until it ends.

Each is the asker's play-step action applied by the engine (kernels.engine.step), so the
advisor shares the one implementation of the rules.

With running totals and a target the rest of the game is played too. Every option of a sample
uses the same random stream for what follows the decision.
"""
import numpy as np
from numba import njit, prange

from .cards import MAX_DECK
from .actions import A_END, A_LAST_CHANCE, A_STOP
from .engine import step
from .game import GS_SIZE, play_rounds, settle_round
from .jit import kernel
from .rng import below, seed_stream_into
from .scoring import refresh_points
from .state import (DECK, DECK_LEN, END, END_LC_WON, ENDER, MAX_PLAYERS, NPLAYERS, PILE,
                    PILE_LEN, POINTS, SHUFFLED, STATE_SIZE, copy_state, gain_card)

# Options (the asker's play-step action for each) and the per-sample result columns.
STOP, LAST_CHANCE, PLAY_ON = 0, 1, 2
NOPTIONS = 3
OPTION_ACTION = np.array([A_STOP, A_LAST_CHANCE, A_END], dtype=np.int64)
C_ME, C_BEST, C_WON, C_GAME = 0, 1, 2, 3   # asker's round points, best opponent's, bet won, game won
NCOLS = 4


@kernel
def deal_sample(s, template, pool, unknown_hand, rng, order):
    """Copy `template` into `s` and deal the shuffled pool (via the scratch array `order`):
    opponents' unknown hand cards (seat order), unknown pile slots (A bottom-up, then B), the
    rest to the deck (lazily shuffled)."""
    for i in range(STATE_SIZE):
        s[i] = template[i]
    n = pool.shape[0]
    for i in range(n):
        order[i] = pool[i]
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    k = 0
    for q in range(s[NPLAYERS]):
        for _ in range(unknown_hand[q]):
            gain_card(s, q, order[k])
            k += 1
    for j in range(2):
        for i in range(s[PILE_LEN + j]):
            if s[PILE + j * MAX_DECK + i] < 0:
                s[PILE + j * MAX_DECK + i] = order[k]
                k += 1
    d = 0
    while k < n:
        s[DECK + d] = order[k]
        d += 1
        k += 1
    s[DECK_LEN] = d
    s[SHUFFLED] = 1
    refresh_points(s, s[NPLAYERS])


@kernel
def _best_other(s, me):
    best = -(1 << 30)
    for q in range(s[NPLAYERS]):
        if q != me:
            best = max(best, s[POINTS + q])
    return best


@kernel
def finish(s, me, deck, target, pk, pp, rng, totals, out, row, tot, winners, stats, tr):
    """Record the round in `s` for the asker, then (with a target > 0) play out the game from
    the running `totals` (tot, winners, stats: scratch arrays)."""
    out[row, C_ME] = s[POINTS + me]
    out[row, C_BEST] = _best_other(s, me)
    out[row, C_WON] = s[END] == END_LC_WON
    if target <= 0:
        return
    nplayers = s[NPLAYERS]
    for q in range(MAX_PLAYERS):
        tot[q] = totals[q]
        winners[q] = 0
    if settle_round(s, nplayers, target, tot, winners) == 0:
        starter = (s[ENDER] + 1) % nplayers
        play_rounds(s, nplayers, deck, target, pk, pp, rng, tr, tot, winners, stats, starter)
    out[row, C_GAME] = winners[me] == 1 and winners.sum() == 1


@njit(cache=True, parallel=True)
def evaluate(template, pool, unknown_hand, me, pk, pp, deck, target, totals, seed, first, with_play_on,
             out):
    """Samples first .. first + out.shape[0] - 1 of the position; out: int64[n, NOPTIONS, NCOLS]
    (round points of the asker and of the best opponent, bet won, game won). The template stands
    at the asker's DEC_PLAY; each option is that action applied by the engine (kernels.engine),
    the bots playing the round out. PLAY ON is played only `with_play_on` (its rows stay 0
    otherwise)."""
    for i in prange(out.shape[0]):
        rng = np.empty(4, dtype=np.uint64)
        base = np.empty(STATE_SIZE, dtype=np.int32)
        s = np.empty(STATE_SIZE, dtype=np.int32)
        tr = np.zeros((0, 5), dtype=np.int32)
        order = np.empty(pool.shape[0], dtype=np.int64)
        tot = np.empty(MAX_PLAYERS, dtype=np.int64)
        winners = np.empty(MAX_PLAYERS, dtype=np.int64)
        stats = np.zeros(GS_SIZE, dtype=np.int64)
        res = out[i]
        seed_stream_into(rng, seed, first + i)
        deal_sample(base, template, pool, unknown_hand, rng, order)
        after = rng.copy()           # the same continuation stream for every option
        for option in range(NOPTIONS):
            if option == PLAY_ON and not with_play_on:
                continue
            copy_state(s, base)
            rng[:] = after
            step(s, OPTION_ACTION[option], pk, pp, rng, tr)    # bots play the round out
            finish(s, me, deck, target, pk, pp, rng, totals, res, option, tot, winners, stats, tr)
