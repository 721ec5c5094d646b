"""A reading history checked against the rules and its position before any deal is drawn: a
history no real round could have played is one `error:` line, as an impossible position is.

    check_history(tr, pos)       # tr: analyzer.play.reading.history_trace's rows

What a history must keep (docs/rules.md):
- turns go round the table in seat order (a history holds no boat extra turn);
- "A turn": a locked turn only draws (no pair, no declaring); nobody declares twice in a round;
  STOP ends the round at the end of its turn; after LAST CHANCE every other player takes one
  final turn and the round ends when the caller's turn would come again;
- "The cards": no card is put down, taken from a pile or played more often than the deck
  holds it (kernels.cards' table, for the position's card set);
- a pile's top is the card last put on it: a take right after a discard on the same pile takes
  that card, and the position's top is the last card the history put there;
- "A turn", play step: pairs stay on the table for the round, so a seat's table holds every card
  the history has it play; a card a seat took from a pile stays in its hand or on its table
  (unless a steal took it), so you hold what you took, and what an opponent took cannot be
  placed elsewhere in the position.
"""
from __future__ import annotations

import numpy as np

from kernels import cards as kc
from kernels import events as ev
from kernels import state as ks

from ..base.errors import SeasaltError
from ..rules.notation import card_name
from .position import Position

_CARDS = 'docs/rules.md, "The cards"'
_TURN = 'docs/rules.md, "A turn"'
_END = 'docs/rules.md, "Ending a round"'


def _fail(turn: int, seat: int, what: str) -> SeasaltError:
    return SeasaltError(f"history turn {turn} (seat {seat}): {what}; no round can be played "
                        f"so: correct the position's history")


def _nth(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(int(k), f"{int(k)}th")


class _Round:
    """The public facts of the history so far, turn by turn (check_history)."""

    def __init__(self, pos: Position):
        self.n, self.copies = pos.players, kc.copies_in(pos.expansion)
        self.put, self.taken, self.played = (np.zeros(kc.NTYPES, np.int64) for _ in range(3))
        self.took = np.zeros((ks.MAX_PLAYERS, kc.NTYPES), np.int64)    # pile takes by seat
        self.plays = np.zeros((ks.MAX_PLAYERS, kc.NTYPES), np.int64)   # cards played by seat
        self.robbed = np.zeros(ks.MAX_PLAYERS, bool)                   # a steal took from it
        self.top: list[tuple[int, int] | None] = [None, None]          # (card, turn) on top
        self.turn, self.q, self.prev, self.locked = 0, -1, -1, False
        self.declared, self.caller = ks.DECL_NONE, -1

    def fail(self, what: str) -> SeasaltError:
        return _fail(self.turn, self.q, what)

    def count(self, counter: np.ndarray, card: int, verb: str) -> None:
        counter[card] += 1
        if counter[card] > self.copies[card]:
            raise self.fail(f"{verb} {card_name(card)} for the {_nth(counter[card])} time, and "
                            f"the deck has {self.copies[card]} ({_CARDS})")

    def begin(self, q: int, locked: bool) -> None:
        """A TURN row: seat order and the round's end."""
        self.turn, self.q, self.locked = self.turn + 1, q, locked
        if self.prev >= 0 and q != (self.prev + 1) % self.n:
            raise self.fail(f"after seat {self.prev}'s turn comes seat "
                            f"{(self.prev + 1) % self.n}'s (turns go round in seat order, "
                            f"{_TURN})")
        if self.declared == ks.DECL_STOP:
            raise self.fail(f"the round ended with the STOP of turn {self.turn - 1} ({_END})")
        if self.declared == ks.DECL_LAST_CHANCE and q == self.caller:
            raise self.fail(f"the round ended when every other player had taken the final turn "
                            f"of seat {q}'s LAST CHANCE ({_END})")
        self.prev = q

    def event(self, code: int, a: int, b: int, c: int) -> None:
        """Any other row of the turn, its fields after the seat (kernels.events)."""
        if self.locked and code in (ev.PAIR, ev.TRIO, ev.DECLARE):
            raise self.fail(f"a locked turn only takes the top card of the deck: no pair, no "
                            f"declaring ({_TURN})")
        if code == ev.DISCARD:
            self.count(self.put, a, "puts down")
            self.top[b] = (a, self.turn)
        elif code == ev.TAKE_PILE:
            self.count(self.taken, a, "takes")
            self.took[self.q, a] += 1
            if self.top[b] is not None and self.top[b][0] != a:
                raise self.fail(f"takes {card_name(a)} from pile {'AB'[b]}, whose top was "
                                f"{card_name(self.top[b][0])} (put there in turn "
                                f"{self.top[b][1]})")
            self.top[b] = None
        elif code in (ev.PAIR, ev.TRIO):
            for card in (a, b, c) if code == ev.TRIO else (a, b):
                self.count(self.played, card, "plays")
                self.plays[self.q, card] += 1
        elif code == ev.CRAB_TAKE:
            self.top[b] = None                          # it may have taken the top card
        elif code == ev.STEAL:
            self.robbed[a] = True
        elif code == ev.DECLARE:
            if self.declared != ks.DECL_NONE:
                raise self.fail(f"seat {self.caller} has already declared this round: nobody "
                                f"declares twice ({_TURN})")
            self.declared, self.caller = a, self.q


def check_history(tr: np.ndarray, pos: Position) -> None:
    """Raise a SeasaltError naming the first turn of the history rows `tr` (analyzer.play.
    reading.history_trace's) that the rules or the position `pos` rule out (module doc)."""
    r = _Round(pos)
    for code, seat, a, b, c in tr[1:1 + int(tr[0, 0])].tolist():
        if code == ev.TURN:
            r.begin(seat, bool(a))
        else:
            r.event(code, a, b, c)
    if r.declared == ks.DECL_STOP:
        raise r.fail(f"its STOP ends the round: there is no decision left ({_END})")
    s = pos.template
    for j in range(2):
        size = int(s[ks.PILE_LEN + j])
        now = int(s[ks.PILE + j * kc.MAX_DECK + size - 1]) if size else -1
        if r.top[j] is not None and now != r.top[j][0] and (0 <= now < kc.NTYPES or not size):
            card, turn = r.top[j]
            what = f"{card_name(now)}" if size else "empty"
            raise SeasaltError(f"pile {'AB'[j]}: its top is {what} in the position, but history "
                               f"turn {turn} put {card_name(card)} on it and no later turn "
                               f"took from it: correct the pile or the history")
    _check_holdings(r, pos)


def _check_holdings(r: _Round, pos: Position) -> None:
    """Every card a seat played is on its table; every card it took from a pile it still holds
    (hand or table) unless a steal took from it: you, exactly; an opponent, as far as the
    position leaves copies of the card unplaced elsewhere."""
    s, me = pos.template, pos.seat
    hand = lambda q: s[ks.HT + q * kc.NTYPES:ks.HT + (q + 1) * kc.NTYPES]      # noqa: E731
    table = lambda q: s[ks.TT + q * kc.NTYPES:ks.TT + (q + 1) * kc.NTYPES]     # noqa: E731
    placed = np.zeros(kc.NTYPES, np.int64)           # every card the position places
    for q in range(pos.players):
        placed += hand(q) + table(q)
    for j in range(2):
        for t in s[ks.PILE + j * kc.MAX_DECK:ks.PILE + j * kc.MAX_DECK + s[ks.PILE_LEN + j]]:
            if 0 <= t < kc.NTYPES:
                placed[t] += 1
    for t in s[ks.DECK:ks.DECK + s[ks.DECK_LEN]]:
        if 0 <= t < kc.NTYPES:
            placed[t] += 1
    who = lambda q: "you" if q == me else f"seat {q}"                         # noqa: E731
    for q in range(pos.players):
        short = np.flatnonzero(r.plays[q] > table(q))
        if short.size:
            t = int(short[0])
            raise SeasaltError(f"history: {who(q)} played {card_name(t)} "
                               f"{int(r.plays[q, t])} time(s), but {who(q)} "
                               f"{'have' if q == me else 'has'} {int(table(q)[t])} on the table "
                               f"in the position (pairs stay on the table, {_TURN})")
        if r.robbed[q]:
            continue
        room = hand(q) + table(q) if q == me else r.copies - (placed - hand(q) - table(q))
        short = np.flatnonzero(r.took[q] > room)
        if short.size:
            t = int(short[0])
            where = ("your hand and table hold" if q == me else
                     "the position leaves unplaced outside its hand and table")
            raise SeasaltError(f"history: {who(q)} took {card_name(t)} from a pile "
                               f"{int(r.took[q, t])} time(s), but {where} {int(room[t])}: a card "
                               f"taken stays with its taker until a steal ({_TURN})")
