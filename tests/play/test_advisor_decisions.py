"""Every decision of the asker's turn: scripted positions whose right answer is clear by
construction, the position format's knowledge (`?` pile slots, cards known in the deck, crab
takes), what the rules exclude (one `error:` line), and the outputs' shape and width."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyzer.play.advisor import advise
from analyzer.render.advice_text import format_advice
from analyzer.faces.cli import main
from analyzer.base.errors import SeasaltError
from analyzer.play.position import parse
from conftest import rest_of
from kernels import state as ks

THREE = ["mermaid", "mermaid", "mermaid"]

# Positions with a clear answer by construction, used by their tests and by _every_kind.
_KEEP_HAND = ["shell:black", "shell:yellow", "shell:grey", "shell:green"]
_KEEP_DRAWN = ["octopus:green", "penguin:pink"]
KEEP = {"players": 2, "seat": 0, "decision": "keep", "hand": _KEEP_HAND, "drawn": _KEEP_DRAWN,
        "opponents": [{"seat": 1, "hand_size": 4}],
        "piles": {"A": {"cards": rest_of("base", _KEEP_HAND, _KEEP_DRAWN, ["crab:black"],
                                         ["fish:black", "boat:black", "shark:green",
                                          "octopus:purple", "mermaid"])},
                  "B": {"cards": ["crab:black"]}}, "deck": 1}
STEAL = {"players": 3, "seat": 0, "decision": "steal",
         "hand": ["shell:black", "shell:yellow", "octopus:yellow", "penguin:pink"],
         "table": ["swimmer:black", "shark:green"],
         "opponents": [{"seat": 1, "hand_size": 1, "known": "shark:purple"},
                       {"seat": 2, "hand_size": 6}],
         "piles": {"A": {"size": 4, "top": "fish:black"}, "B": {"size": 3, "top": "boat:black"}},
         "deck": 58 - 4 - 2 - 1 - 6 - 7}
CRAB_PILE = {"players": 2, "seat": 0, "decision": "crab", "crab_pile": "A", "hand": THREE,
             "table": ["crab:black", "crab:grey"], "opponents": [{"seat": 1, "hand_size": 5}],
             "piles": {"A": {"cards": "mermaid,shell:green,boat:black"},
                       "B": {"size": 3, "top": "shark:black"}},
             "deck": 58 - 3 - 2 - 5 - 3 - 3}
LOBSTER = {"players": 2, "seat": 0, "expansion": "extra-salt", "decision": "lobster",
           "hand": THREE, "table": ["crab:black", "lobster"],
           "seen": ["shell:green", "mermaid", "fish:black", "boat:black", "octopus:grey"],
           "opponents": [{"seat": 1, "hand_size": 5}],
           "piles": {"A": {"size": 3, "top": "shark:black"}, "B": {"size": 2, "top": "fish:green"}},
           "deck": 66 - 3 - 2 - 5 - 5 - 5}


def _distinct(a, key):
    """The recommended action is better than every other one beyond its 95% interval."""
    for k, o in a.options.items():
        if k != key:
            assert o["vs_best"]["ci95"][1] < 0, (k, o["vs_best"])
    assert a.meta["distinguishable"]


def test_draw_step_take_the_fourth_mermaid():
    """Three mermaids in hand and the fourth on top of pile A: taking it wins the game at once
    (docs/rules.md, "Ending a round"), whatever the totals: P(win game) 1 (a four-mermaid win is a
    won game)."""
    pos = {"players": 2, "seat": 0, "decision": "draw", "hand": THREE + ["shell:black"],
           "opponents": [{"seat": 1, "hand_size": 5}],
           "piles": {"A": {"size": 3, "top": "mermaid"}, "B": {"size": 2, "top": "crab:black"}},
           "deck": 44}
    a = advise(pos, samples=2000, seed=1)
    assert a.recommendation == "pile_A" and a.meta["game"]["new_game"]
    assert a.options["pile_A"]["four_mermaids_you"]["rate"] == 1.0
    assert a.options["pile_A"]["win_game"]["rate"] == 1.0
    _distinct(a, "pile_A")
    pos.update(totals=[10, 30], target=40)
    a = advise(pos, samples=2000, seed=1)
    assert a.recommendation == "pile_A" and a.options["pile_A"]["win_game"]["rate"] == 1.0
    assert set(a.options) == {"deck", "pile_A", "pile_B"}


def test_keep_the_card_that_makes_seven_with_a_nearly_empty_deck():
    """Four shells (6 points) and a penguin (+1) or an octopus (+0) drawn, one card left in the
    deck: keeping the penguin lets the asker's model STOP at 7 now; with the octopus the next
    turn empties the deck and the round is void unless seat 1 reaches 7 with five weak cards."""
    a = advise(KEEP, samples=4000, seed=2)
    assert len(a.options) == 4               # two cards to keep, two piles for the other
    assert a.recommendation.startswith("keep_penguin:pink"), a.recommendation
    for k, o in a.options.items():
        if k.startswith("keep_octopus"):
            assert o["vs_best"]["ci95"][1] < 0, (k, o["vs_best"])


def test_steal_from_the_only_opponent_with_a_hidden_hand():
    """Seat 1 holds one card, a lone shark the asker knows (worth nothing to anyone); seat 2
    holds six unknown cards: stealing from seat 2 gains a card and costs seat 2 one."""
    a = advise(STEAL, samples=4000, seed=3)
    assert set(a.options) == {"steal_from_1", "steal_from_2"}
    assert a.recommendation == "steal_from_2"
    _distinct(a, "steal_from_2")


def test_play_step_play_the_crab_pair_for_the_fourth_mermaid():
    """Holding three mermaids and a crab pair, the fourth mermaid remembered in pile A (its
    other cards worth nothing to the asker): playing the pair lets the model take it."""
    hand = THREE + ["crab:black", "crab:grey"]
    pos = {"players": 2, "seat": 0, "hand": hand,
           "opponents": [{"seat": 1, "hand_size": 5}],
           "piles": {"A": {"cards": ["mermaid", "shark:purple"]},
                     "B": {"cards": ["swimmer:light_orange"]}},
           "deck": 58 - 5 - 5 - 3}
    a = advise(pos, samples=2000, seed=4)
    assert "play_crab" in a.options and a.recommendation == "play_crab"
    assert a.options["play_crab"]["four_mermaids_you"]["rate"] == 1.0
    _distinct(a, "play_crab")


def test_crab_search_names_the_remembered_mermaid():
    """At a crab search with both piles in view, the asker remembers the mermaid in pile A
    (under two forgotten cards); taking it wins. The other options: the other known cards,
    and searching pile A or B to let the model pick."""
    pos = {"players": 2, "seat": 0, "decision": "crab", "hand": THREE,
           "table": ["crab:black", "crab:grey"],
           "opponents": [{"seat": 1, "hand_size": 5}],
           "piles": {"A": {"cards": "?,?,mermaid,boat:black"}, "B": {"size": 3, "top": "shark:black"}},
           "deck": 58 - 3 - 2 - 5 - 4 - 3}
    a = advise(pos, samples=2000, seed=5)
    assert set(a.options) == {"take_mermaid_from_A", "take_boat:black_from_A", "search_A",
                              "take_shark:black_from_B", "search_B"}
    assert a.recommendation == "take_mermaid_from_A"
    assert a.options["take_mermaid_from_A"]["four_mermaids_you"]["rate"] == 1.0


def test_crab_search_through_a_pile():
    a = advise(CRAB_PILE, samples=1000, seed=6)
    assert a.meta["decision"] == "crab_card"
    assert set(a.options) == {"take_mermaid", "take_shell:green", "take_boat:black"}
    assert a.recommendation == "take_mermaid"


def test_lobster_keeps_the_fourth_mermaid():
    a = advise(LOBSTER, samples=1000, seed=7)
    assert a.recommendation == "keep_mermaid" and len(a.options) == 5


def test_outputs_fit_100_columns_for_every_kind(tmp_path):
    """Text and JSON of an advice at each kind of decision: every line within 100 columns."""
    runner = CliRunner()
    for i, pos in enumerate(_every_kind()):
        path = tmp_path / f"p{i}.json"
        path.write_text(json.dumps(pos))
        for extra in ([], ["--json"]):
            r = runner.invoke(main, ["advise", str(path), "--samples", "300", "--seed", "1", *extra])
            assert r.exit_code == 0, r.output
            for line in r.stdout.splitlines():
                assert len(line) <= 100, line


def _every_kind():
    """A position at every kind of decision."""
    yield {"players": 2, "seat": 0, "decision": "draw", "hand": THREE + ["shell:black"],
           "opponents": [{"seat": 1, "hand_size": 5}],
           "piles": {"A": {"size": 3, "top": "mermaid"}, "B": {"size": 2, "top": "crab:black"}},
           "deck": 44, "totals": [3, 4], "target": 40}
    yield json.load(open("docs/example_position.json"))
    yield {"players": 4, "seat": 0, "decision": "crab", "hand": ["mermaid", "octopus:green"],
           "table": ["crab:black", "crab:grey"],
           "opponents": [{"seat": q, "hand_size": 3} for q in (1, 2, 3)],
           "piles": {"A": {"cards": "?,?,shell:green,lighthouse,octopus:yellow,colony,"
                                    "penguin:purple,captain,sailor:pink,shoal"},
                     "B": {"size": 3, "top": "shark:black"}},
           "deck": 58 - 4 - 9 - 10 - 3}
    yield from (KEEP, STEAL, CRAB_PILE, LOBSTER)


@pytest.mark.parametrize("change, words", [
    ({"hand": THREE + ["mermaid"]}, "already won"),
    ({"hand": "shell:black,shell:green,octopus:yellow,crab:grey",
      "opponents": [{"seat": 1, "hand_size": 5, "known": "mermaid,mermaid,mermaid,mermaid"}]},
     "seat 1 is known to hold all four mermaids"),
    ({"lock": 0}, "Extra Salt card; a base game has no lock"),
    ({"piles": {"A": {"cards": "", "top": "mermaid"}, "B": {"size": 2, "top": "crab:black"}}},
     "a top card 'mermaid' but no cards listed"),
    ({"piles": {"A": {"cards": "mermaid,?"}, "B": {"size": 2, "top": "crab:black"}}},
     "cannot be '?'"),
    ({"piles": {"A": {"cards": "mermaid,shell:green", "crab_taken": [{"seat": 1, "among": 2}]},
                "B": {"size": 2, "top": "crab:black"}}}, "among must be a whole number"),
    ({"decision": "keep"}, "give the two cards drawn"),
    ({"decision": "dance"}, "is not one of"),
    ({"drawn": "mermaid,shell:green"}, "belongs to the decision 'keep'"),
    ({"deck": {"size": 2, "known": "mermaid,shell:green,fish:black"}}, "3 cards known"),
])
def test_impossible_positions_are_errors(change, words):
    pos = {"players": 2, "seat": 0, "decision": "draw", "hand": THREE + ["shell:black"],
           "opponents": [{"seat": 1, "hand_size": 5}],
           "piles": {"A": {"size": 3, "top": "octopus:grey"}, "B": {"size": 2, "top": "crab:black"}},
           "deck": 44}
    pos.update(change)
    with pytest.raises(SeasaltError, match=words):
        parse(pos)


def test_a_lock_needs_the_casters_pair():
    pos = json.load(open("tests/fixtures/positions/lock_3p_extra.json"))
    parse(pos)                                    # the caster's swimmer+jellyfish is there
    pos["table"] = "boat:black,boat:yellow"
    pos["hand"] = "starfish:yellow,swimmer:black,jellyfish:purple,penguin:purple," \
                  "penguin:light_orange,colony,seahorse"
    with pytest.raises(SeasaltError, match="no such pair"):
        parse(pos)


def test_no_deal_possible_is_an_error():
    """Every card the asker cannot place is in seat 1's hand with three known mermaids: each
    deal would give it four."""
    hand = ["sailor:pink", "sailor:orange", "captain"]
    rest = rest_of("base", hand, THREE, ["mermaid", "shell:black"])
    pos = {"players": 2, "seat": 0, "hand": hand,
           "opponents": [{"seat": 1, "hand_size": 5, "known": THREE}],
           "piles": {"A": {"cards": rest}, "B": {"size": 0}}, "deck": 0}
    with pytest.raises(SeasaltError, match="no deal is possible"):
        parse(pos)


def test_the_knowledge_keys_build_the_state():
    """`?` slots are unknown pile cards (bottom first, the size is the list's length); deck
    known cards sit in the deck; a crab take keeps the remembered list and gives the taker a
    hand card to be drawn from it."""
    pos = {"players": 2, "seat": 0, "decision": "draw", "hand": THREE + ["shell:black"],
           "opponents": [{"seat": 1, "hand_size": 5, "known": "lighthouse"}],
           "piles": {"A": {"cards": "?,octopus:green,?,crab:black",
                           "crab_taken": [{"seat": 1, "among": 2}]},
                     "B": {"cards": "?,?,crab:yellow"}},
           "deck": {"size": 43, "known": "shell:green,fish:green"}}
    p = parse(pos)
    t = p.template
    a = [int(x) for x in t[ks.PILE:ks.PILE + int(t[ks.PILE_LEN])]]
    assert a[0] < 0 and a[2] < 0 and a[1] >= 0 and a[3] >= 0
    assert p.takes.tolist() == [[1, 0, 2]] and p.unknown_hand[1] == 5 - 1 - 1
    assert p.deck == 43 and int(t[ks.DECK_LEN]) == 43
    assert len(p.pool) == 3 + 4 + 41        # seat 1's 3, the four ? slots, 41 deck cards
    with pytest.raises(SeasaltError, match="size 5 but 4 cards listed less 1 taken"):
        parse({**pos, "piles": {**pos["piles"], "A": {**pos["piles"]["A"], "size": 5}}})


def test_the_advice_says_when_the_best_two_are_not_distinguishable():
    """Three players, both opponents alike (six unknown cards, empty tables): whom to steal
    from barely matters, and at 300 samples the two cannot be told apart; the text says so."""
    hand = ["shell:black", "shell:yellow", "octopus:yellow", "penguin:pink"]
    pos = {"players": 3, "seat": 0, "decision": "steal", "hand": hand,
           "table": ["swimmer:black", "shark:green"],
           "opponents": [{"seat": 1, "hand_size": 6}, {"seat": 2, "hand_size": 6}],
           "piles": {"A": {"size": 4, "top": "fish:black"}, "B": {"size": 3, "top": "boat:black"}},
           "deck": 58 - 4 - 2 - 12 - 7}
    a = advise(pos, samples=300, seed=9)
    assert not a.meta["distinguishable"]
    lo, hi = a.options[a.meta["runner_up"]]["vs_best"]["ci95"]
    assert lo < 0 < hi
    text = format_advice(a)
    assert "not distinguishable" in text
    assert all(len(line) <= 100 for line in text.splitlines())
