"""The advisor's compiled core: every action of the asker's decision played on the same sampled
deals (common random numbers), each continued by the players' models, summed into fixed-size
integer counters.

A position (analyzer.play.position, or a seat's view in analyzer.play.review) is a *marked*
state at the asker's decision point (kernels.deals: what the asker cannot place is blank), the
pool of cards whose place the asker does not know, the unknown-card count of each hand, and the
crab takes:
rows (seat, pile, among) saying that `seat` took one of the bottom `among` cards of `pile` as
the asker remembers it (the marked pile holds the remembered cards, taken ones included).

Deal i is drawn on the stream (seed, i): the pool dealt into the blanks (kernels.deals), then each
crab take picks one of its remaining candidates uniformly (pile A's takes first, each pile's in
order). A deal in which someone holds all four mermaids is impossible (docs/rules.md, "A turn", edge
case 10: that player has won already) and is drawn again from the same stream: rejection, so the
deals are exactly uniform over the possible ones. Each action is then applied to a copy of the deal
by the engine (kernels.engine.step), every copy continuing on the same stream, and the bots play the
round out (the asker's later decisions by its own model). The game is then played out to the target
from the running totals (kernels.game: the rounds after this one are fresh deals, so they depend on
the action only through the totals and the next round's starter): the k-th later round of sample i
from starting seat q is played once, on its own stream (future_stream), and settles every action
whose game is at its k-th later round with q to start. Each action's game is exactly the game the
bots would play (each round a fresh deal on a stream of its own); actions share their later rounds
as long as their starters agree (common random numbers), which costs little more than one game per
sample instead of one per action.

Counters (int64, summed in any order: the same totals for any thread count): per action the
sums of COUNTERS, per pair of actions the sums of squared differences of CROSS (paired
intervals), and the raw deals drawn.
"""
import numpy as np
from .jit import kernel, njit, once

from .cards import MAX_DECK, MERMAID, NKINDS, NTYPES
from .deals import fill_unknown
from .game import settle_round
from .rng import below, seed_stream_into, splitmix64
from .rollout import fast_seats, next_round, play_on
from .scoring import refresh_points
from .statistics import Layout, Stat
from .state import (AK, END, END_LC_WON, END_MERMAIDS, ENDER, MAX_PLAYERS, NPLAYERS, PILE,
                    PILE_LEN, POINTS, STATE_SIZE, copy_state, gain_card)

# Per-action counters over the sampled deals, declared as the statistics catalogue declares its
# own (kernels.statistics): the asker's round points, the best opponent's and the margin (sums
# and squares), LAST CHANCE bets won, games won outright, rounds ended by the asker's four
# mermaids and by an opponent's.
ADVISOR_STATS = Layout("advisor", (
    Stat("points", "mean", "the asker's round points", unit="points"),
    Stat("best_opponent_points", "mean", "the best opponent's round points", unit="points"),
    Stat("margin", "mean", "the asker's round points minus the best opponent's", unit="points"),
    Stat("win_bet", "rate", "LAST CHANCE bets won (the asker's call)"),
    Stat("win_game", "rate", "games won outright, the later rounds played on"),
    Stat("four_mermaids_you", "rate", "rounds the asker ended with four mermaids"),
    Stat("four_mermaids_opponent", "rate", "rounds an opponent ended with four mermaids"),
))
# Between every two actions (X_*): sums of the squared per-deal differences of these, so their
# paired differences get intervals.
ADVISOR_PAIRED = ("margin", "win_game", "four_mermaids_you")
_A = ADVISOR_STATS.at
N_ME, N_ME2, N_BEST, N_BEST2 = (_A("points"), _A("points", "sq"), _A("best_opponent_points"),
                                _A("best_opponent_points", "sq"))
N_MARGIN, N_MARGIN2, N_BET, N_GAME = _A("margin"), _A("margin", "sq"), _A("win_bet"), _A("win_game")
N_MERMAID_WIN, N_MERMAID_LOSS = _A("four_mermaids_you"), _A("four_mermaids_opponent")
NCOUNTERS = ADVISOR_STATS.size
X_MARGIN, X_GAME, X_MERMAID = (ADVISOR_PAIRED.index(n)
                               for n in ("margin", "win_game", "four_mermaids_you"))
NCROSS = len(ADVISOR_PAIRED)
# The later rounds' streams (future_stream): from seed ^ FUTURE, apart from the deals'.
FUTURE = np.uint64(0x5EA5A17F07E5EED5)
MAX_TRIES = 1 << 20       # raw deals per sample before giving up (analyzer.play.position checks)

# Workspace of a deal (int64): the pool, each hand's unknown count, crab-take flags.
W_POOL = 0
W_UNK = W_POOL + MAX_DECK
W_TAKEN = W_UNK + MAX_PLAYERS
W_SIZE = W_TAKEN + MAX_DECK


@kernel
def crab_takes(d, takes, rng, w):
    """Apply the crab takes (module doc) to the filled deal d: each take moves one of its
    candidates, uniformly, from the pile into the taker's hand; the rest keep their order."""
    for j in range(2):
        mine = False
        for r in range(takes.shape[0]):
            mine = mine or takes[r, 1] == j
        if not mine:
            continue
        base = PILE + j * MAX_DECK
        n = d[PILE_LEN + j]
        for i in range(n):
            w[W_TAKEN + i] = 0
        for r in range(takes.shape[0]):
            if takes[r, 1] != j:
                continue
            among = min(takes[r, 2], n)
            left = 0
            for i in range(among):
                left += w[W_TAKEN + i] == 0
            pick = below(rng, max(left, 1))
            for i in range(among):
                if w[W_TAKEN + i] == 0:
                    if pick == 0:
                        w[W_TAKEN + i] = 1
                        gain_card(d, takes[r, 0], d[base + i])
                        break
                    pick -= 1
        k = 0
        for i in range(n):
            if w[W_TAKEN + i] == 0:
                d[base + k] = d[base + i]
                k += 1
        d[PILE_LEN + j] = k
    refresh_points(d, d[NPLAYERS])


@kernel(forceinline=True)
def possible(d):
    """Nobody holds all four mermaids (who does has already won: docs/rules.md, "A turn", edge case
    10)."""
    for q in range(d[NPLAYERS]):
        if d[AK + q * NKINDS + MERMAID] == 4:
            return False
    return True


@kernel
def deal_position(d, template, pool, unknown_hand, takes, w, rng):
    """d = a deal of the position (module doc), uniform over the possible deals. Returns the
    raw deals drawn (1 + those rejected), or -1 if none of MAX_TRIES was possible."""
    m = pool.shape[0]
    for tries in range(1, MAX_TRIES + 1):
        copy_state(d, template)
        for i in range(m):
            w[W_POOL + i] = pool[i]
        for q in range(MAX_PLAYERS):
            w[W_UNK + q] = unknown_hand[q]
        fill_unknown(d, w, W_POOL, m, W_UNK, rng)
        if takes.shape[0] > 0:
            crab_takes(d, takes, rng, w)
        if possible(d):
            return tries
    return -1


@kernel
def _best_other(s, me):
    best = -(1 << 30)
    for q in range(s[NPLAYERS]):
        if q != me:
            best = max(best, s[POINTS + q])
    return best


@kernel(inline="always")
def outcome(s, me, v):
    """v[:3], v[4] = what the finished round in s means for the asker: round points, the best
    opponent's, LAST CHANCE bet won, four-mermaid outcome +1/-1/0 (v[3], the game, is set by
    play_out)."""
    v[0] = s[POINTS + me]
    v[1] = _best_other(s, me)
    v[2] = s[END] == END_LC_WON
    v[3] = 0
    v[4] = 0
    if s[END] == END_MERMAIDS:
        v[4] = 1 if s[ENDER] == me else -1


@kernel
def future_stream(rng, seed, i, k, q):
    """rng = the stream of the k-th later round of sample i with seat q to start (module doc)."""
    _x, h = splitmix64(seed ^ FUTURE)
    _x, h = splitmix64(h ^ np.uint64(i))
    seed_stream_into(rng, h, k * MAX_PLAYERS + q)


@kernel(inline="always")
def play_out(s, nplayers, deck, target, pk, pp, rng, tr, tot, winners, over, starter, cur, seed,
             i, fast, extra):
    """Play on the games of the actions that go on (over[a] == 0; totals tot[a], next round's
    starter starter[a]) to their ends, setting winners[a]: round by round, one fresh round per
    starting seat that some action's game needs (module doc). cur: scratch (int64[actions]);
    fast, extra: kernels.rollout.fast_seats."""
    na = over.shape[0]
    k = 0
    while True:
        live = 0
        for a in range(na):
            cur[a] = starter[a] if over[a] == 0 else -1
            live += over[a] == 0
        if live == 0:
            return
        for q in range(nplayers):
            needed = False
            for a in range(na):
                needed = needed or cur[a] == q
            if not needed:
                continue
            future_stream(rng, seed, i, k, q)
            next_round(s, nplayers, deck, q, pk, pp, rng, tr, fast, extra)
            nxt = (s[ENDER] + 1) % nplayers
            for a in range(na):
                if cur[a] == q:
                    if settle_round(s, nplayers, target, tot[a], winners[a]) != 0:
                        over[a] = 1
                    else:
                        starter[a] = nxt
        k += 1


@once
@njit(cache=True, nogil=True)
def evaluate(template, pool, unknown_hand, takes, me, actions, pk, pp, deck, target, totals,
             seed, first, n, counts, cross, raw):
    """Samples first .. first + n - 1 of the position (module doc), cut into counts.shape[0] blocks,
    each summing into its own rows (on the calling thread without the GIL: analyzer.runs.backends
    runs several calls at once): counts int64[blocks, actions, NCOUNTERS], cross int64[blocks,
    actions, actions, NCROSS] (pairs a < b), raw int64[blocks, 2] (raw deals drawn, samples that
    found no possible deal in MAX_TRIES). The bots of pk/pp play every seat after the asker's action
    (kernels.rollout.play_on runs the round to its end)."""
    blocks = counts.shape[0]
    na = actions.shape[0]
    nplayers = template[NPLAYERS]
    copies = np.zeros(NTYPES, dtype=np.int64)
    for t in deck:
        copies[t] += 1
    fast, extra = fast_seats(nplayers, pk, copies)
    for b in range(blocks):
        rng = np.empty(4, dtype=np.uint64)
        after = np.empty(4, dtype=np.uint64)
        base = np.empty(STATE_SIZE, dtype=np.int32)
        s = np.empty(STATE_SIZE, dtype=np.int32)
        w = np.zeros(W_SIZE, dtype=np.int64)
        tr = np.zeros((0, 5), dtype=np.int32)
        tot = np.empty((na, MAX_PLAYERS), dtype=np.int64)
        winners = np.empty((na, MAX_PLAYERS), dtype=np.int64)
        over = np.empty(na, dtype=np.int64)
        starter = np.empty(na, dtype=np.int64)
        cur = np.empty(na, dtype=np.int64)
        v = np.zeros((na, 5), dtype=np.int64)
        c = counts[b]
        x = cross[b]
        for i in range(first + (n * b) // blocks, first + (n * (b + 1)) // blocks):
            seed_stream_into(rng, seed, i)
            tries = deal_position(base, template, pool, unknown_hand, takes, w, rng)
            if tries < 0:
                raw[b, 1] += 1
                continue
            raw[b, 0] += tries
            after[:] = rng               # the same continuation stream for every action
            for a in range(na):
                copy_state(s, base)
                rng[:] = after
                play_on(s, actions[a], pk, pp, rng, tr, fast, extra)
                outcome(s, me, v[a])
                over[a] = 1
                if target > 0:
                    for q in range(MAX_PLAYERS):
                        tot[a, q] = totals[q]
                        winners[a, q] = 0
                    over[a] = settle_round(s, nplayers, target, tot[a], winners[a])
                    starter[a] = (s[ENDER] + 1) % nplayers
            if target > 0:
                play_out(s, nplayers, deck, target, pk, pp, rng, tr, tot, winners, over, starter,
                         cur, seed, i, fast, extra)
            for a in range(na):
                if target > 0:
                    v[a, 3] = winners[a, me] == 1 and winners[a].sum() == 1
                margin = v[a, 0] - v[a, 1]
                c[a, N_ME] += v[a, 0]
                c[a, N_ME2] += v[a, 0] * v[a, 0]
                c[a, N_BEST] += v[a, 1]
                c[a, N_BEST2] += v[a, 1] * v[a, 1]
                c[a, N_MARGIN] += margin
                c[a, N_MARGIN2] += margin * margin
                c[a, N_BET] += v[a, 2]
                c[a, N_GAME] += v[a, 3]
                c[a, N_MERMAID_WIN] += v[a, 4] == 1
                c[a, N_MERMAID_LOSS] += v[a, 4] == -1
            for a in range(na):
                for e in range(a + 1, na):
                    dm = (v[a, 0] - v[a, 1]) - (v[e, 0] - v[e, 1])
                    dg = v[a, 3] - v[e, 3]
                    du = (v[a, 4] == 1) - (v[e, 4] == 1)
                    x[a, e, X_MARGIN] += dm * dm
                    x[a, e, X_GAME] += dg * dg
                    x[a, e, X_MERMAID] += du * du
