"""The expert's training data: games with search seats (the teachers), and at each of their
decisions every legal action's features (kernels.expert.features) beside the search's estimate
of its chance to win the game. analyzer.studies.train fits the expert's weights to them.

Apart from kernels/search_batch.py so that the runs' drivers never compile this one."""
import numpy as np
from .jit import njit

from . import expert as ke
from . import search as ks
from .actions import DEC_CRAB_PILE, DEC_DONE
from .cards import NTYPES
from .game import deal, settle_round
from .legal import current
from .policies import SEARCH
from .rng import seed_stream_into
from .engine import play_round, step
from .search_batch import TRACE_ROWS
from .state import DEC, ENDER, MAX_PLAYERS, STATE_SIZE

# Columns of a decision row beside its features: the group (one per decision), the seat, the
# decision kind, the action, the search's mean value and its standard error.
R_GROUP, R_SEAT, R_DEC, R_ACTION, R_VALUE, R_SE = range(6)
R_WIDTH = 6


@njit(cache=True, nogil=True)
def label_games(nplayers, deck, target, pk, pp, rpk, rpp, seed, block, games, X, R):
    """Play `games` games (block `block` of the seed plan) with the seats pk / pp, the search
    seats teaching: each of their decisions with two or more actions (but a crab search's
    pile, which the expert answers with the card) writes one row per action into X (features)
    and R (R_* columns). Returns the rows written (stops early when X is full)."""
    rng = np.empty(4, dtype=np.uint64)
    seed_stream_into(rng, seed, block)
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    tr = np.zeros((TRACE_ROWS, 5), dtype=np.int32)
    tr0 = np.zeros((0, 5), dtype=np.int32)
    log = np.zeros((600, ks.LOG_WIDTH), dtype=np.float64)
    know = np.zeros((MAX_PLAYERS, ks.K_SIZE), dtype=np.int64)
    full = np.zeros(NTYPES, dtype=np.int64)
    for t in deck:
        full[t] += 1
    tables = np.zeros((MAX_PLAYERS, MAX_PLAYERS, ks.TABLE_ROUNDS, ks.T_WIDTH), dtype=np.int32)
    srng = np.zeros((MAX_PLAYERS, 4), dtype=np.uint64)
    totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(MAX_PLAYERS, dtype=np.int64)
    d = np.zeros(STATE_SIZE, dtype=np.int32)
    x = np.zeros(STATE_SIZE, dtype=np.int32)
    w = np.zeros(ks.W_INT, dtype=np.int64)
    f = np.zeros(ks.W_FLOAT, dtype=np.float64)
    rrng = np.zeros((2, 4), dtype=np.uint64)
    unit = np.zeros(ke.E_SIZE, dtype=np.float64)
    ks.seed_search(srng, tables, x, nplayers, deck, pk, rpk, rpp, seed, block, tr0)
    rows = 0
    group = 0
    cap = X.shape[0]
    for _ in range(games):
        totals[:] = 0
        winners[:] = 0
        starter = 0
        while True:
            tr[0, 0] = 0
            deal(s, nplayers, deck, starter, rng, tr)
            for q in range(nplayers):
                if pk[q] == SEARCH:
                    ks.reset_knowledge(know[q], s, tr)
            play_round(s, pk, pp, rng, tr)
            while s[DEC] != DEC_DONE:
                o = current(s)
                log[0, 0] = 0
                a = ks.choose(s, o, pp, rpk[o], rpp[o], know[o], tr, full, tables[o], totals,
                              target, d, x, w, f, srng[o], rrng, log)
                n = int(log[0, 0])
                if n >= 2 and s[DEC] != DEC_CRAB_PILE and rows + n <= cap:
                    for i in range(1, n + 1):
                        ke.features(s, o, int(log[i, 2]), unit, X[rows])
                        R[rows, R_GROUP] = group
                        R[rows, R_SEAT] = o
                        R[rows, R_DEC] = s[DEC]
                        R[rows, R_ACTION] = log[i, 2]
                        R[rows, R_VALUE] = log[i, 3]
                        R[rows, R_SE] = log[i, 4]
                        rows += 1
                    group += 1
                step(s, a, pk, pp, rng, tr)
            over = settle_round(s, nplayers, target, totals, winners)
            if over:
                break
            starter = s[ENDER] + 1 if s[ENDER] + 1 < nplayers else 0
        if rows + 600 > cap:
            break
    return rows


@njit(cache=True)
def accumulate(X, R, n, A, b):
    """Add rows 0..n-1 (decisions in consecutive groups) to the normal equations A w = b of
    the least-squares fit of each action's value, less its decision's mean, by its features,
    less theirs: the expert is fitted to rank actions as the search does. Fixed summation
    order (the same weights from the same data on any machine); only the features some action
    of a decision uses are summed."""
    nf = X.shape[1]
    mean = np.zeros(nf)
    used = np.zeros(nf, dtype=np.int64)
    i = 0
    while i < n:
        j = i
        while j < n and R[j, R_GROUP] == R[i, R_GROUP]:
            j += 1
        m = j - i
        k = 0
        for c in range(nf):
            s = 0.0
            nz = False
            for r in range(i, j):
                s += X[r, c]
                nz = nz or X[r, c] != 0.0
            if nz:
                mean[k] = s / m
                used[k] = c
                k += 1
        vmean = 0.0
        for r in range(i, j):
            vmean += R[r, R_VALUE]
        vmean /= m
        for r in range(i, j):
            y = R[r, R_VALUE] - vmean
            for u in range(k):
                xu = X[r, used[u]] - mean[u]
                if xu == 0.0:
                    continue
                b[used[u]] += xu * y
                for v in range(k):
                    A[used[u], used[v]] += xu * (X[r, used[v]] - mean[v])
        i = j
