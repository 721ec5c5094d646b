"""The command line builds the RunSpec (analyzer/faces/options.py) and hands it to the studies'
spec-taking functions; the Python API's keyword functions build it with RunSpec.build and call the
same functions. For the same words and seed both give the same result, and a spec built once
gives it too."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.play import replay as rp, review as rv
from analyzer.play.replay import replay
from analyzer.play.review import review
from analyzer.play.session import Game
from analyzer.render.output import json_safe
from analyzer.render.tidy_frames import records
from analyzer.runs import backends
from analyzer.runs.spec import Backend, RunSpec
from analyzer.studies import simulate as sim
from analyzer.studies import sweep as sw, tournament as tn
from analyzer.studies.sweep import run_sweep
from analyzer.studies.tournament import run_tournament

ONE = Backend(jobs=1)


def cli_json(*args: str) -> dict:
    r = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def same(d: dict) -> dict:
    """A result as its JSON reads, without the timing (the only entry allowed to differ)."""
    return {k: v for k, v in json.loads(json.dumps(json_safe(d))).items() if k != "timing"}


def study(df, header: dict) -> dict:
    """A tournament's or sweep's result as `--json` prints it."""
    return same({**header, "rows": records(df)})


@pytest.mark.parametrize("argv, unit, count, kwargs", [
    (["-p", "3", "--rounds", "3000", "--policy", "baseline", "--policy", "tuned", "--policy",
      "gambler", "--expansion", "extra-salt"], "rounds", 3000,
     dict(players=3, policies=["baseline", "tuned", "gambler"], expansion="extra-salt")),
    (["-p", "2", "--games", "60", "--policy", "threshold(stop_at=8)", "--target", "25"], "games",
     60, dict(players=2, policies=["threshold(stop_at=8)"], target=25)),
])
def test_simulate_cli_keyword_api_and_built_spec_agree(argv, unit, count, kwargs):
    got = cli_json("simulate", *argv, "--seed", "5", "--jobs", "1")
    if unit == "rounds":
        keyword = sim.simulate_rounds(rounds=count, seed=5, backend=ONE, **kwargs)
    else:
        keyword = sim.simulate_games(games=count, seed=5, backend=ONE, **kwargs)
    built = sim.run(RunSpec.build(unit=unit, count=count, seed=5, backend=ONE, **kwargs))
    assert same(got) == same(keyword) == same(built)
    assert got["seed"] == 5 and got[unit] == count


def test_tournament_cli_keyword_api_and_built_spec_agree():
    entrants = ["tuned", "baseline(stop_at=9)"]
    got = cli_json("tournament", "-p", "3", "--policy", entrants[0], "--policy", entrants[1],
                   "--games", "61", "--seed", "2", "--jobs", "1")
    keyword = study(*run_tournament(entrants, 3, 61, 2, ONE))
    built = study(*tn.run(tn.TournamentSpec.build(entrants, 3, 61, 2, backend=ONE)))
    assert same(got) == keyword == built
    assert got["games"] == 61 and got["target"] == 35 and len(got["rows"]) == 2


def test_sweep_cli_keyword_api_and_built_specs_agree():
    words = (["stop_at=7..8"], "baseline", ["tuned"], "3,2")
    got = cli_json("sweep", "--sweep", "stop_at=7..8", "--vs", "tuned", "--players", "3,2",
                   "--games", "30", "--seed", "5", "--jobs", "1")
    keyword = study(*run_sweep(*words, games=30, seed=5, backend=ONE))
    built = study(*sw.run(sw.SweepSpec.build(*words, games=30, seed=5, backend=ONE)))
    assert same(got) == keyword == built
    assert [r["players"] for r in got["rows"]] == [3, 3, 2, 2]


def test_replay_and_review_cli_keyword_api_and_built_spec_agree():
    spec = RunSpec.build(2, "games", 1, ["gambler", "baseline"], 3, "extra-salt", 10, ONE)
    words = ("--seed", "3", "-p", "2", "--policy", "gambler", "--policy", "baseline",
             "--expansion", "extra-salt", "--target", "10")
    assert same(cli_json("replay", *words)) == same(
        replay(3, 2, ["gambler", "baseline"], "extra-salt", 10)) == same(
        rp.run(rp.ReplaySpec(spec)))
    got = cli_json("review", *words, "--seat", "1", "--samples", "10", "--jobs", "1")
    keyword = review(3, 2, ["gambler", "baseline"], 1, "extra-salt", 10, 10, ONE)
    assert same(got) == same(keyword) == same(rv.run(rv.ReviewSpec(spec, 1, 10)))


def test_a_game_of_a_built_spec_is_the_game_of_its_words():
    words = Game(players=3, opponents=["gambler", "tuned"], seed=7, seat=1)
    built = Game.of(RunSpec.build(3, "games", 1, ["gambler", "baseline", "tuned"], 7), seat=1)
    for _ in range(12):
        if words.over:
            break
        assert built.view() == words.view()
        action = words.legal()[-1]
        words.apply(action)
        built.apply(action)
    assert built.game_file() == words.game_file()


def test_tournament_and_sweep_describe_their_run_as_the_user_gave_it(monkeypatch):
    """The run's description (a checkpoint's header, its messages) shows --expansion and --target
    as typed, a target left out as none: what it showed before the studies took built specs."""
    seen = []
    real = backends.Runner.run

    def spy(self, batches, run, *a, **k):
        seen.append(run)
        return real(self, batches, run, *a, **k)
    monkeypatch.setattr(backends.Runner, "run", spy)
    cli_json("tournament", "--policy", "tuned", "--policy", "baseline", "--games", "4",
             "--seed", "2", "--expansion", "Extra_Salt", "--jobs", "1")
    run_tournament(["tuned", "baseline"], None, 4, 2, ONE, "Extra_Salt")
    cli_json("sweep", "--sweep", "stop_at=7", "--players", "2", "--games", "4", "--seed", "5",
             "--target", "20", "--jobs", "1")
    assert seen[0] == seen[1] == {
        "command": "tournament", "entrants": ["tuned", "baseline"], "players": 2, "games": 4,
        "expansion": "Extra_Salt", "target": None, "seed": 2}
    assert seen[2] == {"command": "sweep", "sweep": ["stop_at=7"], "policy": "baseline",
                       "vs": ["baseline"], "players": [2], "games": 4, "expansion": "base",
                       "target": 20, "seed": 5}
