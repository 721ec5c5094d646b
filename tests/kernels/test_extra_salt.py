"""Extra Salt (docs/rules.md, "The cards", "A turn", "Pair effects", "Scoring: card points", edge
case 8, edge case 15; the baseline (docs/players.md) "With Extra Salt"): crab+lobster, the jellyfish
lock, starfish, seahorse, cast of crabs, pair legality and the baseline's rules 3b and 4b, on
scripted 66-card rounds.

The lobster shuffle is random: the tests assert what the rules fix (the card kept, how many were
seen, the deck's contents) and that the order really changes, never one shuffled order.
Expected events are worked out by hand in the docstrings and comments.
"""
import numpy as np

from analyzer.play.decisions import Round
from conftest import deck_of, hand_of, points_of, run, scripted, table_of
from kernels import actions as ka
from kernels import cards as kc
from kernels import state as ks

ES = "extra-salt"
LC = ks.DECL_LAST_CHANCE
STOP = ks.DECL_STOP
CALLER11 = "colony,penguin:purple,penguin:light_orange,penguin:pink"   # 11 points, bonus 1


def score(q, points, card_points, bonus):
    return ("score", q, points, card_points, bonus)


# ---------------------------------------------------------------------------------------------
# crab + lobster ("Pair effects", baseline rule 3b)

# Player 0: crab + lobster (1 held pair) + 2 octopus = 4. Tops shell:black / boat:black gain 0;
# the draw keeps shell:green (0) and discards fish:black on A (1-1 tie). The pair is then played:
# 3 + table pair 1 = 4, so among the revealed cards octopus:green gains 3, shell:yellow 2
# (two shells), penguin:pink 1, the others 0. Keeping octopus:green: 6 + 1 = 7, STOP.
LOBSTER_HAND = "crab:dark_blue,lobster,octopus:light_blue,octopus:yellow"
LOBSTER_TAIL = [("declare", 0, STOP, 7),
                # green 2: shell, octopus.
                score(0, 7, 7, 2), score(1, 0, 0, 0), ("round_end", 0, "stop", 0)]


def _lobster_head(seen):
    return [("turn", 0, 0, 0), ("keep", 0, "shell:green", "fish:black"),
            ("discard", 0, "fish:black", 0), ("pair", 0, "crab:dark_blue", "lobster"),
            ("lobster_keep", 0, "octopus:green", seen)]


def test_lobster_keeps_the_best_of_the_top_five_and_shuffles_the_deck():
    """"Pair effects" crab+lobster: "Take the top 5 cards of the deck. Keep one in hand. Put the
    rest back and shuffle the whole deck." Over several seeds: the same card is kept, the deck keeps
    exactly the other cards, and its order (also below the five) changes with the shuffle."""
    top = ["shell:green", "fish:black", "fish:dark_blue", "boat:yellow", "octopus:green",
           "shell:yellow", "penguin:pink"]
    orders = set()
    for seed in range(6):
        s = scripted(2, deck=top, piles=("shell:black", "boat:black"), expansion=ES,
                     hands={0: LOBSTER_HAND})
        before = deck_of(s)[2:]                  # the deck after the draw step
        end, events = run(s, seed=seed)
        assert events == _lobster_head(5) + LOBSTER_TAIL
        after = deck_of(s)
        expected = list(before)
        expected.remove("octopus:green")
        assert sorted(after) == sorted(expected)
        assert after != expected                 # shuffled (58 cards)
        orders.add(tuple(after))
    assert len(orders) == 6
    assert table_of(s, 0) == ["crab:dark_blue", "lobster"]


def test_lobster_tie_keeps_the_card_nearest_the_top():
    """Baseline rule 3b: highest gain, tie the one nearest the top (octopus:green 2nd and
    octopus:purple 4th both gain 3)."""
    s = scripted(2, deck="shell:green,fish:black,fish:dark_blue,octopus:green,boat:yellow,"
                         "octopus:purple,penguin:pink",
                 piles=("shell:black", "boat:black"), expansion=ES, hands={0: LOBSTER_HAND})
    end, events = run(s)
    assert events == _lobster_head(5) + LOBSTER_TAIL
    assert "octopus:purple" in deck_of(s)


def test_edge_8_lobster_with_fewer_than_five_cards_sees_them_all():
    """edge case 8: "Lobster with fewer than 5 deck cards: the player sees them all." Three cards
    are left after the draw step (the rest of the cards are under pile B)."""
    s = scripted(2, deck="shell:green,fish:black,fish:dark_blue,octopus:green,boat:yellow",
                 piles=("shell:black", "crab:grey"), rest="B", expansion=ES,
                 hands={0: LOBSTER_HAND})
    end, events = run(s)
    assert events == _lobster_head(3) + LOBSTER_TAIL
    assert sorted(deck_of(s)) == ["boat:yellow", "fish:dark_blue"]


def test_edge_8_lobster_with_one_card_left():
    """edge case 8 / "Ending a round": one card left: it is seen and kept; the deck is empty, and
    the declaration in this emptying turn is scored."""
    s = scripted(2, deck="shell:green,fish:black,octopus:green", piles=("shell:black", "crab:grey"),
                 rest="B", expansion=ES, hands={0: LOBSTER_HAND})
    end, events = run(s)
    assert events == _lobster_head(1) + LOBSTER_TAIL
    assert int(s[ks.DECK_LEN]) == 0


def test_edge_8_lobster_with_an_empty_deck_does_nothing():
    """edge case 8: "With an empty deck it does nothing." Played through the decision API it moves
    no card; the baseline (rule 3b needs a deck card) keeps crab+lobster in a final turn."""
    s = scripted(2, current=1, declared=(0, LC), deck=(), piles=("shell:black", ()), rest=None,
                 expansion=ES, hands={0: CALLER11, 1: "crab:dark_blue,lobster"})
    r = Round(s, ["baseline", None])
    r.apply(ka.A_LOBSTER)
    assert r.events()[1:4] == [("take_pile", 1, "shell:black", 0),
                               ("pair", 1, "crab:dark_blue", "lobster"), ("lobster_keep", 1, None, 0)]
    assert hand_of(s, 1) == ["shell:black"] and table_of(s, 1) == ["crab:dark_blue", "lobster"]

    s = scripted(2, current=1, declared=(0, LC), deck=(), piles=("shell:black", ()), rest=None,
                 expansion=ES, hands={0: CALLER11, 1: "crab:dark_blue,lobster"})
    end, events = run(s)
    assert events == [("turn", 1, 0, 1), ("take_pile", 1, "shell:black", 0), ("reveal", 1),
                      # held crab+lobster 1; black 2 (lobster, shell).
                      score(0, 12, 11, 1), score(1, 2, 1, 2),
                      ("round_end", 0, "last_chance_won", 0)]


def test_rule_3_crab_pair_comes_before_crab_lobster():
    """Baseline rules 3 then 3b: with two crabs and a lobster the crab pair is played first;
    no crab is left for the lobster. 2 crabs + lobster (1 held pair) + 2 octopus = 4; the crab
    search takes octopus:green from under shell:black: 6 + 1 = 7."""
    s = scripted(2, deck="shell:dark_blue,boat:black", piles=("octopus:green,shell:black", "fish:green"),
                 expansion=ES,
                 hands={0: "crab:dark_blue,crab:light_blue,lobster,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events[3:6] == [("pair", 0, "crab:dark_blue", "crab:light_blue"),
                           ("crab_take", 0, "octopus:green", 0), ("declare", 0, STOP, 7)]
    assert "lobster" in hand_of(s, 0)


# ---------------------------------------------------------------------------------------------
# swimmer + jellyfish: the lock ("Pair effects", baseline rule 4b)

def test_lock_makes_opponents_take_only_the_deck_top_until_the_casters_turn():
    """"Pair effects" swimmer+jellyfish: "every turn taken by another player is a locked turn ...
    the player takes only the top card of the deck ... no discard, no pair, no trio and no
    declaration"; "A turn": the lock ends when the caster's next turn begins. Player 1 holds 12
    points and a swimmer+jellyfish pair but can neither declare nor play it."""
    s = scripted(3, deck="boat:black,shark:green,shell:dark_blue,shell:light_blue,octopus:green,"
                         "fish:dark_blue",
                 piles=("shell:black", "crab:grey"), expansion=ES,
                 hands={0: "swimmer:dark_blue,jellyfish:purple,octopus:light_blue,octopus:yellow",
                        1: CALLER11 + ",swimmer:black,jellyfish:pink"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "boat:black", "shark:green"), ("discard", 0, "shark:green", 0),
        ("pair", 0, "swimmer:dark_blue", "jellyfish:purple"), ("lock_on", 0),
        ("turn", 1, 1, 0), ("locked_draw", 1, "shell:dark_blue"),
        ("turn", 2, 1, 0), ("locked_draw", 2, "shell:light_blue"),
        ("lock_off", 0),
        ("turn", 0, 0, 0),
        ("keep", 0, "octopus:green", "fish:dark_blue"), ("discard", 0, "fish:dark_blue", 1),
        ("declare", 0, STOP, 7),
        # p1: 11 + held pair 1 = 12, pink 2 (penguin, jellyfish).
        score(0, 7, 7, 1), score(1, 12, 12, 2), score(2, 0, 0, 1),
        ("round_end", 0, "stop", 0),
    ]
    assert int(s[ks.LOCK]) == -1
    assert table_of(s, 1) == []


def test_edge_15_locked_turn_with_an_empty_deck_takes_nothing():
    """edge case 2 / edge case 15: "A locked turn facing an empty deck takes nothing" (piles are not
    touched). With no declaration the round is then void."""
    s = scripted(2, current=1, lock=0, deck=(), piles=("shell:black", "crab:grey"), rest="A",
                 expansion=ES, hands={1: "octopus:light_blue"})
    end, events = run(s)
    assert events == [("turn", 1, 1, 0), ("locked_draw", 1, None), ("round_end", 1, "void", 1)]
    assert hand_of(s, 1) == ["octopus:light_blue"]


def test_edge_15_locked_final_turn_with_an_empty_deck_takes_nothing():
    """edge case 15 / "Pair effects": LAST CHANCE final turns can be locked; with an empty deck the
    locked player takes nothing, and the round is scored (never void once declared)."""
    s = scripted(2, current=1, lock=0, declared=(0, LC), deck=(), piles=("shell:black", "crab:grey"),
                 rest="A", expansion=ES,
                 hands={0: CALLER11, 1: "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [("turn", 1, 1, 1), ("locked_draw", 1, None), ("reveal", 1),
                      score(0, 12, 11, 1), score(1, 1, 3, 1),
                      ("round_end", 0, "last_chance_won", 0)]


def test_edge_15_lock_in_the_callers_turn_locks_every_final_turn():
    """edge case 15: "A lock cast during the caller's LAST CHANCE turn locks every final turn."
    Baseline rule 4b comes before the declaration (rule 5): player 0 (11 + held pair 1 = 12)
    locks, then calls LAST CHANCE. Player 1's crab pair is never played."""
    s = scripted(3, deck="boat:black,shark:green,shell:dark_blue,shell:light_blue",
                 piles=("shell:black", "crab:grey"), expansion=ES,
                 hands={0: "swimmer:dark_blue,jellyfish:pink," + CALLER11,
                        1: "crab:yellow,crab:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "boat:black", "shark:green"), ("discard", 0, "shark:green", 0),
        ("pair", 0, "swimmer:dark_blue", "jellyfish:pink"), ("lock_on", 0),
        ("declare", 0, LC, 12), ("reveal", 0),
        ("turn", 1, 1, 1), ("locked_draw", 1, "shell:dark_blue"), ("reveal", 1),
        ("turn", 2, 1, 1), ("locked_draw", 2, "shell:light_blue"), ("reveal", 2),
        # Won: 12 + bonus 2 (pink: jellyfish, penguin). p1 held crab pair 1, yellow 2.
        score(0, 14, 12, 2), score(1, 2, 1, 2), score(2, 1, 0, 1),
        ("round_end", 0, "last_chance_won", 0),
    ]
    assert points_of(s) == [14, 2, 1]


def test_edge_15_lock_in_a_final_turn_locks_the_later_final_turns():
    """edge case 15: "A lock cast in a final turn locks the later final turns." Player 1's final
    turn plays swimmer+jellyfish (no shark: no steal); player 2's final turn is locked."""
    s = scripted(3, current=1, declared=(0, LC), deck="boat:black,shark:green,shell:dark_blue",
                 piles=("shell:black", "crab:grey"), expansion=ES,
                 hands={0: CALLER11, 1: "swimmer:black,jellyfish:purple"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 1),
        ("keep", 1, "boat:black", "shark:green"), ("discard", 1, "shark:green", 0),
        ("pair", 1, "swimmer:black", "jellyfish:purple"), ("lock_on", 1), ("reveal", 1),
        ("turn", 2, 1, 1), ("locked_draw", 2, "shell:dark_blue"), ("reveal", 2),
        # p1: table pair 1, black 2 (swimmer, boat).
        score(0, 12, 11, 1), score(1, 2, 1, 2), score(2, 1, 0, 1),
        ("round_end", 0, "last_chance_won", 0),
    ]


def test_casters_own_boat_extra_turn_is_not_locked():
    """"Pair effects" notes / "Where seasalt deliberately differs from Board Game Arena": "The
    caster's own boat extra turns are normal." Player 0 (5 points) locks (rule 4b), then plays boats
    (rule 6): the extra turn is a normal draw of two cards (keep octopus:green, discard crab:black):
    6 + 2 table pairs = 8."""
    s = scripted(2, deck="shell:green,fish:black,octopus:green,crab:black",
                 piles=("shell:black", "crab:grey"), expansion=ES,
                 hands={0: "swimmer:dark_blue,jellyfish:purple,boat:dark_blue,boat:light_blue,"
                           "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shell:green", "fish:black"), ("discard", 0, "fish:black", 0),
        ("pair", 0, "swimmer:dark_blue", "jellyfish:purple"), ("lock_on", 0),
        ("pair", 0, "boat:dark_blue", "boat:light_blue"), ("extra_turn", 0),
        ("keep", 0, "octopus:green", "crab:black"), ("discard", 0, "crab:black", 1),
        ("declare", 0, STOP, 8),
        # dark_blue 2, light_blue 2, green 2.
        score(0, 8, 8, 2), score(1, 0, 0, 0), ("round_end", 0, "stop", 0),
    ]


def test_rule_4_steal_comes_before_the_lock():
    """Baseline rules 4 then 4b: swimmer + shark + jellyfish with an opponent to steal from: the
    swimmer goes into the steal pair (swimmer:dark_blue + shark:dark_blue), the jellyfish stays.
    6 + table pair 1 + stolen penguin 1 = 8."""
    s = scripted(2, deck="crab:black,fish:black", piles=("shell:black", "crab:grey"), expansion=ES,
                 hands={0: "swimmer:dark_blue,shark:dark_blue,jellyfish:purple,octopus:light_blue,"
                           "octopus:yellow,octopus:green",
                        1: "penguin:pink"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "crab:black", "fish:black"), ("discard", 0, "fish:black", 0),
        ("pair", 0, "swimmer:dark_blue", "shark:dark_blue"), ("steal", 0, 1, "penguin:pink"),
        ("declare", 0, STOP, 8),
        score(0, 8, 8, 2), score(1, 0, 0, 0), ("round_end", 0, "stop", 0),
    ]
    assert "jellyfish:purple" in hand_of(s, 0) and int(s[ks.LOCK]) == -1


def test_rule_4b_lock_when_nobody_can_be_stolen_from():
    """Baseline rule 4b: in a 2-player final turn nobody can be stolen from, so the same hand
    plays swimmer + jellyfish instead (the lock outlives nothing: the round ends)."""
    s = scripted(2, current=1, declared=(0, LC), deck="crab:black,fish:black",
                 piles=("shell:black", "crab:grey"), expansion=ES,
                 hands={0: CALLER11, 1: "swimmer:dark_blue,shark:dark_blue,jellyfish:purple"})
    end, events = run(s)
    assert events == [
        ("turn", 1, 0, 1),
        ("keep", 1, "crab:black", "fish:black"), ("discard", 1, "fish:black", 0),
        ("pair", 1, "swimmer:dark_blue", "jellyfish:purple"), ("lock_on", 1), ("reveal", 1),
        # p1: table pair 1; dark_blue 2 (swimmer, shark).
        score(0, 12, 11, 1), score(1, 2, 1, 2), ("round_end", 0, "last_chance_won", 0),
    ]


# ---------------------------------------------------------------------------------------------
# starfish, seahorse, pair legality

def test_starfish_is_never_played_and_loses_its_pair():
    """Baseline: "Starfish are never played; they score in hand with a held pair." The crab pair
    is played as a pair (not a trio, its effect happens); the starfish in hand then has no held
    pair: 3 octopus 6 + table pair 1 = 7 (the starfish would make it 9)."""
    s = scripted(2, deck="shark:green,boat:yellow", piles=("octopus:green,shell:black", "fish:green"),
                 expansion=ES,
                 hands={0: "crab:dark_blue,crab:light_blue,starfish:yellow,octopus:light_blue,"
                           "octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "shark:green", "boat:yellow"), ("discard", 0, "boat:yellow", 1),
        ("pair", 0, "crab:dark_blue", "crab:light_blue"), ("crab_take", 0, "octopus:green", 0),
        ("declare", 0, STOP, 7),
        score(0, 7, 7, 2), score(1, 0, 0, 0), ("round_end", 0, "stop", 0),
    ]
    assert "starfish:yellow" in hand_of(s, 0)


def test_trio_on_the_table_scores_in_the_round():
    """"Scoring: card points" D: a trio on the table scores pair 1 + starfish 2 (built on the table:
    the baseline never plays trios). 3 + 2 octopus 3 = 6; penguin:pink from A (gain 1): 7."""
    s = scripted(2, deck="fish:black,boat:black", piles=("penguin:pink", "crab:grey"),
                 expansion=ES, tables={0: "crab:black,crab:green,starfish:yellow"},
                 hands={0: "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [("turn", 0, 0, 0), ("take_pile", 0, "penguin:pink", 0),
                      ("declare", 0, STOP, 7),
                      # yellow 2: starfish, octopus.
                      score(0, 7, 7, 2), score(1, 0, 0, 0), ("round_end", 0, "stop", 0)]


def test_seahorse_gain_drives_the_draw():
    """"Scoring: card points" C: the seahorse joins the collection it raises most. With 1 sailor and
    2 octopus (3 points) it gains 5 (sailor 0 -> 5), more than octopus:green (+3): 8 points,
    STOP."""
    s = scripted(2, deck="fish:black,boat:black", piles=("seahorse", "octopus:green"), expansion=ES,
                 hands={0: "sailor:pink,octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [("turn", 0, 0, 0), ("take_pile", 0, "seahorse", 0),
                      ("declare", 0, STOP, 8),
                      score(0, 8, 8, 1), score(1, 0, 0, 0), ("round_end", 0, "stop", 0)]


def test_illegal_pairs_are_never_played():
    """"The cards": jellyfish+jellyfish, jellyfish+shark and a lobster without a crab are not pairs:
    no pair is played, none is held (3 octopus 6 + penguin:pink 1 = 7)."""
    s = scripted(2, deck="fish:black,boat:black", piles=("penguin:pink", "boat:yellow"), expansion=ES,
                 hands={0: "jellyfish:purple,jellyfish:pink,shark:green,lobster,"
                           "octopus:light_blue,octopus:yellow,octopus:green"})
    end, events = run(s)
    assert events == [("turn", 0, 0, 0), ("take_pile", 0, "penguin:pink", 0),
                      ("declare", 0, STOP, 7),
                      # pink 2: jellyfish, penguin; green 2: shark, octopus.
                      score(0, 7, 7, 2), score(1, 0, 0, 0), ("round_end", 0, "stop", 0)]
    assert table_of(s, 0) == []


def test_locks_do_not_stack():
    """"Pair effects" notes: "Locks do not stack." Two swimmer+jellyfish pairs in one turn (2 held
    pairs + 2 octopus = 5): two lock_on events, still one lock, lifted once when the caster's turn
    comes. Then octopus:green: 6 + 2 table pairs = 8."""
    s = scripted(2, deck="boat:black,shark:green,shell:dark_blue,octopus:green,fish:dark_blue",
                 piles=("shell:black", "crab:grey"), expansion=ES,
                 hands={0: "swimmer:dark_blue,swimmer:black,jellyfish:purple,jellyfish:pink,"
                           "octopus:light_blue,octopus:yellow"})
    end, events = run(s)
    assert events == [
        ("turn", 0, 0, 0),
        ("keep", 0, "boat:black", "shark:green"), ("discard", 0, "shark:green", 0),
        ("pair", 0, "swimmer:dark_blue", "jellyfish:purple"), ("lock_on", 0),
        ("pair", 0, "swimmer:black", "jellyfish:pink"), ("lock_on", 0),
        ("turn", 1, 1, 0), ("locked_draw", 1, "shell:dark_blue"),
        ("lock_off", 0),
        ("turn", 0, 0, 0),
        ("keep", 0, "octopus:green", "fish:dark_blue"), ("discard", 0, "fish:dark_blue", 1),
        ("declare", 0, STOP, 8),
        # black 2: swimmer, boat.
        score(0, 8, 8, 2), score(1, 0, 0, 1), ("round_end", 0, "stop", 0),
    ]


def test_a_lock_ends_with_the_round():
    """"Pair effects" notes: "A lock ends with the round." Dealing the next round clears it."""
    s = scripted(3, current=1, lock=2, expansion=ES)
    assert int(s[ks.LOCK]) == 2
    ks.deal(s, 3, np.array(sorted(kc.deck_types(ES)), dtype=np.int64), 0)
    assert int(s[ks.LOCK]) == -1 and int(s[ks.DECL]) == ks.DECL_NONE
