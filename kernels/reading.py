"""Hand reading: how likely an opponent model makes the public choices a seat saw, given a deal
of the cards that seat cannot see (issue 25). The search player (kernels.search, `read=1`) and
the advisor (analyzer.play.reading) weight their deals by it.

**What is read.** For each opponent q whose hand is hidden, the choices of q's *last turn*
(the most recent TURN event of q in the round's trace), judged on a *view*: the deal with the
piles and the deck count wound back (rewind) to the moment of the choice and q's hand and
table as they were then:

- END: q's last turn ended without a declaration (the model's play-step chooser was asked at
  the end of that turn and ended it: no pair played, no STOP, no LAST CHANCE). q's hand then
  is q's hand in the deal now. "Took the swimmer and played no pair: holds no shark"; "a
  visible 9-point table and no declaration: holds little".
- TAKE: q's last turn began by taking the top card X of pile j (instead of the deck or the
  other pile). q's hand then is the deal's hand now plus the pairs q played after the take in
  that turn (public), minus X.
- DRAW: q's last turn began with a deck draw, and it put card Y down on pile j. Which card it
  kept is hidden, so the deal fits if *some* card t of q's hand then (the deal's hand now plus
  the pairs played after, a card known to o included) could have been it: holding the rest,
  the model draws from the deck rather than take a pile top, and of t and Y (either drawn
  first) keeps t and puts Y on pile j. "Passed a shark on the pile: holds at most one
  swimmer" (with two, whichever it kept, it held one when the shark was there to pair it). A
  filter over the hidden kept card (some explanation exists), not a sum over it.

An observation is not read (it is left out, every deal alike) when the seat cannot rebuild
that moment from public facts: a locked turn; q's hand changed out of sight since (a steal from
q; for TAKE also any hidden gain later in that turn: a kept deck card, a fish, a crab search, a
lobster, a steal by q, a second draw); a crab search of any pile since (the pile's top then is
not known); q declared in that turn (for END). Earlier turns are not read: q's hand then
depends on hidden cards it has gained since, which a deal of the present does not name.
What others did since the choice (their hands, tables, declarations made after it) is taken as
it is now: the view is exact in q's hand and table, the piles' tops and the deck count, and
approximate in what other seats hold.

**The likelihood** of a deal is TREMBLE ** m, where m is the number of read observations the
model would not have made on it (its chooser, kernels.policies.bot_action, asked on the view):
a model that never errs gives 0 or 1 (a consistency filter); the tremble (a documented
parameter, default 0.05) keeps every deal possible so that deals are never all rejected, and a
tremble of 1 makes every deal weigh the same (uniform deals). Only deterministic models are
read (baseline and threshold, kernels.policies.greedy); any other model gives m = 0.

The observations are found once per decision (observe) and each deal is scored with
`mismatches`, which never reads a hidden field of the trace (the card kept from a deck draw,
a crab search's card, a stolen card): only public facts.
"""
import numpy as np

from .jit import kernel

from . import events as ev
from .actions import A_END, DEC_DRAW, DEC_KEEP, DEC_PLAY, SRC_DECK, SRC_PILE_A
from .cards import MAX_DECK, NKINDS, NTYPES
from .policies import bot_action, greedy
from .scoring import card_points
from .state import (CUR, DEC, DECK, DECK_LEN, DECL, DECL_NONE, HK, HLEN, HT, KIND_OF, LOCK,
                    MAX_PLAYERS, NPAIRS, NPLAYERS, PILE, PILE_LEN, PTS, REVEALED, TT, copy_state,
                    gain_card, lose_card)

# An observation row per opponent seat q: obs[q * OBS_WIDTH + O_*] (int64[OBS_SIZE]).
O_END = 0         # 1: read the end of q's last turn
O_TAKE = 1        # 1: read the pile take that began it; 2: its deck draw and discard
O_TURN = 2        # trace row of q's last TURN event
O_STOP = 3        # first trace row after that turn (the next TURN, or past the last row)
O_TAKE_ROW = 4    # trace row of the TAKE_PILE (or KEEP) event
O_DECL = 5        # the round's declaration (DECL_*) during that turn
O_PILE = 6        # the pile taken from (put down on)
O_CARD = 7        # the card taken (put down)
OBS_WIDTH = 8
OBS_SIZE = MAX_PLAYERS * OBS_WIDTH
MAX_MISMATCHES = 2 * MAX_PLAYERS     # at most two observations per opponent

DEFAULT_TREMBLE = 0.05


@kernel
def observe(s, tr, o, obs):
    """Fill obs (module doc) with what seat o can read of each opponent's last turn in the
    trace `tr` of the round in s; returns the number of observations read."""
    n = s[NPLAYERS]
    last = min(tr[0, 0], tr.shape[0] - 1)
    for i in range(MAX_PLAYERS * OBS_WIDTH):
        obs[i] = 0
    first = 1        # the round's first row: after its deal (a replay's trace holds the game)
    for r in range(last, 0, -1):
        if tr[r, 0] == ev.DEAL:
            first = r + 1
            break
    total = 0
    for q in range(n):
        if q == o or s[REVEALED + q] != 0:
            continue
        t0 = -1
        for r in range(last, first - 1, -1):
            if tr[r, 0] == ev.TURN and tr[r, 1] == q:
                t0 = r
                break
        if t0 < 0 or tr[t0, 2] != 0:            # no turn yet, or a locked one
            continue
        stop = last + 1
        for r in range(t0 + 1, last + 1):
            if tr[r, 0] == ev.TURN:
                stop = r
                break
        decl = DECL_NONE
        for r in range(first, t0):
            if tr[r, 0] == ev.DECLARE:
                decl = tr[r, 2]
        declared = False
        first_draw = -1
        hidden_after = False
        for r in range(t0 + 1, stop):
            code = tr[r, 0]
            if tr[r, 1] != q:
                continue
            if code == ev.DECLARE:
                declared = True
            draw = (code == ev.KEEP or code == ev.TAKE_PILE or code == ev.TAKE_NOTHING
                    or code == ev.LOCKED_DRAW)
            if draw and first_draw < 0:
                first_draw = r
            elif draw:
                hidden_after = True
            elif code == ev.FISH_DRAW or code == ev.CRAB_TAKE or code == ev.LOBSTER_KEEP:
                hidden_after = hidden_after or tr[r, 2] >= 0
            elif code == ev.STEAL:
                hidden_after = hidden_after or tr[r, 2] >= 0
        changed = False                          # q's hand changed out of sight since its turn
        crab_since = False
        for r in range(t0 + 1, last + 1):
            if tr[r, 0] == ev.STEAL and tr[r, 2] == q and tr[r, 1] != q:
                changed = changed or r >= stop
            if tr[r, 0] == ev.CRAB_TAKE and tr[r, 2] >= 0:
                crab_since = True
        if changed:
            continue
        obs[q * OBS_WIDTH + O_TURN] = t0
        obs[q * OBS_WIDTH + O_STOP] = stop
        obs[q * OBS_WIDTH + O_DECL] = decl
        if not declared and not _crab_after(tr, stop, last):
            obs[q * OBS_WIDTH + O_END] = 1
            total += 1
        if (first_draw >= 0 and tr[first_draw, 0] == ev.TAKE_PILE and not hidden_after
                and not crab_since):
            obs[q * OBS_WIDTH + O_TAKE] = 1
            obs[q * OBS_WIDTH + O_TAKE_ROW] = first_draw
            obs[q * OBS_WIDTH + O_PILE] = tr[first_draw, 3]
            obs[q * OBS_WIDTH + O_CARD] = tr[first_draw, 2]
            total += 1
        elif (first_draw >= 0 and tr[first_draw, 0] == ev.KEEP and tr[first_draw, 3] >= 0
              and first_draw + 1 < stop and tr[first_draw + 1, 0] == ev.DISCARD
              and not hidden_after and not crab_since):
            obs[q * OBS_WIDTH + O_TAKE] = 2          # a deck draw: only the discard is public
            obs[q * OBS_WIDTH + O_TAKE_ROW] = first_draw
            obs[q * OBS_WIDTH + O_PILE] = tr[first_draw + 1, 3]
            obs[q * OBS_WIDTH + O_CARD] = tr[first_draw, 3]
            total += 1
    return total


@kernel
def _crab_after(tr, first, last):
    """A crab search took a card in trace rows first .. last."""
    for r in range(first, last + 1):
        if tr[r, 0] == ev.CRAB_TAKE and tr[r, 2] >= 0:
            return True
    return False


@kernel
def rewind(v, tr, first, last):
    """Wind the piles and the deck count of v back to before trace row `first` (undo rows
    last .. first: discards come off, pile takes go back, deck draws go back as a count).
    The caller has made sure no crab search took a card in those rows."""
    for r in range(last, first - 1, -1):
        code = tr[r, 0]
        if code == ev.DISCARD:
            v[PILE_LEN + tr[r, 3]] -= 1
        elif code == ev.TAKE_PILE:
            j = tr[r, 3]
            v[PILE + j * MAX_DECK + v[PILE_LEN + j]] = tr[r, 2]
            v[PILE_LEN + j] += 1
        elif code == ev.KEEP:
            v[DECK_LEN] += 2 if tr[r, 3] >= 0 else 1
        elif code == ev.FISH_DRAW or code == ev.LOCKED_DRAW or code == ev.LOBSTER_KEEP:
            if tr[r, 2] >= 0:
                v[DECK_LEN] += 1


@kernel
def mismatches(d, o, tr, obs, pk, pp, v, rng):
    """How many of the observations in obs (observe) the model pk/pp would not have made with
    the deal d's hidden cards (module doc). v: a scratch state; rng: scratch stream (the models
    read are deterministic and draw nothing)."""
    n = d[NPLAYERS]
    last = min(tr[0, 0], tr.shape[0] - 1)
    m = 0
    for q in range(n):
        if q == o or not greedy(pk, q):
            continue
        if obs[q * OBS_WIDTH + O_END] != 0:
            copy_state(v, d)
            rewind(v, tr, obs[q * OBS_WIDTH + O_STOP], last)
            _set_view(v, q, DEC_PLAY, obs[q * OBS_WIDTH + O_DECL])
            if bot_action(v, pk, pp, rng) != A_END:
                m += 1
        if obs[q * OBS_WIDTH + O_TAKE] == 2:
            m += 1 - _deck_draw_fits(d, q, tr, obs, pk, pp, v, rng, last)
        if obs[q * OBS_WIDTH + O_TAKE] == 1:
            copy_state(v, d)
            rewind(v, tr, obs[q * OBS_WIDTH + O_TAKE_ROW] + 1, last)
            for r in range(obs[q * OBS_WIDTH + O_TAKE_ROW] + 1, obs[q * OBS_WIDTH + O_STOP]):
                code = tr[r, 0]
                if tr[r, 1] == q and (code == ev.PAIR or code == ev.TRIO):
                    _unplay(v, q, tr[r, 2])
                    _unplay(v, q, tr[r, 3])
                    if code == ev.TRIO:
                        _unplay(v, q, tr[r, 4])
                    v[NPAIRS + q] -= 1
            j = obs[q * OBS_WIDTH + O_PILE]
            t = obs[q * OBS_WIDTH + O_CARD]
            if v[HT + q * NTYPES + t] <= 0:     # cannot happen in a consistent deal
                m += 1
                continue
            lose_card(v, q, t)
            v[PILE + j * MAX_DECK + v[PILE_LEN + j]] = t
            v[PILE_LEN + j] += 1
            _set_view(v, q, DEC_DRAW, obs[q * OBS_WIDTH + O_DECL])
            if bot_action(v, pk, pp, rng) != SRC_PILE_A + j:
                m += 1
    return m


@kernel
def _deck_draw_fits(d, q, tr, obs, pk, pp, v, rng, last):
    """1 if some card t of q's hand in the deal (or of the pairs it played later in that turn)
    could have been the card it kept from its deck draw: holding the rest, the model draws
    from the deck rather than take a pile top, and of the two cards (t and the card it put
    down, in either order) keeps t and puts the other on the pile it did; else 0."""
    row = obs[q * OBS_WIDTH + O_TAKE_ROW]
    y = obs[q * OBS_WIDTH + O_CARD]
    j = obs[q * OBS_WIDTH + O_PILE]
    copy_state(v, d)
    rewind(v, tr, row, last)
    for r in range(row + 1, obs[q * OBS_WIDTH + O_STOP]):
        code = tr[r, 0]
        if tr[r, 1] == q and (code == ev.PAIR or code == ev.TRIO):
            _unplay(v, q, tr[r, 2])
            _unplay(v, q, tr[r, 3])
            if code == ev.TRIO:
                _unplay(v, q, tr[r, 4])
            v[NPAIRS + q] -= 1
    _set_view(v, q, DEC_DRAW, obs[q * OBS_WIDTH + O_DECL])
    n = v[DECK_LEN]
    if n < 2:
        return 1
    for t in range(NTYPES):
        if v[HT + q * NTYPES + t] <= 0:
            continue
        lose_card(v, q, t)
        v[PTS + q] = card_points(v, q)
        v[DEC] = DEC_DRAW
        fits = bot_action(v, pk, pp, rng) == SRC_DECK
        if fits:
            v[DEC] = DEC_KEEP
            fits = False
            for order in range(2):
                v[DECK + n - 1] = t if order == 0 else y
                v[DECK + n - 2] = y if order == 0 else t
                a = bot_action(v, pk, pp, rng)
                fits = fits or ((a & 1) == order and (a >> 1) == j)
        gain_card(v, q, t)
        v[PTS + q] = card_points(v, q)
        if fits:
            return 1
    return 0


@kernel(forceinline=True)
def _unplay(v, p, t):
    """A card p played to its table goes back to its hand (kernels.state.to_table undone)."""
    v[TT + p * NTYPES + t] -= 1
    v[HT + p * NTYPES + t] += 1
    v[HK + p * NKINDS + KIND_OF[t]] += 1
    v[HLEN + p] += 1


@kernel(forceinline=True)
def _set_view(v, q, dec, decl):
    """v is q's decision point `dec` with the round's declaration `decl`, unlocked."""
    v[CUR] = q
    v[DEC] = dec
    v[DECL] = decl
    v[LOCK] = -1
    for p in range(v[NPLAYERS]):
        v[PTS + p] = card_points(v, p)


def weight(m: int, tremble: float) -> float:
    """The likelihood of a deal with m mismatches (module doc)."""
    return float(tremble) ** int(m)


def new_obs() -> np.ndarray:
    return np.zeros(OBS_SIZE, dtype=np.int64)
