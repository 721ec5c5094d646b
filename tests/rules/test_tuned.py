"""The tuned players: registered per player count, `tuned` resolved by the count in play, each
exactly the threshold player with its knobs, and its recorded provenance matching the
optimizer's held-out file in docs/optimize/."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from analyzer.base.errors import SeasaltError
from analyzer.rules.policies import REGISTRY, parse_policy, seat_policies
from analyzer.studies.simulate import simulate_games
from analyzer.studies.sweep import sweep
from analyzer.studies.tournament import tournament
from analyzer.rules.tuned import TUNED

DOCS = Path(__file__).resolve().parents[2] / "docs" / "optimize"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tuned_is_the_player_of_the_count(players):
    assert parse_policy("tuned", players=players).info.name == f"tuned{players}"
    assert seat_policies(["tuned"], players)[0].spec == parse_policy(f"tuned{players}").spec
    got = parse_policy("tuned(stop_at=9)", players=players)
    assert dict(got.values)["stop_at"] == 9 and got.info.name == f"tuned{players}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tuned_plays_exactly_threshold_with_its_knobs(players):
    t = TUNED[players]
    explicit = "threshold(" + ",".join(f"{k}={v:g}" for k, v in t.values.items()) + ")"
    a = simulate_games(players, 300, ["tuned"], seed=5)
    b = simulate_games(players, 300, [explicit], seed=5)
    assert a["wins"] == b["wins"] and a["final_total_mean"] == b["final_total_mean"]


def test_unresolved_alias():
    p = parse_policy("tuned")
    assert p.spec == "tuned" and p.short == "tuned"
    with pytest.raises(SeasaltError, match="needs the count"):
        p.vector()
    with pytest.raises(SeasaltError, match="no parameter"):
        parse_policy("tuned(stop=8)")


def test_tuned_in_sweeps_and_tournaments():
    df = sweep(["stop_at=7"], policy="baseline", vs=["tuned"], players=[2, 3], games=60,
               seed=1)
    assert [[x.split("(")[0] for x in f.split("; ")] for f in df["field"]] == [
        ["tuned2"], ["tuned3", "tuned3"]]
    t = tournament(["tuned", "baseline"], players=3, games=60, seed=1)
    assert set(t["spec"]) == {parse_policy("tuned3").spec, parse_policy("baseline").spec}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_provenance_matches_the_optimizer_files(players):
    t = TUNED[players]
    assert f"--players {players}" in t.command and "--seed" in t.command
    held = pd.read_csv(DOCS / f"tuned{players}-heldout.csv")
    pick = held[held["role"] == "pick"].iloc[0]
    assert dict(parse_policy(pick["spec"]).values) == dict(parse_policy(f"tuned{players}").values)
    assert pick["games"] == t.heldout_games
    assert abs(pick["win_rate"] - t.heldout[0]) < 1e-9
    assert abs(pick["win_rate_lo"] - t.heldout[1]) < 1e-5
    seed = int(t.command.split("--seed ")[1].split()[0])
    assert int(held["seed"].iloc[0]) == seed
    assert t.command in REGISTRY[f"tuned{players}"].doc
    assert (DOCS / f"tuned{players}-trace.csv").exists()
