"""Seastead games in blocks, aggregated into integer counters in the kernel.

Block b of a run plays games b * GAME_BLOCK .. on the random stream (seed, b) and writes its
own counter row, so the summed counters are bit-identical for any thread count or chunking
(the Sea Salt & Paper drivers in kernels/batch.py work the same way). `run_games` runs them on
the calling thread without the GIL; analyzer.runs.backends runs several calls at once. Games with a
search seat have their own driver (kernels/seastead/search_batch.py), so that neither a plain
run nor an edit of the search player compiles the other.
"""
import numpy as np
from ..jit import njit

from ..rng import seed_stream_into
from . import layout as L
from .engine import play_game
# The counters, declared in kernels/seastead/statistics.py (read there without compiling).
from .statistics import *  # noqa: F401,F403

GAME_BLOCK = 64          # games per block: part of the seed plan, never depends on threads


@njit(cache=True)
def record(s, row):
    """Add the finished game in `s` to a counter row."""
    row[G_GAMES] += 1
    n = s[L.PLAYERS]
    if s[L.WIN] + s[L.WIN + 1] == 2:
        row[G_SHARED] += 1
    else:
        row[G_WINS + (0 if s[L.WIN] else 1)] += 1
    row[G_TIEBREAK + s[L.TIEBREAK]] += 1
    for p in range(n):
        for c in range(5):
            v = s[L.SCORE + p * 5 + c]
            row[G_CAT_SUM + p * 5 + c] += v
            row[G_CAT_SQ + p * 5 + c] += v * v
        v = s[L.TOTAL + p]
        row[G_TOT_SUM + p] += v
        row[G_TOT_SQ + p] += v * v
        row[G_DIVES + p] += s[L.DIVES + p]
        for t in range(3):
            row[G_BUILDS + p * 3 + t] += s[L.BUILT + p * 3 + t]
        row[G_SPENT + p] += s[L.SPENT + p]
        row[G_SHIP_BONUS + p] += s[L.SHIP_BONUS + p]
        row[G_EXTRAS + p] += s[L.EXTRAS + p]
        row[G_SHORT + p] += s[L.SHORT + p]
    m = s[L.TOTAL] - (s[L.BOSS_SCORE] if s[L.SOLO] else s[L.TOTAL + 1])
    row[G_MARGIN_SUM] += m
    row[G_MARGIN_SQ] += m * m
    if s[L.TRIG_ROUND] < 0:
        row[G_UNTRIGGERED] += 1
    for i in range(4):
        if (s[L.TRIGGER] >> i) & 1:
            row[G_TRIG + i] += 1
    r = s[L.ROUND]
    row[G_ROUNDS_SUM] += r
    row[G_ROUNDS_SQ] += r * r
    row[G_ROUNDS_HIST + min(r, ROUNDS_HIST - 1)] += 1
    row[G_DECREES] += s[L.DECREES_IN]
    b = s[L.BOSS_SCORE]
    row[G_BOSS_SUM] += b
    row[G_BOSS_SQ] += b * b
    row[G_BOSS_BUILT] += s[L.BOSS_BUILT]


@njit(cache=True)
def block_arrays(b, seed):
    """Block b's random stream and work arrays: (rng, state, option buffer, an empty trace, an
    empty script), shared with kernels/seastead/search_batch.py."""
    rng = np.empty(4, dtype=np.uint64)
    seed_stream_into(rng, seed, b)
    return (rng, np.zeros(L.STATE_SIZE, dtype=np.int32), np.zeros((L.MAX_OPTS, 4), dtype=np.int32),
            np.zeros((0, 5), dtype=np.int32), np.zeros((0, 6), dtype=np.int32))


@njit(cache=True, inline="always")
def _block(b, cp, cfg, pk, pp, ngames, seed, row):
    rng, s, ob, tr, sc = block_arrays(b, seed)
    lo = b * GAME_BLOCK
    hi = min(ngames, lo + GAME_BLOCK)
    for _ in range(lo, hi):
        play_game(s, cp, cfg, pk, pp, rng, tr, sc, ob)
        record(s, row)


@njit(cache=True, nogil=True)
def run_games(cp, cfg, pk, pp, ngames, seed, block_lo, out):
    """Games of blocks block_lo .. block_lo + out.shape[0] - 1 into `out` (int64[blocks, G_SIZE]).
    On the calling thread, without the GIL: analyzer.runs.backends runs several at once on its
    own threads (and one per Dask worker), so no thread-pool variant is compiled."""
    for i in range(out.shape[0]):
        out[i, :] = 0
        _block(block_lo + i, cp, cfg, pk, pp, ngames, seed, out[i])
