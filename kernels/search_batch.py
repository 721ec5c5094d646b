"""Batch drivers of runs with search seats (kernels.search): the counters of kernels/batch.py,
in smaller blocks. Apart from batch.py so that an edit of the search player recompiles these
drivers only, never the plain rounds and games drivers (kernels/__init__.py)."""
import numpy as np
from .jit import njit

from . import search as ks
from .batch import G_STATS, count_game, count_round
from .cards import NTYPES
from .game import GS_SIZE, deal
from .rng import seed_stream_into
from .state import MAX_PLAYERS, STATE_SIZE

# Runs with search seats (kernels.search): much slower per game, so smaller blocks. Part of the
# seed plan of such runs, like the blocks above.
SEARCH_ROUND_BLOCK = 8
SEARCH_GAME_BLOCK = 1
TRACE_ROWS = 4096       # events of one round (a round has at most a few hundred)


@njit(cache=True, inline="always")
def _search_block(games, b, nplayers, deck, count, target, pk, pp, rpk, rpp, seed, row):
    """Block b of a rounds (games=False) or games run with search seats into its counter row.
    The game's stream is (seed, b) as for the bots; each search seat has its own (search.py)."""
    rng = np.empty(4, dtype=np.uint64)
    seed_stream_into(rng, seed, b)
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    tr = np.zeros((TRACE_ROWS, 5), dtype=np.int32)
    tr0 = np.zeros((0, 5), dtype=np.int32)
    log = np.zeros((0, ks.LOG_WIDTH), dtype=np.float64)
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
    ks.seed_search(srng, tables, x, nplayers, deck, pk, rpk, rpp, seed, b, tr0)
    size = SEARCH_GAME_BLOCK if games else SEARCH_ROUND_BLOCK
    lo = b * size
    hi = min(count, lo + size)
    for _ in range(lo, hi):
        if games:
            stats = row[G_STATS:G_STATS + GS_SIZE]
            rounds, mermaids = ks.play_game_search(s, nplayers, deck, target, pk, pp, rpk, rpp,
                                                   rng, srng, tr, know, full, tables, totals,
                                                   winners, stats, d, x, w, f, rrng, log, True)
            count_game(row, nplayers, totals, winners, rounds, mermaids)
        else:
            tr[0, 0] = 0
            deal(s, nplayers, deck, 0, rng, tr)
            end = ks.play_round_search(s, pk, pp, rpk, rpp, rng, srng, tr, know, full, tables,
                                       totals, target, d, x, w, f, rrng, log)
            count_round(row, s, nplayers, end)


@njit(cache=True, nogil=True)
def run_search(games, nplayers, deck, count, target, pk, pp, rpk, rpp, seed, block_lo, out):
    """Blocks block_lo .. block_lo + out.shape[0] - 1 of a run with search seats into `out`
    (int64[blocks, G_SIZE or R_SIZE]); rpk / rpp (int64[P, P], float64[P, P, MAX_PARAMS]):
    the rollout players as each search seat sees them.
    On the calling thread, without the GIL: analyzer.runs.backends runs several at once on its
    own threads (and one per Dask worker), so no thread-pool variant is compiled."""
    for i in range(out.shape[0]):
        out[i, :] = 0
        _search_block(games, block_lo + i, nplayers, deck, count, target, pk, pp, rpk, rpp, seed,
                      out[i])
