"""kernels.fastround against the general engine: the same games, state and random stream.

`fast_round` is a specialised copy of `game.new_round` for baseline seats (issue 29), which
kernels.batch's drivers take when `fastround.applies`. Here the same games
are played with each (`game.game_with`; the general engine's is play_game, the one `seasalt
replay` compiles): every round of every game adds to the per-seat statistics and totals and
decides who starts the next, and the final state and stream are compared entry by entry, so one
round played differently anywhere shows.
"""
import numpy as np
import pytest
from numba import njit

from analyzer.rules.policies import policy_arrays, seat_policies
from kernels import cards as kc
from kernels import state as ks
from kernels.actions import DEC_DONE, PH_DECIDE, PH_STOP
from kernels.engine import act, answer, play_round, step
from kernels.fastround import (applies, continue_round, continue_round_extra, fast_round,
                               fast_round_extra, with_extra_salt)
from kernels.game import GS_LC, GS_LC_WON, GS_SIZE, GS_VOID, deal_round, game_with, play_game
from kernels.legal import legal_actions
from kernels.policies import SEARCH
from kernels.rng import below, seed_stream, seed_stream_into
from kernels.scoring import UNKNOWN

# (expansion, players, seat policies): the default player, per-seat thresholds, LAST CHANCE at
# every declaration (many lost calls), and a late STOP (long rounds: one-card decks, empty piles
# and void rounds); with Extra Salt also the lobster, the lock and locked turns, starfish.
CASES = [
    ("base", 2, ["baseline"]),
    ("base", 2, ["baseline(stop_at=5,last_chance_at=7)",
                 "baseline(stop_at=12,last_chance_at=40)"]),
    ("base", 3, ["baseline(stop_at=8,last_chance_at=9)"]),
    ("base", 4, ["baseline"]),
    ("base", 4, ["baseline(stop_at=14,last_chance_at=14)"]),
    ("extra-salt", 2, ["baseline"]),
    ("extra-salt", 3, ["baseline(stop_at=7,last_chance_at=7)"]),
    ("extra-salt", 4, ["baseline(stop_at=14,last_chance_at=14)"]),
]
GAMES = 400
TARGET = 40


@njit
def _fast_game(s, nplayers, deck, target, pk, pp, rng, tr, totals, winners, stats):
    return game_with(fast_round, s, nplayers, deck, target, pk, pp, rng, tr, totals, winners,
                     stats)


@njit
def _extra_game(s, nplayers, deck, target, pk, pp, rng, tr, totals, winners, stats):
    return game_with(fast_round_extra, s, nplayers, deck, target, pk, pp, rng, tr, totals,
                     winners, stats)


def _game(expansion, players, pk, pp, seed, fast):
    """One game from seed's stream: (rounds, mermaids, totals, winners, stats, state, stream)."""
    s = ks.new_state()
    rng = seed_stream(seed, 0)
    tr = np.zeros((0, 5), dtype=np.int32)
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    stats = np.zeros(GS_SIZE, dtype=np.int64)
    play = (_extra_game if expansion != "base" else _fast_game) if fast else play_game
    rounds, mermaids = play(s, players, kc.deck_types(expansion), TARGET, pk, pp, rng, tr,
                            totals, winners, stats)
    return int(rounds), int(mermaids), totals, winners, stats, s[:ks.STATE_CORE], rng


@pytest.mark.parametrize("expansion,players,specs", CASES)
def test_fast_round_plays_the_general_engines_games(expansion, players, specs):
    pk, pp = policy_arrays(seat_policies(specs, players))
    void = rounds = lost = 0
    for seed in range(GAMES):
        fast = _game(expansion, players, pk, pp, seed, fast=True)
        slow = _game(expansion, players, pk, pp, seed, fast=False)
        assert fast[:2] == slow[:2], seed
        for a, b in zip(fast[2:], slow[2:]):
            np.testing.assert_array_equal(a, b, err_msg=f"seed {seed}")
        rounds += fast[0]
        void += int(fast[4][GS_VOID])
        stats = fast[4]
        lost += int(stats[GS_LC:GS_LC + players].sum() - stats[GS_LC_WON:GS_LC_WON + players].sum())
    assert rounds >= GAMES
    if "stop_at=14" in specs[0]:
        assert void > 0          # the late STOP reaches the empty deck's paths
    if "last_chance_at=7" in specs[0]:
        assert lost > 0          # lost LAST CHANCE calls are scored too


def test_applies_to_baseline_seats_only():
    pk, _ = policy_arrays(seat_policies(["baseline"], 3))
    assert applies(3, pk)
    for other in ("random", "threshold(take_at=2)"):
        mixed, _ = policy_arrays(seat_policies(["baseline", other, "baseline"], 3))
        assert not applies(3, mixed)
    # A threshold player at its defaults is the baseline (policies.kernel_kind).
    same, _ = policy_arrays(seat_policies(["threshold(stop_at=9)"], 3))
    assert applies(3, same)
    assert not with_extra_salt(kc.deck_types("base"))
    assert with_extra_salt(kc.deck_types("extra-salt"))
    # Seats past the player count are not asked.
    two, _ = policy_arrays(seat_policies(["baseline", "random"], 2))
    assert not applies(2, two) and applies(1, two)


# ---------------------------------------------------------------------------------------------
# continue_round: the search player's rollouts from a decision point

@njit
def _rollouts_both_ways(nplayers, deck, pk, rpk, rpp, seed, extra, rounds):
    """Rounds in which seat 0 is external and picks a uniformly random legal action; at each of
    its decisions the action is rolled out to the round's end twice from copies of the state and
    stream, as kernels.search does: by the engine alone (step) and by
    act then continue_round from the stage act reached. Returns (rollouts, rollouts that
    differed in state or stream, rollouts that went on in continue_round)."""
    s = np.zeros(ks.STATE_SIZE, np.int32)
    x = np.zeros(ks.STATE_SIZE, np.int32)
    y = np.zeros(ks.STATE_SIZE, np.int32)
    rng = np.zeros(4, np.uint64)
    rx = np.zeros(4, np.uint64)
    ry = np.zeros(4, np.uint64)
    tr = np.zeros((0, 5), np.int32)
    seed_stream_into(rng, seed, 0)
    n = differ = resumed = 0
    for r in range(rounds):
        deal_round(s, nplayers, deck, r % nplayers, rng)
        play_round(s, pk, rpp, rng, tr)
        while s[ks.DEC] != DEC_DONE:
            a = s[ks.LEGAL + below(rng, legal_actions(s, False))]
            for i in range(ks.STATE_CORE):
                x[i] = s[i]
                y[i] = s[i]
            for i in range(4):
                rx[i] = rng[i]
                ry[i] = rng[i]
            step(x, a, rpk, rpp, rx, tr)
            stage = act(y, a, UNKNOWN, ry, tr)
            while stage == PH_DECIDE:           # the bots' decisions the action led to
                stage = answer(y, rpk, rpp, ry, tr)
            if stage != PH_STOP:
                resumed += 1
                if extra:
                    continue_round_extra(y, rpp, ry, stage)
                else:
                    continue_round(y, rpp, ry, stage)
            same = True
            for i in range(ks.STATE_CORE):
                same = same and x[i] == y[i]
            for i in range(4):
                same = same and rx[i] == ry[i]
            n += 1
            differ += 0 if same else 1
            step(s, a, pk, rpp, rng, tr)
    return n, differ, resumed


@pytest.mark.parametrize("expansion,players,specs", CASES)
def test_continue_round_finishes_rounds_as_the_engine_does(expansion, players, specs):
    """From every decision of a randomly playing external seat 0 (pile or deck, keep, crab
    picks, victims, the lobster's card, STOP or LAST CHANCE or neither, locked turns, void
    rounds), the round finished by continue_round equals the engine's, state and stream."""
    rpk, rpp = policy_arrays(seat_policies(specs, players))
    pk = rpk.copy()
    pk[0] = SEARCH                          # external: the engine stops at its decisions
    n, differ, resumed = _rollouts_both_ways(players, kc.deck_types(expansion), pk, rpk, rpp,
                                             np.uint64(29), expansion != "base", 150)
    assert differ == 0, f"{differ} of {n} rollouts differ"
    assert resumed == n                     # (no action of a turn ends the round: its end does)
