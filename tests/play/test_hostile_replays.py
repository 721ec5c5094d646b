"""`seasalt review --replay FILE` under hostile files (issue 28 items 5, 6, 7; issue 30 item 9):
a wrongly typed field is one `error:` line naming the file's field (not a flag, no traceback),
an edited final-hands field (or any other field of the game) is refused naming it, the read is
bounded; then more malformed files, 30 in all: exit 2, one line, nothing outside the run's
folder touched. And `seasalt replay --game FILE` of a game saved before its end."""
from __future__ import annotations

import copy
import json
import os

import pytest

from hostile import cli, guarded, one_line


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> dict:
    p = cli("replay", "--seed", "7", "-p", "2", "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.fixture
def place(tmp_path):
    with guarded(tmp_path) as run:
        yield run
        assert sorted(os.listdir(run)) == ["game.json"]


def review(run, obj=None, raw: bytes | None = None):
    path = run / "game.json"
    if raw is None:
        raw = json.dumps(obj).encode()
    path.write_bytes(raw)
    return cli("review", "--replay", path, "--samples", "20", cwd=run)


def test_the_untouched_file_is_reviewed(place, game):
    p = review(place, game)
    assert p.returncode == 0 and "game over after" in p.stdout, p.stderr


# --- issue 30 item 9: an edited final-hands field ---------------------------------------------

def test_an_edited_final_hand_is_refused_naming_the_field(place, game):
    g = copy.deepcopy(game)
    g["rounds"][-1]["hands"][0] = sorted(g["rounds"][-1]["hands"][0] + ["mermaid"])
    last = len(g["rounds"]) - 1
    one_line(review(place, g), f"field rounds[{last}].hands[0] differs")


@pytest.mark.parametrize("edit, field", [
    (lambda g: g["totals"].__setitem__(0, g["totals"][0] + 1), "field totals"),
    (lambda g: g.__setitem__("winners", [1 - g["winners"][0]]), "field winners"),
    (lambda g: g["rounds"][0]["scores"][0].__setitem__("points", 99), "field rounds[0].scores"),
    (lambda g: g["rounds"][0]["tables"].reverse(), "field rounds[0].tables"),
    (lambda g: g.__setitem__("rounds_played", 1), "field rounds_played"),
    (lambda g: g.__setitem__("extra", 1), "field extra (not written by seasalt replay)"),
    (lambda g: g["rounds"][0].pop("hands"), "field rounds[0].hands (missing)"),
])
def test_any_edited_field_of_the_game_is_named(place, game, edit, field):
    g = copy.deepcopy(game)
    edit(g)
    one_line(review(place, g), field)


# --- items 6 and 7: wrongly typed fields, named as the file's fields -------------------------

TYPED = [
    ("seed", "7", "field 'seed' must be a whole number"),
    ("seed", -1, "field 'seed' must be a whole number"),
    ("seed", 2 ** 64, "field 'seed' must be a whole number"),
    ("seed", True, "field 'seed' must be a whole number"),
    ("seed", 7.0, "field 'seed' must be a whole number"),
    ("players", "2", "field 'players' must be a whole number from 2 to 4"),
    ("players", 9, "field 'players' must be a whole number from 2 to 4"),
    ("players", None, "field 'players' must be a whole number from 2 to 4"),
    ("policies", "baseline", "field 'policies' must be a list"),
    ("policies", [1], "field 'policies' must be a list"),
    ("policies", [], "field 'policies' must be a list"),
    ("policies", {"a": 1}, "field 'policies' must be a list"),
    ("expansion", 3, "field 'expansion' must be an expansion"),
    ("expansion", ["base"], "field 'expansion' must be an expansion"),
    ("target", "40", "field 'target' must be null or a whole number"),
    ("target", 0, "field 'target' must be null or a whole number"),
    ("target", [40], "field 'target' must be null or a whole number"),
]


@pytest.mark.parametrize("key, value, words", TYPED)
def test_a_wrongly_typed_field_is_named(place, game, key, value, words):
    g = copy.deepcopy(game)
    g[key] = value
    one_line(review(place, g), words)


@pytest.mark.parametrize("edit", [
    lambda g: g.__setitem__("rounds", {"a": 1}),
    lambda g: g.__setitem__("rounds", [1, 2]),
    lambda g: g["rounds"][0].__setitem__("events", "x"),
    lambda g: g["rounds"][0].__setitem__("events", [None]),
    lambda g: g["rounds"][0]["events"][0].__setitem__("seat", "0"),
    lambda g: g["rounds"][0].__setitem__("hands", [[1e308]]),
])
def test_wrongly_typed_game_fields_are_refused(place, game, edit):
    g = copy.deepcopy(game)
    edit(g)
    one_line(review(place, g), "differs from the game")


# --- malformed files -------------------------------------------------------------------------

@pytest.mark.parametrize("raw, words", [
    (b"", "not valid JSON"),
    (b"{", "not valid JSON"),
    (b"[1, 2]", "expected the JSON object"),
    (b'"x"', "expected the JSON object"),
    (b"null", "expected the JSON object"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[" * 100_000, "nested too deeply"),
    (b'{"seed": ' + b"9" * 5000 + b"}", "missing key"),
    (b'{"seed": 1e999, "players": 2, "policies": ["baseline"], "expansion": "base", '
     b'"target": null}', "field 'seed'"),
    (b'{"seed": NaN, "players": 2, "policies": ["baseline"], "expansion": "base", '
     b'"target": null}', "field 'seed'"),
    (b'{"seed": 7}', "missing key 'players'"),
])
def test_malformed_replay_files_are_one_line(place, raw, words):
    one_line(review(place, raw=raw), words)


def test_a_huge_replay_file_is_refused_unread(place):
    path = place / "game.json"
    with open(path, "wb") as f:
        f.truncate(8 << 30)                          # sparse 8 GiB
    one_line(cli("review", "--replay", path, cwd=place), "too large for a replay file")


def test_a_replay_linked_to_dev_zero_is_refused(place):
    os.symlink("/dev/zero", place / "game.json")
    one_line(cli("review", "--replay", place / "game.json", cwd=place), "too large")


# --- `seasalt replay --game` of a game saved before its end ----------------------------------

@pytest.mark.parametrize("actions", [0, 9, 40])
def test_an_unfinished_game_file_replays_what_was_played(tmp_path, actions):
    """The Play view's download mid-game (`over` false): the replay shows every turn played so
    far, the round in play included, and says the game is unfinished (was an IndexError)."""
    from analyzer.play.session import Game
    g = Game(players=3, seed=7)
    for _ in range(actions):
        g.apply(g.legal()[0])
    assert not g.over
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.game_file()))
    p = cli("replay", "--game", path)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    text = p.stdout
    assert "GAME OVER" not in text and f"round {g.round_no} in play" in text
    assert f"GAME UNFINISHED: {len(g.done_rounds)} round" in text
    assert f"({actions} actions of the user)" in text
    turns = sum(e["event"] == "turn" for e in g.record()["rounds"][-1]["events"])
    assert text.split(f"ROUND {g.round_no}:")[1].count("'s turn (deck") == turns > 0
    j = cli("replay", "--game", path, "--json")
    r = json.loads(j.stdout)
    assert j.returncode == 0 and r["over"] is False and r["winners"] == []
    assert r["rounds_played"] == len(g.done_rounds) and len(r["rounds"]) == g.round_no
    assert r["rounds"][-1]["end"] is None and r["rounds"][-1]["scores"] == []
