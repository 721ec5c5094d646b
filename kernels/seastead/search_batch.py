"""Seastead games with a search seat (kernels/seastead/search.py), in the blocks and counters of
kernels/seastead/batch.py: apart from it so that a plain run never compiles the search player
and an edit of the search player recompiles only these drivers.
"""
import numpy as np
from ..jit import njit

from . import layout as L
from .batch import GAME_BLOCK, block_arrays, record
from .engine import play_game
from .search import SCRIPT_ROWS, plan, play_searched


@njit(cache=True, inline="always")
def play_any(s, cp, cfg, pk, pp, rng, tr, sc, ob, stats):
    """One whole game: engine.play_game, or search.play_searched when a seat is the search
    player (its work arrays are made here; `stats` int64[4] adds up its searches)."""
    if pk[0] != L.P_SEARCH and pk[1] != L.P_SEARCH:
        play_game(s, cp, cfg, pk, pp, rng, tr, sc, ob)
        return
    gk = pk.copy()
    gp = pp.copy()
    for q in range(2):
        if pk[q] == L.P_SEARCH:
            gk[q] = L.P_SCRIPT
            gp[q, L.H_FALLBACK] = L.P_HEURISTIC
    st, cand, sc2, ppr = _work()
    play_searched(s, cp, cfg, pk, gk, gp, rng, tr, sc2[0], ob, np.full(2, L.P_SCRIPT, np.int64),
                  ppr, st[0], st[1], cand[0], np.zeros((L.MAX_OPTS, 2)), sc2[1],
                  np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), cand[1],
                  np.zeros((0, 5), dtype=np.int32), stats)


@njit(cache=True)
def _work():
    """The search's work arrays: two states, two option buffers, two scripts, parameters."""
    return (np.zeros((2, L.STATE_SIZE), dtype=np.int32),
            np.zeros((2, L.MAX_OPTS, 4), dtype=np.int32),
            np.zeros((2, SCRIPT_ROWS, 6), dtype=np.int32), np.zeros((2, L.MAX_PARAMS)))


@njit(cache=True)
def search_plan(s, cp, p, pp, rng):
    """What search seat p would play at the start of an action in `s` (unchanged): the script
    rows (p, kind, option) of its searched choices (for tests and for reading a decision)."""
    st, cand, sc2, ppr = _work()
    stats = np.zeros(4, dtype=np.int64)
    rows = plan(s, cp, p, pp, rng, sc2[0], np.full(2, L.P_SCRIPT, np.int64), ppr, st[0], st[1],
                cand[0], np.zeros((L.MAX_OPTS, 2)), sc2[1], np.zeros(4, dtype=np.uint64),
                np.zeros(4, dtype=np.uint64), cand[1], np.zeros((0, 5), dtype=np.int32), stats)
    return sc2[0, 1:rows + 1].copy()


@njit(cache=True, inline="always")
def _block(b, cp, cfg, pk, pp, ngames, seed, row):
    rng, s, ob, tr, sc = block_arrays(b, seed)
    stats = np.zeros(4, dtype=np.int64)
    lo = b * GAME_BLOCK
    hi = min(ngames, lo + GAME_BLOCK)
    for _ in range(lo, hi):
        play_any(s, cp, cfg, pk, pp, rng, tr, sc, ob, stats)
        record(s, row)


@njit(cache=True, nogil=True)
def run_games(cp, cfg, pk, pp, ngames, seed, block_lo, out):
    """kernels.seastead.batch.run_games for runs with a search seat (same blocks, counters and
    streams)."""
    for i in range(out.shape[0]):
        out[i, :] = 0
        _block(block_lo + i, cp, cfg, pk, pp, ngames, seed, out[i])
