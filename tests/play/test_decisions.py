"""Every decision point through the API (analyzer.play.decisions.Round over kernels.engine): each
kind reached in a scripted position, its legal actions as docs/rules.md, "A turn" to "Ending a
round" allow them, and the action applied; a random player never plays an illegal action and every
card stays accounted for."""
import random

import pytest

from analyzer.play.decisions import Round
from analyzer.base.errors import SeasaltError
from analyzer.rules.setups import check_random_rounds
from conftest import hand_of, pile_of, scripted, table_of
from kernels import actions as ka
from kernels import cards as kc
from kernels import state as ks

ES = "extra-salt"


def t(name: str) -> int:
    kind, _, colour = name.partition(":")
    return kc.type_id(kind, colour)


def test_draw_step_sources_and_the_two_cards_to_keep():
    """"A turn": deck or either pile top; two drawn cards, keep one, the other on a pile of
    choice."""
    s = scripted(2, deck="mermaid,shell:grey", piles=("octopus:purple", "fish:black"))
    r = Round(s, [None, "baseline"], check=True)
    assert (r.decision, r.player) == ("draw", 0)
    assert r.legal() == [ka.SRC_DECK, ka.SRC_PILE_A, ka.SRC_PILE_B]
    assert r.describe(ka.SRC_PILE_A) == "take pile A's top octopus:purple"
    r.apply(ka.SRC_DECK)
    assert r.decision == "keep"
    # keep + 2 * pile: both piles are non-empty, so four choices.
    assert r.legal() == [0, 1, 2, 3]
    assert r.describe(3) == "keep shell:grey, the other onto pile B"
    r.apply(3)
    assert "shell:grey" in hand_of(s, 0)
    assert r.events()[1:3] == [("keep", 0, "shell:grey", "mermaid"), ("discard", 0, "mermaid", 1)]


def test_keep_with_an_empty_pile_names_only_that_pile_and_identical_cards_are_one_choice():
    s = scripted(2, deck="shell:grey,crab:black", piles=("octopus:purple", ()))
    r = Round(s, [None, "baseline"])
    r.apply(ka.SRC_DECK)
    assert r.legal() == [2, 3]          # the unkept card must go onto the empty pile B
    s = scripted(2, deck="boat:black,boat:black", piles=((), ()))
    r = Round(s, [None, "baseline"])
    # Both piles empty: the deck is the only source, the pile is A, and the two boats are the
    # same card: no choice at all; nothing to play either, so seat 1 (baseline) plays on.
    assert r.events()[:3] == [("turn", 0, 0, 0), ("keep", 0, "boat:black", "boat:black"),
                              ("discard", 0, "boat:black", 0)]
    assert r.events()[3] == ("turn", 1, 0, 0)


def test_play_step_offers_pairs_with_their_copies_trios_and_declarations():
    """"A turn": any legal pair (copies named), a trio with a starfish, STOP / LAST CHANCE at 7+."""
    s = scripted(2, deck="shell:black,shell:green", piles=("octopus:purple", "octopus:yellow"),
                 expansion=ES, hands={0: "crab:dark_blue,crab:dark_blue,crab:yellow,starfish:yellow,"
                                         "mermaid,mermaid,mermaid"})
    r = Round(s, [None, "baseline"], check=True)
    r.apply(ka.SRC_PILE_A)                       # octopus:purple: 3 mermaids 3+1+1 + pair 1 + ...
    assert r.decision == "play"
    canonical = r.legal(copies=False)
    assert canonical == [ka.A_END, ka.A_STOP, ka.A_LAST_CHANCE, ka.A_CRAB, ka.A_CRAB + ka.TRIO]
    db, yellow, star = t("crab:dark_blue"), t("crab:yellow"), t("starfish:yellow")
    full = r.legal()
    assert ka.pair_action(ka.A_CRAB, db, db) in full and ka.pair_action(ka.A_CRAB, db, yellow) in full
    assert ka.pair_action(ka.A_CRAB + ka.TRIO, db, yellow, star) in full
    assert ka.pair_action(ka.A_CRAB, yellow, yellow) not in full       # only one yellow crab
    assert len(full) == 3 + 2 + 2                # END/STOP/LC, 2 pairs, 2 trios
    assert r.describe(ka.pair_action(ka.A_CRAB, db, yellow)) == \
        "play crab+crab (crab:dark_blue, crab:yellow)"
    r.apply(ka.pair_action(ka.A_CRAB + ka.TRIO, db, yellow, star))   # a trio: no crab effect
    assert table_of(s, 0) == ["crab:dark_blue", "crab:yellow", "starfish:yellow"]
    assert hand_of(s, 0).count("crab:dark_blue") == 1
    assert r.decision == "play"
    r.apply(ka.A_LAST_CHANCE)
    assert r.done and r.end.startswith("last_chance")


def test_crab_search_chooses_the_pile_then_the_card():
    """"Pair effects" crab+crab: choose a non-empty pile, look through it, take any card."""
    s = scripted(2, deck="fish:green,boat:black", piles=("fish:black,mermaid,fish:black", "penguin:pink"),
                 hands={0: "crab:dark_blue,crab:light_blue,boat:yellow"})
    r = Round(s, [None, "baseline"], check=True)
    r.apply(ka.SRC_DECK)
    r.apply(0)                                   # keep fish:green, boat:black onto pile A
    r.apply(ka.A_CRAB)
    assert (r.decision, r.legal()) == ("crab_pile", [0, 1])
    r.apply(0)
    assert r.decision == "crab_card"
    # Pile A bottom first: fish:black, mermaid, fish:black, boat:black. Every card may be taken;
    # without copies, one per type, nearest the top.
    assert r.legal() == [3, 2, 1, 0] and r.legal(copies=False) == [3, 2, 1]
    assert r.describe(1) == "take mermaid (2 below the top)"
    r.apply(1)
    assert ("crab_take", 0, "mermaid", 0) in r.events()
    assert "mermaid" in hand_of(s, 0) and pile_of(s, 0)[:3] == ["fish:black", "fish:black", "boat:black"]


def test_lobster_keeps_one_of_the_revealed_cards():
    """"Pair effects" crab+lobster: the top five deck cards, keep one, the rest back and
    shuffled."""
    s = scripted(2, deck="shell:black,mermaid,octopus:green,shell:green,shell:grey,penguin:pink",
                 piles=("fish:black", "boat:black"), expansion=ES,
                 hands={0: "crab:dark_blue,lobster"}, rest="B")
    r = Round(s, [None, "baseline"], check=True)
    r.apply(ka.SRC_PILE_A)
    r.apply(ka.A_LOBSTER)
    assert r.decision == "lobster"
    assert r.legal() == [0, 1, 2, 3, 4] and r.legal(copies=False) == [0, 1, 2, 3, 4]
    assert r.describe(1) == "keep mermaid"
    r.apply(1)
    assert ("lobster_keep", 0, "mermaid", 5) in r.events() and "mermaid" in hand_of(s, 0)


def test_steal_victim_is_chosen_among_hidden_hands():
    """"Pair effects" swimmer+shark: an opponent whose hidden hand holds a card."""
    s = scripted(4, deck="fish:green,boat:black", piles=("shark:black", "crab:grey"),
                 hands={0: "swimmer:black", 1: "mermaid", 2: "", 3: "shell:black,shell:grey"})
    r = Round(s, [None, "baseline", "baseline", "baseline"], check=True)
    r.apply(ka.SRC_PILE_A)
    r.apply(ka.A_STEAL)
    assert (r.decision, r.legal()) == ("victim", [1, 3])   # seat 2 has no card
    r.apply(1)
    assert ("steal", 0, 1, "mermaid") in r.events() and "mermaid" in hand_of(s, 0)


def test_an_illegal_action_is_refused_and_changes_nothing():
    s = scripted(2, deck="mermaid,shell:grey", piles=("octopus:purple", "fish:black"))
    r = Round(s, [None, "baseline"])
    before = s.copy()
    with pytest.raises(SeasaltError, match="not legal at this draw decision of seat 0"):
        r.apply(7)
    assert (s[:ks.STATE_CORE] == before[:ks.STATE_CORE]).all()   # (the legal list is scratch)
    r.apply(ka.SRC_DECK)
    with pytest.raises(SeasaltError, match="not legal"):
        r.apply(ka.A_STOP)


def test_copy_is_independent():
    r = Round.deal(3, seed=5)
    c = r.copy()
    a = r.legal()[0]
    r.apply(a)
    assert c.decision == "draw" and (c.s != r.s).any()
    c.apply(a)
    assert (c.s == r.s).all()          # same action, same random stream: same state


@pytest.mark.parametrize("players,expansion", [(2, "base"), (3, ES), (4, "base"), (4, ES)])
def test_random_bot_plays_only_legal_actions_and_keeps_every_card(players, expansion):
    """The random bot in every seat: every invariant checked after every event of every round
    (kernels.invariants via check mode), and every decision kind and effect happens."""
    ends = check_random_rounds(players, 400, seed=players, expansion=expansion, policies=["random"])
    assert sum(ends[k] for k in ("stop", "last_chance_won", "last_chance_lost", "void",
                                 "mermaids")) == 400
    for e in ("crab_take", "fish_draw", "steal", "extra_turn", "declare", "trio" if expansion == ES
              else "pair", "lobster_keep" if expansion == ES else "take_pile"):
        assert ends[f"events:{e}"] > 0, e


@pytest.mark.parametrize("players,expansion", [(2, ES), (3, "base"), (4, ES)])
def test_external_random_player_through_the_api(players, expansion):
    """Every seat played from Python by a uniformly random choice among the legal actions (with
    copies): each action is accepted, every decision offers at least two actions, the
    invariants hold after every event, and every decision kind is met."""
    rnd = random.Random(players)
    seen = set()
    for seed in range(60):
        r = Round.deal(players, seed=seed, expansion=expansion, check=True)
        while not r.done:
            legal = r.legal()
            assert len(legal) >= 2 and len(set(legal)) == len(legal)
            assert set(r.legal(copies=False)) <= set(legal) | set(ka.PAIR_ACTIONS) | \
                {a + ka.TRIO for a in ka.PAIR_ACTIONS}
            seen.add(r.decision)
            r.apply(rnd.choice(legal))
    want = {"draw", "keep", "play", "crab_pile", "crab_card", "victim"} | (
        {"lobster"} if expansion == ES else set())
    if players == 2:
        want.discard("victim")          # one opponent: the steal takes no decision
    assert want <= seen
