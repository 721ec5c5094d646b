"""Several games reviewed together (`seasalt review --game A --game B`, or a folder): each game's
line, the error rate over all decisions with a choice and its trend, the costliest kinds of
decision, and the luck and skill over the finished games."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.play.review_many import trend
from analyzer.play.session import Game


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Three finished 2-player games played at random on the page, saved as game files."""
    where = tmp_path_factory.mktemp("games")
    for i, seed in enumerate((3, 4, 5)):
        g = Game(players=2, seed=seed, target=10)
        rnd = random.Random(seed)
        while not g.over:
            g.apply(rnd.choice(g.legal()))
        (where / f"game-{i}.json").write_text(json.dumps(g.game_file()))
    return where


def test_a_folder_of_games_is_reviewed_together(folder):
    r = CliRunner().invoke(main, ["review", "--game", str(folder), "--samples", "40", "--json"])
    assert r.exit_code == 0, r.output
    c = json.loads(r.stdout)
    assert [g["file"].rsplit("/", 1)[1] for g in c["games"]] == ["game-0.json", "game-1.json",
                                                                 "game-2.json"]
    assert [g["seed"] for g in c["games"]] == [3, 4, 5]
    one = [json.loads(CliRunner().invoke(main, ["review", "--game", str(folder / f"game-{i}.json"),
                                                "--samples", "40", "--json"]).stdout)
           for i in range(3)]
    losses = [d["loss"]["mean"] for x in one for d in x["decisions"] if len(d["options"]) > 1]
    assert c["error_rate"]["n"] == len(losses)
    assert abs(c["error_rate"]["mean"] - sum(losses) / len(losses)) < 1e-12
    assert abs(sum(k["total_loss"] for k in c["kinds"]) - sum(losses)) < 1e-9
    assert [k["total_loss"] for k in c["kinds"]] == sorted((k["total_loss"] for k in c["kinds"]),
                                                           reverse=True)
    skills = [x["summary"]["skill"] for x in one]
    assert abs(c["luck_and_skill"]["skill"]["mean"] - sum(skills) / 3) < 1e-12
    assert c["trend"]["games"] == 3
    text = CliRunner().invoke(main, ["review", "--game", str(folder / "game-0.json"), "--game",
                                     str(folder / "game-1.json"), "--samples", "40"]).stdout
    assert "error rate over the" in text and "game-1.json" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_the_trend_is_the_least_squares_slope():
    assert trend([0.03, 0.02, 0.01])["slope"] == pytest.approx(-0.01)
    t = trend([0.01, 0.03, 0.01, 0.03])
    assert t["ci95"][0] < t["slope"] < t["ci95"][1]
    assert trend([0.01, 0.02]) is None


def test_a_folder_without_game_files_is_one_error_line(tmp_path):
    r = CliRunner().invoke(main, ["review", "--game", str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1].startswith("error: ")
    assert "a folder without game files" in r.output


def test_a_folder_entry_that_is_not_a_regular_file_is_refused_before_any_work(folder, tmp_path):
    """A *.json entry of the folder that is a pipe is one error line naming it, exit 2, and
    nothing is written (--out)."""
    import os
    import shutil
    games = tmp_path / "games"
    shutil.copytree(folder, games)
    os.mkfifo(games / "game-1b.json")
    out = tmp_path / "rows.csv"
    r = CliRunner().invoke(main, ["review", "--game", str(games), "--samples", "20", "--out",
                                  str(out)])
    assert r.exit_code == 2 and not out.exists()
    assert r.output.strip().splitlines()[-1] == (
        f"error: {games / 'game-1b.json'}: not a regular file (a directory, a device or a pipe)")
