"""`seasalt advise FILE` on hostile position files (issue 28 item 4 and the positions file):
positions impossible only through their crab takes are refused before any deal is sampled (they
used to run for hours), and 30 malformed files are each exit 2, one `error:` line,
no traceback, nothing outside the run's folder touched."""
from __future__ import annotations

import copy
import json
import os

import pytest

from analyzer.play.position_template import EXAMPLE
from cli_helpers import assert_user_error, run as run_cli
from hostile import IMPOSSIBLE_BY_CRAB, cli, guarded, one_line



@pytest.fixture
def place(tmp_path):
    with guarded(tmp_path) as run:
        yield run
        assert sorted(os.listdir(run)) == ["pos.json"]


def advise(run, obj=None, raw: bytes | None = None, samples: int = 100):
    path = run / "pos.json"
    path.write_bytes(json.dumps(obj).encode() if raw is None else raw)
    return cli("advise", path, "--samples", samples, "--seed", 1, cwd=run)


# --- item 4 ----------------------------------------------------------------------------------

def _three_players() -> dict:
    """Three players: seat 2 holds three mermaids and took the bottom card of pile B with a
    crab, the fourth mermaid."""
    p = copy.deepcopy(IMPOSSIBLE_BY_CRAB)
    p["players"] = 3
    p["opponents"] = [{"seat": 1, "hand_size": 3, "table": "fish:black,fish:green"},
                      {"seat": 2, "hand_size": 4, "known": "mermaid,mermaid,mermaid"}]
    p["piles"] = {"A": {"cards": "penguin:pink,octopus:grey"},
                  "B": {"cards": "mermaid,crab:black,shell:green",
                        "crab_taken": [{"seat": 2, "among": 1}]}}
    p["deck"] = 58 - (4 + 2 + 3 + 2 + 4 + 2 + 3 - 1)
    return p


@pytest.mark.parametrize("position", [IMPOSSIBLE_BY_CRAB, _three_players()], ids=["2p", "3p"])
def test_impossible_through_crab_taken_is_refused_before_sampling(place, position, monkeypatch):
    """10**7 samples asked: refused in the parser, before the sampling kernel is ever called."""
    import kernels.advisor
    monkeypatch.setattr(kernels.advisor, "evaluate",
                        lambda *a, **k: pytest.fail("a deal was sampled"))
    path = place / "pos.json"
    path.write_text(json.dumps(position))
    line = assert_user_error(run_cli("advise", str(path), "--samples", "10000000", "--seed", "1"),
                             "no deal is possible")
    assert "crab_taken" in line


def test_a_take_with_more_candidates_is_advised(place):
    p = copy.deepcopy(IMPOSSIBLE_BY_CRAB)
    p["piles"]["A"]["crab_taken"][0]["among"] = 2
    r = advise(place, p, samples=200)
    assert r.returncode == 0, r.stderr


# --- malformed files -------------------------------------------------------------------------

def _pos(**change) -> dict:
    p = copy.deepcopy(EXAMPLE)
    p.update(change)
    return p


def _crab(**take) -> dict:
    p = copy.deepcopy(IMPOSSIBLE_BY_CRAB)
    p["piles"]["A"]["crab_taken"] = [take] if take else "seat 1"
    return p


RAW = {
    "empty": b"",
    "not json": b"{",
    "a list": b"[1, 2]",
    "null": b"null",
    "a string": b'"../sentinel/notes.txt"',
    "deep nesting": b"[" * 100_000,
    "5000 digits": b'{"players": ' + b"9" * 5000 + b"}",
    "NaN": b'{"players": NaN}',
    "invalid utf-8": b'{"players": "\xff"}',
    "nul bytes": b"\x00" * 64,
    "over a MiB": b" " * (1 << 20) + b"{}",
}
OBJ = {
    "players a string": _pos(players="2"),
    "players a bool": _pos(players=True),
    "players 1e999": _pos(players=float("inf")),
    "seat out of range": _pos(seat=9),
    "hand a number": _pos(hand=7),
    "hand a path": _pos(hand="../sentinel/notes.txt"),
    "opponents an object": _pos(opponents={"seat": 1}),
    "opponent twice": _pos(opponents=EXAMPLE["opponents"] * 2),
    "piles a list": _pos(piles=[]),
    "deck negative": _pos(deck=-1),
    "deck junk": _pos(deck={"size": "many"}),
    "totals short": _pos(totals=[1], target=40),
    "lock junk": _pos(lock="me"),
    "decision unknown": _pos(decision="dance"),
    "crab_taken a string": _crab(),
    "crab_taken seat text": _crab(seat="x", among=1),
    "crab_taken among 0": _crab(seat=1, among=0),
    "crab_taken among huge": _crab(seat=1, among=10 ** 30),
    "crab_taken unknown key": _crab(seat=1, among=1, by="me"),
}


@pytest.mark.parametrize("case", list(RAW) + list(OBJ))
def test_malformed_positions_are_one_line(place, case):
    if case in RAW:
        one_line(advise(place, raw=RAW[case]))
    else:
        one_line(advise(place, OBJ[case]))


def test_a_position_linked_to_dev_zero_is_refused_unread(place):
    os.symlink("/dev/zero", place / "pos.json")
    one_line(cli("advise", place / "pos.json", cwd=place, timeout=120), "not a regular file")


def test_a_position_that_is_a_named_pipe_is_refused_unread(place):
    """open() of a pipe waits for a writer: advise waited for ever."""
    os.mkfifo(place / "pos.json")
    one_line(cli("advise", place / "pos.json", cwd=place, timeout=120), "not a regular file")
