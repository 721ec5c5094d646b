"""Robust advice (analyzer.play.robust): one position under several models of the players, the same
deals for each, and a verdict that says when the best action depends on the models."""
from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from analyzer.play.advisor import advise
from analyzer.faces.cli import main
from analyzer.base.errors import SeasaltError
from analyzer.play.robust import ROBUST_ME, ROBUST_OPPONENTS, _verdict, advise_robust, split_models
from analyzer.runs.spec import Backend

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example_position.json"
THREE_MERMAIDS = ROOT / "tests" / "fixtures" / "positions" / "game" / "three_mermaids_3p.json"


def test_the_readme_position_depends_on_the_opponents():
    """docs/example_position.json (2 players, 8 points, a new game to 40): against baseline
    opponents LAST CHANCE wins the game distinguishably more often than playing on, against
    the tuned 2-player opponents (who call LAST CHANCE from 7 points) playing on does; the table
    shows both and the verdict says 'depends'. Each row is the advice of that model alone."""
    pos = json.loads(EXAMPLE.read_text())
    r = advise_robust(pos, opponents=["baseline", "tuned"], samples=3000, seed=1,
                      backend=Backend(jobs=1))
    assert [(row["best"], row["distinguishable"]) for row in r.rows] == \
        [("last_chance", True), ("play_on", True)]
    assert r.verdict == ("depends: LAST CHANCE against baseline, play on (end the turn) against "
                         "tuned2.")
    assert not r.meta["same_everywhere"]
    alone = advise(pos, samples=3000, seed=1, opponent="tuned", backend=Backend(jobs=2))
    assert r.advices[1].options == alone.options
    assert r.rows[1]["win_game"] == alone.options["play_on"]["win_game"]


def test_a_clear_answer_holds_under_every_model():
    """Three mermaids and a colony (issue 23's position): LAST CHANCE is best whichever
    opponents and whichever way the asker plays on."""
    pos = json.loads(THREE_MERMAIDS.read_text())
    r = advise_robust(pos, opponents=["baseline", "gambler"], mes=["baseline", "tuned"],
                      samples=1500, seed=2)
    assert len(r.rows) == 4 and {row["best"] for row in r.rows} == {"last_chance"}
    assert r.verdict == "LAST CHANCE under every model."


def _row(me, opp, best, apart=True):
    return {"me": me, "opponent": opp, "best": best, "words": best.upper(), "runner_up": "x",
            "runner_up_words": "X", "distinguishable": apart}


def test_the_verdict_names_the_side_whose_model_decides():
    rows = [_row("baseline", "baseline", "stop"), _row("gambler", "baseline", "play_on"),
            _row("baseline", "denier", "stop"), _row("gambler", "denier", "play_on")]
    assert _verdict(rows, True, True) == ("depends: STOP if you play on as baseline, PLAY_ON if "
                                          "you play on as gambler (against every opponents' "
                                          "model).")
    rows[3]["best"], rows[3]["words"] = "stop", "STOP"
    assert _verdict(rows, True, True).startswith(
        "depends: STOP for you baseline with opponents baseline, you baseline with opponents "
        "denier and you gambler with opponents denier, PLAY_ON for you gambler with opponents "
        "baseline")
    rows = [_row("baseline", "baseline", "stop"), _row("baseline", "denier", "stop", False)]
    assert _verdict(rows, False, True) == ("STOP under every model; not distinguishable from "
                                           "the runner-up for you baseline with opponents denier "
                                           "(X).")


def test_models_are_split_at_top_level_commas():
    assert split_models("baseline,threshold(stop_at=9,last_chance_at=8), gambler") == \
        ["baseline", "threshold(stop_at=9,last_chance_at=8)", "gambler"]
    with pytest.raises(SeasaltError, match="empty player spec"):
        split_models("baseline,,gambler")


def test_cli_robust_table_json_and_errors(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["advise", str(EXAMPLE), "--robust", "--samples", "300", "--seed", "3"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert all(len(line) <= 100 for line in lines)
    assert sum(1 for line in lines if line.startswith(("baseline ", "tuned2 ", "expert2 "))) == \
        len(ROBUST_OPPONENTS) * len(ROBUST_ME)
    assert any(line.startswith("verdict: ") for line in lines)
    r = runner.invoke(main, ["advise", str(EXAMPLE), "--opponents", "baseline,gambler", "--me",
                             "tuned", "--samples", "300", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [row["opponent"].split("(")[0] for row in d["rows"]] == ["baseline", "gambler"]
    assert {row["me"].split("(")[0] for row in d["rows"]} == {"tuned2"}
    assert len(d["advice"]) == 2 and d["verdict"].endswith(".")
    for bad, words in ((["--opponents", "baseline,search"], "cannot continue a deal"),
                       (["--opponents", "baseline,,gambler"], "empty player spec"),
                       (["--me", "baseline,nosuch"], "unknown policy 'nosuch'")):
        r = runner.invoke(main, ["advise", str(EXAMPLE), "--samples", "300", *bad])
        assert r.exit_code == 2 and r.stderr.startswith("error:") and words in r.stderr, r.output
        assert len(r.stderr.splitlines()) == 1


def test_the_help_names_the_robust_models():
    """--robust's help spells out its sets (the CLI does not import the advisor to build its
    help): they must be analyzer.play.robust's."""
    from analyzer.play.robust import ROBUST_SAMPLES
    text = " ".join(CliRunner().invoke(main, ["advise", "--help"]).stdout.split())
    def said(names):
        return f"{', '.join(names[:-1])} and {names[-1]}"
    assert (f"opponents {said(ROBUST_OPPONENTS)}, you {said(ROBUST_ME)}") in text
    assert f"{ROBUST_SAMPLES} samples each" in text
