"""Round-level breakdowns of rounds and games runs, checked against identities a rules reader can
verify (every call is counted once, mermaids always score at least one point each, ...)."""
from __future__ import annotations

import pytest

from analyzer.studies.simulate import simulate_games, simulate_rounds
from analyzer.studies.sweep import sweep


@pytest.fixture(scope="module")
def rounds3():
    return simulate_rounds(3, 60_000, ["baseline"], seed=21, expansion="extra-salt")


def test_last_chance_by_points_adds_up_to_the_round_ends(rounds3):
    by = rounds3["last_chance_by_points"]
    assert sum(v["calls"] for v in by.values()) == (rounds3["end"]["last_chance_won"]
                                                    + rounds3["end"]["last_chance_lost"])
    assert sum(v["won"] for v in by.values()) == rounds3["end"]["last_chance_won"]
    # The baseline calls LAST CHANCE only from last_chance_at = 10 points.
    assert min(int(k) for k in by) >= 10
    for v in by.values():
        lo, hi = v["ci95"]
        assert lo <= v["rate"] <= hi


def test_mermaid_payoff(rounds3):
    pay = {row["mermaids"]: row for row in rounds3["mermaid_payoff"]}
    scored = (rounds3["end"]["stop"] + rounds3["end"]["last_chance_won"]
              + rounds3["end"]["last_chance_lost"])
    assert sum(row["player_rounds"] for row in pay.values()) == 3 * scored
    assert pay[0]["mermaid_points_mean"] == 0
    for m, row in pay.items():
        # m mermaids score the m largest colour counts; white alone counts m, so M >= m.
        assert row["mermaid_points_mean"] >= m
        lo, hi = row["round_points_ci95"]
        assert lo <= row["round_points_mean"] <= hi
    # Four mermaids end the game unscored: never in a scored round.
    assert 4 not in pay


def test_game_round_statistics():
    g = simulate_games(3, 2_000, ["baseline"], seed=8)
    rounds = g["rounds_played"]
    assert rounds == round(g["rounds_per_game_mean"] * g["games"])
    assert sum(g["stop_calls"]) + sum(g["last_chance_calls"]) >= rounds - g["void_rounds"] - g["mermaid_wins"]
    assert sum(g["stop_calls"]) + sum(g["last_chance_calls"]) <= rounds - g["void_rounds"]
    assert all(w <= c for w, c in zip(g["last_chance_won"], g["last_chance_calls"]))
    assert all(n <= rounds for n in g["rounds_with_mermaids"])
    lo, hi = g["void_rate"]["ci95"]
    assert lo <= g["void_rate"]["rate"] <= hi


def test_sweep_rows_carry_the_round_breakdowns():
    df = sweep(["stop_at=7,10"], vs=["baseline"], players=2, games=400, seed=3)
    for key in ("void_rate", "last_chance_per_round", "last_chance_success", "mermaid_points_per_round"):
        assert f"{key}_lo" in df and f"{key}_hi" in df
    assert (df["void_rate_lo"] <= df["void_rate"]).all()
    # With stop_at=10 = last_chance_at every declaration is a LAST CHANCE: many more calls.
    per = dict(zip(df["stop_at"], df["last_chance_per_round"]))
    assert per[10] > 2 * per[7]


def test_tidy_breakdown_tables(rounds3):
    from analyzer.render.tidy_frames import ROUNDS_TABLES
    lc = ROUNDS_TABLES["last-chance"](rounds3)
    assert lc["calls"].sum() == rounds3["end"]["last_chance_won"] + rounds3["end"]["last_chance_lost"]
    assert {"seed", "policies", "version", "rounds"} <= set(lc.columns)
    mer = ROUNDS_TABLES["mermaids"](rounds3)
    assert list(mer["mermaids"]) == sorted(mer["mermaids"])
    turns = ROUNDS_TABLES["turns"](rounds3)
    assert turns["count"].sum() == rounds3["rounds"] and abs(turns["share"].sum() - 1) < 1e-9


def test_sweep_mermaid_points_per_round_is_its_points_over_its_scored_rounds():
    """Pooled over the rotations, a sweep's mermaid points per round is the swept player's
    mermaid points over its scored rounds (the statistic's observations), not the rotations'
    means weighted by their non-void rounds, which count four-mermaid rounds that score nothing:
    that weighting printed 1.7303679569443333 for this sweep, the ratio is 57488/33223 =
    1.7303675164795473."""
    from fractions import Fraction
    from analyzer.studies.rotation import rotation_seed, seating, split_games
    df = sweep(["stop_at=7"], vs=["baseline"], players=2, games=5000, seed=13)
    lineup = ["baseline(stop_at=7)", "baseline"]
    points = scored = 0
    for r, games in enumerate(split_games(5000, 2)):
        g = simulate_games(2, games, seating(lineup, r), seed=rotation_seed(13, 2, r))
        n = g["rounds_played"] - g["void_rounds"] - g["mermaid_wins"]     # rounds scored
        points += round(g["mermaid_points_per_round_mean"][r % 2] * n)    # the swept seat's
        scored += n
    assert (points, scored) == (57488, 33223)
    assert df["mermaid_points_per_round_mean"].iloc[0] == pytest.approx(
        float(Fraction(points, scored)), rel=1e-15)
