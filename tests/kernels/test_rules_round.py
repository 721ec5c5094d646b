"""docs/rules.md, "A game" to "Ending a round" with scripted decks: the exact event sequence of each
round and the points it writes into the state, for the baseline player (docs/players.md (the
baseline)).

Every expected sequence is worked out by hand in the comments: `pts` are card points ("Scoring: card
points"), `gain` is the baseline's gain. Cards the test does not place go to the bottom of the deck
(or under a pile when the deck must run out); no scripted round reaches them. `run` (conftest) also
replays each round independently and checks every card after every event. """
import numpy as np
import pytest

from conftest import deck_of, hand_of, pile_of, points_of, run, scripted, table_of
from analyzer.rules.notation import parse_cards
from kernels import state as ks

STOP_END = ("round_end", 0, "stop", 0)


def score(q, points, card_points, bonus):
    return ("score", q, points, card_points, bonus)


# ---------------------------------------------------------------------------------------------
# "A game" setup


def test_setup_flips_pile_a_then_b():
    """"A game": turn the top card face-up as pile A, then the next as pile B; hands and tables
    empty; the starter plays first."""
    names = ["shell:black", "boat:black", "mermaid", "crab:grey"]
    ids = parse_cards(",".join(names))
    s = ks.new_state()
    ks.deal(s, 3, np.array(ids[::-1], dtype=np.int64), 2)   # deal takes the top last
    assert pile_of(s, 0) == ["shell:black"]
    assert pile_of(s, 1) == ["boat:black"]
    assert deck_of(s) == ["mermaid", "crab:grey"]
    assert int(s[ks.CUR]) == 2 and int(s[ks.NPLAYERS]) == 3
    assert all(hand_of(s, q) == [] and table_of(s, q) == [] for q in range(3))
    assert int(s[ks.DECL]) == ks.DECL_NONE and int(s[ks.LOCK]) == -1


# ---------------------------------------------------------------------------------------------
# "A turn" draw step

# Player 0 holds 3 octopus (6 pts). Crab, fish and boat tops gain 0, so the baseline draws two
# from the deck; octopus:purple gains 3 (9 pts: STOP), shell:black gains 0.
OCTO3 = "octopus:light_blue,octopus:yellow,octopus:green"


@pytest.mark.parametrize("piles,pile", [
    ((["crab:grey", "fish:green"], ["boat:black"]), 1),   # B has fewer cards
    ((["crab:grey"], ["boat:black", "fish:green"]), 0),   # A has fewer cards
    ((["crab:grey"], ["boat:black"]), 0),                 # equal sizes: A
    (([], ["boat:black"]), 0),                            # exactly one pile empty: it must go there
    ((["crab:grey"], []), 1),
    (([], []), 0),                                        # both empty: A ("A turn", baseline)
], ids=["fewer-B", "fewer-A", "tie-A", "empty-A", "empty-B", "both-empty"])
@pytest.mark.parametrize("deck", [["octopus:purple", "shell:black"], ["shell:black", "octopus:purple"]],
                         ids=["keep-c1", "keep-c2"])
def test_draw_from_deck_keeps_one_and_discards_the_other(piles, pile, deck):
    """"A turn"a: take the top two, keep one (the higher gain), discard the other on a pile (an
    empty pile first, then the pile with fewer cards, tie A)."""
    s = scripted(2, deck=deck, piles=piles, hands={0: OCTO3})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "octopus:purple", "shell:black"),
        ("discard", 0, "shell:black", pile),
        ("declare", 0, ks.DECL_STOP, 9),
        score(0, 9, 9, 1), score(1, 0, 0, 0), STOP_END,
    ]
    assert end == "stop"
    assert pile_of(s, pile)[-1] == "shell:black"
    assert points_of(s) == [9, 0]


def test_draw_keep_tie_keeps_the_first_card():
    """Baseline draw rule 3: keep the higher gain, tie c1 (octopus:purple and octopus:grey both
    gain 3)."""
    s = scripted(2, deck="octopus:purple,octopus:grey", piles=("crab:grey", "boat:black"),
                 hands={0: OCTO3})
    _, events = run(s)
    assert events[:3] == [("turn", 0, 0, 0), ("keep", 0, "octopus:purple", "octopus:grey"),
                          ("discard", 0, "octopus:grey", 0)]
    assert events[3] == ("declare", 0, ks.DECL_STOP, 9)


@pytest.mark.parametrize("piles,card,pile,pts", [
    (("octopus:purple", "shell:black"), "octopus:purple", 0, 9),   # gain 3 vs 0
    (("penguin:pink", "octopus:grey"), "octopus:grey", 1, 9),      # gain 1 vs 3: B
    (("octopus:purple", "octopus:grey"), "octopus:purple", 0, 9),  # tie: A
    (("shell:black", "penguin:pink"), "penguin:pink", 1, 7),       # gain exactly 1 is enough
], ids=["A-better", "B-better", "tie-A", "gain-1"])
def test_take_a_pile_top(piles, card, pile, pts):
    """"A turn"b: take a pile's top card into hand (baseline: a top with gain >= 1, the higher gain,
    tie A). Nothing is discarded."""
    s = scripted(2, deck="fish:black,boat:black", piles=piles, hands={0: OCTO3})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("take_pile", 0, card, pile),
        ("declare", 0, ks.DECL_STOP, pts),
        score(0, pts, pts, 1), score(1, 0, 0, 0), STOP_END,
    ]
    assert pile_of(s, pile) == []
    assert deck_of(s)[:2] == ["fish:black", "boat:black"]


# ---------------------------------------------------------------------------------------------
# "Pair effects" duo effects


def test_crab_pair_searches_the_whole_pile():
    """"Pair effects" crab+crab: look through a whole pile and take any card; the rest keep their
    order. Player 0: 2 crabs + 2 octopus = 3 + held pair 1 = 4 pts. Tops shell:black / fish:green
    gain 0: draw shell:dark_blue (0) and boat:black (0), keep c1, discard on B (1 card < 2). The
    crab pair then takes octopus:green from the bottom of A (+3 beats shell:black +2): 6 + 1 = 7."""
    s = scripted(2, deck="shell:dark_blue,boat:black",
                 piles=("octopus:green,shell:black", "fish:green"),
                 hands={0: "crab:dark_blue,crab:light_blue,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:dark_blue", "boat:black"),
        ("discard", 0, "boat:black", 1),
        ("pair", 0, "crab:dark_blue", "crab:light_blue"),
        ("crab_take", 0, "octopus:green", 0),
        ("declare", 0, ks.DECL_STOP, 7),
        score(0, 7, 7, 2), score(1, 0, 0, 0), STOP_END,
    ]
    assert pile_of(s, 0) == ["shell:black"]
    assert pile_of(s, 1) == ["fish:green", "boat:black"]
    assert table_of(s, 0) == ["crab:dark_blue", "crab:light_blue"]
    assert int(s[ks.NPAIRS]) == 1


@pytest.mark.parametrize("piles,discard_pile,taken,from_pile,after", [
    # octopus:green at the bottom of A and octopus:purple at the bottom of B both gain 3: A.
    (("octopus:green,fish:green", "octopus:purple,boat:black"), 0, "octopus:green", 0,
     (["fish:green", "shell:yellow"], ["octopus:purple", "boat:black"])),
    # Two octopus in A gain 3 each: the one nearest the top (octopus:purple).
    (("octopus:green,octopus:purple,fish:green", "boat:black"), 1, "octopus:purple", 0,
     (["octopus:green", "fish:green"], ["boat:black", "shell:yellow"])),
], ids=["tie-pile-A", "tie-nearest-top"])
def test_crab_choice_ties(piles, discard_pile, taken, from_pile, after):
    """Baseline play rule 3: the card with the highest gain over both piles, tie pile A before
    pile B, within a pile the card nearest the top. The drawn shell:dark_blue (kept) and
    shell:yellow (discarded) gain 0 (one shell)."""
    s = scripted(2, deck="shell:dark_blue,shell:yellow", piles=piles,
                 hands={0: "crab:dark_blue,crab:light_blue,octopus:light_blue,octopus:yellow"})
    _, events = run(s)
    assert events[:6] == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:dark_blue", "shell:yellow"),
        ("discard", 0, "shell:yellow", discard_pile),
        ("pair", 0, "crab:dark_blue", "crab:light_blue"),
        ("crab_take", 0, taken, from_pile),
        ("declare", 0, ks.DECL_STOP, 7),
    ]
    assert (pile_of(s, 0), pile_of(s, 1)) == after


def test_boat_pair_takes_an_extra_turn():
    """"Pair effects" boat+boat: an extra draw step and play step inside the same turn. Player 0: 2
    boats + 2 octopus = 4 pts. Draw 1: keep shell:green, discard fish:black on A (1-1 tie). Play
    boats. Draw 2 (tops fish:black, crab:grey gain 0): keep octopus:green (+3), discard crab:black
    on B (A 2 > B 1). 6 + table pair 1 = 7: STOP."""
    s = scripted(2, deck="shell:green,fish:black,octopus:green,crab:black",
                 piles=("shell:black", "crab:grey"),
                 hands={0: "boat:dark_blue,boat:light_blue,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:green", "fish:black"),
        ("discard", 0, "fish:black", 0),
        ("pair", 0, "boat:dark_blue", "boat:light_blue"),
        ("extra_turn", 0),
        ("keep", 0, "octopus:green", "crab:black"),
        ("discard", 0, "crab:black", 1),
        ("declare", 0, ks.DECL_STOP, 7),
        score(0, 7, 7, 2), score(1, 0, 0, 0), STOP_END,
    ]
    assert int(s[ks.TURNS]) == 1   # the extra turn is part of the same turn


def test_boat_pairs_chain():
    """"Pair effects": further boats chain. 4 boats + 2 octopus = 3 + 2 held pairs = 5 pts. Each
    extra turn draws two 0-gain cards until octopus:green: 6 + 2 table pairs = 8."""
    s = scripted(2, deck="shell:green,fish:black,crab:black,fish:dark_blue,octopus:green,shark:green",
                 piles=("shell:black", "crab:grey"),
                 hands={0: "boat:dark_blue,boat:dark_blue,boat:light_blue,boat:light_blue,"
                           "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:green", "fish:black"),
        ("discard", 0, "fish:black", 0),
        ("pair", 0, "boat:dark_blue", "boat:dark_blue"),
        ("extra_turn", 0),
        ("keep", 0, "crab:black", "fish:dark_blue"),
        ("discard", 0, "fish:dark_blue", 1),
        ("pair", 0, "boat:light_blue", "boat:light_blue"),
        ("extra_turn", 0),
        ("keep", 0, "octopus:green", "shark:green"),
        ("discard", 0, "shark:green", 0),
        ("declare", 0, ks.DECL_STOP, 8),
        # light_blue: 2 boats + octopus = 3.
        score(0, 8, 8, 3), score(1, 0, 0, 0), STOP_END,
    ]


def test_fish_pair_draws_the_deck_top():
    """"Pair effects" fish+fish: take the top card of the deck. Three fish: the pair is
    fish:dark_blue + fish:black ("The cards" colour order), fish:green stays. 2 octopus 3 + held
    pair 1 = 4; draw shark:dark_blue (kept, tie c1) / crab:yellow (A); fish draw octopus:green: 6 +
    1 = 7."""
    s = scripted(2, deck="shark:dark_blue,crab:yellow,octopus:green",
                 piles=("shell:black", "crab:grey"),
                 hands={0: "fish:green,fish:black,fish:dark_blue,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shark:dark_blue", "crab:yellow"),
        ("discard", 0, "crab:yellow", 0),
        ("pair", 0, "fish:dark_blue", "fish:black"),
        ("fish_draw", 0, "octopus:green"),
        ("declare", 0, ks.DECL_STOP, 7),
        # dark_blue 2 (fish, shark), green 2 (fish, octopus).
        score(0, 7, 7, 2), score(1, 0, 0, 0), STOP_END,
    ]
    assert hand_of(s, 0) == sorted(["fish:green", "octopus:light_blue", "octopus:yellow",
                                    "shark:dark_blue", "octopus:green"])


# Steals (3 players). Player 0 draws crab:black (kept) / fish:black (A): both gain 0.
STEAL_DECK = "crab:black,fish:black"
STEAL_PILES = ("shell:black", "crab:grey")


def test_steal_from_the_opponent_with_most_cards():
    """"Pair effects" swimmer+shark: take a random card of an opponent's hidden hand; baseline: the
    opponent with the most cards. Player 2 holds two mermaids, so the stolen card is a mermaid
    whatever the random pick. Player 0: 3 octopus 6 + held pair 1 = 7, but the steal comes first
    (rule 4 before 5): 6 + table pair 1 + mermaid (largest colour: light_blue 2) = 9."""
    s = scripted(3, deck=STEAL_DECK, piles=STEAL_PILES,
                 hands={0: "swimmer:dark_blue,shark:light_blue," + OCTO3,
                        1: "penguin:pink", 2: "mermaid,mermaid"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "crab:black", "fish:black"),
        ("discard", 0, "fish:black", 0),
        ("pair", 0, "swimmer:dark_blue", "shark:light_blue"),
        ("steal", 0, 2, "mermaid"),
        ("declare", 0, ks.DECL_STOP, 9),
        score(0, 9, 9, 2), score(1, 1, 1, 1), score(2, 1, 1, 1), STOP_END,
    ]
    assert hand_of(s, 2) == ["mermaid"]


@pytest.mark.parametrize("current,hands,victim,stolen,scores", [
    # Tie 1-1: the first opponent after player 0 (player 1). Two sharks + a swimmer: the pair is
    # swimmer:yellow + shark:light_blue ("The cards" order), shark:purple stays.
    (0, {0: "swimmer:yellow,shark:purple,shark:light_blue,octopus:light_blue,octopus:yellow",
         1: "octopus:purple", 2: "penguin:pink"}, 1, "octopus:purple",
     # p0: 6 + 1 = 7; yellow 2, purple 2, light_blue 2 -> bonus 2.
     [score(0, 7, 7, 2), score(1, 0, 0, 0), score(2, 1, 1, 1)]),
    # An empty hand cannot be stolen from: player 2.
    (0, {0: "swimmer:yellow,shark:purple,shark:light_blue,octopus:light_blue,octopus:yellow",
         2: "octopus:purple"}, 2, "octopus:purple",
     [score(0, 7, 7, 2), score(1, 0, 0, 0), score(2, 0, 0, 0)]),
    # Player 2 steals: tie between 0 and 1, the first after player 2 in turn order is player 0.
    (2, {2: "swimmer:yellow,shark:purple,shark:light_blue,octopus:light_blue,octopus:yellow",
         0: "octopus:purple", 1: "penguin:pink"}, 0, "octopus:purple",
     [score(0, 0, 0, 0), score(1, 1, 1, 1), score(2, 7, 7, 2)]),
], ids=["tie-first-after", "skip-empty-hand", "wraps-around"])
def test_steal_victim_choice(current, hands, victim, stolen, scores):
    """Baseline play rule 4: the opponent holding the most cards (tie: the first after the player in
    turn order), among hidden non-empty hands ("Pair effects"). One-card victims: forced card."""
    s = scripted(3, deck=STEAL_DECK, piles=STEAL_PILES, hands=hands, current=current)
    end, events = run(s)
    p = current
    assert events == [
        ("turn", p, 0, 0),
        ("keep", p, "crab:black", "fish:black"),
        ("discard", p, "fish:black", 0),
        ("pair", p, "swimmer:yellow", "shark:light_blue"),
        ("steal", p, victim, stolen),
        ("declare", p, ks.DECL_STOP, 7),
        *scores,
        ("round_end", p, "stop", p),
    ]


# ---------------------------------------------------------------------------------------------
# "Ending a round" ending a round: the round example of "Scoring: card points" (caller 7 with 2
# yellow, opponent 4 with 2 blue)

CALLER = "sailor:pink,sailor:orange,boat:yellow,boat:yellow"            # 5 + held pair 1 = 6
OPPONENT = "swimmer:dark_blue,shark:dark_blue,penguin:purple,penguin:light_orange"  # 1 + 3 = 4


def _round_example(b_pile):
    # Player 0 takes penguin:pink from A (gain 1; B's top gains 0 to a hand without penguins):
    # 7 points, colours yellow 2 and pink 2, bonus 2. Player 1: 4 points, dark_blue 2, bonus 2.
    return scripted(2, deck="shell:green,fish:green", piles=("shell:black,penguin:pink", b_pile),
                    hands={0: CALLER, 1: OPPONENT})


def test_stop_scores_card_points_without_bonus():
    """"Ending a round" / "Scoring: card points" round example: STOP gives 7 / 4 (hands revealed, no
    colour bonus)."""
    s = _round_example("crab:grey")
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("take_pile", 0, "penguin:pink", 0),
        ("declare", 0, ks.DECL_STOP, 7),
        score(0, 7, 7, 2), score(1, 4, 4, 2), STOP_END,
    ]
    assert end == "stop"
    assert points_of(s) == [7, 4]
    assert int(s[ks.ENDER]) == 0 and int(s[ks.DECL_POINTS]) == 7


def test_last_chance_won():
    """"Ending a round" / "Scoring: card points": a LAST CHANCE that is won gives 9 / 2 (caller 7 +
    bonus 2, opponent bonus 2). The caller reveals at once; the opponent's final turn (tops
    shell:black, crab:grey gain 0: keep shell:green, discard fish:green on A) cannot declare and
    cannot steal (the only other hand is revealed), then reveals."""
    s = _round_example("crab:grey")
    end, events = run(s, ["baseline(last_chance_at=7)", "baseline"])
    assert events == [
        ("turn", 0, 0, 0),
        ("take_pile", 0, "penguin:pink", 0),
        ("declare", 0, ks.DECL_LAST_CHANCE, 7),
        ("reveal", 0),
        ("turn", 1, 0, 1),
        ("keep", 1, "shell:green", "fish:green"),
        ("discard", 1, "fish:green", 0),
        ("reveal", 1),
        score(0, 9, 7, 2), score(1, 2, 4, 2),
        ("round_end", 0, "last_chance_won", 0),
    ]
    assert end == "last_chance_won"
    assert points_of(s) == [9, 2]


def test_last_chance_lost():
    """"Ending a round" / "Scoring: card points": the opponent reaches 8 (colony on B: +2 x 2
    penguins), the bet is lost: caller 2 (bonus only), opponent 8 (card points, no bonus)."""
    s = _round_example("colony")
    end, events = run(s, ["baseline(last_chance_at=7)", "baseline"])
    assert events == [
        ("turn", 0, 0, 0),
        ("take_pile", 0, "penguin:pink", 0),
        ("declare", 0, ks.DECL_LAST_CHANCE, 7),
        ("reveal", 0),
        ("turn", 1, 0, 1),
        ("take_pile", 1, "colony", 1),
        ("reveal", 1),
        score(0, 2, 7, 2), score(1, 8, 8, 2),
        ("round_end", 0, "last_chance_lost", 0),
    ]
    assert end == "last_chance_lost"
    assert points_of(s) == [2, 8]


def test_last_chance_tie_goes_to_the_caller():
    """"Ending a round": won if the caller's points are >= every opponent's. The opponent takes
    octopus:green (+3) to reach 7 = the caller's 7."""
    s = scripted(2, deck="shell:green,fish:green", piles=("shell:black,penguin:pink", "octopus:green"),
                 hands={0: CALLER, 1: "swimmer:dark_blue,shark:dark_blue,octopus:light_blue,"
                                      "octopus:yellow"})
    end, events = run(s, ["baseline(last_chance_at=7)", "baseline"])
    assert events[4:] == [
        ("turn", 1, 0, 1),
        ("take_pile", 1, "octopus:green", 1),
        ("reveal", 1),
        score(0, 9, 7, 2), score(1, 2, 7, 2),
        ("round_end", 0, "last_chance_won", 0),
    ]
    assert points_of(s) == [9, 2]


def test_last_chance_final_turns_in_order():
    """"Ending a round": every other player, clockwise from the caller's left, takes exactly one
    final turn and reveals at its end; the round is scored when the turn would come back to the
    caller. Player 1 (colony + 3 penguins = 11) calls LAST CHANCE; players 2, 3, 0 follow. Every
    drawn card gains 0 to its player; discards go to the pile with fewer cards (tie A)."""
    s = scripted(4, current=1,
                 deck="fish:dark_blue,boat:dark_blue,shark:dark_blue,boat:light_blue,"
                      "fish:black,shell:dark_blue,crab:dark_blue,fish:green",
                 piles=("shell:black", "crab:grey"),
                 hands={1: "colony,penguin:purple,penguin:light_orange,penguin:pink"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 0),
        ("keep", 1, "fish:dark_blue", "boat:dark_blue"),
        ("discard", 1, "boat:dark_blue", 0),
        ("declare", 1, ks.DECL_LAST_CHANCE, 11),
        ("reveal", 1),
        ("turn", 2, 0, 1),
        ("keep", 2, "shark:dark_blue", "boat:light_blue"),
        ("discard", 2, "boat:light_blue", 1),
        ("reveal", 2),
        ("turn", 3, 0, 1),
        ("keep", 3, "fish:black", "shell:dark_blue"),
        ("discard", 3, "shell:dark_blue", 0),
        ("reveal", 3),
        ("turn", 0, 0, 1),
        ("keep", 0, "crab:dark_blue", "fish:green"),
        ("discard", 0, "fish:green", 1),
        ("reveal", 0),
        # Won: 11 + bonus 1 (all colours different); every opponent scores its bonus (1 card).
        score(0, 1, 0, 1), score(1, 12, 11, 1), score(2, 1, 0, 1), score(3, 1, 0, 1),
        ("round_end", 1, "last_chance_won", 1),
    ]
    assert points_of(s) == [1, 12, 1, 1]
    assert int(s[ks.TURNS]) == 4
    assert [int(s[ks.REVEALED + q]) for q in range(4)] == [1, 1, 1, 1]


def test_void_round_when_the_deck_runs_out():
    """"A turn" / "Ending a round": no declaration and the deck is empty at the end of a turn: the
    round is void, nobody scores, and the ender is the player whose turn emptied the deck (player
    1)."""
    s = scripted(2, deck="boat:black,fish:black,boat:yellow,fish:yellow",
                 piles=("shell:black", "crab:grey"), rest="B",
                 hands={0: "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "boat:black", "fish:black"),
        ("discard", 0, "fish:black", 0),
        ("turn", 1, 0, 0),
        ("keep", 1, "boat:yellow", "fish:yellow"),
        ("discard", 1, "fish:yellow", 0),
        ("round_end", 1, "void", 1),
    ]
    assert end == "void"
    assert points_of(s) == [0, 0]
    assert int(s[ks.ENDER]) == 1


def test_four_mermaids_win_at_once():
    """"A turn" / "Ending a round": holding all four mermaids ends the game at once; the round is
    not scored, even though the player has 9 points (3 mermaids + octopus: white 4 + 1 + 1 + octopus
    3)."""
    s = scripted(2, deck="fish:black,boat:black", piles=("mermaid", "crab:grey"),
                 hands={0: "mermaid,mermaid,mermaid,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("take_pile", 0, "mermaid", 0),
        ("mermaid_win", 0),
        ("round_end", 0, "mermaids", 0),
    ]
    assert end == "mermaids"
    assert int(s[ks.ENDER]) == 0
    assert points_of(s) == [0, 0]
    assert int(s[ks.DECL]) == ks.DECL_NONE


def test_four_mermaids_checked_after_every_card_gained():
    """"A turn": the check comes after every card gained: the fish pair draws the 4th mermaid and
    the game ends before the held crab pair is played. Pile tops and the drawn cards are of
    colours that do not change the mermaid score (gain 0)."""
    s = scripted(2, deck="boat:yellow,shell:grey,mermaid", piles=("shell:yellow", "shell:green"),
                 hands={0: "mermaid,mermaid,mermaid,fish:dark_blue,fish:black,crab:dark_blue,"
                           "crab:light_blue"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "boat:yellow", "shell:grey"),
        ("discard", 0, "shell:grey", 0),
        ("pair", 0, "fish:dark_blue", "fish:black"),
        ("fish_draw", 0, "mermaid"),
        ("mermaid_win", 0),
        ("round_end", 0, "mermaids", 0),
    ]
    assert end == "mermaids"
    assert table_of(s, 0) == ["fish:black", "fish:dark_blue"]


# ---------------------------------------------------------------------------------------------
# Declaring: threshold max(7, stop_at), LAST CHANCE at last_chance_at (the baseline
# (docs/players.md) rule 5). The deck holds exactly the two drawn cards (the rest of the cards are
# under pile B), so an undeclared turn ends the round void ("A turn") and a declaration in this
# emptying turn still counts ("Ending a round"). Piles: A fish:green, B ...crab:grey (both tops gain
# 0; discard goes to A).

BASE5 = "octopus:light_blue,octopus:yellow,shell:dark_blue,shell:black"                 # 3 + 2
BASE8 = "octopus:light_blue,octopus:yellow,octopus:green,shell:dark_blue,shell:black"   # 6 + 2


@pytest.mark.parametrize("spec,hand,drawn,pts,decl,bonus", [
    ("baseline", BASE5, "penguin:pink", 6, None, 1),                 # below 7: no declaration
    ("baseline", BASE5, "shell:green", 7, ks.DECL_STOP, 1),          # exactly 7 is enough
    ("baseline", BASE5, "octopus:green", 8, ks.DECL_STOP, 1),
    ("baseline(stop_at=5)", BASE5, "penguin:pink", 6, None, 1),      # stop_at below 7 acts as 7
    ("baseline(stop_at=9)", BASE5, "octopus:green", 8, None, 1),
    ("baseline(stop_at=9)", BASE8, "penguin:pink", 9, ks.DECL_STOP, 1),
    ("baseline", BASE8, "penguin:pink", 9, ks.DECL_STOP, 1),
    ("baseline", BASE8, "shell:yellow", 10, ks.DECL_LAST_CHANCE, 2),  # last_chance_at 10
    ("baseline(last_chance_at=8)", BASE5, "octopus:green", 8, ks.DECL_LAST_CHANCE, 1),
    ("baseline(stop_at=12)", BASE8, "shell:yellow", 10, None, 2),    # 10 < 12: nothing
    ("baseline(stop_at=9,last_chance_at=9)", BASE8, "penguin:pink", 9, ks.DECL_LAST_CHANCE, 1),
])
def test_declaring_thresholds(spec, hand, drawn, pts, decl, bonus):
    """"A turn" / edge case 12 and baseline rule 5: declare when pts >= max(7, stop_at): LAST CHANCE
    if pts >= last_chance_at, else STOP; never forced. In a LAST CHANCE the opponent's final turn
    faces an empty deck and takes pile A's top (fish:black, tie with crab:grey at gain 0)."""
    s = scripted(2, deck=[drawn, "fish:black"], piles=("fish:green", "crab:grey"), rest="B",
                 hands={0: hand})
    end, events = run(s, [spec, "baseline"])
    head = [("turn", 0, 0, 0), ("keep", 0, drawn, "fish:black"), ("discard", 0, "fish:black", 0)]
    if decl is None:
        assert events == head + [("round_end", 0, "void", 0)]
        assert points_of(s) == [0, 0]
    elif decl == ks.DECL_STOP:
        assert events == head + [("declare", 0, decl, pts), score(0, pts, pts, bonus),
                                 score(1, 0, 0, 0), STOP_END]
        assert points_of(s) == [pts, 0]
    else:
        assert events == head + [
            ("declare", 0, decl, pts), ("reveal", 0),
            ("turn", 1, 0, 1), ("take_pile", 1, "fish:black", 0), ("reveal", 1),
            score(0, pts + bonus, pts, bonus), score(1, 1, 0, 1),
            ("round_end", 0, "last_chance_won", 0)]
        assert points_of(s) == [pts + bonus, 1]


def test_pair_copies_in_section_1_order():
    """the baseline (docs/players.md): when several copies could form the pair, play the copies that
    come first in docs/rules.md, "The cards" (kinds in table order, colours in the order listed).
    Three crabs yellow, grey, dark_blue: the pair is dark_blue + yellow. Crab search as in
    test_crab_pair_searches_the_whole_pile."""
    s = scripted(2, deck="shell:dark_blue,boat:black", piles=("octopus:green,shell:black", "fish:green"),
                 hands={0: "crab:yellow,crab:grey,crab:dark_blue,octopus:light_blue,octopus:yellow"})
    _, events = run(s)
    assert events[3:6] == [("pair", 0, "crab:dark_blue", "crab:yellow"),
                           ("crab_take", 0, "octopus:green", 0),
                           ("declare", 0, ks.DECL_STOP, 7)]
    assert hand_of(s, 0) == sorted(["crab:grey", "octopus:light_blue", "octopus:yellow",
                                    "octopus:green", "shell:dark_blue"])


def test_stop_at_below_7_acts_as_7_and_the_turn_goes_on():
    """the baseline (docs/players.md): "`stop_at` below 7 acts as 7". At 6 points (2 octopus 3 + 2
    shells 2 + held boats 1) the player with stop_at=5 does not try to declare, so rule 6 plays the
    boats; the extra turn's octopus:green makes 6 + 2 + table pair 1 = 9: STOP."""
    s = scripted(2, deck="shell:black,fish:black,octopus:green,crab:black",
                 piles=("fish:green", "crab:grey"),
                 hands={0: "boat:dark_blue,boat:light_blue,octopus:light_blue,octopus:yellow,"
                           "shell:dark_blue"})
    end, events = run(s, ["baseline(stop_at=5)", "baseline"])
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:black", "fish:black"), ("discard", 0, "fish:black", 0),
        ("pair", 0, "boat:dark_blue", "boat:light_blue"), ("extra_turn", 0),
        ("keep", 0, "octopus:green", "crab:black"), ("discard", 0, "crab:black", 1),
        ("declare", 0, ks.DECL_STOP, 9),
        score(0, 9, 9, 2), score(1, 0, 0, 0), STOP_END,
    ]
