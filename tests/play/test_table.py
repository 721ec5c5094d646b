"""Sea Salt & Paper meets kernels.protocol (analyzer/play/table.py): a Play-view game at the table
seat's decisions, played through the protocol's `apply` by its bot, is `seasalt replay`'s game of
bots; its `values` are the advisor's (the hint's figures, deal for deal); any_game's tools ask it."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.base.errors import SeasaltError
from analyzer.play.any_game import advise, play_out, replay as told
from analyzer.play.replay import replay
from analyzer.play.session import Game
from analyzer.play.table import Table
from kernels.protocol import Position


@pytest.mark.parametrize("players, opponent, seed", [
    (2, "baseline", 7), (3, "baseline", 8), (4, "tuned", 9), (2, "gambler", 10), (3, "expert", 11),
])
def test_the_table_played_by_its_bot_is_the_replayed_game_of_bots(players, opponent, seed):
    """The seat answering every decision with baseline (Table.bot, through apply) ends where
    `seasalt replay --seed S` ends with baseline in that seat: totals and winners."""
    end = play_out(Table.deal(players, opponent, seed=seed))
    r = replay(seed, players, ["baseline"] + [opponent] * (players - 1))
    assert [int(v) for v in end.game.totals[:players]] == r["totals"]
    result, margin = end.result()
    assert [q for q in range(players) if result[q] > 0] == r["winners"]
    assert margin[r["winners"][0]] > 0 or len(r["winners"]) > 1


def test_the_table_meets_the_protocol_and_tells_its_game():
    pos = Table.deal(2, seed=7)
    assert isinstance(pos, Position) and pos.facts.name == "Sea Salt & Paper"
    d = pos.decision()
    assert pos.facts.decision_kinds[d.kind] == "draw" and d.seat == 0
    assert [pos.option_text(d, i) for i in range(len(d.options))][0] == "draw two from the deck"
    assert pos.observation(0)["hand"] == pos.game.view()["hand"]
    with pytest.raises(SeasaltError, match="only the table's seat 0"):
        pos.observation(1)
    with pytest.raises(SeasaltError, match="not over"):
        pos.result()
    story = told(pos)
    assert story["game"] == "Sea Salt & Paper" and len(story["decisions"]) > 20
    assert pos.decision().kind == d.kind                   # telling it changed nothing


@pytest.mark.parametrize("seed, steps", [(7, 0), (8, 5), (12, 9)])
def test_the_tables_advice_is_the_hints_deal_for_deal(seed, steps):
    """any_game.advise on the table: each option's P(win game) is the hint's for the same deals
    (same seed and samples), its paired difference from the best the advisor's own."""
    pos = Table.deal(2, seed=seed)
    for _ in range(steps):
        pos = pos.apply(pos.bot(pos.decision()))
    a = advise(pos, 300, 5)
    h = pos.game.hint(300, 5)
    by_words = {o["words"]: o for o in h["options"].values()}
    assert len(by_words) == len(a["options"])
    for o in a["options"]:
        assert o["win_game"]["rate"] == by_words[o["text"]]["win_game"]["rate"]
    best = a["options"][a["best"]]["win_game"]["rate"]
    assert best == max(o["win_game"]["rate"] for o in a["options"])


@pytest.mark.parametrize("opponent", ["baseline", "search(samples=4,continuations=1)"])
def test_applying_a_snapshot_leaves_the_game_as_it_was(opponent):
    """A snapshot is played to the end across rounds (new deals; a search seat's memory) while
    the game it was taken from is not changed: both end alike, against bots as the replayed game
    (a search seat of the Play view searches on its own stream, the game's seed plus the round)."""
    g = Game(2, opponent, seed=7)
    before = g.view()
    end = play_out(Table(g.snapshot()))
    assert g.view() == before
    again = play_out(Table(g))
    assert np.array_equal(end.game.totals, again.game.totals)
    if opponent == "baseline":
        assert [int(v) for v in again.game.totals[:2]] == replay(7, 2)["totals"]
