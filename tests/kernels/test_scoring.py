"""docs/rules.md, "The cards" (the catalogue) and "Scoring: card points" (card points and colour
bonus), on states built with analyzer.rules.setups.build_state and scored by kernels.scoring.

Every expected number is computed by hand from the rules text (the working is in the comment of each
case). The same cases also check conftest.ref_points, the independent reading of "Scoring: card
points" that the round replay (conftest.Replay) uses to predict declarations and scores. """
from collections import Counter

import pytest

from analyzer.rules.setups import build_state
from conftest import ref_bonus, ref_points
from kernels import cards as kc
from kernels.scoring import card_points, colour_bonus, mermaid_points, mermaid_total

# (id, hand, table, card points, colour bonus)
WORKED_EXAMPLES = [
    # 1: light_blue 4 + green 3 = 7 (white 2 unused, no pairs, colony has 0 penguins); bonus 4.
    ("#1", "mermaid,mermaid,crab:light_blue,boat:light_blue,shell:light_blue,octopus:light_blue,"
           "fish:green,shark:green,colony", "", 7, 4),
    # 2: mermaids 3 (white) + 1 + 1, two shells 2 = 7; bonus 3 (white).
    ("#2", "mermaid,mermaid,mermaid,shell:dark_blue,shell:black", "", 7, 3),
    # 3: mermaids 3 + 3 (yellow and black tie), boat pair 1 = 7; octopus 1 and shell 1 score 0.
    ("#3", "mermaid,mermaid,crab:yellow,boat:yellow,octopus:yellow,fish:black,boat:black,"
           "shell:black", "", 7, 3),
    # 4: played pair 1, lighthouse x 3 boats = 4; bonus dark_blue 2.
    ("#4", "lighthouse,boat:yellow", "boat:dark_blue,boat:dark_blue", 4, 2),
    # 5: penguins 5 + colony 2 x 3 = 11; all colours different: bonus 1.
    ("#5", "colony,penguin:purple,penguin:light_orange,penguin:pink", "", 11, 1),
    # 6a: one sailor 0 + captain 3 = 3.   6b: two sailors 5 + captain 6 = 11.
    ("#6a", "captain,sailor:pink", "", 3, 1),
    ("#6b", "captain,sailor:pink,sailor:orange", "", 11, 1),
    # 7: played pair 1 + odd held fish 0 = 1; bonus black 2.
    ("#7", "fish:dark_blue", "fish:black,fish:black", 1, 2),
    # 8: the starfish has no pair in hand (the table pair does not count) = 1; dark_blue 3.
    ("#8", "starfish:dark_blue", "fish:dark_blue,fish:dark_blue", 1, 3),
    # 9: 3 crabs hold 1 pair, so one of the two starfish scores: 1 + 2 = 3; dark_blue 3.
    ("#9", "starfish:dark_blue,starfish:yellow,crab:dark_blue,crab:dark_blue,crab:black", "", 3, 3),
    # 10: trio on the table: pair 1 + starfish 2 = 3; bonus 1.
    ("#10", "", "crab:black,crab:green,starfish:yellow", 3, 1),
    # 11: base 0 (sailor) + 2 (shells) + 3 (octopus); the seahorse goes to the sailor (+5 beats
    #     +3 and +2) = 10. Colours all different: bonus 1.
    ("#11", "seahorse,sailor:pink,shell:dark_blue,shell:black,octopus:purple,octopus:grey", "", 10, 1),
    # 12: penguins 2 -> 3 with the seahorse = 5, colony 2 x 2 real penguins = 4: 9.
    ("#12", "seahorse,colony,penguin:purple,penguin:light_orange", "", 9, 1),
    # 13: crab+crab+lobster hold 1 pair, cast of crabs +2 (the lobster is not a crab) = 3.
    ("#13", "cast_of_crabs,crab:yellow,crab:yellow,lobster", "", 3, 2),
    # 14: dark_blue 5 (shell, 2 crabs, boat, swimmer) + light_blue 3 (shell, octopus, shark) = 8;
    #     table pair 1 + held crab pair 1; shells 3 = 4; lighthouse 1 boat = 1: 15. Bonus 5.
    ("#14", "mermaid,mermaid,shell:dark_blue,shell:light_blue,shell:black,octopus:light_blue,"
            "crab:dark_blue,crab:dark_blue,boat:dark_blue,lighthouse",
     "swimmer:dark_blue,shark:light_blue", 15, 5),
    # 15: swimmer+swimmer is not a pair = 0.
    ("#15", "swimmer:dark_blue,swimmer:black", "", 0, 1),
]

EXTRA_CASES = [
    # --- mermaids (M)
    # Fewer colours than mermaids: 4 mermaids alone are one colour (white 4): 4.
    ("mermaids-4-alone", "mermaid,mermaid,mermaid,mermaid", "", 4, 4),
    # 4 mermaids + a black shell: white 4 + black 1 = 5; the other two mermaids score 0.
    ("mermaids-4-two-colours", "mermaid,mermaid,mermaid,mermaid,shell:black", "", 5, 4),
    # 3 mermaids + 1 card: white 3 + dark_blue 1 = 4.
    ("mermaids-3-two-colours", "mermaid,mermaid,mermaid,boat:dark_blue", "", 4, 3),
    # The seahorse is white: 1 mermaid + seahorse -> white 2 = 2 (seahorse: no collection).
    ("mermaid-seahorse-white", "mermaid,seahorse", "", 2, 2, "extra-salt"),
    # Table cards count for colours: black 3 (2 on the table, 1 in hand) beats white 1: 3,
    # + the played pair 1 = 4.
    ("mermaid-counts-table", "mermaid,fish:black", "boat:black,boat:black", 4, 3),
    # One mermaid, no other card: white 1 = 1.
    ("mermaid-alone", "mermaid", "", 1, 1),
    # --- duos (D)
    ("crab-pair-held", "crab:dark_blue,crab:light_blue", "", 1, 1),
    ("three-crabs", "crab:dark_blue,crab:light_blue,crab:black", "", 1, 1),
    ("four-boats", "boat:dark_blue,boat:dark_blue,boat:black,boat:black", "", 2, 2),
    ("swimmer-shark", "swimmer:yellow,shark:green", "", 1, 1),
    # Two sharks + one swimmer: one pair.
    ("two-sharks-one-swimmer", "swimmer:yellow,shark:green,shark:purple", "", 1, 1),
    ("shark-shark-not-a-pair", "shark:green,shark:purple", "", 0, 1),
    ("boat-fish-not-a-pair", "boat:black,fish:black", "", 0, 2),
    # Table pairs: 4 duo cards on the table = 2 pairs.
    ("two-table-pairs", "", "crab:dark_blue,crab:dark_blue,fish:black,fish:black", 2, 2),
    # --- collectors (C)
    ("shell-1", "shell:black", "", 0, 1),
    ("shells-6", "shell:dark_blue,shell:light_blue,shell:black,shell:yellow,shell:green,shell:grey",
     "", 10, 1),
    ("octopus-5", "octopus:light_blue,octopus:yellow,octopus:green,octopus:purple,octopus:grey",
     "", 12, 1),
    ("penguin-1", "penguin:pink", "", 1, 1),
    ("penguins-2", "penguin:pink,penguin:purple", "", 3, 1),
    ("sailor-1", "sailor:orange", "", 0, 1),
    ("sailors-2", "sailor:orange,sailor:pink", "", 5, 1),
    # --- multipliers (X): real cards in hand + table, never itself.
    ("colony-no-penguin", "colony", "", 0, 1),
    ("captain-no-sailor", "captain", "", 0, 1),
    # Lighthouse with boats in hand and on the table: the odd boat in hand 0, table pair 1,
    # lighthouse x 3 boats = 3: 4 (#4 with other boat colours).
    ("lighthouse-table-boats", "lighthouse,boat:black", "boat:yellow,boat:yellow", 4, 2),
    # Shoal: 3 fish (1 held pair) = 1 + 3 = 4.
    ("shoal-3-fish", "shoal,fish:dark_blue,fish:black,fish:yellow", "", 4, 1),
    # Colony with penguins: 1 penguin 1 + colony 2 = 3.
    ("colony-1-penguin", "colony,penguin:pink", "", 3, 1),
]

EXTRA_SALT_CASES = [
    # --- starfish
    # Starfish in hand, no held pair: 0.
    ("starfish-no-pair", "starfish:yellow,crab:black", "", 0, 1),
    # A starfish in hand is validated by a held pair: pair 1 + 2 = 3.
    ("starfish-held-pair", "starfish:yellow,boat:yellow,boat:black", "", 3, 2),
    # 3 starfish, 2 held pairs (crabs, boats): 2 + 2 x 2 = 6.
    ("starfish-3-two-pairs", "starfish:dark_blue,starfish:light_blue,starfish:yellow,"
                             "crab:black,crab:green,boat:black,boat:black", "", 6, 3),
    # A table pair never validates a starfish in hand: 1.
    ("starfish-table-pair-only", "starfish:light_blue", "crab:black,crab:green", 1, 1),
    # Trio on the table + a starfish in hand with a held pair: table 1 + 2, held 1 + 2 = 6.
    ("trio-and-held-starfish", "starfish:dark_blue,fish:black,fish:black",
     "crab:grey,crab:green,starfish:yellow", 6, 2),
    # --- crab + lobster (closed form min((crab + lobster) // 2, crab))
    ("crab-lobster", "crab:black,lobster", "", 1, 2),
    ("lobster-alone", "lobster", "", 0, 1),
    # 3 crabs + lobster: min(4 // 2, 3) = 2 pairs.
    ("three-crabs-lobster", "crab:dark_blue,crab:light_blue,crab:yellow,lobster", "", 2, 1),
    # 2 crabs + lobster: min(3 // 2, 2) = 1 pair.
    ("two-crabs-lobster", "crab:green,crab:grey,lobster", "", 1, 1),
    # --- swimmer + jellyfish (closed form min(swimmer, shark + jellyfish))
    ("swimmer-jellyfish", "swimmer:black,jellyfish:purple", "", 1, 1),
    ("jellyfish-jellyfish-not-a-pair", "jellyfish:purple,jellyfish:pink", "", 0, 1),
    ("jellyfish-shark-not-a-pair", "jellyfish:purple,shark:green", "", 0, 1),
    # 2 swimmers, 1 shark, 1 jellyfish: 2 pairs.
    ("two-swimmers-shark-jellyfish", "swimmer:black,swimmer:yellow,shark:green,jellyfish:pink",
     "", 2, 1),
    # 1 swimmer, shark + jellyfish: 1 pair.
    ("one-swimmer-two-partners", "swimmer:black,shark:green,jellyfish:pink", "", 1, 1),
    # --- cast of crabs: +1 per crab (hand + table), a lobster is not a crab.
    ("cast-lobster-only", "cast_of_crabs,lobster", "", 0, 1),
    # Crab pair on the table 1 + cast 2 crabs = 3.
    ("cast-table-crabs", "cast_of_crabs", "crab:yellow,crab:grey", 3, 1),
    # Lobster + crab on the table (a played pair) 1 + cast counts 1 crab = 2.
    ("cast-crab-lobster-table", "cast_of_crabs", "crab:black,lobster", 2, 2),
    # --- seahorse: one more card for the collection it raises most, if any qualifies.
    ("seahorse-alone", "seahorse", "", 0, 1),
    # Shells capped at 6: 6 shells 10, the seahorse adds nothing.
    ("seahorse-six-shells", "seahorse,shell:dark_blue,shell:light_blue,shell:black,shell:yellow,"
                            "shell:green,shell:grey", "", 10, 1),
    # 2 sailors is the maximum: 5, nothing added.
    ("seahorse-two-sailors", "seahorse,sailor:pink,sailor:orange", "", 5, 1),
    # 3 penguins is the maximum: 5, nothing added.
    ("seahorse-three-penguins", "seahorse,penguin:purple,penguin:light_orange,penguin:pink", "", 5, 1),
    # No collection card at all: nothing (a crab is not a collection).
    ("seahorse-no-collection", "seahorse,crab:black,boat:black", "", 0, 2),
    # Octopus (+3) beats shell (+2): 0 + 0 + 3 = 3.
    ("seahorse-octopus-over-shell", "seahorse,shell:black,octopus:grey", "", 3, 1),
    # One penguin: 1 -> 3 (+2) = 3.
    ("seahorse-one-penguin", "seahorse,penguin:pink", "", 3, 1),
    # 4 octopus 9 -> 12 (+3) beats 1 shell (+2): 12.
    ("seahorse-four-octopus", "seahorse,shell:black,octopus:light_blue,octopus:yellow,"
                              "octopus:green,octopus:purple", "", 12, 1),
    # 5 octopus is the maximum (12); the seahorse goes to the shell instead (0 -> 2): 14.
    ("seahorse-octopus-full", "seahorse,shell:black,octopus:light_blue,octopus:yellow,"
                              "octopus:green,octopus:purple,octopus:grey", "", 14, 1),
    # The seahorse never counts for a multiplier: colony with 1 penguin + seahorse:
    # penguins 1 -> 3 = 3, colony 2 x 1 real penguin = 2: 5.
    ("seahorse-not-multiplied", "seahorse,colony,penguin:pink", "", 5, 1),
]


def _score(hand, table, expansion):
    s = build_state(2, hands={0: hand}, tables={0: table}, expansion=expansion)
    return int(card_points(s, 0)), int(colour_bonus(s, 0))


def _cases(rows, default_expansion):
    out = []
    for row in rows:
        name, hand, table, pts, bonus = row[:5]
        exp = row[5] if len(row) > 5 else default_expansion
        out.append(pytest.param(hand, table, pts, bonus, exp, id=name))
    return out


@pytest.mark.parametrize("hand,table,points,bonus,expansion",
                         _cases(WORKED_EXAMPLES, "extra-salt"))
def test_worked_examples_7_1(hand, table, points, bonus, expansion):
    """docs/rules.md, "Scoring: card points", examples #1-#15: card points and colour bonus."""
    assert _score(hand, table, expansion) == (points, bonus)


@pytest.mark.parametrize("hand,table,points,bonus,expansion",
                         _cases(EXTRA_CASES, "base") + _cases(EXTRA_SALT_CASES, "extra-salt"))
def test_scoring_components(hand, table, points, bonus, expansion):
    """docs/rules.md, "Scoring: card points": M, D, C, X and the colour bonus, one component at a
    time."""
    assert _score(hand, table, expansion) == (points, bonus)


@pytest.mark.parametrize("hand,table,points,bonus,expansion",
                         _cases(WORKED_EXAMPLES, "extra-salt") + _cases(EXTRA_CASES, "base")
                         + _cases(EXTRA_SALT_CASES, "extra-salt"))
def test_reference_scorer_agrees_with_the_rules(hand, table, points, bonus, expansion):
    """The independent scorer the round replay relies on gives the same hand-checked values."""
    assert (ref_points(hand, table), ref_bonus(hand, table)) == (points, bonus)


@pytest.mark.parametrize("hand,table,points,bonus,expansion",
                         _cases(WORKED_EXAMPLES, "extra-salt") + _cases(EXTRA_CASES, "base")
                         + _cases(EXTRA_SALT_CASES, "extra-salt"))
def test_mermaid_total_reads_the_colour_table(hand, table, points, bonus, expansion):
    """The statistics' M (mermaid_total: the sum over x of min(m, colours with more than x cards))
    is "Scoring: card points"'s M (the m largest colour counts, mermaids and the seahorse white)."""
    s = build_state(2, hands={0: hand}, tables={0: table}, expansion=expansion)
    assert int(mermaid_total(s, 0)) == int(mermaid_points(s, 0, -1, -1))


def test_no_cards_score_nothing():
    """Colour bonus = the largest colour count (0 with no cards)."""
    assert _score("", "", "base") == (0, 0)


def test_scoring_is_per_player():
    """Card points use only the player's own hand and table."""
    s = build_state(3, hands={0: "mermaid,mermaid", 1: "shell:black,shell:grey",
                              2: "penguin:pink"},
                    tables={1: "crab:black,crab:green"})
    assert [int(card_points(s, q)) for q in range(3)] == [2, 3, 1]
    assert [int(colour_bonus(s, q)) for q in range(3)] == [2, 2, 1]


def test_round_example_hands():
    """"Scoring: card points" round example: caller 7 points with 2 yellow, opponent 4 points with 2
    blue (these hands are used by the LAST CHANCE tests of test_rules_round.py)."""
    s = build_state(2, hands={0: "sailor:pink,sailor:orange,boat:yellow,boat:yellow,penguin:pink",
                              1: "swimmer:dark_blue,shark:dark_blue,penguin:purple,"
                                 "penguin:light_orange"})
    # caller: sailors 5 + boat pair 1 + penguin 1 = 7; colours yellow 2, pink 2 -> bonus 2.
    # opponent: held pair 1 + penguins 3 = 4; dark_blue 2 -> bonus 2.
    assert [int(card_points(s, q)) for q in range(2)] == [7, 4]
    assert [int(colour_bonus(s, q)) for q in range(2)] == [2, 2]


# ---------------------------------------------------------------------------------------------
# "The cards": the catalogue.

RULES_1 = {
    "mermaid": {"white": 4},
    "crab": {"dark_blue": 2, "light_blue": 2, "black": 1, "yellow": 2, "green": 1, "grey": 1},
    "boat": {"dark_blue": 2, "light_blue": 2, "black": 2, "yellow": 2},
    "fish": {"dark_blue": 2, "light_blue": 1, "black": 2, "yellow": 1, "green": 1},
    "swimmer": {"dark_blue": 1, "light_blue": 1, "black": 1, "yellow": 1, "light_orange": 1},
    "shark": {"dark_blue": 1, "light_blue": 1, "black": 1, "green": 1, "purple": 1},
    "shell": {"dark_blue": 1, "light_blue": 1, "black": 1, "yellow": 1, "green": 1, "grey": 1},
    "octopus": {"light_blue": 1, "yellow": 1, "green": 1, "purple": 1, "grey": 1},
    "penguin": {"purple": 1, "light_orange": 1, "pink": 1},
    "sailor": {"pink": 1, "orange": 1},
    "lighthouse": {"purple": 1},
    "shoal": {"grey": 1},
    "colony": {"green": 1},
    "captain": {"light_orange": 1},
    "jellyfish": {"purple": 1, "pink": 1},
    "lobster": {"black": 1},
    "cast_of_crabs": {"green": 1},
    "starfish": {"dark_blue": 1, "light_blue": 1, "yellow": 1},
    "seahorse": {"white": 1},
}
EXTRA_SALT_KINDS = {"jellyfish", "lobster", "cast_of_crabs", "starfish", "seahorse"}


def _catalogue(expansion):
    c = Counter()
    for t in kc.deck_types(expansion):
        c[(kc.KINDS[kc.TYPE_KIND[t]], kc.COLOURS[kc.TYPE_COLOUR[t]])] += 1
    return c


@pytest.mark.parametrize("expansion,total", [("base", 58), ("extra-salt", 66)])
def test_catalogue_matches_rules_section_1(expansion, total):
    """"The cards" table: kinds, copies and colours; 58 cards base, 66 with Extra Salt; kinds and
    colours in the order of "The cards" (the baseline's copy order relies on it)."""
    want = Counter({(k, col): n for k, cols in RULES_1.items() for col, n in cols.items()
                    if expansion == "extra-salt" or k not in EXTRA_SALT_KINDS})
    assert _catalogue(expansion) == want
    assert sum(want.values()) == total
    assert list(kc.KINDS) == list(RULES_1)
    for k, cols in RULES_1.items():
        ki = kc.KINDS.index(k)
        first, n = int(kc.KIND_FIRST_TYPE[ki]), int(kc.KIND_NTYPES[ki])
        assert [kc.COLOURS[kc.TYPE_COLOUR[t]] for t in range(first, first + n)] == list(cols)


def test_copies_per_colour():
    """"The cards": copies per colour in the base deck, and what Extra Salt adds."""
    base = Counter(col for (_k, col), n in _catalogue("base").items() for _ in range(n))
    assert base == {"white": 4, "dark_blue": 9, "light_blue": 9, "black": 8, "yellow": 8,
                    "green": 6, "purple": 4, "grey": 4, "light_orange": 3, "pink": 2, "orange": 1}
    extra = Counter(col for (_k, col), n in _catalogue("extra-salt").items() for _ in range(n))
    assert extra - base == {"white": 1, "dark_blue": 1, "light_blue": 1, "black": 1, "yellow": 1,
                            "green": 1, "purple": 1, "pink": 1}
