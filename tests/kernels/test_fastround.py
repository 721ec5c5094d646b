"""kernels.fastround against the general engine: the same games, state and random stream.

`fast_round` is a specialised copy of `game.new_round` for baseline seats and base-game cards
(issue 29). `play_game` takes it when `fastround.applies`, and the general engine (kernels/
engine.py) when a trace buffer is given; both calls below are one compiled function (the one
`seasalt replay` uses), so the only difference is the path. Every round of every game adds to
the per-seat statistics and totals and decides who starts the next, and the final state and
stream are compared entry by entry: one round played differently anywhere shows.
"""
import numpy as np
import pytest

from analyzer.rules.policies import policy_arrays, seat_policies
from kernels import cards as kc
from kernels import state as ks
from kernels.fastround import applies
from kernels.game import GS_LC, GS_LC_WON, GS_SIZE, GS_VOID, play_game
from kernels.rng import seed_stream

# (players, seat policies): the default player, per-seat thresholds, LAST CHANCE at every
# declaration (many lost calls), and a late STOP (long rounds: one-card decks, empty piles and
# void rounds).
CASES = [
    (2, ["baseline"]),
    (2, ["baseline(stop_at=5,last_chance_at=7)", "baseline(stop_at=12,last_chance_at=40)"]),
    (3, ["baseline(stop_at=8,last_chance_at=9)"]),
    (4, ["baseline"]),
    (4, ["baseline(stop_at=14,last_chance_at=14)"]),
]
GAMES = 400
TARGET = 40


def _game(players, pk, pp, seed, traced):
    """One game from seed's stream: (rounds, mermaids, totals, winners, stats, state, stream)."""
    s = ks.new_state()
    rng = seed_stream(seed, 0)
    tr = np.zeros((1 if traced else 0, 5), dtype=np.int32)   # one row: counts events only
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    stats = np.zeros(GS_SIZE, dtype=np.int64)
    rounds, mermaids = play_game(s, players, kc.deck_types("base"), TARGET, pk, pp, rng, tr,
                                 totals, winners, stats)
    return int(rounds), int(mermaids), totals, winners, stats, s[:ks.STATE_CORE], rng


@pytest.mark.parametrize("players,specs", CASES)
def test_fast_round_plays_the_general_engines_games(players, specs):
    pk, pp = policy_arrays(seat_policies(specs, players))
    void = rounds = lost = 0
    for seed in range(GAMES):
        fast = _game(players, pk, pp, seed, traced=False)
        slow = _game(players, pk, pp, seed, traced=True)
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


def test_applies_only_to_baseline_seats_base_cards_untraced():
    pk, _ = policy_arrays(seat_policies(["baseline"], 3))
    base, extra = kc.deck_types("base"), kc.deck_types("extra-salt")
    off = np.zeros((0, 5), dtype=np.int32)
    assert applies(3, base, pk, off)
    assert not applies(3, extra, pk, off)
    assert not applies(3, base, pk, np.zeros((1, 5), dtype=np.int32))
    for other in ("random", "threshold(take_at=2)"):
        mixed, _ = policy_arrays(seat_policies(["baseline", other, "baseline"], 3))
        assert not applies(3, base, mixed, off)
    # Seats past the player count are not asked.
    two, _ = policy_arrays(seat_policies(["baseline", "random"], 2))
    assert not applies(2, base, two, off) and applies(1, base, two, off)

