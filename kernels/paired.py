"""The compiled driver of paired experiments (analyzer.studies.paired): the same deal played twice
with one difference, and the two outcomes counted together.

Pair i (a global index, so the answer does not depend on blocks or threads):

1. Round 1 of a game is dealt from the stream (seed, 2i) (kernels.game.deal_round, seat 0
   starts) and its deck is put in a fixed order at once (the same uniform shuffle, drawn up
   front), so both arms draw the same cards in the same order and chance elsewhere (steals,
   the lobster's shuffle) uses the same stream.
2. The treated seat is q = i mod P (or a fixed `seat`). With MODE_CARD, `given` cards of
   `kind` (copies chosen uniformly among those in the deck) are moved from the deck into q's hand in
   both arms, and arm A receives one more; the deck keeps its order otherwise (the cards above and
   below are the same, the given one is simply missing). A deal whose deck holds too few copies is
   skipped (counted). With MODE_POLICY nothing is moved: seat q plays policy A in arm A and policy B
   in arm B.
3. Each arm plays round 1 from that state, then the rest of the game (docs/rules.md, "A game")
   from a second stream, (seed, 2i + 1), the same for both arms.

Counters per block (P_*, declared in PAIRED_STATS below): pairs used and skipped,
q's outright game wins in each arm and in one arm only, and the sums and squares of q's round-1
points in each arm and of their difference, and of the difference of q's final totals.

It uses the engine's own functions; no rule is restated here.
"""
import numpy as np
from kernels.jit import njit

from kernels.cards import TYPE_KIND
from kernels.engine import play_round, reveal_top
from kernels.game import GS_SIZE, deal_round, play_rounds, settle_round
from kernels.rng import below, seed_stream_into
from kernels.scoring import refresh_points
from kernels.statistics import Layout, Stat
from kernels.state import (DECK, DECK_LEN, ENDER, MAX_PLAYERS, POINTS, SHUFFLED, STATE_SIZE,
                           copy_state, gain_card)

MODE_CARD, MODE_POLICY = 0, 1
PAIR_BLOCK = 256            # pairs per block: part of the plan, never depends on threads

# counters per block: the treated seat q in arms A and B of the same deal (declared as the
# statistics catalogue declares its own, kernels.statistics)
PAIRED_STATS = Layout("paired", (
    Stat("pairs", "count", "pairs used (both arms played)", column_count="pairs"),
    Stat("skipped", "count", "deals skipped (too few copies of the kind in the deck)",
         column_count="skipped"),
    Stat("points_diff", "mean", "q's round-1 points, arm A minus arm B", of="pairs",
         unit="points", column="round_points_diff"),
    Stat("win_diff", "rate_diff", "q's outright game wins, arm A minus arm B", of="pairs",
         unit="games", column="win_rate_diff"),
    Stat("total_diff", "mean", "q's final total, arm A minus arm B", of="pairs", unit="points",
         column="final_total_diff"),
    Stat("win_a", "rate", "q won the game outright in arm A", of="pairs", column="win_rate_a"),
    Stat("points_a", "mean", "q's round-1 points in arm A", of="pairs", unit="points",
         column="round_points_a"),
    Stat("win_b", "rate", "q won the game outright in arm B", of="pairs", column="win_rate_b"),
    Stat("points_b", "mean", "q's round-1 points in arm B", of="pairs", unit="points",
         column="round_points_b"),
))
_S = PAIRED_STATS.at
P_N, P_SKIPPED, P_WIN_A, P_WIN_B = _S("pairs"), _S("skipped"), _S("win_a"), _S("win_b")
P_ONLY_A, P_ONLY_B = _S("win_diff"), _S("win_diff", "b")
P_PTS_A, P_PTS_A_SQ, P_PTS_B, P_PTS_B_SQ = (_S("points_a"), _S("points_a", "sq"), _S("points_b"),
                                            _S("points_b", "sq"))
P_DIFF, P_DIFF_SQ = _S("points_diff"), _S("points_diff", "sq")
P_TOTAL_DIFF, P_TOTAL_DIFF_SQ = _S("total_diff"), _S("total_diff", "sq")
P_SIZE = PAIRED_STATS.size


@njit(cache=True)
def _take_kind(s, kind, rng):
    """Remove a uniformly chosen copy of `kind` from the (ordered) deck, keeping the order of
    the others; its type, or -1 if the deck holds none."""
    n = s[DECK_LEN]
    count = 0
    for i in range(n):
        if TYPE_KIND[s[DECK + i]] == kind:
            count += 1
    if count == 0:
        return -1
    pick = below(rng, count)
    for i in range(n):
        if TYPE_KIND[s[DECK + i]] == kind:
            if pick == 0:
                t = s[DECK + i]
                for j in range(i, n - 1):
                    s[DECK + j] = s[DECK + j + 1]
                s[DECK_LEN] = n - 1
                return t
            pick -= 1
    return -1


@njit(cache=True)
def _arm(s, base, rng, rng0, cont, cont0, nplayers, deck, target, pk, pp, q, tr, totals,
         winners, stats):
    """One arm: copy its dealt state, play round 1 and the rest of the game. Returns (q's
    round-1 points, q won outright, q's final total)."""
    copy_state(s, base)
    rng[:] = rng0
    cont[:] = cont0
    play_round(s, pk, pp, rng, tr)
    pts = s[POINTS + q]
    totals[:] = 0
    winners[:] = 0
    if settle_round(s, nplayers, target, totals, winners) == 0:
        play_rounds(s, nplayers, deck, target, pk, pp, cont, tr, totals, winners, stats,
                    (s[ENDER] + 1) % nplayers)
    nwin = 0
    for x in range(nplayers):
        nwin += winners[x]
    return pts, 1 if (winners[q] == 1 and nwin == 1) else 0, totals[q]


@njit(cache=True)
def _pair_block(b, mode, kind, given, seat, nplayers, deck, count, target, pka, ppa, pkb, ppb, seed,
                row):
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    base = np.zeros(STATE_SIZE, dtype=np.int32)      # arm A's dealt state
    base_b = np.zeros(STATE_SIZE, dtype=np.int32)    # arm B's
    rng = np.empty(4, dtype=np.uint64)
    rng0 = np.empty(4, dtype=np.uint64)
    cont = np.empty(4, dtype=np.uint64)
    cont0 = np.empty(4, dtype=np.uint64)
    tr = np.zeros((0, 5), dtype=np.int32)
    totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(MAX_PLAYERS, dtype=np.int64)
    stats = np.zeros(GS_SIZE, dtype=np.int64)
    lo = b * PAIR_BLOCK
    hi = min(count, lo + PAIR_BLOCK)
    for i in range(lo, hi):
        q = i % nplayers if seat < 0 else seat
        seed_stream_into(rng0, seed, 2 * i)
        seed_stream_into(cont0, seed, 2 * i + 1)
        deal_round(base, nplayers, deck, 0, rng0)
        reveal_top(base, base[DECK_LEN], rng0)          # the whole deck in a fixed order
        base[SHUFFLED] = 0
        if mode == MODE_CARD:
            ok = True
            for _ in range(given):
                t = _take_kind(base, kind, rng0)
                if t < 0:
                    ok = False
                    break
                gain_card(base, q, t)
            copy_state(base_b, base)                  # arm B: the extra card stays in the deck
            if ok:
                t = _take_kind(base, kind, rng0)      # arm A: it is in q's hand instead
                ok = t >= 0
                if ok:
                    gain_card(base, q, t)
            if not ok:
                row[P_SKIPPED] += 1
                continue
            refresh_points(base, nplayers)
            refresh_points(base_b, nplayers)
        else:
            copy_state(base_b, base)
        pa, wa, ta = _arm(s, base, rng, rng0, cont, cont0, nplayers, deck, target, pka, ppa, q,
                          tr, totals, winners, stats)
        pb, wb, tb = _arm(s, base_b, rng, rng0, cont, cont0, nplayers, deck, target, pkb, ppb, q,
                          tr, totals, winners, stats)
        row[P_N] += 1
        row[P_WIN_A] += wa
        row[P_WIN_B] += wb
        row[P_ONLY_A] += wa * (1 - wb)
        row[P_ONLY_B] += wb * (1 - wa)
        row[P_PTS_A] += pa
        row[P_PTS_A_SQ] += pa * pa
        row[P_PTS_B] += pb
        row[P_PTS_B_SQ] += pb * pb
        row[P_DIFF] += pa - pb
        row[P_DIFF_SQ] += (pa - pb) * (pa - pb)
        row[P_TOTAL_DIFF] += ta - tb
        row[P_TOTAL_DIFF_SQ] += (ta - tb) * (ta - tb)


@njit(cache=True, nogil=True)
def run_pairs(mode, kind, given, seat, nplayers, deck, count, target, pka, ppa, pkb, ppb,
                     seed, block_lo, out):
    """Pairs of blocks block_lo .. block_lo + out.shape[0] - 1 into out (int64[blocks, P_SIZE]).
    On the calling thread, without the GIL: analyzer.runs.backends runs several at once on its
    own threads (and one per Dask worker), so no thread-pool variant is compiled."""
    for i in range(out.shape[0]):
        out[i, :] = 0
        _pair_block(block_lo + i, mode, kind, given, seat, nplayers, deck, count, target, pka,
                    ppa, pkb, ppb, seed, out[i])
