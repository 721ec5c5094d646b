"""The run specification (analyzer.runs.spec): each fact checked in one place, in the words of the
library's parameters, which the command line turns into its flags; policies parsed once; the
command list complete however the CLI is started."""
from __future__ import annotations

import dataclasses
import json
import pathlib
import subprocess
import sys

import click
import pytest

import analyzer.rules.policies as pol
import analyzer.studies.sweep as sw
from analyzer.faces.cli import main
from analyzer.base.errors import SeasaltError
from analyzer.studies.rotation import rotated_spec, rotations, rotation_seed, split_games
from analyzer.runs.spec import Backend, RunSpec

BIN = pathlib.Path(sys.executable).parent


@pytest.mark.parametrize("kwargs, param, words", [
    (dict(players=5), "players", "players must be 2, 3 or 4, got 5"),
    (dict(seed=-1), "seed", "seed must be between 0 and 2**64-1, got -1"),
    (dict(seed=2 ** 64), "seed", "seed must be between 0 and 2**64-1"),
    (dict(target=0), "target", "target must be between 1 and 10000, got 0"),
    (dict(count=0), "games", "games must be between 1 and 10**12, got 0"),
])
def test_a_bad_spec_names_its_parameter(kwargs, param, words):
    args = dict(players=2, unit="games", count=10, seed=1)
    args.update(kwargs)
    with pytest.raises(SeasaltError) as e:
        RunSpec.build(**args)
    assert str(e.value).startswith(words) and e.value.param == param


@pytest.mark.parametrize("argv, flag", [
    (["simulate", "-p", "5", "--rounds", "10"], "--players must be 2, 3 or 4, got 5"),
    (["simulate", "-p", "2", "--rounds", "0"], "--rounds must be between 1 and 10**12, got 0"),
    (["replay", "--seed", "-1", "-p", "2"], "--seed must be between 0 and 2**64-1, got -1"),
    (["tournament", "--policy", "baseline", "--policy", "baseline", "--target", "0"],
     "--target must be between 1 and 10000, got 0"),
    (["sweep", "--sweep", "stop_at=7", "--players", "2,5"], "--players must be 2, 3 or 4"),
    (["optimize", "--holdout-games", "1"], "--holdout-games must be between 2"),
])
def test_the_cli_says_the_flag(argv, flag):
    proc = subprocess.run([str(BIN / "seasalt"), *argv], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"error: {flag}"), proc.stderr


def test_the_spec_is_frozen_and_its_rotations_share_the_parsed_policies():
    spec = rotated_spec(["baseline(stop_at=9)", "tuned"], 7, seed=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.players = 3
    assert spec.specs[1] == pol.parse_policy("tuned", players=2).spec     # resolved for 2
    planned = rotations(spec)
    assert [p.batch.count for p in planned] == split_games(7, 2) == [4, 3]
    assert [p.batch.seed for p in planned] == [rotation_seed(3, 2, r) for r in range(2)]
    assert planned[1].policies == [spec.policies[1], spec.policies[0]]    # seated in rotation
    assert all(p is q for pl in planned for p in pl.policies
               for q in spec.policies if p == q)                           # not parsed again


def test_a_sweep_parses_each_policy_spec_once(monkeypatch):
    """Once per grid point (its values checked, then its player), not once per seat of every
    seating of every player count (which was 127 calls for 8 points and 2 player counts)."""
    calls = []
    real = pol.parse_policy

    def counting(*a, **k):
        calls.append(a[0])
        return real(*a, **k)
    monkeypatch.setattr(pol, "parse_policy", counting)
    monkeypatch.setattr(sw, "parse_policy", counting)
    sw.sweep(["stop_at=7..14"], players="2,3", games=6, seed=1, backend=Backend(jobs=1))
    points = 8
    assert len(calls) <= 2 * points + 2, calls       # base, field and 2 per point


def _commands() -> list[str]:
    return sorted(main.list_commands(click.Context(main)))


@pytest.mark.parametrize("argv", [[str(BIN / "seasalt")],
                                  [sys.executable, "-m", "analyzer"],
                                  [sys.executable, "-m", "analyzer.faces.cli"]])
def test_help_lists_every_command_however_started(argv):
    proc = subprocess.run([*argv, "--help"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    listed = proc.stdout.split("Commands:")[1].split()
    for name in _commands():
        assert name in listed, (name, proc.stdout)
    assert {"report", "advise", "review", "optimize", "guide"} <= set(_commands())


def _example():
    from analyzer.play.position_template import EXAMPLE
    return EXAMPLE


# The Python face refuses what the command line could not have been given, naming the parameter,
# where it used to round it (1000.5 rounds ran 1,000, seed 1.5 ran seed 1, samples=True ran one
# sample, Backend(jobs=1.5) ran) or fail on it (AttributeError, TypeError).
PYTHON_FACE = [
    ("simulate_rounds", (2, 1000.5), dict(seed=1), "rounds", "whole number, got 1000.5"),
    ("simulate_rounds", (2, 1000), dict(seed=1.5), "seed", "whole number, got 1.5"),
    ("simulate_rounds", (2, True), dict(seed=1), "rounds", "whole number, got True"),
    ("simulate_rounds", (2.0, 10), dict(seed=1), "players", "whole number, got 2.0"),
    ("simulate_rounds", ("2", 10), dict(seed=1), "players", "whole number, got '2'"),
    ("simulate_games", (2, 10), dict(seed=1, target=30.5), "target", "whole number"),
    ("simulate_games", (2, "10"), dict(seed=1), "games", "whole number, got '10'"),
    ("simulate_rounds", (2, 10), dict(seed=1, backend="threads"), "backend",
     "seasalt.Backend"),
    ("simulate_rounds", (2, 10, "baseline"), dict(seed=1), "policies", "write ['baseline']"),
    ("simulate_rounds", (2, 10), dict(seed=1, expansion=3), "expansion", "must be text"),
    ("advise", (_example,), dict(samples=True, seed=1), "samples", "whole number, got True"),
    ("advise", (_example,), dict(samples=2.5, seed=1), "samples", "whole number, got 2.5"),
    ("advise", (_example,), dict(precision="x", seed=1), "precision", "a number, got 'x'"),
    ("advise", (_example,), dict(samples=10, seed=1.5), "seed", "whole number, got 1.5"),
    ("advise", (_example,), dict(samples=10, seed=1, play_on=1), "play_on", "True or False"),
    ("sweep", (["stop_at=7"],), dict(players=2.5, games=10, seed=1), "players",
     "whole number, got 2.5"),
    ("sweep", (["stop_at=7"],), dict(players=2, games=10.5, seed=1), "games", "whole number"),
    ("tournament", (["baseline", "gambler"],), dict(players=2, games=10.5, seed=1), "games",
     "whole number"),
    ("replay", (1.5, 2), {}, "seed", "whole number, got 1.5"),
    ("replay", (1, 2.0), {}, "players", "whole number, got 2.0"),
]


@pytest.mark.parametrize("name, args, kwargs, param, words", PYTHON_FACE,
                         ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(PYTHON_FACE)])
def test_the_python_face_refuses_a_wrong_type_naming_the_parameter(name, args, kwargs, param,
                                                                    words):
    import seasalt
    args = tuple(a() if callable(a) else a for a in args)
    with pytest.raises(seasalt.SeasaltError) as e:
        getattr(seasalt, name)(*args, **kwargs)
    assert str(e.value).startswith(param) and words in str(e.value), str(e.value)
    assert e.value.param == param


def test_review_and_reading_refuse_a_backend_that_is_not_one():
    """review and the reading advisor take their Backend as every study does (as_backend)."""
    from analyzer.play.reading import advise_read
    from analyzer.play.review import review
    with pytest.raises(SeasaltError) as e:
        review(1, 2, samples=2, backend="threads")
    assert e.value.param == "backend"
    with pytest.raises(SeasaltError) as e:
        reading = pathlib.Path(__file__).parents[2] / "docs" / "example_reading.json"
        advise_read(json.loads(reading.read_text()), samples=2, backend="threads")
    assert e.value.param == "backend"


@pytest.mark.parametrize("kwargs, param", [
    (dict(jobs=1.5), "jobs"), (dict(jobs="2"), "jobs"), (dict(resume=1), "resume"),
    (dict(checkpoint=3), "checkpoint"), (dict(keep=None), "keep")])
def test_a_backend_refuses_a_wrong_type_where_it_is_made(kwargs, param):
    with pytest.raises(SeasaltError) as e:
        Backend(**kwargs)
    assert str(e.value).startswith(param) and e.value.param == param


def test_wrong_types_of_policies_and_cards_are_one_error():
    import seasalt
    with pytest.raises(SeasaltError, match="a player must be given as text"):
        seasalt.simulate_rounds(2, 10, [3], seed=1)
    with pytest.raises(SeasaltError, match="a player must be given as text"):
        seasalt.parse_policy(3)
    with pytest.raises(SeasaltError, match="cards must be given as text"):
        seasalt.score_hand(3)


def test_numpy_integers_are_whole_numbers():
    import numpy as np
    import seasalt
    spec = RunSpec.build(players=np.int64(2), unit="rounds", count=np.int32(5), seed=np.uint64(7))
    assert (spec.players, spec.count, spec.seed) == (2, 5, 7)
    assert type(spec.seed) is int and Backend(jobs=np.int64(1)).jobs == 1
    assert seasalt.simulate_rounds(2, 5, seed=7)["rounds"] == 5
