"""A toy game (tests/toy_game.py, a few dozen lines) plugs in through kernels.protocol and gets
simulate, replay and advise from analyzer.play.any_game without an edit to analyzer/; its
numbers are checked against exact enumeration. Seastead's table game meets the same protocol."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer.play.any_game import advise, replay, simulate
from analyzer.render.game_text import game_advice_text
from kernels.protocol import Position

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from toy_game import HighCard  # noqa: E402


def exact_win(card: int, swap: bool) -> float:
    """P(seat 0 wins) holding `card`, keeping or swapping, seat 1 then playing the bot (swap on
    3 or less), every order of the other five cards equally likely."""
    others = [c for c in range(1, 7) if c != card]
    wins = total = 0
    for rest in itertools.permutations(others):
        g = HighCard(0, (card, *rest)).apply(int(swap))
        g = g.apply(g.bot(g.decision()))
        wins += g.result()[0][0]
        total += 1
    return wins / total


def test_the_toy_and_seastead_meet_the_protocol():
    from analyzer.seastead.components import Setup, load
    from analyzer.seastead.table import Game
    assert isinstance(HighCard.deal(1), Position)
    g = Game(load(), Setup(), 7)
    assert isinstance(g, Position) and g.facts.name == "Seastead"
    assert g.facts.decision_kinds[g.decision().kind] == "wild"


def test_simulate_counts_the_bots_games():
    r = simulate(HighCard.deal, 3000, seed=1)
    a, b = r["seats"]
    assert r["games"] == 3000 and r["decisions_per_game"] == 2
    assert a["wins"]["rate"] + b["wins"]["rate"] == pytest.approx(1.0)      # no ties: 1-6
    assert a["margin"]["mean"] == pytest.approx(-b["margin"]["mean"])
    # the exact P(seat 0 wins) with both seats playing the bot, inside the interval
    p = np.mean([exact_win(c, c <= 3) for c in range(1, 7)])
    assert a["wins"]["ci95"][0] <= p <= a["wins"]["ci95"][1]
    assert simulate(HighCard.deal, 3000, seed=1) == r


def test_replay_tells_the_bots_game():
    g = HighCard.deal(5)
    r = replay(g)
    assert [d["seat"] for d in r["decisions"]] == [0, 1]
    hands = g.hands()
    assert r["decisions"][0]["taken"] == int(hands[0] <= 3)
    assert r["decisions"][0]["text"] in ("keep my card", "swap it for the top of the deck")
    assert sorted(r["result"]) == [0.0, 1.0]


@pytest.mark.parametrize("card, best", [(1, 1), (2, 1), (5, 0), (6, 0)])
def test_advise_values_each_option_as_exact_enumeration_does(card, best):
    rest = [c for c in range(1, 7) if c != card]
    g = HighCard(3, (card, *rest))
    r = advise(g, 4000, seed=2)
    assert r["game"] == "High card" and r["decision"] == {"seat": 0, "kind": "keep or swap",
                                                          "options": 2}
    assert r["best"] == best and r["choice_row"] == [0, "keep or swap", best]
    for o in r["options"]:
        lo, hi = o["win_game"]["ci95"]
        assert lo <= exact_win(card, bool(o["option"])) <= hi, (card, o)
    text = game_advice_text(r)
    assert "High card advice: seat 0's keep or swap decision" in text
    assert max(map(len, text.splitlines())) <= 100


def test_the_same_seed_gives_the_same_advice():
    g = HighCard.deal(9)
    assert advise(g, 300, seed=4) == advise(g, 300, seed=4) != advise(g, 300, seed=5)
