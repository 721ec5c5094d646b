"""A position at the table, as one player knows it (docs/rules.md, "Hidden information"), read from
JSON and validated.

    {
      "players": 2, "seat": 0, "expansion": "base",
      "decision": "play",
      "hand": "mermaid,mermaid,shell:black,shell:yellow,crab:dark_blue",
      "table": "boat:black,boat:yellow",
      "opponents": [{"seat": 1, "table": "fish:black,fish:green", "hand_size": 5,
                     "known": "shark:green"}],
      "piles": {"A": {"size": 4, "top": "octopus:grey"},
                "B": {"cards": "?,?,crab:black,penguin:pink"}},
      "deck": 40,
      "totals": [12, 20], "target": 40,
      "lock": null
    }

`decision`: where the asker's turn stands (DECISIONS; default "play", the play step); "keep"
needs `drawn` (the two cards drawn, first drawn first), "lobster" needs `seen` (the deck cards
revealed by crab+lobster, top first), "crab" may name `crab_pile` (the pile being looked
through). `hand`/`table`: the asker's cards; `opponents`: every other seat's table, hand size and
the cards the asker knows are in that hand (seen taken from a pile); `piles`: each pile's size
and top, or its cards bottom first (perfect memory) with `?` for a card not remembered, and
`crab_taken`: [{"seat": q, "among": k}, ...] when seat q took one card with a crab from this pile
as remembered, one of its bottom k cards (default: any below the top); `deck`: the cards in the
deck (after the draw at "keep", besides the revealed ones at "lobster"), or {"size": N, "known":
CARDS} with cards known to be in it; optional `totals` (running totals by seat) and `target`;
optional `lock` (seat of the caster of an active jellyfish lock). Card lists are strings in
seasalt's notation or lists of names.

A position the rules exclude is a SeasaltError: more copies than exist, sizes that do not add
up, anyone holding four mermaids (they have already won), a lock nobody cast, a decision that
is not open (one legal action, a locked turn), and positions in which every deal would give an
opponent four mermaids.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import numpy as np

from kernels import actions as ka
from kernels import cards as kc
from kernels import state as ks
from kernels.deals import UNSEEN
from kernels.legal import legal_actions
from kernels.scoring import card_points, refresh_points

from ..rules.notation import card_name, check_copies, check_expansion
from ..base.errors import SeasaltError
from ..rules.score import check_table
from .position_input import checked_int, checked_keys, parse_card_list, quote_value

# decision -> what the asker is asked there (the file's word; kernels.actions.DEC_*)
DECISIONS = {"draw": ka.DEC_DRAW, "keep": ka.DEC_KEEP, "play": ka.DEC_PLAY, "crab": ka.DEC_CRAB_PILE,
             "lobster": ka.DEC_LOBSTER, "steal": ka.DEC_VICTIM}
STEP_NAMES = {ka.DEC_DRAW: "draw step", ka.DEC_KEEP: "keeping a drawn card",
              ka.DEC_PLAY: "play step", ka.DEC_CRAB_PILE: "crab search, choosing the pile",
              ka.DEC_CRAB_CARD: "crab search", ka.DEC_LOBSTER: "crab+lobster search",
              ka.DEC_VICTIM: "swimmer+shark steal"}
_KEYS = {"players", "seat", "expansion", "decision", "hand", "table", "drawn", "seen", "crab_pile",
         "opponents", "piles", "deck", "totals", "target", "lock",
         "history"}      # the round's public turns: read by analyzer.play.reading only
_OPP_KEYS = {"seat", "table", "hand_size", "known"}
_PILE_KEYS = {"size", "top", "cards", "crab_taken"}
_DECK_KEYS = {"size", "known"}
_TAKE_KEYS = {"seat", "among"}
UNKNOWN_SLOT = UNSEEN
PILES = "AB"


@dataclass
class Position:
    """A validated position: the marked template state at the asker's decision (kernels.deals:
    unknown pile and deck slots hold UNSEEN, hidden hands only their known cards), the pool of
    cards whose place the asker does not know, the unknown hand cards of each seat, and the crab
    takes (rows seat, pile, among: kernels.advisor)."""
    players: int
    seat: int
    expansion: str
    template: np.ndarray
    pool: np.ndarray
    unknown_hand: np.ndarray
    totals: np.ndarray | None
    target: int | None
    points: int
    source: dict
    decision: int = ka.DEC_PLAY
    takes: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.int64))
    actions: list[int] = field(default_factory=list)    # what the advisor weighs here

    @property
    def decision_name(self) -> str:
        """kernels.actions.DEC_NAMES of the decision: draw, keep, play, crab_pile, crab_card, ..."""
        return ka.DEC_NAMES[self.decision]

    @property
    def deck(self) -> int:
        """Cards in the deck besides those the asker is looking at (drawn, revealed)."""
        return int(self.template[ks.DECK_LEN]) - _top_known(self.template)

    def hand(self) -> list[int]:
        return _types_of(self.template, ks.HT, self.seat)


def _types_of(s: np.ndarray, offset: int, q: int) -> list[int]:
    return [t for t in range(kc.NTYPES) for _ in range(int(s[offset + q * kc.NTYPES + t]))]


def _top_known(s: np.ndarray) -> int:
    d = int(s[ks.DEC])
    if d == ka.DEC_KEEP:
        return 2
    if d == ka.DEC_LOBSTER:
        return min(5, int(s[ks.DECK_LEN]))
    return 0


def _pile(pile: dict, name: str, expansion: str, players: int) -> tuple[list[int], list[tuple]]:
    """(the pile's cards as remembered, bottom first, UNSEEN for unknown ones; its crab takes as
    (seat, among) in order)."""
    if "cards" in pile:
        cards = parse_card_list(pile["cards"], f"pile {name} cards", expansion, unknown=True)
        takes_in = pile.get("crab_taken", [])
        if not isinstance(takes_in, list):
            raise SeasaltError(f"pile {name}: crab_taken must be a list of {{\"seat\": S, \"among\": N}}")
        size = len(cards) - len(takes_in)
        if "size" in pile and checked_int(pile["size"], f"pile {name} size", 0, kc.MAX_DECK) != size:
            raise SeasaltError(f"pile {name}: size {pile['size']} but {len(cards)} cards listed"
                               + (f" less {len(takes_in)} taken by crab" if takes_in else ""))
        if "top" in pile:
            if not cards:
                raise SeasaltError(f"pile {name}: a top card {quote_value(pile['top'])} but no cards listed")
            if parse_card_list(pile["top"], f"pile {name} top", expansion) != cards[-1:]:
                raise SeasaltError(f"pile {name}: the top is the last card of its list")
        if cards and cards[-1] == UNSEEN:
            raise SeasaltError(f"pile {name}: its top card is face up, so it cannot be '?'")
        takes = []
        top = len(cards) - 1
        for i, take in enumerate(takes_in):
            where = f"pile {name} crab_taken[{i}]"
            checked_keys(take, _TAKE_KEYS, where)
            q = checked_int(take.get("seat"), f"{where} seat", 0, players - 1)
            among = take.get("among", top)
            if isinstance(among, bool) or not isinstance(among, int) or not i + 1 <= among <= top:
                raise SeasaltError(f"{where} among must be a whole number from {i + 1} (the takes "
                                   f"before it leave that many candidates) to {top} (the cards "
                                   f"listed below the top), got {quote_value(among)}")
            takes.append((q, among))
        return cards, takes
    if "crab_taken" in pile:
        raise SeasaltError(f"pile {name}: crab_taken needs the pile's cards as you remember them "
                           f"(\"cards\", with ? for those you do not)")
    if "top" in pile and "size" not in pile:
        raise SeasaltError(f"pile {name}: give its size (the number of cards in it) with its top, "
                           f"or all its cards as \"cards\"")
    size = checked_int(pile.get("size", 0), f"pile {name} size", 0, kc.MAX_DECK)
    top = parse_card_list(pile.get("top"), f"pile {name} top", expansion)
    if size > 0 and len(top) != 1:
        raise SeasaltError(f"pile {name}: give its top card (one card) or its cards")
    if size == 0 and top:
        raise SeasaltError(f"pile {name}: an empty pile has no top card")
    return [UNSEEN] * (size - 1) + top, []


def _deck(value, expansion: str) -> tuple[int, list[int]]:
    if isinstance(value, dict):
        checked_keys(value, _DECK_KEYS, "deck")
        size = checked_int(value.get("size"), "deck size", 0, kc.MAX_DECK)
        known = parse_card_list(value.get("known"), "deck known", expansion)
        if len(known) > size:
            raise SeasaltError(f"deck: {len(known)} cards known to be in it, but it holds {size}")
        return size, known
    return checked_int(value, "deck", 0, kc.MAX_DECK), []


def _mermaids(cards) -> int:
    return sum(1 for t in cards if t >= 0 and kc.TYPE_KIND[t] == kc.MERMAID)


def parse(obj: dict) -> Position:
    """Validate a position object and build its template state."""
    checked_keys(obj, _KEYS, "position")
    for key in ("players", "seat", "hand", "opponents", "piles", "deck"):
        if key not in obj:
            raise SeasaltError(f"position: missing key {key!r}")
    expansion = obj.get("expansion", "base")
    if not isinstance(expansion, str):
        raise SeasaltError(f'expansion must be "base" or "extra-salt", got {quote_value(expansion)}')
    expansion = check_expansion(expansion)
    players = checked_int(obj["players"], "players", 2, 4)
    me = checked_int(obj["seat"], "seat", 0, players - 1)
    decision = obj.get("decision", "play")
    if not isinstance(decision, str) or decision not in DECISIONS:
        raise SeasaltError(f"decision {quote_value(decision)} is not one of {', '.join(DECISIONS)}")
    dec = DECISIONS[decision]
    hand = parse_card_list(obj["hand"], "hand", expansion)
    table = parse_card_list(obj.get("table"), "table", expansion)
    check_table(table, "your table")
    drawn = parse_card_list(obj.get("drawn"), "drawn", expansion)
    seen = parse_card_list(obj.get("seen"), "seen", expansion)
    for key, needed in (("drawn", "keep"), ("seen", "lobster"), ("crab_pile", "crab")):
        if key in obj and decision != needed:
            raise SeasaltError(f"{key} belongs to the decision {needed!r}, not {decision!r}")
    if decision == "keep" and len(drawn) != 2:
        raise SeasaltError(f"decision keep: give the two cards drawn as drawn, got {len(drawn)}")

    opps = obj["opponents"]
    if not isinstance(opps, list):
        raise SeasaltError("opponents must be a list with one entry per other seat")
    by_seat: dict[int, dict] = {}
    for o in opps:
        checked_keys(o, _OPP_KEYS, "opponent")
        q = checked_int(o.get("seat"), "opponent seat", 0, players - 1)
        if q == me or q in by_seat:
            raise SeasaltError(f"opponent seat {q} is the asker's seat or listed twice")
        size = checked_int(o.get("hand_size"), f"seat {q} hand_size", 0, kc.MAX_DECK)
        known = parse_card_list(o.get("known"), f"seat {q} known", expansion)
        if len(known) > size:
            raise SeasaltError(f"seat {q}: {len(known)} known cards but a hand of {size}")
        t = parse_card_list(o.get("table"), f"seat {q} table", expansion)
        check_table(t, f"seat {q}'s table")
        by_seat[q] = {"size": size, "known": known, "table": t}
    missing = sorted(set(range(players)) - {me} - set(by_seat))
    if missing:
        raise SeasaltError(f"opponents: seat {missing[0]} is missing")

    piles = checked_keys(obj["piles"], {"A", "B"}, "piles")
    pile_cards: list[list[int]] = []
    takes: list[tuple[int, int, int]] = []
    for j, name in enumerate(PILES):
        cards, pile_takes = _pile(checked_keys(piles.get(name, {"size": 0}), _PILE_KEYS, f"pile {name}"),
                                  name, expansion, players)
        pile_cards.append(cards)
        for q, among in pile_takes:
            if q == me:
                raise SeasaltError(f"pile {name}: a card you took with your crab is in your hand; "
                                   f"list it there and remove it from the pile")
            takes.append((q, j, among))
    taken_by = {q: sum(1 for t in takes if t[0] == q) for q in by_seat}
    for q, o in by_seat.items():
        if len(o["known"]) + taken_by[q] > o["size"]:
            raise SeasaltError(f"seat {q}: {len(o['known'])} known cards and {taken_by[q]} taken by "
                               f"crab, but a hand of {o['size']}")
    deck, deck_known = _deck(obj["deck"], expansion)
    if decision == "lobster":
        if not 2 <= len(seen) <= 5:
            raise SeasaltError(f"decision lobster: seen lists the deck cards revealed (2 to 5, top "
                               f"first), got {len(seen)}")
        if len(seen) < 5 and deck > 0:
            raise SeasaltError(f"decision lobster: crab+lobster reveals 5 cards while the deck has "
                               f"them, but seen lists {len(seen)} and {deck} are left in the deck")
    top_known = drawn if decision == "keep" else seen

    known_groups = [hand, table, top_known, deck_known,
                    *[o["known"] + o["table"] for o in by_seat.values()],
                    *[[t for t in p if t >= 0] for p in pile_cards]]
    check_copies(known_groups, expansion)
    full = kc.copies_in(expansion)
    placed = (len(hand) + len(table) + sum(o["size"] + len(o["table"]) for o in by_seat.values())
              + sum(len(p) for p in pile_cards) - len(takes) + deck + len(top_known))
    if placed != int(full.sum()):
        raise SeasaltError(f"sizes do not add up: hands, tables, piles and deck hold {placed} cards, "
                           f"the {expansion} deck has {int(full.sum())}")
    counts = full.copy()
    for g in known_groups:
        for t in g:
            counts[t] -= 1
    pool = np.repeat(np.arange(kc.NTYPES, dtype=np.int64), counts)

    s = ks.new_state()
    ks.load_deck(s, players, np.zeros(0, dtype=np.int64), me)
    for j, cards in enumerate(pile_cards):
        for t in cards:
            ks.push_pile(s, j, t)
    deck_slots = deck_known + [UNSEEN] * (deck - len(deck_known)) + top_known[::-1]
    s[ks.DECK:ks.DECK + len(deck_slots)] = deck_slots
    s[ks.DECK_LEN] = len(deck_slots)
    for t in hand:
        ks.gain_card(s, me, t)
    _place_table(s, me, table)
    unknown = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    for q, o in by_seat.items():
        for t in o["known"]:
            ks.gain_card(s, q, t)
        _place_table(s, q, o["table"])
        unknown[q] = o["size"] - len(o["known"]) - taken_by[q]
    _check_mermaids(me, hand + table, by_seat)
    lock = obj.get("lock")
    if lock is not None:
        lock = checked_int(lock, "lock", 0, players - 1)
        if lock != me:
            raise SeasaltError(f"seat {lock}'s jellyfish lock is in force: a locked turn only "
                               "takes the top card of the deck, so there is nothing to decide")
        if expansion != "extra-salt":
            raise SeasaltError("lock: the jellyfish is an Extra Salt card; a base game has no lock")
        kinds = {kc.KINDS[kc.TYPE_KIND[t]] for t in table}
        if not {"swimmer", "jellyfish"} <= kinds:
            raise SeasaltError("lock: a lock is cast by playing swimmer+jellyfish, and your table "
                               "holds no such pair")
        s[ks.LOCK] = lock
    refresh_points(s, players)
    s[ks.DEC] = dec
    pts = int(card_points(s, me))
    if dec == ka.DEC_CRAB_PILE:
        dec = _crab_decision(s, obj, table, pile_cards, takes)
    actions = _check_decision(s, dec, me, table, pts, by_seat, expansion)

    totals = target = None
    if "totals" in obj or "target" in obj:
        if "totals" not in obj or "target" not in obj:
            raise SeasaltError("give both totals and target, or neither")
        tl = obj["totals"]
        if not isinstance(tl, list) or len(tl) != players:
            raise SeasaltError(f"totals must list {players} running totals, one per seat")
        totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
        for q, v in enumerate(tl):
            totals[q] = checked_int(v, f"totals[{q}]", 0, 10_000)
        target = checked_int(obj["target"], "target", 1, 10_000)
        if totals.max() >= target:
            raise SeasaltError(f"a total already reaches the target {target}: the game is over")
    takes_arr = np.array(takes, dtype=np.int64).reshape(-1, 3)
    pos = Position(players, me, expansion, s, pool, unknown, totals, target, pts, obj, dec, takes_arr,
                   actions)
    _check_possible(pos, hand + table + top_known + deck_known, by_seat, pile_cards)
    return pos


def _place_table(s: np.ndarray, q: int, types: list[int]) -> None:
    for t in types:
        ks.gain_card(s, q, t)
        ks.to_table(s, q, t)
    s[ks.NPAIRS + q] = sum(1 for t in types if kc.IS_DUO_KIND[kc.TYPE_KIND[t]]) // 2


def _check_mermaids(me: int, mine: list[int], by_seat: dict) -> None:
    if _mermaids(mine) == 4:
        raise SeasaltError("you hold all four mermaids: you have already won the game "
                           "(docs/rules.md, \"Ending a round\"), there is nothing to decide")
    for q, o in by_seat.items():
        if _mermaids(o["known"] + o["table"]) == 4:
            raise SeasaltError(f"seat {q} is known to hold all four mermaids: that player has "
                               "already won the game (docs/rules.md, \"Ending a round\")")


def _crab_decision(s: np.ndarray, obj: dict, table: list[int], pile_cards: list[list[int]],
                   takes: list) -> int:
    """DEC_CRAB_PILE, or DEC_CRAB_CARD with CRAB_PILE set when the pile searched is known (named,
    or the only one with cards); that pile is seen in full, so it must be listed in full."""
    if sum(1 for t in table if kc.TYPE_KIND[t] == kc.CRAB) < 2:
        raise SeasaltError("decision crab: a crab search follows a crab+crab pair played, and "
                           "your table holds no such pair")
    sizes = [int(s[ks.PILE_LEN + j]) - sum(1 for t in takes if t[1] == j) for j in range(2)]
    if sum(sizes) == 0:
        raise SeasaltError("decision crab: both piles are empty, so the crab takes nothing")
    name = obj.get("crab_pile")
    if name is None and min(sizes) > 0:
        return ka.DEC_CRAB_PILE
    if name is None:
        j = 0 if sizes[0] else 1
    elif not isinstance(name, str) or name not in ("A", "B"):
        raise SeasaltError(f"crab_pile must be \"A\" or \"B\", got {quote_value(name)}")
    else:
        j = PILES.index(name)
    if sizes[j] == 0:
        raise SeasaltError(f"crab_pile {PILES[j]} is empty")
    if UNSEEN in pile_cards[j] or any(t[1] == j for t in takes):
        raise SeasaltError(f"decision crab: you are looking through pile {PILES[j]}, so list all "
                           f"its cards (no ? and no crab_taken)")
    s[ks.DEC] = ka.DEC_CRAB_CARD
    s[ks.CRAB_PILE] = j
    return ka.DEC_CRAB_CARD


def _check_decision(s: np.ndarray, dec: int, me: int, table: list[int], pts: int,
                    by_seat: dict, expansion: str) -> list[int]:
    """The actions the advisor weighs (decision_actions), if the decision is open to the asker:
    what the rules ask before it happened, and two or more actions."""
    kinds = [kc.KINDS[kc.TYPE_KIND[t]] for t in table]
    if dec == ka.DEC_LOBSTER and not ("crab" in kinds and "lobster" in kinds):
        raise SeasaltError("decision lobster: a crab+lobster search follows that pair played, and "
                           "your table holds no such pair")
    if dec == ka.DEC_VICTIM:
        if not ("swimmer" in kinds and "shark" in kinds):
            raise SeasaltError("decision steal: a steal follows a swimmer+shark pair played, and "
                               "your table holds no such pair")
    actions = decision_actions(s, _hand_sizes(s, by_seat))
    if len(actions) >= 2:
        return actions
    if dec == ka.DEC_PLAY:
        raise SeasaltError(f"you hold {pts} card points: declaring needs at least 7, so STOP and "
                           "LAST CHANCE are not open to you yet, and you hold no pair to play")
    what = {ka.DEC_DRAW: "the draw is forced (one source has cards)",
            ka.DEC_KEEP: "both drawn cards are the same and must go onto the one empty pile",
            ka.DEC_CRAB_CARD: "the pile searched holds only one kind of card",
            ka.DEC_LOBSTER: "the revealed cards are all the same",
            ka.DEC_VICTIM: "at most one opponent has a card in hand to steal"}[dec]
    raise SeasaltError(f"nothing to decide at this {STEP_NAMES[dec]}: {what}")


def _hand_sizes(s: np.ndarray, by_seat: dict) -> np.ndarray:
    sizes = s[ks.HLEN:ks.HLEN + ks.MAX_PLAYERS].astype(np.int64)
    for q, o in by_seat.items():
        sizes[q] = o["size"]
    return sizes


def decision_actions(s: np.ndarray, hand_sizes=None) -> list[int]:
    """The actions the advisor weighs at the decision point of the marked state `s` (whose
    hidden hands hold only their known cards: `hand_sizes` gives every hand's true size): the
    legal actions without copies (kernels.legal), except at a crab search before the pile is
    chosen, where each card the asker remembers in a pile may be named at once (2 + pile + 2 *
    index: kernels.actions), and a pile with unremembered cards may be searched (its card then
    chosen by the model)."""
    if int(s[ks.DEC]) != ka.DEC_CRAB_PILE:
        x = s.copy()
        if hand_sizes is not None:
            x[ks.HLEN:ks.HLEN + ks.MAX_PLAYERS] = hand_sizes
        n = int(legal_actions(x, False))
        return [int(a) for a in x[ks.LEGAL:ks.LEGAL + n]]
    out = []
    for j in range(2):
        base = ks.PILE + j * kc.MAX_DECK
        cards = [int(t) for t in s[base:base + int(s[ks.PILE_LEN + j])]]
        seen = set()
        for i in range(len(cards) - 1, -1, -1):
            if cards[i] >= 0 and cards[i] not in seen:
                seen.add(cards[i])
                out.append(2 + j + 2 * i)
        if UNSEEN in cards:
            out.append(j)
    return out


def _check_possible(pos: Position, mine: list[int], by_seat: dict,
                    pile_cards: list[list[int]]) -> None:
    """Some deal gives no opponent all four mermaids, decided exactly before any sampling.
    Without crab takes: an opponent would get every mermaid in every deal only if no mermaid is
    known elsewhere and every unknown card goes to that hand. With crab takes: a search over
    what each take picks (possible_with_takes)."""
    if pos.takes.shape[0]:
        if possible_with_takes(pos, pile_cards) is False:
            names = ", ".join(f"pile {PILES[j]} crab_taken"
                              for j in sorted({int(t[1]) for t in pos.takes}))
            raise SeasaltError(f"no deal is possible: with the crab takes of {names}, every deal "
                               f"gives someone all four mermaids (a player holding four has "
                               f"already won)")
        return
    elsewhere = _mermaids(mine) + sum(_mermaids(p) for p in pile_cards)
    pool_mermaids = _mermaids(pos.pool)
    for q, o in by_seat.items():
        others = elsewhere + sum(_mermaids(p["known"] + p["table"])
                                 for r, p in by_seat.items() if r != q)
        if others == 0 and pool_mermaids and pos.unknown_hand[q] == len(pos.pool):
            raise SeasaltError(f"no deal is possible: every card you cannot place is in seat {q}'s "
                               "hand, which would then hold all four mermaids (a player holding "
                               "four has already won)")


SEARCH_BUDGET = 200_000      # nodes of possible_with_takes before it leaves the question open


def possible_with_takes(pos: Position, pile_cards: list[list[int]]) -> bool | None:
    """Whether some deal of a position with crab takes leaves every seat below four mermaids
    (kernels.advisor.possible), exactly: None only if the search needs over SEARCH_BUDGET nodes.

    A deal puts the pool into the blanks (unknown hand cards, ? pile cards, the unknown deck),
    then each take (pile A's first, each pile's in order) moves one of the bottom `among` cards
    left in its pile to the taker. What matters of a take is whether it moves a mermaid, and
    from which kind of card: a known mermaid, a known other card, or a ? that the pool fills
    with a mermaid or with another card; of the candidates of one kind the topmost is taken
    (leaving lower cards can only help the later takes, whose candidates are bottom cards
    too). After the takes, the pool's mermaids left over must fit where nobody reaches four:
    the deck's and the piles' blanks, and each hand's blanks up to three mermaids."""
    s = pos.template
    players = pos.players
    mermaid = [[t >= 0 and kc.TYPE_KIND[t] == kc.MERMAID for t in p] for p in pile_cards]
    held = tuple(int(s[ks.AK + q * kc.NKINDS + kc.MERMAID]) for q in range(players))
    pool_m = _mermaids(pos.pool)
    pool_n = len(pos.pool) - pool_m
    blanks = [int(pos.unknown_hand[q]) for q in range(players)]
    pile_blanks = sum(p.count(UNSEEN) for p in pile_cards)
    deck_blanks = len(pos.pool) - sum(blanks) - pile_blanks
    takes = sorted(((int(q), int(j), int(among)) for q, j, among in pos.takes),
                   key=lambda t: t[1])                  # stable: each pile's in order
    budget = [SEARCH_BUDGET]
    seen: set = set()

    def fits(counts, taken, used_m) -> bool:
        left_blanks = deck_blanks + pile_blanks - sum(
            1 for j, i in taken if pile_cards[j][i] == UNSEEN)
        room = left_blanks + sum(max(0, min(blanks[q], 3 - counts[q])) for q in range(players))
        return pool_m - used_m <= room

    def go(r, taken: frozenset, counts: tuple, used_m: int, used_n: int) -> bool:
        if r == len(takes):
            return fits(counts, taken, used_m)
        key = (r, taken, counts, used_m, used_n)
        if key in seen:
            return False
        seen.add(key)
        budget[0] -= 1
        if budget[0] < 0:
            raise _Undecided
        q, j, among = takes[r]
        cards = pile_cards[j]
        free = [i for i in range(min(among, len(cards))) if (j, i) not in taken]
        if not free:
            return go(r + 1, taken, counts, used_m, used_n)
        for kind in ("mermaid", "other", "?mermaid", "?other"):
            if kind.startswith("?"):
                cand = [i for i in free if cards[i] == UNSEEN]
                gets = kind == "?mermaid"
                if (used_m if gets else used_n) >= (pool_m if gets else pool_n):
                    continue
            else:
                gets = kind == "mermaid"
                cand = [i for i in free if cards[i] != UNSEEN and mermaid[j][i] == gets]
            if not cand:
                continue
            now = counts[:q] + (counts[q] + gets,) + counts[q + 1:]
            if now[q] >= 4:
                continue
            um = used_m + (gets and kind.startswith("?"))
            un = used_n + ((not gets) and kind.startswith("?"))
            if go(r + 1, taken | {(j, cand[-1])}, now, um, un):
                return True
        return False

    if any(c >= 4 for c in held):
        return False
    try:
        return go(0, frozenset(), held, 0, 0)
    except _Undecided:
        return None


class _Undecided(Exception):
    """possible_with_takes ran out of its budget."""


def impossible_share(pos: Position) -> float:
    """The share of uniform deals that give an opponent all four mermaids, exactly, for a
    position without crab takes (for tests and the advisor's report): with m of the pool's n
    cards mermaids and no mermaid known outside seat q, q gets them all with probability
    C(u_q, m) / C(n, m) for its u_q unknown cards (the events are disjoint across seats)."""
    if pos.takes.shape[0]:
        raise ValueError("not with crab takes")
    s = pos.template
    n = len(pos.pool)
    m = _mermaids(pos.pool)
    if m == 0 or n == 0:
        return 0.0
    share = 0.0
    for q in range(pos.players):
        if q == pos.seat:
            continue
        held = int(s[ks.AK + q * kc.NKINDS + kc.MERMAID])
        if held + m == 4:
            share += comb(int(pos.unknown_hand[q]), m) / comb(n, m)
    return share


def describe(pos: Position) -> str:
    """One line: who asks, where in the turn, with what."""
    hand = [card_name(t) for t in pos.hand()]
    return (f"seat {pos.seat} of {pos.players}, {STEP_NAMES[pos.decision]}, {pos.points} card "
            f"points, hand {', '.join(hand) or '(empty)'}; {pos.deck} cards in the deck")


def summary(pos: Position) -> str:
    """describe() without the hand (short enough for a JSON line)."""
    return (f"seat {pos.seat} of {pos.players}, {STEP_NAMES[pos.decision]}, {pos.points} card "
            f"points, {pos.deck} cards in the deck")
