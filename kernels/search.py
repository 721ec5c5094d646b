"""The search player: at each of its decisions, sampled deals of what its seat cannot see, every
legal action tried on each, rolled out, and valued by the chance of winning the game.

Method (determinized rollouts with common random numbers and a game-level value):

1. **What the seat knows** (docs/rules.md, "Hidden information") is kept in a knowledge array
   K, updated from the round's event trace (kernels.events) with each event's visibility: its own hand, every
   public action (tables, discards, pile takes, pairs, who was stolen from), the cards it saw
   an opponent take from a pile top, the card taken when it stole or was stolen from, the
   piles' contents as laid down (perfect memory) and the deck cards it drew or revealed.
   Kept as: known cards in each opponent's hand (a lower bound of that hand), and per pile the
   depth below which it no longer knows the order and contents (after an opponent's crab
   search: the taken card is unknown, so the pile's cards below its visible top are forgotten;
   the seat's own crab search shows it the whole pile again). A steal between two opponents
   makes the victim's known cards unknown.
2. **A deal** (`determinize`): the true state with every card the seat cannot place - the
   unknown part of each hidden hand, the forgotten pile slots, the deck below what it has just
   seen - blanked (`mark_known`) and refilled with a uniformly shuffled deal of exactly the
   cards it cannot place (kernels.deals, the sampler the advisor uses too). Nothing of the true
   deck or hands is read. With `read` (S_READ) the deals are resampled from READ_CANDIDATES
   as many candidates weighted by how likely the opponents' rollout model makes the choices
   seen in the round so far (kernels.reading; read_deals).
3. **Every action on the same deals**: each candidate (legal_actions without copies) is
   applied to a copy of each deal and the round is played out by the rollout players (the
   seat's own rollout policy, the opponent model for the others), all from one random stream
   per deal (common random numbers).
4. **Value = P(win the game)**: the round's points are added to the running totals; if the
   game is not over, `continuations` rest-of-game runs sample whole rounds from a table of
   rounds played by the same rollout players (built once per block, per starting seat), until
   a total reaches the target (ties by the final round's points, shared wins split).
5. The best mean value wins; at small budgets the rollout policy's own choice is kept unless
   another action beats it by `confidence` standard errors of the paired difference.

Search seats are *external* to the engine (kernels.policies.SEARCH): it stops at their decision
points and `play_round_search` asks `choose` here.
"""
import numpy as np
from numba import uint64

from .actions import DEC_CRAB_CARD, DEC_DONE, DEC_KEEP, DEC_LOBSTER
from .cards import MAX_DECK, NTYPES
from .deals import UNSEEN, fill_unknown, pool_from_counts
from . import events as ev
from .engine import play_round, step
from .game import deal, deal_round, record_round, settle_round
from .jit import kernel, once, ux
from .legal import current, legal_actions, lobster_seen, named_card
from .policies import SEARCH, bot_action
# A search seat's parameter slots (kernels.policy_slots; analyzer.rules.policies names them).
from .policy_slots import (S_CONFIDENCE, S_CONTINUATIONS, S_MODEL_EXPERT,  # noqa: F401
                           S_MODEL_LC_AT, S_MODEL_STOP_AT, S_READ, S_ROLLOUT_EXPERT,
                           S_ROLLOUT_LC_AT, S_ROLLOUT_STOP_AT, S_SAMPLES, S_TREMBLE)
from .reading import OBS_SIZE, STACK_SIZE, cost_weight, mismatches, observe
from .rollout import fast_seats, play_on
from .rng import next_u64, scale, seed_stream_into, splitmix64, xoshiro
from .state import (CRAB_PILE, DEC, DECK, DECK_LEN, END, END_MERMAIDS, ENDER, HLEN, HT, LEGAL,
                    MAX_PLAYERS, NPLAYERS, PILE, PILE_LEN, POINTS, REVEALED, STATE_CORE,
                    STATE_SIZE, TT, copy_state, gain_card, lose_card)


# Knowledge of one seat: known cards per opponent hand, forgotten depth and length per pile,
# the next trace row to read.
K_HAND = 0
K_DEPTH = K_HAND + MAX_PLAYERS * NTYPES
K_PLEN = K_DEPTH + 2
K_CURSOR = K_PLEN + 2
K_SIZE = K_CURSOR + 1

# Rounds table for the rest of a game: per starter, rows of (points per seat, ender, seat that
# won on four mermaids or -1).
TABLE_ROUNDS = 512
T_ENDER = MAX_PLAYERS
T_MERMAIDS = MAX_PLAYERS + 1
T_WIDTH = MAX_PLAYERS + 2

# Decision log rows (replay): the trace's event count at the decision, decision kind, action,
# mean value, its standard error, deals, chosen, the rollout policy's own choice, the card the
# action names (-1 none), the seat, the effective sample size of the read deals (-1: not read).
LOG_WIDTH = 11

# Workspace: int64 part (candidate actions, pool, counts, totals, unknown cards per hand, and
# the marked state and pool of a decision, kept for its deals) and float part (sums).
W_ACTS = 0
W_POOL = W_ACTS + 512
W_COUNTS = W_POOL + MAX_DECK
W_TOT = W_COUNTS + NTYPES
W_UNK = W_TOT + MAX_PLAYERS
W_POOL0 = W_UNK + MAX_PLAYERS
W_MARKED = W_POOL0 + MAX_DECK
W_OBS = W_MARKED + STATE_CORE          # hand reading: the observations (kernels.reading) and
W_NCAND = W_OBS + OBS_SIZE             # the candidate deals' count and seeds; F_WEIGHT their
W_SEEDS = W_NCAND + 1                  # cumulative weights
READ_CANDIDATES = 2                    # candidate deals per deal searched, when reading
MAX_CANDIDATES = 4096
W_STACK = W_SEEDS + MAX_CANDIDATES      # hand reading's search over explanations
W_INT = W_STACK + STACK_SIZE
F_SUM, F_SUMSQ, F_DIFF, F_DIFFSQ = 0, 512, 1024, 1536
F_WEIGHT = 2048
W_FLOAT = F_WEIGHT + MAX_CANDIDATES


# ---------------------------------------------------------------------------------------------
# Knowledge

@kernel
def reset_knowledge(k, s, tr):
    """Start of a round: nothing known beyond the public state; the trace is read from here."""
    for i in range(K_SIZE):
        k[i] = 0
    k[K_PLEN] = s[PILE_LEN]
    k[K_PLEN + 1] = s[PILE_LEN + 1]
    k[K_CURSOR] = tr[0, 0] + 1


@kernel(inline="always")
def _forget_below_top(k, j):
    """After a pile shrinks: slots at or above its new top are seen (the top is visible)."""
    k[K_DEPTH + j] = min(k[K_DEPTH + j], max(k[K_PLEN + j] - 1, 0))


@kernel(inline="always")
def _played_known(k, p, t):
    """Seat p played a card of type t: if o knew one in p's hand, that one is gone."""
    if k[K_HAND + p * NTYPES + t] > 0:
        k[K_HAND + p * NTYPES + t] -= 1


@kernel
def update_knowledge(k, o, tr):
    """Read the trace rows not yet seen by seat o and keep what o may know of them (module doc)."""
    n = min(tr[0, 0], tr.shape[0] - 1)
    for r in range(k[K_CURSOR], n + 1):
        code = tr[r, 0]
        p = tr[r, 1]
        a = tr[r, 2]
        b = tr[r, 3]
        c = tr[r, 4]
        if code == ev.DISCARD:
            k[K_PLEN + b] += 1
        elif code == ev.TAKE_PILE:
            k[K_PLEN + b] -= 1
            _forget_below_top(k, b)
            if p != o:
                k[K_HAND + p * NTYPES + a] += 1
        elif code == ev.PAIR or code == ev.TRIO:
            if p != o:
                _played_known(k, p, a)
                _played_known(k, p, b)
                if code == ev.TRIO:
                    _played_known(k, p, c)
        elif code == ev.CRAB_TAKE:
            if a >= 0:
                k[K_PLEN + b] -= 1
                if p == o:
                    _forget_below_top(k, b)
                else:
                    k[K_DEPTH + b] = max(k[K_PLEN + b] - 1, 0)
        elif code == ev.STEAL:
            if a >= 0:
                if p == o:
                    if k[K_HAND + a * NTYPES + b] > 0:
                        k[K_HAND + a * NTYPES + b] -= 1
                elif a == o:
                    k[K_HAND + p * NTYPES + b] += 1
                else:
                    for t in range(NTYPES):
                        k[K_HAND + a * NTYPES + t] = 0
    k[K_CURSOR] = n + 1


@kernel(inline="always")
def known_top(s):
    """Deck cards on top that the current player has just seen: the two drawn, or the lobster's."""
    if s[DEC] == DEC_KEEP:
        return 2
    if s[DEC] == DEC_LOBSTER:
        return lobster_seen(s)
    return 0


@kernel
def mark_known(d, s, k, o, full, w):
    """d = s with everything seat o cannot place blanked (kernels.deals: each hidden hand cut to
    the cards o knows in it, the forgotten pile slots, the deck below what o has just seen),
    the cards o cannot place at w[W_POOL:] in type order and each hand's unknown count at
    w[W_UNK:]. `full` (int64[NTYPES]) holds the round's copies of each card type. Returns the
    number of cards o cannot place."""
    copy_state(d, s)
    n = s[NPLAYERS]
    counts = W_COUNTS
    for t in range(NTYPES):
        w[counts + t] = full[t]
    for q in range(n):
        hidden = q != o and s[REVEALED + q] == 0
        for t in range(NTYPES):
            w[counts + t] -= s[TT + q * NTYPES + t]
            if hidden:
                w[counts + t] -= k[K_HAND + q * NTYPES + t]
            else:
                w[counts + t] -= s[HT + q * NTYPES + t]
    for j in range(2):
        length = s[PILE_LEN + j]
        for i in range(min(k[K_DEPTH + j], max(length - 1, 0)), length):
            w[counts + s[PILE + j * MAX_DECK + i]] -= 1
    top = known_top(s)
    for i in range(top):
        w[counts + s[DECK + s[DECK_LEN] - 1 - i]] -= 1
    m = pool_from_counts(w, counts, W_POOL)
    for q in range(MAX_PLAYERS):
        w[W_UNK + q] = 0
    for q in range(n):
        if q == o or s[REVEALED + q] != 0:
            continue
        for t in range(NTYPES):
            for _ in range(d[HT + q * NTYPES + t]):
                lose_card(d, q, t)
        known = 0
        for t in range(NTYPES):
            for _ in range(k[K_HAND + q * NTYPES + t]):
                gain_card(d, q, t)
                known += 1
        w[W_UNK + q] = s[HLEN + q] - known
    for j in range(2):
        for i in range(min(k[K_DEPTH + j], max(s[PILE_LEN + j] - 1, 0))):
            d[PILE + j * MAX_DECK + i] = UNSEEN
    for i in range(s[DECK_LEN] - top):
        d[DECK + i] = UNSEEN
    return m


@kernel
def determinize(d, s, k, o, full, w, rng):
    """d = a deal consistent with what seat o knows of s (module doc), drawn with `rng`: the
    blanks of mark_known filled by kernels.deals.fill_unknown. `w` is the int64 workspace.
    Returns the number of cards dealt minus the number of unknown places (0 when consistent)."""
    m = mark_known(d, s, k, o, full, w)
    return fill_unknown(d, w, W_POOL, m, W_UNK, rng)


# ---------------------------------------------------------------------------------------------
# Value of a finished round: the chance of winning the game

@kernel(inline="always")
def _share(tot, pts, n, target, o):
    """Seat o's share of the win if the game ends with totals `tot` after a round of points
    `pts` (docs/rules.md, "A game": highest total, tie: most points this round, still tied: shared);
    -1 if no total reached the target."""
    best = tot[0]
    for q in range(1, n):
        best = max(best, tot[q])
    if best < target:
        return -1.0
    best_round = -(1 << 30)
    for q in range(n):
        if tot[q] == best:
            best_round = max(best_round, pts[q])
    winners = 0
    mine = False
    for q in range(n):
        if tot[q] == best and pts[q] == best_round:
            winners += 1
            mine = mine or q == o
    return 1.0 / winners if mine else 0.0


@kernel(inline="always")
def game_value(x, o, totals, target, table, continuations, w, rng):
    """Seat o's chance to win the game after the round in x, from the running `totals`."""
    n = x[NPLAYERS]
    if x[END] == END_MERMAIDS:
        return 1.0 if x[ENDER] == o else 0.0
    tot = w[W_TOT:W_TOT + MAX_PLAYERS]
    for q in range(n):
        tot[q] = totals[q] + x[POINTS + q]
    v = _share(tot, x[POINTS:POINTS + MAX_PLAYERS], n, target, o)
    if v >= 0.0:
        return v
    starter = x[ENDER] + 1 if x[ENDER] + 1 < n else 0
    return rest_of_game(tot, n, o, target, table, starter, continuations, rng)


@kernel
def rest_of_game(tot, n, o, target, table, starter, continuations, rng):
    """Seat o's mean share of the win over `continuations` rests of a game from the totals
    `tot` (none at the target), the next round started by `starter`: rounds drawn from `table`
    until a total reaches the target or a seat holds four mermaids (game_value). The stream and
    the four totals are kept in locals; seats past n start far below any target, so the
    largest of the four is the largest of the n (the table's columns past n are 0)."""
    low = -(1 << 40)
    b0 = tot[0]
    b1 = tot[1] if n > 1 else low
    b2 = tot[2] if n > 2 else low
    b3 = tot[3] if n > 3 else low
    rows = table.shape[1]
    r0, r1, r2, r3 = rng[0], rng[1], rng[2], rng[3]
    total = 0.0
    for _ in range(continuations):
        t0, t1, t2, t3 = b0, b1, b2, b3
        st = starter
        while True:
            r0, r1, r2, r3, z = xoshiro(r0, r1, r2, r3)
            row = table[ux(st), ux(scale(z, rows))]
            won = row[T_MERMAIDS]
            if won >= 0:
                total += 1.0 if won == o else 0.0
                break
            t0 += row[0]
            t1 += row[1]
            t2 += row[2]
            t3 += row[3]
            if max(max(t0, t1), max(t2, t3)) >= target:
                tot[0], tot[1], tot[2], tot[3] = t0, t1, t2, t3
                total += _share(tot, row, n, target, o)
                break
            e = row[T_ENDER] + 1
            st = e if e < n else 0
    rng[0], rng[1], rng[2], rng[3] = r0, r1, r2, r3
    return total / continuations


@kernel(inline="always")
def build_table(table, x, n, deck, rpk, rpp, rng, tr):
    """Rounds played by the rollout players (rpk, rpp) from each starting seat: the rest of a
    game is sampled from these rows. (`tr`: a zero-row trace.)"""
    for st in range(n):
        for r in range(table.shape[1]):
            deal_round(x, n, deck, st, rng)
            play_round(x, rpk, rpp, rng, tr)
            for q in range(MAX_PLAYERS):
                table[st, r, q] = x[POINTS + q] if q < n else 0
            table[st, r, T_ENDER] = x[ENDER]
            table[st, r, T_MERMAIDS] = x[ENDER] if x[END] == END_MERMAIDS else -1


# ---------------------------------------------------------------------------------------------
# The decision

@kernel(inline="always")
def _fork(dst, rng):
    """A fresh stream for one deal's rollouts, drawn from `rng` (so deals stay independent)."""
    x = next_u64(rng)
    for i in range(4):
        x, z = splitmix64(x)
        dst[i] = z


@once
@kernel
def read_deals(s, o, tr, m, deals, tremble, rpk, d, x, w, f, rng, rrng, rpp):
    """Hand reading (kernels.reading): candidate deals for `deals` searched ones
    (READ_CANDIDATES each, at most MAX_CANDIDATES), each drawn from its own seed (kept at
    w[W_SEEDS:], their count at w[W_NCAND]) into the marked state and pool that choose()
    keeps, and weighted by the likelihood of the opponents' observed choices under the rollout
    model of o's opponents (tremble ** mismatches). f[F_WEIGHT:] gets the cumulative weights
    (the total at the last). Returns the effective sample size of the candidates,
    (sum w)^2 / sum w^2."""
    obs = w[W_OBS:W_OBS + OBS_SIZE]
    nobs = observe(s, tr, o, obs)
    nc = min(deals * READ_CANDIDATES, MAX_CANDIDATES)
    w[W_NCAND] = nc
    total = 0.0
    sq = 0.0
    for c in range(nc):
        seed = next_u64(rng)
        w[W_SEEDS + c] = np.int64(seed)
        wt = 1.0
        if nobs > 0:
            for i in range(STATE_CORE):
                d[i] = w[W_MARKED + i]
            for i in range(m):
                w[W_POOL + i] = w[W_POOL0 + i]
            seed_stream_into(rrng[0], seed, 0)
            fill_unknown(d, w, W_POOL, m, W_UNK, rrng[0])
            wt = cost_weight(mismatches(d, o, tr, obs, rpk, rpp, x, w[W_STACK:W_INT], rrng[1]),
                             tremble)
        total += wt
        sq += wt * wt
        f[F_WEIGHT + c] = total
    if total <= 0.0:                      # every candidate excluded (tremble 0): uniform
        for c in range(nc):
            f[F_WEIGHT + c] = c + 1.0
        return 0.0
    return total * total / sq


@kernel(inline="always")
def choose(s, o, pp, rpk, rpp, k, tr, full, table, totals, target, d, x, w, f, rng, rrng, log):
    """Seat o's action at its decision point in s (module doc). `k` is o's knowledge (updated
    here from `tr`), `rpk`/`rpp` the rollout players seen from o, `table` its rounds table;
    d and x scratch states, w and f int and float workspaces, rng o's search stream, rrng
    scratch for the rollout streams, `log` a decision log (zero rows: off)."""
    update_knowledge(k, o, tr)
    if s[DEC] == DEC_CRAB_CARD:
        k[K_DEPTH + s[CRAB_PILE]] = 0          # o looks through the pile it searches
    na = min(legal_actions(s, False), 512)
    for i in range(na):
        w[W_ACTS + i] = s[LEGAL + i]
    if na == 1:
        return w[W_ACTS]
    deals = max(1, int(pp[o, S_SAMPLES]))
    conts = max(1, int(pp[o, S_CONTINUATIONS]))
    z = pp[o, S_CONFIDENCE]
    for i in range(na):
        f[F_SUM + i] = 0.0
        f[F_SUMSQ + i] = 0.0
        f[F_DIFF + i] = 0.0
        f[F_DIFFSQ + i] = 0.0
    tr0 = tr[:0]
    default = -1
    run = rrng[0]
    base = rrng[1]
    # determinize() for every deal, with what o knows marked once: the marked state and the
    # pool are kept and restored before each deal is filled in (the same deals, drawn alike).
    m = mark_known(d, s, k, o, full, w)
    for i in range(STATE_CORE):
        w[W_MARKED + i] = d[i]
    for i in range(m):
        w[W_POOL0 + i] = w[W_POOL + i]
    fast, extra = fast_seats(s[NPLAYERS], rpk, full)
    read = pp[o, S_READ] > 0
    ess = -1.0
    if read:
        ess = read_deals(s, o, tr, m, deals, pp[o, S_TREMBLE], rpk, d, x, w, f, rng, rrng, rpp)
    pick = 0
    total = 0.0
    u = 0.0
    if read:
        total = f[F_WEIGHT + w[W_NCAND] - 1]
        u = (next_u64(rng) >> uint64(11)) * (1.0 / 9007199254740992.0)
    for sample in range(deals):
        if sample > 0 or read:
            for i in range(STATE_CORE):
                d[i] = w[W_MARKED + i]
            for i in range(m):
                w[W_POOL + i] = w[W_POOL0 + i]
        if read:
            # systematic resampling of the candidates by weight (read_deals): deal `sample`
            # is the candidate whose cumulative weight first passes (u + sample) / deals
            goal = (u + sample) / deals * total
            while pick < w[W_NCAND] - 1 and f[F_WEIGHT + pick] <= goal:
                pick += 1
            seed_stream_into(rrng[0], uint64(w[W_SEEDS + pick]), 0)
            fill_unknown(d, w, W_POOL, m, W_UNK, rrng[0])
        else:
            fill_unknown(d, w, W_POOL, m, W_UNK, rng)
        if sample == 0:                        # what the rollout policy would do, on a deal
            mine = bot_action(d, rpk, rpp, rng)
            for i in range(na):
                if w[W_ACTS + i] == mine:
                    default = i
        _fork(base, rng)
        v0 = 0.0
        for jj in range(na):
            # the rollout policy's own choice first, so the others are compared with it
            i = jj if default < 0 else (default if jj == 0 else (jj - 1 if jj <= default else jj))
            copy_state(x, d)
            for i4 in range(4):
                run[i4] = base[i4]
            play_on(x, w[W_ACTS + i], rpk, rpp, run, tr0, fast, extra)
            v = game_value(x, o, totals, target, table, conts, w, run)
            f[F_SUM + i] += v
            f[F_SUMSQ + i] += v * v
            if jj == 0:
                v0 = v
            else:
                f[F_DIFF + i] += v - v0
                f[F_DIFFSQ + i] += (v - v0) * (v - v0)
    best = 0
    for i in range(1, na):
        if f[F_SUM + i] > f[F_SUM + best]:
            best = i
    if default >= 0 and best != default:
        mean = f[F_DIFF + best] / deals
        var = max(f[F_DIFFSQ + best] / deals - mean * mean, 0.0)
        if mean <= z * np.sqrt(var / deals):
            best = default
    if log.shape[0] > 0:
        row = int(log[0, 0]) + 1
        for i in range(na):
            if row < log.shape[0]:
                mean = f[F_SUM + i] / deals
                var = max(f[F_SUMSQ + i] / deals - mean * mean, 0.0)
                log[row, 0] = tr[0, 0]
                log[row, 1] = s[DEC]
                log[row, 2] = w[W_ACTS + i]
                log[row, 3] = mean
                log[row, 4] = np.sqrt(var / deals)
                log[row, 5] = deals
                log[row, 6] = i == best
                log[row, 7] = i == default
                log[row, 8] = named_card(s, w[W_ACTS + i])
                log[row, 9] = o
                log[row, 10] = ess
            row += 1
        log[0, 0] = row - 1
    return w[W_ACTS + best]


# ---------------------------------------------------------------------------------------------
# A round and a game with search seats

@once
@kernel
def play_round_search(s, pk, pp, rpk, rpp, rng, srng, tr, know, full, tables, totals, target,
                      d, x, w, f, rrng, log):
    """Play the round in s (at DEC_START) to its end: bots in their seats, the search player in
    each SEARCH seat q (its knowledge know[q], rollout players rpk[q], rpp[q], its rounds table
    tables[q], its stream srng[q]). `tr` records the round's events (the search seats read them)."""
    n = s[NPLAYERS]
    for q in range(n):
        if pk[q] == SEARCH:
            reset_knowledge(know[q], s, tr)
    play_round(s, pk, pp, rng, tr)         # on to the first search decision
    while s[DEC] != DEC_DONE:
        o = current(s)
        a = choose(s, o, pp, rpk[o], rpp[o], know[o], tr, full, tables[o], totals, target,
                   d, x, w, f, srng[o], rrng, log)
        step(s, a, pk, pp, rng, tr)
    return s[END]


@kernel(inline="always")
def play_game_search(s, nplayers, deck, target, pk, pp, rpk, rpp, rng, srng, tr, know, full,
                     tables, totals, winners, stats, d, x, w, f, rrng, log, reset):
    """kernels.game.play_game with search seats: rounds until a total reaches the target or
    four mermaids. With `reset` the trace restarts every round (batch runs); without, it holds
    the whole game (replay), each round from its deal. Returns (rounds, 1 if it ended on four
    mermaids)."""
    for q in range(MAX_PLAYERS):
        totals[q] = 0
        winners[q] = 0
    starter = 0
    rounds = 0
    while True:
        if reset:
            tr[0, 0] = 0
        deal(s, nplayers, deck, starter, rng, tr)
        play_round_search(s, pk, pp, rpk, rpp, rng, srng, tr, know, full, tables, totals, target,
                          d, x, w, f, rrng, log)
        record_round(s, nplayers, stats)
        rounds += 1
        over = settle_round(s, nplayers, target, totals, winners)
        if over:
            return rounds, 1 if over == 2 else 0
        starter = s[ENDER] + 1 if s[ENDER] + 1 < nplayers else 0


SEARCH_SALT = 0x5EA5C4A11


@kernel(inline="always")
def seed_search(srng, tables, x, nplayers, deck, pk, rpk, rpp, seed, block, tr0):
    """Each search seat's stream for a block (from seed, block and the seat, apart from the
    game's own stream), and its rounds table built from it."""
    for q in range(nplayers):
        if pk[q] == SEARCH:
            seed_stream_into(srng[q], uint64(seed) ^ uint64(SEARCH_SALT * (q + 1)), block)
            build_table(tables[q], x, nplayers, deck, rpk[q], rpp[q], srng[q], tr0)


def workspace(nplayers: int):
    """Scratch arrays of a search run (allocated per block by kernels.batch, or once here)."""
    return (np.zeros(STATE_SIZE, np.int32), np.zeros(STATE_SIZE, np.int32),
            np.zeros(W_INT, np.int64), np.zeros(W_FLOAT, np.float64),
            np.zeros((2, 4), np.uint64))
