"""The configurable THRESHOLD player (kernels/heuristics.py): its defaults are the baseline, and each
knob changes exactly the decision its documentation names, in scripted positions."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.base.errors import SeasaltError
from analyzer.rules.policies import kernel_kind, parse_policy
from kernels import batch
from kernels import cards as kc
from kernels import heuristics as kh
from kernels import policies as kp
from analyzer.rules.setups import play_traced
from conftest import scripted
from analyzer.studies.simulate import simulate_games, simulate_rounds


def _strip(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in ("timing", "policies")}


def _counters(kind: int, spec: str, players: int, expansion: str, rounds: int = 0,
              games: int = 0, seed: int = 3) -> np.ndarray:
    """The batch counters of `spec` in every seat, played by the compiled kind `kind` (not the
    one policy_arrays would choose), for rounds or games."""
    vec = parse_policy(spec).vector()
    pk = np.full(players, kind, dtype=np.int64)
    pp = np.stack([vec] * players)
    deck = kc.deck_types(expansion)
    if rounds:
        out = np.zeros((-(-rounds // batch.ROUND_BLOCK), batch.R_SIZE), dtype=np.int64)
        batch.run_rounds(players, deck, rounds, pk, pp, np.uint64(seed), 0, out)
    else:
        out = np.zeros((-(-games // batch.GAME_BLOCK), batch.G_SIZE), dtype=np.int64)
        batch.run_games(players, deck, games, 40, pk, pp, np.uint64(seed), 0, out)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("expansion", ["base", "extra-salt"])
@pytest.mark.parametrize("stop,lc", [(7, 10), (7, 7), (9, 12), (0, 100)])
def test_the_threshold_kernel_with_default_knobs_is_the_baseline(players, expansion, stop, lc):
    """With its other knobs at their defaults, the threshold kernel makes every decision the
    baseline kernel with the same stop_at and last_chance_at makes: identical counters."""
    spec = f"threshold(stop_at={stop},last_chance_at={lc})"
    a = _counters(kp.BASELINE, spec, players, expansion, rounds=8_192)
    b = _counters(kh.THRESHOLD, spec, players, expansion, rounds=8_192)
    assert np.array_equal(a, b)


def test_the_threshold_kernel_plays_whole_games_like_the_baseline():
    spec = "threshold(stop_at=8,last_chance_at=9)"
    a = _counters(kp.BASELINE, spec, 3, "base", games=512, seed=4)
    b = _counters(kh.THRESHOLD, spec, 3, "base", games=512, seed=4)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("spec,kind", [
    ("threshold", kp.BASELINE), ("threshold(stop_at=8,last_chance_at=9)", kp.BASELINE),
    ("threshold(take_at=2)", kh.THRESHOLD), ("threshold(last_chance_margin=3)", kh.THRESHOLD),
    ("gambler", kh.THRESHOLD), ("baseline(stop_at=9)", kp.BASELINE)])
def test_only_a_threshold_player_the_baseline_plays_runs_on_the_baseline_kernel(spec, kind):
    assert kernel_kind(parse_policy(spec)) == kind


def test_defaults_play_exactly_like_the_baseline():
    """Through the public API (which runs such a player on the baseline's kernel)."""
    a = simulate_rounds(3, 20_000, ["baseline"], seed=3)
    b = simulate_rounds(3, 20_000, ["threshold"], seed=3)
    assert _strip(a) == _strip(b)


def first_turn(s, policies, seed=0):
    """Events of seat 0's first turn (up to the next turn event)."""
    _end, events = play_traced(s, policies, seed=seed)
    out = []
    for e in events[1:]:
        if e[0] == "turn":
            break
        out.append(e)
    return out


# Positions list the cards that matter; conftest.scripted puts every other card of the game
# below them in the deck, so the engine's check mode can count the whole deck.


def test_take_at_raises_the_bar_for_taking_a_discard():
    """A shell next to a held shell gains 2: the baseline (take at gain >= 1) takes it; with
    take_at=3 the player draws from the deck instead."""
    s = lambda: scripted(2, deck="fish:black,fish:green",
                            piles=("shell:yellow", "crab:green"), hands={0: "shell:black"})
    assert first_turn(s(), ["baseline"])[0] == ("take_pile", 0, "shell:yellow", 0)
    assert first_turn(s(), ["threshold(take_at=3)", "baseline"])[0][0] == "keep"


def test_mermaid_bonus_keeps_the_mermaid():
    """Drawing shell (gain 2 with a held shell) then a mermaid (gain 1): the baseline keeps the
    shell; with mermaid_bonus=5 the mermaid is worth more."""
    s = lambda: scripted(2, deck="shell:yellow,mermaid",
                            piles=("fish:green", "crab:green"), hands={0: "shell:black"})
    assert first_turn(s(), ["baseline"])[0] == ("keep", 0, "shell:yellow", "mermaid")
    assert first_turn(s(), ["threshold(mermaid_bonus=5)", "baseline"])[0] == (
        "keep", 0, "mermaid", "shell:yellow")


def test_play_switch_holds_a_pair():
    """Two fish and a non-empty deck: the baseline plays them (rule 2); play_fish=0 holds them."""
    s = lambda: scripted(2, deck="octopus:green,shark:green",
                            piles=("crab:green", "crab:yellow"), hands={0: "fish:black,fish:green"})
    assert [e[0] for e in first_turn(s(), ["baseline"])][2:4] == ["pair", "fish_draw"]
    assert "pair" not in [e[0] for e in first_turn(s(), ["threshold(play_fish=0)", "baseline"])]


def _steal_position():
    # Seat 1: one card in hand and a pair on the table; seat 2: three cards, nothing played.
    return scripted(3, deck="octopus:green,octopus:purple",
                       piles=("crab:green", "crab:yellow"),
                       hands={0: "swimmer:black,shark:green", 1: "shell:green",
                              2: "shell:dark_blue,shell:light_blue,fish:yellow"},
                       tables={1: "boat:yellow,boat:yellow"})


@pytest.mark.parametrize("rule, victim", [(0, 2), (1, 1), (2, 1)])
def test_steal_from(rule, victim):
    """0: the opponent with most cards; 1: the best visible table; 2: the next player."""
    events = first_turn(_steal_position(), [f"threshold(steal_from={rule})", "baseline", "baseline"])
    steal = [e for e in events if e[0] == "steal"]
    assert steal and steal[0][2] == victim


def _bury_position():
    # Pile A: shell under a mermaid (2 cards); pile B: one fish. take_at=20 forces a deck draw.
    return scripted(2, deck="octopus:green,octopus:purple",
                       piles=("shell:grey,mermaid", "fish:green"), hands={0: "crab:black"})


@pytest.mark.parametrize("bury, pile", [(0, 1), (1, 0)])
def test_bury(bury, pile):
    """bury=0: the pile with fewer cards (B); bury=1: cover the mermaid on A (denial)."""
    events = first_turn(_bury_position(), [f"threshold(take_at=20,bury={bury})", "baseline"])
    discard = [e for e in events if e[0] == "discard"]
    assert discard[0][3] == pile


def _declare_position(players=2):
    # Seat 0 holds two sailors and two shells: 5 + 2 = 7 card points before drawing; the pile
    # tops and the first deck cards add nothing. Seat 1 holds four cards.
    hands = {0: "sailor:pink,sailor:orange,shell:black,shell:yellow",
             1: "octopus:green,octopus:purple,penguin:purple,penguin:pink"}
    return scripted(players, deck="fish:black,boat:dark_blue", piles=("crab:green", "crab:yellow"),
                    hands=hands)


def _declaration(s, spec):
    others = ["baseline"] * (int(s[0]) - 1)
    events = first_turn(s, [spec] + others)
    return [e for e in events if e[0] == "declare"][0]


def test_margin_calls_last_chance_on_a_visible_lead():
    """At 7 points the baseline says STOP. With last_chance_margin=2 and hand_value=0 the lead
    over seat 1 (nothing on its table) is 7: LAST CHANCE. With hand_value=2 its four hidden cards
    are worth 8, the lead is -1: STOP."""
    assert _declaration(_declare_position(), "baseline")[2:] == (1, 7)
    assert _declaration(_declare_position(), "threshold(last_chance_margin=2,hand_value=0)")[2] == 2
    assert _declaration(_declare_position(), "threshold(last_chance_margin=2,hand_value=2)")[2] == 1


def test_margin_respects_players_and_deck_limits():
    spec = "threshold(last_chance_margin=2,hand_value=0,{})"
    assert _declaration(_declare_position(3), spec.format("lc_max_players=2"))[2] == 1
    assert _declaration(_declare_position(3), spec.format("lc_max_players=3"))[2] == 2
    assert _declaration(_declare_position(), spec.format("lc_min_deck=60"))[2] == 1


def test_stop_at_is_respected():
    """stop_at=8: at 7 points the player does not declare on its first turn."""
    events = first_turn(_declare_position(), ["threshold(stop_at=8)", "baseline"])
    assert "declare" not in [e[0] for e in events]


def test_knobbed_player_keeps_every_invariant():
    """Random rounds with every knob away from its default, in check mode."""
    from analyzer.rules.setups import check_random_rounds
    spec = ("threshold(stop_at=8,last_chance_at=12,last_chance_margin=3,hand_value=1.5,"
            "take_at=2,mermaid_bonus=2,colour_weight=0.5,play_boat=0,play_steal=0,"
            "steal_from=1,bury=1)")
    ends = check_random_rounds(3, 1500, seed=5, expansion="extra-salt", policies=[spec])
    assert ends["last_chance_won"] + ends["last_chance_lost"] > 0
    assert ends["events:extra_turn"] == 0 and ends["events:steal"] == 0


@pytest.mark.parametrize("spec, words", [
    ("threshold(take_at=x)", "not a number"),
    ("threshold(steal_from=3)", "out of range"),
    ("threshold(play_fish=0.5)", "whole number"),
    ("threshold(nope=1)", "no parameter .nope.; .seasalt policies threshold. lists all 17"),
])
def test_bad_specs_name_the_problem(spec, words):
    with pytest.raises(SeasaltError, match=words):
        parse_policy(spec)


@pytest.mark.parametrize("preset, spelled", [
    ("gambler", "threshold(last_chance_margin=3,hand_value=1)"),
    ("denier", "threshold(bury=1,steal_from=1)"),
    ("mermaid_hunter", "threshold(mermaid_bonus=3,colour_weight=0.5)"),
])
def test_presets_are_the_threshold_player_with_other_defaults(preset, spelled):
    a = simulate_rounds(3, 5_000, [preset], seed=6)
    b = simulate_rounds(3, 5_000, [spelled], seed=6)
    assert _strip(a) == _strip(b)
    assert a["policies"][0].startswith(preset + "(")
