"""Seastead games in blocks, aggregated into integer counters in the kernel.

Block b of a run plays games b * GAME_BLOCK .. on the random stream (seed, b) and writes its
own counter row, so the summed counters are bit-identical for any thread count or chunking
(the Sea Salt & Paper drivers in kernels/batch.py work the same way). `run_games` runs them on
the calling thread without the GIL; analyzer.runs.backends runs several calls at once. Games with a
search seat have their own driver (kernels/seastead/search_batch.py), so that neither a plain
run nor an edit of the search player compiles the other.
"""
import numpy as np
from numba import njit

from ..layouts import Layout, Stat
from ..rng import seed_stream_into
from . import layout as L
from .engine import play_game

GAME_BLOCK = 64          # games per block: part of the seed plan, never depends on threads
ROUNDS_HIST = 64         # rounds-per-game histogram bins (the last bin holds longer games)


# A game's counters, declared as the statistics catalogue declares Sea Salt & Paper's
# (kernels/layouts.py); seat 0 starts; solo: the player in seat 0, the Boss in seat 1.
STATS = Layout("seastead games", (
    Stat("games", "count", "games played"),
    Stat("wins", "rate", "outright wins by seat (solo: the player, the Boss)", seats=2),
    Stat("shared", "rate", "shared wins (every tie-break tied)"),
    Stat("tiebreak", "rate", "games decided by: totals, buildings left, cleanup, shared", bins=4),
    Stat("category", "mean", "score by seat and category", seats=2, bins=5, unit="points"),
    Stat("total", "mean", "final score by seat", seats=2, unit="points"),
    Stat("margin", "mean", "seat 0 minus seat 1 (solo: minus the Boss)", unit="points"),
    Stat("trigger", "rate", "games whose end was triggered with condition i true", bins=4),
    Stat("untriggered", "count", "games stopped by the MAX_ROUNDS safety net (should be 0)"),
    Stat("rounds", "mean", "rounds per game", unit="rounds"),
    Stat("rounds_hist", "histogram", "games by their rounds (the last bin holds longer games)",
         bins=ROUNDS_HIST),
    Stat("dives", "mean", "dives per game by seat", seats=2, squares=False),
    Stat("builds", "mean", "buildings built per game by seat and type", seats=2, bins=3,
         squares=False),
    Stat("spent", "mean", "specialists spent per game by seat", seats=2, squares=False),
    Stat("ship_bonus", "mean", "ship bonuses per game by seat", seats=2, squares=False),
    Stat("extras", "mean", "extra actions per game by seat", seats=2, squares=False),
    Stat("short", "mean", "cleanup shortfall per game by seat", seats=2, squares=False),
    Stat("decrees", "mean", "decrees per game", squares=False),
    Stat("boss", "mean", "the Boss's score (solo)", unit="points"),
    Stat("boss_built", "mean", "the Boss's buildings per game (solo)", squares=False),
))
_at = STATS.at
G_GAMES, G_WINS, G_SHARED, G_TIEBREAK = _at("games"), _at("wins"), _at("shared"), _at("tiebreak")
G_CAT_SUM, G_CAT_SQ, G_TOT_SUM, G_TOT_SQ = (_at("category"), _at("category", "sq"), _at("total"),
                                            _at("total", "sq"))
G_MARGIN_SUM, G_MARGIN_SQ = _at("margin"), _at("margin", "sq")
G_TRIG, G_UNTRIGGERED = _at("trigger"), _at("untriggered")
G_ROUNDS_SUM, G_ROUNDS_SQ, G_ROUNDS_HIST = _at("rounds"), _at("rounds", "sq"), _at("rounds_hist")
G_DIVES, G_BUILDS, G_SPENT, G_SHIP_BONUS = _at("dives"), _at("builds"), _at("spent"), \
    _at("ship_bonus")
G_EXTRAS, G_SHORT, G_DECREES = _at("extras"), _at("short"), _at("decrees")
G_BOSS_SUM, G_BOSS_SQ, G_BOSS_BUILT = _at("boss"), _at("boss", "sq"), _at("boss_built")
G_SIZE = STATS.size


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
