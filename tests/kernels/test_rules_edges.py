"""The edge cases of docs/rules.md, "Edge cases, decided" (and "Ending a round"), one or more
scripted rounds each, named after the item.

Items 8 and 15 are Extra Salt only: test_extra_salt.py has test_edge_8_* and test_edge_15_*.
Where the baseline never takes the action an edge allows (a crab, fish or steal pair whose effect
cannot happen), the seat is played through the decision API (analyzer.play.decisions.Round) and the
baseline's choice not to play it is checked on a scripted round.
Expected events are worked out by hand in the docstrings and comments; `run` (conftest) also
replays every round independently and accounts for every card after every event.
"""
from analyzer.play.decisions import Round
from conftest import hand_of, pile_of, points_of, run, scripted, table_of
from kernels import actions as ka
from kernels import cards as kc
from kernels import state as ks
from kernels.invariants import state_errors
from kernels.scoring import card_points

LC = ks.DECL_LAST_CHANCE


def score(q, points, card_points, bonus):
    return ("score", q, points, card_points, bonus)


def _played(s, seat=0, players=2):
    """`s` run through the decision API with `seat` played from here, the others baseline (the
    invariants checked after every event when every card is placed); stands at that seat's
    first decision."""
    return Round(s, [None if q == seat else "baseline" for q in range(players)],
                 check=state_errors(s) == 0)


CRAB_DB, CRAB_LB = kc.type_id("crab", "dark_blue"), kc.type_id("crab", "light_blue")

# Caller hand used by the LAST CHANCE situations below: colony 6 + 3 penguins 5 = 11, bonus 1.
CALLER11 = "colony,penguin:purple,penguin:light_orange,penguin:pink"


# --- 1 ---------------------------------------------------------------------------------------

def test_edge_1_one_card_deck_keeps_it_and_the_round_is_void():
    """edge case 1: "Deck holds 1 card at 'draw from deck': the player gets that card and discards
    nothing. If the deck is then empty, the round is void at the end of the turn unless someone
    declares in it." (2 octopus + shell:green = 3 points: no declaration.)"""
    s = scripted(2, deck="shell:green", piles=("fish:green", "crab:grey"), rest="B",
                 hands={0: "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [("turn", 0, 0, 0), ("keep", 0, "shell:green", None),
                      ("round_end", 0, "void", 0)]
    assert pile_of(s, 0) == ["fish:green"]
    assert points_of(s) == [0, 0]


def test_edge_1_one_card_deck_then_a_declaration_counts():
    """edge case 1 / "Ending a round": the last card brings 2 octopus + 2 shells to 3 + 4 = 7: STOP
    is scored."""
    s = scripted(2, deck="shell:green", piles=("fish:green", "crab:grey"), rest="B",
                 hands={0: "octopus:light_blue,octopus:yellow,shell:dark_blue,shell:black"})
    end, events = run(s)
    assert events == [("turn", 0, 0, 0), ("keep", 0, "shell:green", None),
                      ("declare", 0, ks.DECL_STOP, 7),
                      score(0, 7, 7, 1), score(1, 0, 0, 0), ("round_end", 0, "stop", 0)]
    assert points_of(s) == [7, 0]


# --- 2 ---------------------------------------------------------------------------------------

def test_edge_2_final_turns_with_an_empty_deck_take_a_pile_top():
    """edge case 2: "Deck empty at a draw step (possible in LAST CHANCE final turns ...): the player
    must take a pile top." Player 1 (2 octopus) takes octopus:grey from B (+3 beats
    shell:black 0); player 2 (no cards) takes A's top (tie at gain 0: A)."""
    s = scripted(3, current=1, declared=(0, LC), deck=(),
                 piles=("shell:black", "octopus:purple,octopus:grey"), rest="A",
                 hands={0: CALLER11, 1: "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 1), ("take_pile", 1, "octopus:grey", 1), ("reveal", 1),
        ("turn", 2, 0, 1), ("take_pile", 2, "shell:black", 0), ("reveal", 2),
        # Won: 11 >= 6 and 0. Caller 11 + 1; others their bonus (player 1: lb, yellow, grey).
        score(0, 12, 11, 1), score(1, 1, 6, 1), score(2, 1, 0, 1),
        ("round_end", 0, "last_chance_won", 0),
    ]
    assert points_of(s) == [12, 1, 1]


def test_edge_2_deck_and_piles_empty_take_nothing():
    """edge case 2: "If both piles are also empty (final turns only), the player takes nothing."
    Player 1's held crab, fish and boat pairs stay in hand: their effects cannot happen and the
    baseline does not play them (rules 2, 3, 6 need a pile card or a deck card); they score as
    held pairs (3). The cards not listed are out of this round."""
    s = scripted(2, current=1, declared=(0, LC), deck=(), piles=((), ()), rest=None,
                 hands={0: CALLER11, 1: "crab:dark_blue,crab:dark_blue,fish:dark_blue,"
                                       "fish:dark_blue,boat:dark_blue,boat:dark_blue"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 1), ("take_nothing", 1), ("reveal", 1),
        score(0, 12, 11, 1), score(1, 6, 3, 6),
        ("round_end", 0, "last_chance_won", 0),
    ]
    assert table_of(s, 1) == []
    assert len(hand_of(s, 1)) == 6


def test_edge_2_boat_extra_turn_with_an_empty_deck_draws_from_a_pile():
    """edge case 2 / edge case 6: "With an empty deck but a pile card, the extra turn happens and
    its draw must come from a pile." Player 0 draws the last two cards (keep shell:green, discard
    fish:black on A), plays the boats; the extra turn takes A's top (tie at 0: A). 4 points, no
    declaration, deck empty: void."""
    s = scripted(2, deck="shell:green,fish:black", piles=("fish:green", "crab:grey"), rest="B",
                 hands={0: "boat:dark_blue,boat:light_blue,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:green", "fish:black"),
        ("discard", 0, "fish:black", 0),
        ("pair", 0, "boat:dark_blue", "boat:light_blue"),
        ("extra_turn", 0),
        ("take_pile", 0, "fish:black", 0),
        ("round_end", 0, "void", 0),
    ]


# --- 3 ---------------------------------------------------------------------------------------

def test_edge_3_both_piles_empty_must_draw_from_the_deck():
    """edge case 3: "Both piles empty with a non-empty deck: the player must draw from the deck. The
    unkept card starts a pile (A)." Player 0 (2 octopus) keeps octopus:green (+3, 6 pts) and
    penguin:pink starts pile A; player 1 takes it (gain 1); player 0 faces two empty piles
    again, keeps the mermaid (+1: white 1 is the largest colour) and reaches 7."""
    s = scripted(2, deck="octopus:green,penguin:pink,mermaid,fish:black", piles=((), ()),
                 hands={0: "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "octopus:green", "penguin:pink"),
        ("discard", 0, "penguin:pink", 0),
        ("turn", 1, 0, 0),
        ("take_pile", 1, "penguin:pink", 0),
        ("turn", 0, 0, 0),
        ("keep", 0, "mermaid", "fish:black"),
        ("discard", 0, "fish:black", 0),
        ("declare", 0, ks.DECL_STOP, 7),
        score(0, 7, 7, 1), score(1, 1, 1, 1), ("round_end", 0, "stop", 0),
    ]


# --- 4 ---------------------------------------------------------------------------------------

def test_edge_4_crab_pair_with_both_piles_empty_does_nothing():
    """edge case 4: "Crab pair with both piles empty: it may be played, and it does nothing." Seat 0
    draws the only deck card (forced: both piles empty), then plays the crabs: the pair moves
    to the table and scores 1, no card moves; the empty deck voids the round."""
    s = scripted(2, deck="shell:black", piles=((), ()), rest=None,
                 hands={0: "crab:dark_blue,crab:light_blue"})
    r = _played(s)
    assert (r.decision, r.player, r.legal()) == ("play", 0, [ka.A_END, ka.pair_action(
        ka.A_CRAB, CRAB_DB, CRAB_LB)])
    r.apply(ka.A_CRAB)
    assert r.events() == [("turn", 0, 0, 0), ("keep", 0, "shell:black", None),
                          ("pair", 0, "crab:dark_blue", "crab:light_blue"),
                          ("crab_take", 0, None, -1), ("round_end", 0, "void", 0)]
    assert hand_of(s, 0) == ["shell:black"] and table_of(s, 0) == ["crab:dark_blue", "crab:light_blue"]
    assert int(s[ks.NPAIRS]) == 1 and int(card_points(s, 0)) == 1


def test_edge_4_baseline_keeps_a_crab_pair_when_both_piles_are_empty():
    """edge case 4 with the baseline (rule 3 needs a non-empty pile): a one-card deck leaves both
    piles empty, the crab pair stays in hand, the round ends void."""
    s = scripted(2, deck="shell:black", piles=((), ()), rest=None,
                 hands={0: "crab:dark_blue,crab:light_blue"})
    end, events = run(s)
    assert events == [("turn", 0, 0, 0), ("keep", 0, "shell:black", None),
                      ("round_end", 0, "void", 0)]
    assert hand_of(s, 0) == ["crab:dark_blue", "crab:light_blue", "shell:black"]


def test_edge_4_one_pile_empty_searches_the_other():
    """edge case 4: "With one pile empty, the player must search the other." Player 0 (2 crabs +
    octopus = 1 pt) empties A by taking octopus:purple (+3); the crab pair then searches B and
    takes octopus:grey from under shell:black: 3 octopus 6 + table pair 1 = 7."""
    s = scripted(2, deck="fish:black,boat:black", piles=("octopus:purple", "octopus:grey,shell:black"),
                 hands={0: "crab:dark_blue,crab:light_blue,octopus:light_blue"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("take_pile", 0, "octopus:purple", 0),
        ("pair", 0, "crab:dark_blue", "crab:light_blue"),
        ("crab_take", 0, "octopus:grey", 1),
        ("declare", 0, ks.DECL_STOP, 7),
        score(0, 7, 7, 2), score(1, 0, 0, 0), ("round_end", 0, "stop", 0),
    ]
    assert pile_of(s, 1) == ["shell:black"]


# --- 5 ---------------------------------------------------------------------------------------

def test_edge_5_fish_pair_with_an_empty_deck_does_nothing():
    """edge case 5: "Fish pair with an empty deck: it may be played, and it does nothing." In a
    final turn with an empty deck seat 1 must take pile A's top, then plays its fish: no card
    drawn."""
    s = scripted(2, current=1, declared=(0, LC), deck=(), piles=("shell:black", ()), rest=None,
                 hands={0: CALLER11, 1: "fish:dark_blue,fish:black"})
    r = _played(s, seat=1)
    assert (r.decision, r.player) == ("play", 1)
    assert ka.A_STOP not in r.legal() and ka.A_LAST_CHANCE not in r.legal()   # a final turn
    r.apply(ka.A_FISH)
    assert r.events()[:4] == [("turn", 1, 0, 1), ("take_pile", 1, "shell:black", 0),
                              ("pair", 1, "fish:dark_blue", "fish:black"), ("fish_draw", 1, None)]
    assert table_of(s, 1) == ["fish:black", "fish:dark_blue"] and hand_of(s, 1) == ["shell:black"]
    assert int(card_points(s, 1)) == 1 and r.end == "last_chance_won"


def test_edge_5_baseline_keeps_a_fish_pair_when_the_deck_is_empty():
    """edge case 5 with the baseline (rule 2 needs a deck card): in a final turn with an empty deck
    player 1 takes pile A's top (shell:black, gain 0 as pile B is empty) and keeps the fish."""
    s = scripted(2, current=1, declared=(0, LC), deck=(), piles=("shell:black", ()), rest=None,
                 hands={0: CALLER11, 1: "fish:dark_blue,fish:black"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 1), ("take_pile", 1, "shell:black", 0), ("reveal", 1),
        # Player 1: held fish pair 1; black 2.
        score(0, 12, 11, 1), score(1, 2, 1, 2), ("round_end", 0, "last_chance_won", 0),
    ]


# --- 6 ---------------------------------------------------------------------------------------

def test_edge_6_boat_pair_with_deck_and_piles_empty_is_not_an_extra_turn():
    """edge case 6: "Boat pair when the deck and both piles are empty: it may be played, and there
    is no extra turn." The baseline (rule 6 needs a card somewhere) keeps the boats in hand; the
    engine's pair move itself is checked directly (on the table it scores 1 like in hand)."""
    s = scripted(2, current=1, declared=(0, LC), deck=(), piles=((), ()), rest=None,
                 hands={0: CALLER11, 1: "boat:black,boat:yellow"})
    end, events = run(s)
    assert events == [("turn", 1, 0, 1), ("take_nothing", 1), ("reveal", 1),
                      score(0, 12, 11, 1), score(1, 1, 1, 1),
                      ("round_end", 0, "last_chance_won", 0)]
    s = scripted(2, current=1, declared=(0, LC), deck=(), piles=((), ()), rest=None,
                 hands={0: CALLER11, 1: "boat:black,boat:yellow"})
    r = _played(s, seat=1)
    assert int(card_points(s, 1)) == 1
    r.apply(ka.A_BOAT)
    assert r.events() == [("turn", 1, 0, 1), ("take_nothing", 1),
                          ("pair", 1, "boat:black", "boat:yellow"), ("reveal", 1),
                          score(0, 12, 11, 1), score(1, 1, 1, 1),
                          ("round_end", 0, "last_chance_won", 0)]
    assert int(card_points(s, 1)) == 1            # on the table it scores 1, as in hand


# --- 7 ---------------------------------------------------------------------------------------

def test_edge_7_steal_with_no_eligible_opponent_does_nothing():
    """edge case 7: "Steal with no eligible opponent (all opponents have empty or revealed hands
    ...): it may be played, and it does nothing." (engine effect called directly: opponent 1 is
    revealed, opponent 2 has no cards)."""
    s = scripted(3, deck="shell:black", piles=((), ()), rest=None, revealed=(1,),
                 hands={0: "swimmer:dark_blue,shark:dark_blue", 1: "mermaid"})
    r = _played(s, players=3)
    r.apply(ka.A_STEAL)
    assert r.events()[2:4] == [("pair", 0, "swimmer:dark_blue", "shark:dark_blue"),
                               ("steal", 0, -1, None)]
    assert hand_of(s, 1) == ["mermaid"] and hand_of(s, 0) == ["shell:black"]
    assert int(card_points(s, 0)) == 1


def test_edge_7_two_player_last_chance_opponent_cannot_steal():
    """edge case 7: "in a 2-player LAST CHANCE the only opponent is always revealed": the baseline
    (rule 4 needs an unrevealed non-empty hand) keeps swimmer+shark in hand."""
    s = scripted(2, current=1, declared=(0, LC), deck="shell:green,fish:green",
                 piles=("crab:grey", "boat:black"),
                 hands={0: CALLER11, 1: "swimmer:dark_blue,shark:dark_blue"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 1), ("keep", 1, "shell:green", "fish:green"),
        ("discard", 1, "fish:green", 0), ("reveal", 1),
        score(0, 12, 11, 1), score(1, 2, 1, 2), ("round_end", 0, "last_chance_won", 0),
    ]
    assert hand_of(s, 0) == sorted(CALLER11.split(","))


# --- 9 ---------------------------------------------------------------------------------------

def test_edge_9_pair_without_effect_still_scores_and_is_safe_from_steals():
    """edge case 9: "A pair whose effect cannot happen still moves to the table and scores 1.
    Playing a pair only to keep it away from steals is legal." Player 0 plays crabs with both piles
    empty; player 1's steal can then only take the penguin left in player 0's hand."""
    s = scripted(2, deck="octopus:grey,shell:black,fish:green,boat:black", piles=((), ()),
                 rest=None, hands={0: "crab:dark_blue,crab:light_blue,penguin:pink",
                                   1: "swimmer:black,shark:black"})
    r = Round(s, [None, None])
    assert r.decision == "keep"         # both piles empty: the draw is from the deck
    r.apply(1)                          # keep shell:black; octopus:grey must start pile A
    r.apply(ka.A_CRAB)                  # the crabs search pile A: its only card is taken
    assert ("crab_take", 0, "octopus:grey", 0) in r.events()
    assert int(card_points(s, 0)) == 2          # table pair 1 + penguin 1 + shell 0 + octopus 0
    assert (r.player, r.decision) == (1, "keep")    # nothing else open: seat 1's turn began
    r.apply(0)                          # seat 1 keeps fish:green, boat:black onto pile A
    r.apply(ka.A_STEAL)
    stolen = [e for e in r.events() if e[0] == "steal"][0]
    assert stolen[:3] == ("steal", 1, 0) and stolen[3] in ("penguin:pink", "shell:black",
                                                           "octopus:grey")
    assert table_of(s, 0) == ["crab:dark_blue", "crab:light_blue"] and len(hand_of(s, 0)) == 2


# --- 10 --------------------------------------------------------------------------------------

def test_edge_10_fourth_mermaid_drawn_in_a_locked_turn_wins_at_its_end():
    """edge case 10: "Four mermaids gained outside one's own turn: impossible ... A locked turn is
    still the holder's own turn. If the forced draw is the 4th mermaid, the player wins at the end
    of that turn." (Extra Salt: player 0's lock is active, player 1 holds 3 mermaids.)"""
    s = scripted(2, current=1, lock=0, deck="mermaid", piles=("shell:black", "crab:grey"),
                 expansion="extra-salt", hands={1: "mermaid,mermaid,mermaid"})
    end, events = run(s)
    assert events == [("turn", 1, 1, 0), ("locked_draw", 1, "mermaid"), ("mermaid_win", 1),
                      ("round_end", 1, "mermaids", 1)]
    assert end == "mermaids" and int(s[ks.ENDER]) == 1


def test_edge_10_a_steal_only_takes():
    """edge case 10: "No effect gives a card to a non-active player; steals only take." The victim
    (3 mermaids) loses one card, the thief gains it; the mermaid count of a non-active player
    never grows."""
    s = scripted(2, deck="crab:black,fish:black", piles=("shell:black", "crab:grey"),
                 hands={0: "swimmer:dark_blue,shark:light_blue,octopus:light_blue,"
                           "octopus:yellow,octopus:green",
                        1: "mermaid,mermaid,mermaid"})
    end, events = run(s)
    # 6 + table pair 1 + the mermaid (largest colour light_blue 2) = 9.
    assert events[3:6] == [("pair", 0, "swimmer:dark_blue", "shark:light_blue"),
                           ("steal", 0, 1, "mermaid"), ("declare", 0, ks.DECL_STOP, 9)]
    assert hand_of(s, 1) == ["mermaid", "mermaid"]


# --- 11 --------------------------------------------------------------------------------------

def test_edge_11_four_mermaids_in_a_last_chance_final_turn():
    """edge case 11: "Four mermaids during a LAST CHANCE final turn: the player wins the game
    immediately." The round is not scored (the final turn's reveal never comes)."""
    s = scripted(2, current=1, declared=(0, LC), deck="fish:black,boat:black",
                 piles=("mermaid", "crab:grey"),
                 hands={0: CALLER11, 1: "mermaid,mermaid,mermaid"})
    end, events = run(s)
    assert events == [("turn", 1, 0, 1), ("take_pile", 1, "mermaid", 0), ("mermaid_win", 1),
                      ("round_end", 1, "mermaids", 1)]
    assert end == "mermaids" and points_of(s) == [0, 0]


# --- 12 --------------------------------------------------------------------------------------

def test_edge_12_declaring_is_never_forced():
    """edge case 12: "Declaring is never forced, whatever the points." With stop_at=100 player 0
    sits on 11 points and the round runs out void."""
    s = scripted(2, deck="shell:black,fish:black", piles=("fish:green", "crab:grey"), rest="B",
                 hands={0: CALLER11})
    end, events = run(s, ["baseline(stop_at=100,last_chance_at=100)", "baseline"])
    assert events == [("turn", 0, 0, 0), ("keep", 0, "shell:black", "fish:black"),
                      ("discard", 0, "fish:black", 0), ("round_end", 0, "void", 0)]


def test_edge_12_exactly_seven_with_cards_gained_this_turn():
    """edge case 12: "Exactly 7 is enough to declare. The value is checked at the moment of
    declaring, including cards gained earlier in the same turn." 4 points before the turn; the fish
    pair's draw (octopus:green) makes 3 octopus 6 + table pair 1 = 7 at the declaration."""
    s = scripted(2, deck="shark:dark_blue,crab:yellow,octopus:green",
                 piles=("shell:black", "crab:grey"),
                 hands={0: "fish:dark_blue,fish:black,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events[3:6] == [("pair", 0, "fish:dark_blue", "fish:black"),
                           ("fish_draw", 0, "octopus:green"), ("declare", 0, ks.DECL_STOP, 7)]
    assert int(s[ks.DECL_POINTS]) == 7 and points_of(s) == [7, 0]


# --- 13 --------------------------------------------------------------------------------------

def test_edge_13_declaration_in_a_boat_extra_turn_ends_the_whole_turn():
    """edge case 13: "A declaration in a boat extra turn ends the whole turn." 4 boats and 2
    octopus make 5. First boat pair, extra turn: octopus:green makes 6 + table pair 1 + held boats
    1 = 8: STOP at once; the second boat pair is never played."""
    s = scripted(2, deck="shell:green,fish:black,octopus:green,crab:black",
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
        ("keep", 0, "octopus:green", "crab:black"),
        ("discard", 0, "crab:black", 1),
        ("declare", 0, ks.DECL_STOP, 8),
        # light_blue: 2 boats + octopus = 3.
        score(0, 8, 8, 3), score(1, 0, 0, 0), ("round_end", 0, "stop", 0),
    ]
    assert hand_of(s, 0).count("boat:light_blue") == 2


# --- 14 / "Ending a round"
# -------------------------------------------------------------------------------

def test_edge_14_last_chance_in_the_emptying_turn_final_turns_use_the_piles():
    """edge case 14 / "Ending a round": "LAST CHANCE final turns when the deck runs out: they
    continue from the piles. The round is never void once someone has declared." Player 0 draws the
    last two cards: shell:yellow makes 3 octopus 6 + 3 shells 4 = 10: LAST CHANCE; players 1 and 2
    take pile tops (ties at gain 0: A)."""
    s = scripted(3, deck="shell:yellow,fish:black", piles=("fish:green", "crab:grey"), rest="B",
                 hands={0: "octopus:light_blue,octopus:yellow,octopus:green,shell:dark_blue,"
                           "shell:black"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:yellow", "fish:black"),
        ("discard", 0, "fish:black", 0),
        ("declare", 0, LC, 10), ("reveal", 0),
        ("turn", 1, 0, 1), ("take_pile", 1, "fish:black", 0), ("reveal", 1),
        ("turn", 2, 0, 1), ("take_pile", 2, "fish:green", 0), ("reveal", 2),
        # Won: 10 + bonus 2 (yellow: octopus, shell).
        score(0, 12, 10, 2), score(1, 1, 0, 1), score(2, 1, 0, 1),
        ("round_end", 0, "last_chance_won", 0),
    ]
    assert int(s[ks.DECK_LEN]) == 0


def test_rules_6_3_stop_in_the_emptying_turn_is_scored():
    """"Ending a round": "A declaration made during the turn that emptied the deck still counts:
    STOP is scored." 2 octopus + 2 shells = 5; the last two cards give shell:green (+2): 7."""
    s = scripted(2, deck="shell:green,fish:black", piles=("fish:green", "crab:grey"), rest="B",
                 hands={0: "octopus:light_blue,octopus:yellow,shell:dark_blue,shell:black"})
    end, events = run(s)
    assert events == [("turn", 0, 0, 0), ("keep", 0, "shell:green", "fish:black"),
                      ("discard", 0, "fish:black", 0), ("declare", 0, ks.DECL_STOP, 7),
                      score(0, 7, 7, 1), score(1, 0, 0, 0), ("round_end", 0, "stop", 0)]
    assert end == "stop" and int(s[ks.DECK_LEN]) == 0


# --- 16 --------------------------------------------------------------------------------------

def test_edge_16_revealed_hands_cannot_be_stolen():
    """edge case 16: "the LAST CHANCE caller reveals after their turn. Each final-turn player
    reveals at the end of their final turn. Revealed cards cannot be stolen." 4 players, player 0
    called. Player 1 steals from player 2 (2 cards, tie with player 3, first after player 1), not
    from the revealed caller who holds the most cards. Player 3's swimmer+shark is not played: every
    other hand is revealed by then."""
    s = scripted(4, current=1, declared=(0, LC),
                 deck="crab:black,fish:black,boat:black,fish:dark_blue,crab:yellow,boat:yellow",
                 piles=("shell:black", "crab:grey"),
                 hands={0: CALLER11, 1: "swimmer:dark_blue,shark:light_blue,octopus:light_blue,"
                                        "octopus:yellow",
                        2: "mermaid,mermaid", 3: "swimmer:black,shark:black"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 1),
        ("keep", 1, "crab:black", "fish:black"), ("discard", 1, "fish:black", 0),
        ("pair", 1, "swimmer:dark_blue", "shark:light_blue"), ("steal", 1, 2, "mermaid"),
        ("reveal", 1),
        ("turn", 2, 0, 1),
        ("keep", 2, "boat:black", "fish:dark_blue"), ("discard", 2, "fish:dark_blue", 1),
        ("reveal", 2),
        ("turn", 3, 0, 1),
        ("keep", 3, "crab:yellow", "boat:yellow"), ("discard", 3, "boat:yellow", 0),
        ("reveal", 3),
        # p1: octopus 3 + table pair 1 + mermaid (light_blue 2) = 6; p2: mermaid 1;
        # p3: held swimmer+shark 1. Caller 11 wins: 11 + 1; the others score their bonus.
        score(0, 12, 11, 1), score(1, 2, 6, 2), score(2, 1, 1, 1), score(3, 2, 1, 2),
        ("round_end", 0, "last_chance_won", 0),
    ]
    assert [int(s[ks.REVEALED + q]) for q in range(4)] == [1, 1, 1, 1]
    assert hand_of(s, 0) == sorted(CALLER11.split(","))


def test_edge_16_caller_reveals_right_after_declaring():
    """"Ending a round" / edge case 16: the caller's hand is revealed at once (before any final
    turn)."""
    s = scripted(2, deck="shell:yellow,fish:black,crab:black,boat:yellow",
                 piles=("fish:green", "crab:grey"),
                 hands={0: "octopus:light_blue,octopus:yellow,octopus:green,shell:dark_blue,"
                           "shell:black"})
    end, events = run(s)
    i = events.index(("declare", 0, LC, 10))
    assert events[i + 1:i + 3] == [("reveal", 0), ("turn", 1, 0, 1)]


# --- 17 --------------------------------------------------------------------------------------

def test_edge_17_no_hand_size_limit():
    """edge case 17: "No hand-size limit exists. A turn always adds at least one card unless edge 2
    applies." A 20-card hand (every collector and base multiplier, no pair) still draws:
    fish:green gains 1 (shoal), 44 + 1 = 45 points: LAST CHANCE with 21 cards in hand."""
    hand = ("shell:dark_blue,shell:light_blue,shell:black,shell:yellow,shell:green,shell:grey,"
            "octopus:light_blue,octopus:yellow,octopus:green,octopus:purple,octopus:grey,"
            "penguin:purple,penguin:light_orange,penguin:pink,sailor:pink,sailor:orange,"
            "lighthouse,shoal,colony,captain")
    s = scripted(2, deck="shark:green,boat:black", piles=("crab:grey", "fish:green"),
                 hands={0: hand})
    end, events = run(s)
    assert events[:4] == [("turn", 0, 0, 0), ("take_pile", 0, "fish:green", 1),
                          ("declare", 0, LC, 45), ("reveal", 0)]
    assert int(s[ks.HLEN]) == 21


# --- 18 --------------------------------------------------------------------------------------

def test_edge_18_stolen_card_completes_a_new_pair():
    """edge case 18: "Stolen or drawn cards may be used in the same play step (for example, a stolen
    shark completes a new pair)." Player 0 (2 swimmers, 1 shark, 2 octopus: 4) steals
    shark:black from player 1 (tie 1-1: first after player 0), plays swimmer:black +
    shark:black and steals octopus:green from player 2: 6 + 2 table pairs = 8."""
    s = scripted(3, deck="crab:black,fish:black", piles=("shell:black", "crab:grey"),
                 hands={0: "swimmer:dark_blue,shark:light_blue,swimmer:black,octopus:light_blue,"
                           "octopus:yellow",
                        1: "shark:black", 2: "octopus:green"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "crab:black", "fish:black"), ("discard", 0, "fish:black", 0),
        ("pair", 0, "swimmer:dark_blue", "shark:light_blue"), ("steal", 0, 1, "shark:black"),
        ("pair", 0, "swimmer:black", "shark:black"), ("steal", 0, 2, "octopus:green"),
        ("declare", 0, ks.DECL_STOP, 8),
        # black 3: swimmer, shark, crab.
        score(0, 8, 8, 3), score(1, 0, 0, 0), score(2, 0, 0, 0), ("round_end", 0, "stop", 0),
    ]


def test_edge_18_drawn_card_completes_a_new_pair():
    """edge case 18: the fish pair draws crab:light_blue, which completes a crab pair played in the
    same play step; the crab search takes octopus:green from under shell:black: 6 + 2 = 8."""
    s = scripted(2, deck="shark:dark_blue,fish:yellow,crab:light_blue",
                 piles=("octopus:green,shell:black", "boat:black"),
                 hands={0: "fish:dark_blue,fish:black,crab:dark_blue,octopus:light_blue,"
                           "octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shark:dark_blue", "fish:yellow"), ("discard", 0, "fish:yellow", 1),
        ("pair", 0, "fish:dark_blue", "fish:black"), ("fish_draw", 0, "crab:light_blue"),
        ("pair", 0, "crab:dark_blue", "crab:light_blue"), ("crab_take", 0, "octopus:green", 0),
        ("declare", 0, ks.DECL_STOP, 8),
        # dark_blue 3: fish, crab, shark.
        score(0, 8, 8, 3), score(1, 0, 0, 0), ("round_end", 0, "stop", 0),
    ]
