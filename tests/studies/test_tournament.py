"""Tournaments in rotated seats: the ranking's statistics against known answers (identical players
share the wins equally, and the 95% intervals cover that about 95% of the time), against a
direct recomputation from simulate_games with the documented seed plan, and the CLI."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from analyzer import __version__
from analyzer.base.errors import SeasaltError
from analyzer.studies.rotation import derive_seed, rotation_seed, seating, split_games
from analyzer.runs.batches import max_jobs
from analyzer.studies.simulate import simulate_games
from analyzer.studies.tournament import run_tournament, tournament
from analyzer.runs.spec import Backend

BASELINE = "baseline(stop_at=7,last_chance_at=10)"
S9 = "baseline(stop_at=9,last_chance_at=10)"
META = {"command", "seed", "players", "expansion", "target", "rotations", "lineup", "version"}


# The CLI helpers of test_cli.py: invoke `seasalt`, and check a one-line `error:` with exit 2.
from cli_helpers import assert_user_error, run  # noqa: E402


# --- the seed plan ------------------------------------------------------------------------------

def test_seed_plan_is_fixed_and_distinct():
    # Pinned: changing the derivation changes every published table.
    assert derive_seed(1, 2, 0) == derive_seed(1, 2, 0)
    seeds = {rotation_seed(s, p, r) for s in (0, 1, 2 ** 64 - 1) for p in (2, 3, 4) for r in range(p)}
    assert len(seeds) == 27 and all(0 <= x < 2 ** 64 for x in seeds)


def test_games_are_split_over_the_rotations():
    assert split_games(10, 3) == [4, 3, 3]
    assert split_games(12, 4) == [3, 3, 3, 3]
    assert sum(split_games(20_001, 4)) == 20_001


def test_every_entrant_sits_in_every_seat_once():
    lineup = ["a", "b", "c"]
    seats = [seating(lineup, r) for r in range(3)]
    for who in lineup:
        assert sorted(s.index(who) for s in seats) == [0, 1, 2]
    assert seats[0] == lineup and seats[1] == ["c", "a", "b"]


# --- known answers ------------------------------------------------------------------------------

@pytest.mark.parametrize("players, games", [(2, 6000), (3, 6000), (4, 6000)])
def test_identical_players_share_the_wins_equally(players, games):
    df = tournament(["baseline"] * players, players=players, games=games, seed=100 + players)
    assert len(df) == players and (df["games"] == games).all() and (df["seats"] == 1).all()
    # Win shares (shared wins split) add up to exactly one win per game.
    assert df["win_share"].sum() == pytest.approx(1.0, abs=1e-12)
    decided = df["wins"].sum() / games          # games with an outright winner
    assert 0.95 < decided <= 1
    for _, row in df.iterrows():
        assert row["fair_share"] == pytest.approx(1 / players)
        # By symmetry every identical entrant's expected win share is exactly 1/P ...
        assert row["win_share_lo"] <= 1 / players <= row["win_share_hi"], row
        # ... and its outright win rate 1/P of the games that had an outright winner.
        assert row["win_rate_lo"] <= decided / players <= row["win_rate_hi"], row


def test_interval_coverage_over_repeated_seeds():
    """Two identical players, 400 games each time, 40 seeds: the 95% interval of the win share
    contains the true 1/2 in about 95% of the runs (binomial: 34 or more of 40 with probability
    above 0.99 if the coverage is really 95%)."""
    hits = 0
    runs = 40
    for seed in range(runs):
        df = tournament([BASELINE, BASELINE], players=2, games=400, seed=seed,
                        backend=Backend(jobs=1))
        row = df[df["entrant"] == 0].iloc[0]
        hits += row["win_share_lo"] <= 0.5 <= row["win_share_hi"]
    assert 0.85 * runs <= hits <= runs, hits


def test_a_stronger_player_ranks_first():
    # stop_at=7 beats stop_at=12 by a wide margin over 6000 3-player games (tested at the reference
    # figures' strength: well outside both intervals).
    df = tournament(["baseline(stop_at=12)", "baseline", "baseline(stop_at=12)"], players=3,
                    games=6000, seed=4)
    assert list(df["rank"]) == [1, 2, 3]
    assert df.iloc[0]["spec"] == BASELINE and df.iloc[0]["entrant"] == 1
    assert df.iloc[0]["win_rate_lo"] > max(df.iloc[1]["win_rate_hi"], df.iloc[2]["win_rate_hi"])
    assert list(df["win_rate"]) == sorted(df["win_rate"], reverse=True)


# --- the figures are the rotations' figures -------------------------------------------------------

def test_rows_recompute_from_simulate_games_with_the_seed_plan():
    policies = [BASELINE, S9, "baseline(stop_at=11)"]
    games, seed = 1000, 77
    df = tournament(policies, players=3, games=games, seed=seed)
    wins = [0, 0, 0]
    shared = [0, 0, 0]
    tot = [0.0, 0.0, 0.0]
    for r, n in enumerate(split_games(games, 3)):
        res = simulate_games(3, n, seating(policies, r), seed=rotation_seed(seed, 3, r))
        for e in range(3):
            q = (e + r) % 3          # entrant e sits at seat e + r
            wins[e] += res["wins"][q]
            shared[e] += res["shared_wins_by_seat"][q]
            tot[e] += n * res["final_total_mean"][q]
    by = df.set_index("entrant")
    for e in range(3):
        assert by.loc[e, "wins"] == wins[e]
        assert by.loc[e, "shared_wins"] == shared[e]
        assert by.loc[e, "final_total_mean"] == pytest.approx(tot[e] / games, rel=1e-12)
        assert by.loc[e, "final_total_lo"] < by.loc[e, "final_total_mean"] < by.loc[e, "final_total_hi"]


def test_fewer_entrants_than_seats_cycle():
    df, h = run_tournament(["baseline", "baseline(stop_at=9)"], players=4, games=800, seed=3)
    assert h["lineup"] == [BASELINE, S9, BASELINE, S9]
    assert (df["seats"] == 2).all() and (df["fair_share"] == 0.5).all()
    total_shared_games = sum(r["games"] for r in h["rotation_runs"]) - df["wins"].sum()
    assert total_shared_games >= 0          # outright wins of the two entrants are disjoint
    assert df["win_share"].sum() == pytest.approx(1.0, abs=1e-12)


def test_every_row_carries_seed_configuration_and_version():
    df = tournament([BASELINE, S9], players=2, games=200, seed=12, expansion="extra-salt",
                    target=25)
    assert META <= set(df.columns)
    assert (df["seed"] == 12).all() and (df["players"] == 2).all()
    assert (df["expansion"] == "extra-salt").all() and (df["target"] == 25).all()
    assert (df["version"] == __version__).all() and (df["command"] == "tournament").all()
    assert (df["lineup"] == f"{BASELINE}; {S9}").all()
    assert df.attrs["header"]["rotation_runs"][1]["seed"] == rotation_seed(12, 2, 1)


def test_same_seed_same_table_for_any_jobs():
    a = tournament([BASELINE, S9, BASELINE], players=3, games=900, seed=5, backend=Backend(jobs=1))
    b = tournament([BASELINE, S9, BASELINE], players=3, games=900, seed=5,
                   backend=Backend(jobs=max_jobs()))
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("kwargs, words", [
    (dict(policies=["baseline"]), ["at least two"]),
    (dict(policies=["baseline"] * 3, players=2), ["3", "2 seats"]),
    (dict(policies=["baseline", "nope"]), ["nope", "valid"]),
    (dict(policies=["baseline", "baseline"], games=1), ["games must be"]),
    (dict(policies=["baseline", "baseline"], players=5), ["players must be"]),
])
def test_api_errors(kwargs, words):
    with pytest.raises(SeasaltError) as e:
        tournament(**kwargs)
    for w in words:
        assert w in str(e.value)


# --- CLI ----------------------------------------------------------------------------------------

def _table_lines(text):
    return [line for line in text.splitlines() if not line.startswith("time ")]


def test_cli_table_and_json():
    args = ["tournament", "--players", "3", "--policy", "baseline", "--policy", "baseline(stop_at=12)",
            "--games", "600", "--seed", "9"]
    r = run(*args)
    assert r.exit_code == 0 and r.stderr == ""
    assert "rank" in r.stdout and "win rate [95%]" in r.stdout and "seed 9" in r.stdout
    assert __version__ in r.stdout
    # 2 entrants, 3 seats: the first entrant holds two of them.
    assert "3 seatings of 200 games" in r.stdout
    rj = run(*args, "--json")
    d = json.loads(rj.stdout)
    assert d["seed"] == 9 and d["players"] == 3 and d["games"] == 600 and d["version"] == __version__
    assert [x["rank"] for x in d["rows"]] == [1, 2]
    assert {x["seats"] for x in d["rows"]} == {1, 2}
    assert [x["seed"] for x in d["rotation_runs"]] == [rotation_seed(9, 3, r) for r in range(3)]
    for row in d["rows"]:
        assert row["win_rate_lo"] <= row["win_rate"] <= row["win_rate_hi"]
        assert META <= set(row)
    ranked = [x["win_rate"] for x in d["rows"]]
    assert ranked == sorted(ranked, reverse=True)


def test_cli_same_table_for_any_jobs():
    args = ["tournament", "-p", "2", "--policy", "baseline", "--policy", "baseline(stop_at=9)",
            "--games", "500", "--seed", "21"]
    a = run(*args, "--jobs", "1")
    b = run(*args, "--jobs", str(max_jobs()))
    assert a.exit_code == b.exit_code == 0
    assert _table_lines(a.stdout) == _table_lines(b.stdout)


@pytest.mark.parametrize("args, words", [
    (["--policy", "baseline"], ["at least two"]),
    (["--policy", "baseline", "--policy", "baseline(stop_at=500)"], ["stop_at", "range"]),
    (["--policy", "baseline", "--policy", "baseline(stop_at=9", "--games", "10"], ["parse"]),
    (["--policy", "baseline", "--policy", "baseline(stop=9)"], ["stop", "valid: stop_at"]),
    (["--policy", "baseline", "--policy", "baseline", "--players", "5"], ["--players"]),
    (["--policy", "baseline", "--policy", "baseline", "--jobs", "0"], ["--jobs"]),
    (["--policy", "baseline", "--policy", "baseline", "--seed", "-4"], ["--seed"]),
    (["--policy", "baseline", "--policy", "baseline", "--games", "x"], ["--games"]),
    (["--policy", "baseline", "--policy", "baseline", "--expansion", "salty"], ["salty"]),
    (["--policy", "baseline", "--policy", "baseline", "--target", "0"], ["--target"]),
    (["--policy", "baseline", "--policy", "baseline", "--out", "x.xlsx"], [".xlsx", ".csv"]),
])
def test_cli_errors(args, words):
    assert_user_error(run("tournament", *args), *words)


def test_stratified_interval_combines_the_strata_standard_errors():
    """A stratified estimate (analyzer.numbers.estimates.stratified, used over seating rotations) from each
    stratum's integer sums: the pooled mean, and the half-width 1.96 * sqrt(sum (n_i/N)^2
    s_i^2/n_i) worked out by hand."""
    import math
    from analyzer.numbers.estimates import Z95, stratified
    strata = [[3, 9, 4, 4, 12, 0, 7], [5, 5, 6, 2, 8]]
    cells = [(len(v), float(sum(v)), float(sum(x * x for x in v))) for v in strata]
    n = sum(len(v) for v in strata)
    var = 0.0
    for v in strata:
        m = sum(v) / len(v)
        s2 = sum((x - m) ** 2 for x in v) / (len(v) - 1)
        var += (len(v) / n) ** 2 * s2 / len(v)
    mean, lo, hi = stratified(cells)
    assert mean == pytest.approx(sum(map(sum, strata)) / n, rel=1e-12)
    assert hi - mean == pytest.approx(Z95 * math.sqrt(var), rel=1e-12)
    assert mean - lo == pytest.approx(hi - mean, rel=1e-12)


def test_entrant_counts_are_sums_of_the_rotations_counters():
    """Rotations add integer counters: an entrant's wins and shared wins are the counters of
    the seats it sat in, rotation by rotation."""
    from analyzer.studies.rotation import aggregate, plan_rotations, rotation_runs
    from analyzer.runs.backends import Runner
    lineup = ["baseline", "gambler", "baseline"]
    planned = plan_rotations(lineup, 301, seed=5)
    outcome = Runner(1).run([p.batch for p in planned], {"command": "test"})
    runs = rotation_runs(planned, outcome.counters, outcome.timing)
    rows = aggregate(runs, [0, 1, 0], 2)
    for e, slots in ((0, [0, 2]), (1, [1])):
        seats = [[(i + r.rotation) % 3 for i in slots] for r in runs]
        assert rows[e]["wins"] == sum(r.result["wins"][q] for r, qs in zip(runs, seats) for q in qs)
        assert rows[e]["shared_wins"] == sum(r.result["shared_wins_by_seat"][q]
                                             for r, qs in zip(runs, seats) for q in qs)
    assert sum(r["games"] for r in rows) == 2 * 301


def test_a_catalogue_line_reaches_tournament_and_sweep_rows_text_and_json(monkeypatch):
    """A rotation column is one line of analyzer.numbers.catalogue.ROTATION_COLUMNS: STOP calls
    per round (counted per seat, shown nowhere today) reaches the tournament's and the sweep's
    rows, JSON and text, as the pooled rate of the seats the player held."""
    import analyzer.numbers.catalogue as catalogue
    from analyzer.numbers.catalogue import Pooled
    from analyzer.numbers.estimates import wilson
    from analyzer.render import text_tables
    from analyzer.studies import rotation
    from analyzer.studies.sweep import run_sweep
    extra = Pooled("stop_per_round", "stop_calls", "rate", per="rounds_played",
                   text="STOP/round [95%]", note="its STOP calls per round played")
    cols = catalogue.ROTATION_COLUMNS + (extra,)
    for module in (catalogue, rotation, text_tables):
        monkeypatch.setattr(module, "ROTATION_COLUMNS", cols)
    df, h = run_tournament(["baseline", "gambler"], players=3, games=300, seed=4,
                           backend=Backend(jobs=1))
    runs = h["rotation_runs"]
    at = list(df.columns).index("final_total_hi") + 1          # after the catalogue's last
    assert list(df.columns[at:at + 3]) == ["stop_per_round", "stop_per_round_lo", "stop_per_round_hi"]
    for row in df.to_dict("records"):          # baseline holds two seats: slots 0 and 2
        slots = [0, 2] if row["entrant"] == 0 else [1]
        calls = rounds = 0
        for r in runs:
            res = simulate_games(3, r["games"], r["seats"], seed=r["seed"],
                                 backend=Backend(jobs=1))
            calls += sum(res["stop_calls"][(i + r["rotation"]) % 3] for i in slots)
            rounds += res["rounds_played"] * len(slots)
        assert row["stop_per_round"] == calls / rounds
        assert (row["stop_per_round_lo"], row["stop_per_round_hi"]) == wilson(calls, rounds)
    text = " ".join(text_tables.format_tournament(df, h).split())      # notes are wrapped
    assert "STOP/round [95%]" in text and "STOP/round: its STOP calls per round played" in text
    sw, sh = run_sweep(["stop_at=8,10"], players=3, games=300, seed=4,
                       backend=Backend(jobs=1))
    assert {"stop_per_round", "stop_per_round_lo", "stop_per_round_hi"} <= set(sw.columns)
    assert sw["stop_per_round"].iloc[0] > sw["stop_per_round"].iloc[1]   # stops earlier, more
    assert "STOP/round [95%]" in text_tables.format_sweep(sw, sh)


@pytest.mark.parametrize("command", ["tournament", "sweep", "replay"])
def test_help(command):
    r = run(command, "--help")
    assert r.exit_code == 0 and "Usage:" in r.stdout and r.stderr == ""
