"""analyzer.rules.score.score_hand: the docs/rules.md, "Scoring: card points" scores of the compiled
kernel, its breakdown, and the validation of cards, copies and tables (docs/rules.md, "The cards"
legal pairs, Extra Salt trios)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from analyzer.base.errors import SeasaltError
from analyzer.rules.score import score_hand
from kernels import cards as kc

EX14_HAND = ("mermaid,mermaid,shell:dark_blue,shell:light_blue,shell:black,octopus:light_blue,"
             "crab:dark_blue,crab:dark_blue,boat:dark_blue,lighthouse")
EX14_TABLE = "swimmer:dark_blue,shark:light_blue"


def test_contract_shape_and_types():
    r = score_hand(EX14_HAND, EX14_TABLE)
    assert set(r) == {"card_points", "colour_bonus", "breakdown"}
    assert set(r["breakdown"]) == {"mermaids", "duos", "collections", "multipliers"}
    assert all(type(v) is int for v in [r["card_points"], r["colour_bonus"], *r["breakdown"].values()])
    # docs/rules.md, "Scoring: card points" #14: dark_blue 5 + light_blue 3 = 8; pairs 1+1; shells
    # 4; lighthouse 1 = 15.
    assert r == {"card_points": 15, "colour_bonus": 5,
                 "breakdown": {"mermaids": 8, "duos": 2, "collections": 4, "multipliers": 1}}


def test_lists_and_strings_agree():
    assert score_hand(EX14_HAND.split(","), EX14_TABLE.split(",")) == score_hand(EX14_HAND, EX14_TABLE)


def test_notation_variants():
    a = score_hand("crab:dark-blue,crab:DARK_BLUE, mermaid")
    b = score_hand("crab:dark_blue,crab:dark_blue,mermaid")
    assert a == b == {"card_points": 3, "colour_bonus": 2,
                      "breakdown": {"mermaids": 2, "duos": 1, "collections": 0, "multipliers": 0}}


def test_empty_hand_and_table():
    zero = {"mermaids": 0, "duos": 0, "collections": 0, "multipliers": 0}
    assert score_hand("") == {"card_points": 0, "colour_bonus": 0, "breakdown": zero}


def test_table_only():
    r = score_hand("", "boat:black,boat:yellow")
    assert r["card_points"] == 1 and r["breakdown"]["duos"] == 1 and r["colour_bonus"] == 1


# --- an independent reading of docs/rules.md, "Scoring: card points", to cross-check the kernel on
# random positions ----------

_COLLECT = {"shell": (0, 2, 4, 6, 8, 10), "octopus": (0, 3, 6, 9, 12), "penguin": (1, 3, 5),
            "sailor": (0, 5)}
_MULT = {"lighthouse": ("boat", 1), "shoal": ("fish", 1), "colony": ("penguin", 2),
         "captain": ("sailor", 3), "cast_of_crabs": ("crab", 1)}


def reference_score(hand: list[str], table: list[str]) -> tuple[dict, int]:
    """(breakdown, colour bonus) of cards in full `kind:colour` notation, straight from "Scoring:
    card points"."""
    cards = [c.split(":") for c in hand + table]
    kinds = Counter(k for k, *_ in cards)
    hk = Counter(c.split(":")[0] for c in hand)
    tk = Counter(c.split(":")[0] for c in table)
    colours = Counter(colour for _kind, colour in cards)  # `kind:colour` (mermaids are white)
    counts = sorted(colours.values(), reverse=True)
    m = sum(counts[:kinds["mermaid"]])
    held = (min((hk["crab"] + hk["lobster"]) // 2, hk["crab"])
            + min(hk["swimmer"], hk["shark"] + hk["jellyfish"]) + hk["boat"] // 2 + hk["fish"] // 2)
    table_pairs = sum(v for k, v in tk.items() if k != "starfish") // 2
    d = table_pairs + held + 2 * tk["starfish"] + 2 * min(hk["starfish"], held)

    def coll(kind: str, n: int) -> int:
        return _COLLECT[kind][n - 1] if n else 0

    c = sum(coll(k, kinds[k]) for k in _COLLECT)
    if hk["seahorse"]:
        gains = [coll(k, kinds[k] + 1) - coll(k, kinds[k]) for k in _COLLECT
                 if 1 <= kinds[k] < len(_COLLECT[k])]
        c += max(gains, default=0)
    x = sum(kinds[m_] * kinds[k] * w for m_, (k, w) in _MULT.items())
    return {"mermaids": m, "duos": d, "collections": c, "multipliers": x}, max(counts, default=0)


_PAIRS = (("crab", "crab"), ("crab", "lobster"), ("boat", "boat"), ("fish", "fish"),
          ("swimmer", "shark"), ("swimmer", "jellyfish"))


def _random_position(rng: random.Random, expansion: str) -> tuple[list[str], list[str]]:
    deck = [kc.type_name(int(t)) for t in kc.deck_types(expansion)]
    rng.shuffle(deck)
    table: list[str] = []
    for _ in range(rng.randint(0, 3)):  # play up to three legal pairs, some as trios
        a, b = rng.choice(_PAIRS)
        ca = next((c for c in deck if c.split(":")[0] == a), None)
        if ca is None:
            continue
        deck.remove(ca)
        cb = next((c for c in deck if c.split(":")[0] == b), None)
        if cb is None:
            deck.append(ca)
            continue
        deck.remove(cb)
        table += [ca, cb]
        star = next((c for c in deck if c.startswith("starfish:")), None)
        if star and rng.random() < 0.5:
            deck.remove(star)
            table.append(star)
    hand = deck[:rng.randint(0, 14)]
    return hand, table


@pytest.mark.parametrize("expansion", ["base", "extra-salt"])
def test_random_positions_match_rules_reading(expansion):
    rng = random.Random(20240601 + len(expansion))
    for _ in range(300):
        hand, table = _random_position(rng, expansion)
        r = score_hand(hand, table, expansion)
        assert sum(r["breakdown"].values()) == r["card_points"], (hand, table, r)
        breakdown, bonus = reference_score(hand, table)
        assert r["breakdown"] == breakdown, (hand, table)
        assert r["colour_bonus"] == bonus, (hand, table)


# --- tables -------------------------------------------------------------------------------------

@pytest.mark.parametrize("table, expansion, pairs", [
    ("crab:black,crab:green", "base", 1),
    ("boat:black,boat:black", "base", 1),
    ("fish:yellow,fish:green", "base", 1),
    ("swimmer:black,shark:purple", "base", 1),
    ("crab:yellow,lobster", "extra-salt", 1),
    ("swimmer:yellow,jellyfish:pink", "extra-salt", 1),
    ("crab:black,crab:green,starfish:yellow", "extra-salt", 1),             # trio
    ("crab:black,crab:green,crab:yellow,lobster", "extra-salt", 2),        # crab+crab, crab+lobster
    ("shark:green,swimmer:black,jellyfish:purple,swimmer:yellow", "extra-salt", 2),  # any order
    ("boat:black,boat:black,fish:black,fish:black,starfish:dark_blue,starfish:yellow", "extra-salt", 2),
])
def test_legal_tables(table, expansion, pairs):
    r = score_hand("", table, expansion)
    assert r["breakdown"]["duos"] == pairs + 2 * table.count("starfish")


@pytest.mark.parametrize("table, expansion, words", [
    ("crab:black", "base", "crab"),
    ("boat:black,boat:black,boat:yellow", "base", "boat"),
    ("fish:black", "base", "fish"),
    ("swimmer:black,swimmer:yellow", "base", "swimmer"),
    ("shark:black,shark:green", "base", "swimmer"),
    ("crab:black,boat:black", "base", "boat"),
    ("boat:black,fish:black", "base", "boat"),
    ("jellyfish:pink,jellyfish:purple", "extra-salt", "swimmer"),
    ("jellyfish:pink,shark:black", "extra-salt", "swimmer"),
    ("lobster,fish:black", "extra-salt", "fish"),
    ("lobster,boat:black,boat:yellow", "extra-salt", "lobster"),
    ("starfish:yellow", "extra-salt", "starfish"),
    ("crab:black,crab:green,starfish:yellow,starfish:dark_blue", "extra-salt", "starfish"),
    ("mermaid", "base", "mermaid"),
    ("shell:black,shell:grey", "base", "shell"),
    ("lighthouse,boat:black,boat:black", "base", "lighthouse"),
    ("seahorse", "extra-salt", "seahorse"),
    ("cast_of_crabs,crab:black,crab:green", "extra-salt", "cast_of_crabs"),
])
def test_illegal_tables(table, expansion, words):
    with pytest.raises(SeasaltError) as exc:
        score_hand("", table, expansion)
    message = str(exc.value)
    assert message.startswith("illegal table") and words in message and "\n" not in message


@pytest.mark.parametrize("hand, table, expansion, words", [
    ("mermaid,mermaid,mermaid", "", "base", None),  # fine: a control
    ("mermaid,mermaid,mermaid,mermaid,mermaid", "", "base", "mermaid"),
    ("boat:black", "boat:black,boat:black", "base", "boat:black"),      # copies across hand+table
    ("lobster", "crab:black,lobster", "extra-salt", "lobster"),
    ("crab", "", "base", "colour"),
    ("crab:pink", "", "base", "pink"),
    ("crab:mauve", "", "base", "mauve"),
    ("squid", "", "base", "squid"),
    ("seahorse", "", "base", "Extra Salt"),
    ("", "crab:black,crab:green,starfish:yellow", "base", "Extra Salt"),
    ("mermaid", "", "extra-pepper", "expansion"),
])
def test_bad_cards(hand, table, expansion, words):
    if words is None:
        score_hand(hand, table, expansion)
        return
    with pytest.raises(SeasaltError) as exc:
        score_hand(hand, table, expansion)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_extra_salt_hand_needs_the_expansion():
    hand = "seahorse,sailor:pink,shell:black,shell:grey"
    with pytest.raises(SeasaltError):
        score_hand(hand)
    # sailor 0 + shells 2, the seahorse completes the sailor pair (+5): 7
    assert score_hand(hand, expansion="extra-salt")["card_points"] == 7
