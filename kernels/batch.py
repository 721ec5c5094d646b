"""Parallel batch drivers: N rounds or N games, aggregated into integer counters in the kernel.

Work is cut into fixed-size blocks; block b draws from the stream (seed, b) and writes its own
counter row, so the summed counters are bit-identical for any thread count or chunking. A caller
may run any range of blocks (block_lo, out.shape[0] rows) to show progress between chunks.

`run_rounds` / `run_games` run their blocks one after another on the calling thread without
the GIL; analyzer.runs.backends runs several calls at once on its own threads (or one per Dask
worker). They pick one compiled driver per round (the general engine; kernels.fastround's
round for baseline seats, one for the base game and one with Extra Salt), each doing rounds and
games. No thread-pool (prange) variant: it would be another copy of the round to compile, for no
speed (every call already has its own blocks and counter rows).
"""
import numpy as np
from .jit import njit

from .fastround import applies, fast_round, fast_round_extra, with_extra_salt
from .game import GS_SIZE, game_with, new_round
from .jit import kernel
from .rng import seed_stream_into
from .cards import MERMAID, NKINDS
from .scoring import mermaid_total
from .statistics import G_STATS, GAME_SIZE, GAME_STATS, HIST, ROUND_STATS
from .state import (AK, DECK_LEN, DECL_POINTS, END, END_LC_LOST, END_LC_WON, END_MERMAIDS,
                    END_VOID, MAX_PLAYERS, PLAYED, PLAYED_WIDTH, POINTS, STATE_SIZE, TURNS)

ROUND_BLOCK = 4096   # rounds per block: part of the seed plan, never depends on threads
GAME_BLOCK = 256     # games per block
# Counter offsets, generated from the statistics catalogue (kernels.statistics).
_R, _G = ROUND_STATS.at, GAME_STATS.at
R_END = _R("end")                               # rounds by END_* code
R_SEAT_SUM, R_SEAT_SQ = _R("seat_points"), _R("seat_points", "sq")
R_TURNS_SUM, R_TURNS_SQ = _R("turns"), _R("turns", "sq")
R_DECL_HIST = _R("declarer_card_points")
R_TURNS_HIST = _R("turns_hist")
R_PLAYED = _R("pairs_played")                   # by action (policies.A_*), trios at TRIO_SLOT
R_LC_HIST, R_LC_WON_HIST = _R("last_chance_calls"), _R("last_chance_won")
R_MHELD = _R("mermaid_rounds")                  # by mermaids held, 0..4
R_MHELD_PTS, R_MHELD_SQ = _R("mermaid_round_points"), _R("mermaid_round_points", "sq")
R_MHELD_MPTS = _R("mermaid_mermaid_points")
R_DECK_LOW = _R("deck_low")
R_SIZE = ROUND_STATS.size

G_WINS, G_SHARED, G_SHARED_GAMES = _G("wins"), _G("shared"), _G("shared_games")
G_MERMAID, G_MERMAID_GAMES = _G("mermaid_wins"), _G("mermaid_games")
G_ROUNDS_SUM, G_ROUNDS_SQ = _G("rounds_per_game"), _G("rounds_per_game", "sq")
G_TOTAL_SUM, G_TOTAL_SQ = _G("final_total"), _G("final_total", "sq")
G_SIZE = GAME_SIZE                              # then the round statistics (kernels.game GS_*)


@kernel(forceinline=True)
def count_round(row, s, nplayers, end):
    """Add the round just played in s (ended `end`) to a round-counter row (R_*)."""
    row[R_END + end] += 1
    if end != END_MERMAIDS:
        for q in range(nplayers):
            v = s[POINTS + q]
            row[R_SEAT_SUM + q] += v
            row[R_SEAT_SQ + q] += v * v
    t = s[TURNS]
    row[R_TURNS_SUM] += t
    row[R_TURNS_SQ] += t * t
    row[R_TURNS_HIST + min(t, HIST - 1)] += 1
    for a in range(PLAYED_WIDTH):
        row[R_PLAYED + a] += s[PLAYED + a]
    if s[END] != END_MERMAIDS and s[DECL_POINTS] > 0:
        row[R_DECL_HIST + min(s[DECL_POINTS], HIST - 1)] += 1
    if end == END_LC_WON or end == END_LC_LOST:
        row[R_LC_HIST + min(s[DECL_POINTS], HIST - 1)] += 1
        if end == END_LC_WON:
            row[R_LC_WON_HIST + min(s[DECL_POINTS], HIST - 1)] += 1
    if end != END_MERMAIDS and end != END_VOID:
        for q in range(nplayers):
            m = s[AK + q * NKINDS + MERMAID]
            v = s[POINTS + q]
            row[R_MHELD + m] += 1
            row[R_MHELD_PTS + m] += v
            row[R_MHELD_SQ + m] += v * v
            row[R_MHELD_MPTS + m] += mermaid_total(s, q)
    row[R_DECK_LOW] += s[DECK_LEN] < 10     # the deck only shrinks (a lobster's cards go back)


@njit(cache=True, inline="always")
def _round_block(new, b, nplayers, deck, nrounds, pk, pp, seed, row):
    rng = np.empty(4, dtype=np.uint64)
    seed_stream_into(rng, seed, b)
    s = np.empty(STATE_SIZE, dtype=np.int32)
    tr = np.zeros((0, 5), dtype=np.int32)
    lo = b * ROUND_BLOCK
    hi = min(nrounds, lo + ROUND_BLOCK)
    for _ in range(lo, hi):
        end = new(s, nplayers, deck, 0, pk, pp, rng, tr)
        count_round(row, s, nplayers, end)


@kernel(forceinline=True)
def count_game(row, nplayers, totals, winners, rounds, mermaids):
    """Add a finished game (final totals, 0/1 winners, rounds, four-mermaid end) to a game-counter
    row (G_*)."""
    nwin = 0
    for q in range(nplayers):
        nwin += winners[q]
    for q in range(nplayers):
        if winners[q]:
            if nwin == 1:
                row[G_WINS + q] += 1
                if mermaids:
                    row[G_MERMAID + q] += 1
            else:
                row[G_SHARED + q] += 1
        row[G_TOTAL_SUM + q] += totals[q]
        row[G_TOTAL_SQ + q] += totals[q] * totals[q]
    if nwin > 1:
        row[G_SHARED_GAMES] += 1
    row[G_MERMAID_GAMES] += mermaids
    row[G_ROUNDS_SUM] += rounds
    row[G_ROUNDS_SQ] += rounds * rounds


@njit(cache=True, inline="always")
def _game_block(new, b, nplayers, deck, ngames, target, pk, pp, seed, row):
    rng = np.empty(4, dtype=np.uint64)
    seed_stream_into(rng, seed, b)
    s = np.empty(STATE_SIZE, dtype=np.int32)
    tr = np.zeros((0, 5), dtype=np.int32)
    totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(MAX_PLAYERS, dtype=np.int64)
    stats = row[G_STATS:G_STATS + GS_SIZE]
    lo = b * GAME_BLOCK
    hi = min(ngames, lo + GAME_BLOCK)
    for _ in range(lo, hi):
        rounds, mermaids = game_with(new, s, nplayers, deck, target, pk, pp, rng, tr, totals,
                                     winners, stats)
        count_game(row, nplayers, totals, winners, rounds, mermaids)


def run_rounds(nplayers, deck, nrounds, pk, pp, seed, block_lo, out):
    """Rounds of blocks block_lo .. block_lo + out.shape[0] - 1 into `out` (int64[blocks, R_SIZE]).
    On the calling thread, without the GIL: analyzer.runs.backends runs several at once on its
    own threads (and one per Dask worker), so no thread-pool variant is compiled."""
    driver_for(nplayers, deck, pk)(False, nplayers, deck, nrounds, 0, pk, pp, seed, block_lo, out)


def run_games(nplayers, deck, ngames, target, pk, pp, seed, block_lo, out):
    """Games of blocks block_lo .. block_lo + out.shape[0] - 1 into `out` (int64[blocks, G_SIZE]).
    On the calling thread, without the GIL, as run_rounds."""
    driver_for(nplayers, deck, pk)(True, nplayers, deck, ngames, target, pk, pp, seed, block_lo, out)


def driver_for(nplayers, deck, pk):
    """The compiled driver for these seats and this deck: baseline seats play kernels.fastround's
    copy of the round (the same rounds; its own for Extra Salt), so such a run compiles only
    that, not the general engine. One driver does rounds and games: each compiled driver
    re-optimizes the round it links, so a driver per kind would cost that twice."""
    if not applies(nplayers, pk):
        return run_engine
    return run_extra if with_extra_salt(deck) else run_fast


@njit(cache=True, inline="always")
def _run(new, games, nplayers, deck, n, target, pk, pp, seed, block_lo, out):
    for i in range(out.shape[0]):
        out[i, :] = 0
        if games:
            _game_block(new, block_lo + i, nplayers, deck, n, target, pk, pp, seed, out[i])
        else:
            _round_block(new, block_lo + i, nplayers, deck, n, pk, pp, seed, out[i])


@njit(cache=True, nogil=True)
def run_engine(games, nplayers, deck, n, target, pk, pp, seed, block_lo, out):
    """run_rounds (games false) or run_games on the general engine."""
    _run(new_round, games, nplayers, deck, n, target, pk, pp, seed, block_lo, out)


@njit(cache=True, nogil=True)
def run_fast(games, nplayers, deck, n, target, pk, pp, seed, block_lo, out):
    """run_rounds or run_games on kernels.fastround (baseline seats, base-game cards)."""
    _run(fast_round, games, nplayers, deck, n, target, pk, pp, seed, block_lo, out)


@njit(cache=True, nogil=True)
def run_extra(games, nplayers, deck, n, target, pk, pp, seed, block_lo, out):
    """run_rounds or run_games on kernels.fastround (baseline seats, Extra Salt cards)."""
    _run(fast_round_extra, games, nplayers, deck, n, target, pk, pp, seed, block_lo, out)
