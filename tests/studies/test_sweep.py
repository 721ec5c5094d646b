"""Sweeps: grid parsing and validation through the policy registry, rows recomputed from direct
simulate_games runs with the documented seed plan, determinism across --jobs, and the CLI."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from analyzer import __version__
from analyzer.base.errors import SeasaltError
from analyzer.rules.policies import parse_policy
from analyzer.studies.rotation import rotation_seed, seating, split_games
from analyzer.runs.batches import max_jobs
from analyzer.studies.simulate import simulate_games
from analyzer.numbers.estimates import wilson
from analyzer.studies.sweep import parse_players, parse_sweep, plan, run_sweep, sweep
from analyzer.studies.tournament import tournament
from analyzer.runs.spec import Backend

BASE = parse_policy("baseline")
BASELINE = "baseline(stop_at=7,last_chance_at=10)"
META = {"command", "seed", "policy", "swept", "expansion", "version", "players", "games",
        "field", "target", "spec"}


# The CLI helpers of test_cli.py: invoke `seasalt`, and check a one-line `error:` with exit 2.
from cli_helpers import assert_user_error, run  # noqa: E402


# --- the grid -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, values", [
    ("stop_at=7..14", [7, 8, 9, 10, 11, 12, 13, 14]),
    ("stop_at=7..14:3", [7, 10, 13]),
    ("stop_at = 9..9", [9]),
    ("last_chance_at=10,12,15", [10, 12, 15]),
    ("stop_at=8", [8]),
])
def test_parse_sweep(text, values):
    name, got = parse_sweep(text, BASE)
    assert name == text.split("=")[0].strip() and got == values


def test_two_parameters_make_a_grid():
    base, names, grid = plan(["stop_at=7..8", "last_chance_at=10,12"], "baseline(last_chance_at=11)")
    assert names == ["stop_at", "last_chance_at"]
    assert grid == [(7, 10), (7, 12), (8, 10), (8, 12)]


@pytest.mark.parametrize("text, words", [
    ("stop=7..9", ["no parameter 'stop'", "valid: stop_at, last_chance_at"]),
    ("stop_at=7..101", ["101", "out of range", "0 to 100"]),
    ("stop_at=-1..3", ["-1", "out of range"]),
    ("stop_at=7..9:0.5", ["whole number"]),
    ("stop_at=7.5", ["whole number"]),
    ("stop_at=9..7", ["HI must be at least LO"]),
    ("stop_at=7..9:0", ["STEP must be positive"]),
    ("stop_at=7-9", ["not a number", "PARAM=LO..HI"]),
    ("stop_at", ["cannot parse", "PARAM=LO..HI"]),
    ("=7..9", ["cannot parse"]),
    ("stop_at=7,7", ["repeated"]),
    ("stop_at=1..1000000", ["out of range"]),
])
def test_parse_sweep_errors(text, words):
    with pytest.raises(SeasaltError) as e:
        parse_sweep(text, BASE)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_parse_players():
    assert parse_players("2,3,4") == [2, 3, 4]
    assert parse_players(" 4 ") == [4]
    assert parse_players((3, 2)) == [3, 2]
    for bad in ("1", "2,5", "two", "2,2", ""):
        with pytest.raises(SeasaltError):
            parse_players(bad)


# --- rows are the rotations' figures ----------------------------------------------------------------

def test_rows_match_direct_simulate_games_runs():
    seed, games = 31, 600
    df = sweep(["stop_at=8,11"], vs=["baseline"], players="2,3", games=games, seed=seed)
    assert len(df) == 4
    for _, row in df.iterrows():
        p = int(row["players"])
        spec = f"baseline(stop_at={row['stop_at']},last_chance_at=10)"
        assert row["spec"] == spec and row["field"] == "; ".join([BASELINE] * (p - 1))
        wins = shared = rounds = 0
        total = 0.0
        for r, n in enumerate(split_games(games, p)):
            res = simulate_games(p, n, seating([spec] + [BASELINE] * (p - 1), r),
                                 seed=rotation_seed(seed, p, r))
            wins += res["wins"][r]                  # the swept player sits at seat r
            shared += res["shared_wins_by_seat"][r]
            total += n * res["final_total_mean"][r]
            rounds += n * res["rounds_per_game_mean"]
        assert row["games"] == games
        assert row["wins"] == wins and row["shared_wins"] == shared
        assert row["win_rate"] == wins / games
        assert (row["win_rate_lo"], row["win_rate_hi"]) == pytest.approx(wilson(wins, games))
        assert row["final_total_mean"] == pytest.approx(total / games, rel=1e-12)
        assert row["rounds_per_game_mean"] == pytest.approx(rounds / games, rel=1e-12)
        for key in ("win_rate", "win_share", "final_total", "rounds_per_game", "shared_rate"):
            mean = row[key if key in ("win_rate", "win_share", "shared_rate") else key + "_mean"]
            assert row[key + "_lo"] <= mean <= row[key + "_hi"], key


def test_a_point_equal_to_the_field_is_the_identical_players_tournament():
    """Same seed plan: the point where the swept player is the field's spec is the tournament of
    two identical baselines with the same seed, game for game."""
    df = sweep(["stop_at=7,10"], players=2, games=500, seed=8)
    t = tournament(["baseline", "baseline"], players=2, games=500, seed=8)
    row = df[df["stop_at"] == 7].iloc[0]
    me = t[t["entrant"] == 0].iloc[0]
    for key in ("wins", "shared_wins", "win_share", "final_total_mean", "final_total_lo"):
        assert row[key] == me[key], key


def test_every_row_carries_seed_configuration_and_version():
    df = sweep(["stop_at=7..8"], policy="baseline(last_chance_at=12)", vs=["baseline(stop_at=9)"],
               players=[2, 4], games=100, seed=44, expansion="extra-salt")
    assert META <= set(df.columns) and len(df) == 4
    assert (df["seed"] == 44).all() and (df["version"] == __version__).all()
    assert (df["command"] == "sweep").all() and (df["swept"] == "stop_at").all()
    assert (df["policy"] == "baseline(stop_at=7,last_chance_at=12)").all()
    assert (df["expansion"] == "extra-salt").all() and (df["games"] == 100).all()
    assert list(df["target"]) == [40, 40, 30, 30]
    assert list(df["players"]) == [2, 2, 4, 4] and list(df["stop_at"]) == [7, 8, 7, 8]
    assert set(df["field"]) == {"baseline(stop_at=9,last_chance_at=10)",
                                "; ".join(["baseline(stop_at=9,last_chance_at=10)"] * 3)}
    assert (df["fair_share"] == 1 / df["players"]).all()


def test_same_seed_same_table_for_any_jobs():
    kw = dict(sweeps=["stop_at=7,12"], players="2,3", games=300, seed=2)
    pd.testing.assert_frame_equal(sweep(backend=Backend(jobs=1), **kw),
                                  sweep(backend=Backend(jobs=max_jobs()), **kw))


def test_progress_counts_every_game():
    seen = []
    run_sweep(["stop_at=7,9"], players="2,3", games=60, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen and all(t == 2 * 2 * 60 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1][0] == 240


@pytest.mark.parametrize("kwargs, words", [
    (dict(sweeps=["stop_at=7"], games=3), ["games must be between 4"]),
    (dict(sweeps=["stop_at=7"], vs=["baseline", "baseline"], players="2,3"), ["--vs", "1 field seat"]),
    (dict(sweeps=["stop_at=7"], policy="nope"), ["nope", "valid: baseline"]),
    (dict(sweeps=["stop_at=7"], vs=["baseline(stop_at=x)"]), ["not a number"]),
    (dict(sweeps=[]), ["one or two"]),
    (dict(sweeps=["stop_at=7", "last_chance_at=10", "stop_at=8"]), ["one or two"]),
    (dict(sweeps=["stop_at=7", "stop_at=8"]), ["twice"]),
    (dict(sweeps=["stop_at=7"], backend=Backend(jobs=10 ** 6)), ["jobs must be between 1"]),
    (dict(sweeps=["stop_at=7"], target=-1), ["target must be"]),
])
def test_api_errors(kwargs, words):
    with pytest.raises(SeasaltError) as e:
        sweep(**kwargs)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


# --- CLI ----------------------------------------------------------------------------------------

def test_cli_table_and_json():
    args = ["sweep", "--sweep", "stop_at=7..9", "--vs", "baseline", "--players", "2,4",
            "--games", "400", "--seed", "3"]
    r = run(*args)
    assert r.exit_code == 0 and r.stderr == ""
    out = r.stdout
    assert "2 players (target 40; fair share 50.0%)" in out and "4 players (target 30" in out
    assert "win rate [95%]" in out and "seed 3" in out and __version__ in out
    d = json.loads(run(*args, "--json").stdout)
    assert d["seed"] == 3 and d["swept"] == ["stop_at"] and d["players"] == [2, 4]
    assert d["grid"] == [[7], [8], [9]] and len(d["rows"]) == 6
    for row in d["rows"]:
        assert META <= set(row)
        assert row["win_rate_lo"] <= row["win_rate"] <= row["win_rate_hi"]


def test_cli_same_table_for_any_jobs():
    args = ["sweep", "--sweep", "stop_at=7,10", "--players", "3", "--games", "300", "--seed", "13"]
    a, b = run(*args, "-j", "1"), run(*args, "-j", str(max_jobs()))
    assert a.exit_code == b.exit_code == 0
    strip = lambda s: [x for x in s.splitlines() if not x.startswith("time ")]  # noqa: E731
    assert strip(a.stdout) == strip(b.stdout)


@pytest.mark.parametrize("args, words", [
    (["--sweep", "stop=7..9"], ["stop", "valid: stop_at, last_chance_at"]),
    (["--sweep", "stop_at=7..200"], ["200", "out of range", "0 to 100"]),
    (["--sweep", "stop_at=7..9:0.5"], ["whole number"]),
    (["--sweep", "stop_at~7"], ["cannot parse", "PARAM=LO..HI"]),
    (["--sweep", "stop_at=7..9", "--policy", "greedy"], ["greedy", "valid: baseline"]),
    (["--sweep", "stop_at=7..9", "--vs", "baseline(stop_at=1000)"], ["out of range"]),
    (["--sweep", "stop_at=7..9", "--players", "2,5"], ["--players"]),
    (["--sweep", "stop_at=7..9", "--players", "x"], ["--players"]),
    (["--sweep", "stop_at=7..9", "--games", "1"], ["--games"]),
    (["--sweep", "stop_at=7..9", "--seed", str(2 ** 64)], ["--seed"]),
    (["--sweep", "stop_at=7..9", "--out", "table.txt"], [".txt", "valid: .csv, .json, .parquet"]),
    (["--sweep", "stop_at=7..9", "--out", "/no/such/dir/t.csv"], ["does not exist"]),
    ([], ["--sweep"]),
])
def test_cli_errors(args, words):
    assert_user_error(run("sweep", *args), *words)


def test_the_output_says_what_to_conclude():
    """Per player count, the best point and every point whose interval overlaps it ("tied at
    this precision"), or that it is clear of the next; identical rows count once. The README's
    question: declaring at 7 as a LAST CHANCE (last_chance_at=7) against always STOP (99)."""
    args = ["sweep", "--sweep", "stop_at=7..8", "--sweep", "last_chance_at=7,99", "--policy",
            "threshold", "--vs", "baseline", "--players", "3", "--games", "3000", "--seed", "1"]
    r = run(*args, "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    words = d["best"]["3"]
    rows = sorted(d["rows"], key=lambda x: -x["win_rate"])
    top = rows[0]
    assert (top["stop_at"], top["last_chance_at"]) in ((7, 7), (8, 7))
    assert words.startswith(f"(stop_at={top['stop_at']}, last_chance_at={top['last_chance_at']})")
    tied = [x for x in rows[1:] if x["win_rate_hi"] >= top["win_rate_lo"]]
    assert ("tied at this precision" in words) == bool(tied)
    assert "last_chance_at=99) is best" not in words and "last_chance_at=99) and" not in words
    text = run(*args).stdout
    assert text.splitlines()[4].startswith("  best: (stop_at=")       # under "3 players (...)"
    assert "best: " + words in " ".join(text.split())
