"""Paired experiments: the documented procedure recomputed pair by pair from the engine's own
functions, the pairing itself (two identical arms never differ), a value a rules reader can
predict (a mermaid in hand adds points), the untouched arm being an ordinary game, and the
same answer for any thread count or driver."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.studies import paired
from kernels import paired as pkn
from analyzer.runs.batches import run_task
from analyzer.base.errors import SeasaltError
from analyzer.rules.policies import seat_policies
from analyzer.runs.spec import Backend
from kernels import cards as kc
from kernels import state as ks
from kernels.engine import play_round, reveal_top
from kernels.game import GS_SIZE, deal_round, play_rounds, settle_round
from kernels.rng import below, seed_stream_into
from kernels.scoring import refresh_points


def _take(s, kind, rng):
    """A uniformly chosen copy of `kind` out of the ordered deck (the others keep their order)."""
    n = int(s[ks.DECK_LEN])
    at = [i for i in range(n) if kc.TYPE_KIND[s[ks.DECK + i]] == kind]
    if not at:
        return -1
    i = at[int(below(rng, len(at)))]
    t = int(s[ks.DECK + i])
    s[ks.DECK + i:ks.DECK + n - 1] = s[ks.DECK + i + 1:ks.DECK + n].copy()
    s[ks.DECK_LEN] = n - 1
    return t


def _arm(base, rng0, cont0, players, deck, target, pk, pp, q):
    s, rng, cont = base.copy(), rng0.copy(), cont0.copy()
    tr = np.zeros((0, 5), dtype=np.int32)
    play_round(s, pk, pp, rng, tr)
    pts = int(s[ks.POINTS + q])
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    if settle_round(s, players, target, totals, winners) == 0:
        play_rounds(s, players, deck, target, pk, pp, cont, tr, totals, winners,
                    np.zeros(GS_SIZE, dtype=np.int64), (int(s[ks.ENDER]) + 1) % players)
    return pts, int(winners[q] == 1 and winners.sum() == 1), int(totals[q])


def python_pair(i, b: paired.PairedBatch):
    """Pair i of a card batch, by the procedure of kernels.paired' docstring."""
    q = i % b.players
    rng0 = np.zeros(4, dtype=np.uint64)
    cont0 = np.zeros(4, dtype=np.uint64)
    seed_stream_into(rng0, np.uint64(b.seed), np.int64(2 * i))
    seed_stream_into(cont0, np.uint64(b.seed), np.int64(2 * i + 1))
    base = ks.new_state()
    deal_round(base, b.players, b.deck, 0, rng0)
    reveal_top(base, base[ks.DECK_LEN], rng0)
    base[ks.SHUFFLED] = 0
    for _ in range(b.given):
        ks.gain_card(base, q, _take(base, b.card_kind, rng0))
    base_b = base.copy()
    t = _take(base, b.card_kind, rng0)
    if t < 0:
        return None
    ks.gain_card(base, q, t)
    refresh_points(base, b.players)
    refresh_points(base_b, b.players)
    a = _arm(base, rng0, cont0, b.players, b.deck, b.target, b.pka, b.ppa, q)
    z = _arm(base_b, rng0, cont0, b.players, b.deck, b.target, b.pkb, b.ppb, q)
    return a, z


@pytest.mark.parametrize("players, kind, given", [(2, "mermaid", 0), (3, "shell", 1),
                                                  (4, "lighthouse", 0)])
def test_driver_follows_the_documented_procedure(players, kind, given):
    e = paired.plan_card(players, kind, 40, seed=9, given=given)
    b = e.batches[0]
    c = run_task(b, 0, 1)
    n = skipped = wins_a = wins_b = diff = total_diff = 0
    for i in range(40):
        r = python_pair(i, b)
        if r is None:
            skipped += 1
            continue
        (pa, wa, ta), (pb, wb, tb) = r
        n += 1
        wins_a += wa
        wins_b += wb
        diff += pa - pb
        total_diff += ta - tb
    assert (c[pkn.P_N], c[pkn.P_SKIPPED]) == (n, skipped)
    assert (c[pkn.P_WIN_A], c[pkn.P_WIN_B]) == (wins_a, wins_b)
    assert (c[pkn.P_DIFF], c[pkn.P_TOTAL_DIFF]) == (diff, total_diff)


def test_identical_arms_never_differ():
    """Same deal, no difference: every pair ends the same way in both arms."""
    df = paired.run(paired.PairedSpec.build([paired.plan_policy(3, "baseline", "threshold", 600,
                                                                  seed=4)]))
    r = df.iloc[0]
    assert r["pairs"] == 600 and r["win_rate_a"] == r["win_rate_b"]
    assert (r["win_rate_diff"], r["win_rate_diff_lo"], r["win_rate_diff_hi"]) == (0, 0, 0)
    assert r["round_points_diff"] == 0 and r["final_total_diff"] == 0


def test_a_mermaid_in_hand_adds_points():
    df = paired.mermaid_values(players=2, pairs=3000, seed=2, counts=(1,))
    r = df.iloc[0]
    assert r["round_points_diff_lo"] > 0 and r["win_rate_diff_lo"] > 0
    assert r["round_points_a"] > r["round_points_b"]
    # arm B is an ordinary game of identical players: the treated seat's fair share
    assert r["win_rate_b_lo"] <= 0.5 <= r["win_rate_b_hi"]


def test_holding_every_pair_of_a_kind_is_measured_on_the_same_deals():
    df = paired.pair_play_values(players=2, pairs=400, seed=1)
    assert list(df["label"]) == ["fish", "crab", "boat", "swimmer+shark"]
    assert set(df["a"]) == {seat_policies(["threshold"], 1)[0].spec}
    extra = paired.pair_specs("extra-salt")
    assert [x[0] for x in extra][-2:] == ["crab+lobster", "swimmer+jellyfish"]


def test_same_answer_for_any_thread_count():
    es = [paired.plan_card(3, "crab", 700, seed=3)]
    one = paired.run(paired.PairedSpec.build(es, Backend(jobs=1)))
    two = paired.run(paired.PairedSpec.build(es, Backend(jobs=2)))
    assert one.equals(two)


def test_bad_experiments():
    with pytest.raises(SeasaltError, match="0 to 3 can be given"):
        paired.plan_card(2, "mermaid", 10, 1, given=4)
    with pytest.raises(SeasaltError, match="unknown card kind 'seahorse'"):
        paired.plan_card(2, "seahorse", 10, 1)          # Extra Salt only
    with pytest.raises(SeasaltError, match="pairs must be between 2"):
        paired.plan_card(2, "crab", 1, 1)
