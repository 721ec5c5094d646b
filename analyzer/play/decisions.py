"""Play a round from Python, decision by decision: what is being decided, what may be done, do it.

    r = Round.deal(2, seed=1, seats=[None, "baseline"])    # seat 0 is played from here
    while not r.done:
        print(r.player, r.decision, [r.describe(a) for a in r.legal()])
        r.apply(r.legal()[0])
    r.end, r.points

A thin, validating layer over the compiled API of kernels.engine (legal_actions, step) on a
round state (kernels.state): seats given as None are *external* and the engine stops at each of
their decision points; the other seats are bots (policy specs) that the engine asks itself.
Actions are the integers of kernels.actions; `describe` spells one out. `copy` gives an
independent round (state, random stream and trace) to try an action on.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from kernels import actions as ka
from kernels import cards as kc
from kernels import state as ks
from kernels.engine import play_round, step
from kernels.game import deal_round
from kernels.legal import legal_actions
from kernels.legal import named_card as kernel_named_card
from kernels.policies import EXTERNAL
from kernels.rng import seed_stream

from ..rules.notation import card_name, check_expansion
from ..base.errors import SeasaltError
from ..rules.policies import policy_arrays, seat_policies
from ..rules.limits import check_players
from ..rules.setups import raise_on_violation, trace_buffer, decode

PILE_NAMES = "AB"

# Each decision (kernels.actions.DEC_NAMES) in the game's words, as the page and the review name
# it: (short name, the question it asks).
DECISION_WORDS = {
    "draw": ("draw step", "Draw step: two from the deck, or a pile's top?"),
    "keep": ("keep a drawn card", "Which of the two cards drawn do you keep?"),
    "play": ("play step", "Play step: a pair, STOP, LAST CHANCE, or end the turn?"),
    "crab_pile": ("crab pair: which pile", "Crab pair: which pile do you look through?"),
    "crab_card": ("crab pair: which card", "Crab pair: which card do you take?"),
    "lobster": ("crab + lobster: which card", "Crab + lobster: which revealed card do you keep?"),
    "victim": ("swimmer + shark: whom", "Swimmer + shark: whom do you steal from?"),
}


class Round:
    """A round state with its seats, random stream and trace; stands at a decision point of an
    external seat, or is over (`done`)."""

    def __init__(self, state: np.ndarray, seats: Sequence[str | None] | None = None,
                 seed: int = 0, rng: np.ndarray | None = None, capacity: int = 20_000,
                 check: bool = False):
        """`state` as built by analyzer.rules.setups.build_state (or dealt); `seats`: one entry per
        seat, None for a seat played from here (default: every seat), else a policy spec.
        `check` verifies the state's invariants after every event (AssertionError)."""
        self.s = state
        players = int(state[ks.NPLAYERS])
        seats = list(seats) if seats is not None else [None] * players
        if len(seats) != players:
            raise SeasaltError(f"give one seat entry per player: got {len(seats)} for {players}")
        self.seats = seats
        bots = seat_policies([spec or "baseline" for spec in seats], players)
        self.pk, self.pp = policy_arrays(bots)
        for q, spec in enumerate(seats):
            if spec is None:
                self.pk[q] = EXTERNAL
        self.rng = seed_stream(seed) if rng is None else rng
        self.tr = trace_buffer(capacity, check)
        self.check = check
        self.start_piles = (int(state[ks.PILE_LEN]), int(state[ks.PILE_LEN + 1]))
        play_round(self.s, self.pk, self.pp, self.rng, self.tr)
        self._verify()

    @classmethod
    def deal(cls, players: int, seed: int = 0, seats: Sequence[str | None] | None = None,
             expansion: str = "base", starter: int = 0, check: bool = False) -> "Round":
        """A fresh shuffled round (kernels.game.new_round's deal) run to its first decision."""
        expansion = check_expansion(expansion)
        check_players(players)
        s = ks.new_state()
        rng = seed_stream(seed)
        deal_round(s, players, kc.deck_types(expansion), starter, rng)
        return cls(s, seats, rng=rng, check=check)

    # -- what is being decided -------------------------------------------------------------
    @property
    def done(self) -> bool:
        return int(self.s[ks.DEC]) == ka.DEC_DONE

    @property
    def decision(self) -> str:
        """The kind of decision (kernels.actions.DEC_NAMES): draw, keep, play, crab_pile, ..."""
        return ka.DEC_NAMES[int(self.s[ks.DEC])]

    @property
    def player(self) -> int:
        return int(self.s[ks.CUR])

    @property
    def end(self) -> str:
        """How the round ended (kernels.state_layout.END_NAMES), "none" while it goes on."""
        return ks.END_NAMES[int(self.s[ks.END])]

    @property
    def points(self) -> list[int]:
        return [int(v) for v in self.s[ks.POINTS:ks.POINTS + int(self.s[ks.NPLAYERS])]]

    def legal(self, copies: bool = True) -> list[int]:
        """The legal actions here (kernels.legal.legal_actions); with copies=False one per
        distinct choice a player weighs (first copies of a pair, one card of each type)."""
        if self.done:
            return []
        n = int(legal_actions(self.s, copies))
        return [int(a) for a in self.s[ks.LEGAL:ks.LEGAL + n]]

    def apply(self, action: int) -> None:
        """Apply a legal action and run on to the next external decision point or the end."""
        if self.done:
            raise SeasaltError("the round is over: no action can be applied")
        if action not in self.legal(True) and action not in self.legal(False):
            raise SeasaltError(f"action {action} ({self._try_describe(action)}) is not legal at "
                               f"this {self.decision} decision of seat {self.player}; legal: "
                               + ", ".join(self.describe(a) for a in self.legal(False)))
        step(self.s, action, self.pk, self.pp, self.rng, self.tr)
        self._verify()

    def copy(self) -> "Round":
        """An independent copy: state, random stream and trace."""
        other = object.__new__(Round)
        other.__dict__.update(self.__dict__)
        other.s = self.s.copy()
        other.rng = self.rng.copy()
        other.tr = self.tr.copy()
        return other

    def events(self) -> list[tuple]:
        """The events so far, readable (analyzer.rules.setups.decode)."""
        return decode(self.tr)

    def _verify(self) -> None:
        if self.check:
            raise_on_violation(self.tr, self.s, "decision API")

    # -- words -----------------------------------------------------------------------------
    def _try_describe(self, action: int) -> str:
        try:
            return self.describe(action)
        except (IndexError, ValueError):
            return "not an action"

    def describe(self, action: int) -> str:
        """One action of the current decision in words."""
        return describe_action(self.s, action)


def named_card(s: np.ndarray, action: int) -> int:
    """The card action `action` at the decision point of state `s` names, or -1
    (kernels.legal.named_card, which the search player's log uses too): for an action's words
    (describe_action) and its id (the advisor's action_id)."""
    return int(kernel_named_card(s, action))


def describe_action(s: np.ndarray, action: int) -> str:
    """Action `action` at the decision point of state `s`, in words."""
    d = int(s[ks.DEC])
    card = named_card(s, action)
    if d == ka.DEC_CRAB_CARD:
        depth = int(s[ks.PILE_LEN + int(s[ks.CRAB_PILE])]) - 1 - action
        return f"take {_card(card)}" + (f" ({depth} below the top)" if depth else " (the top)")
    if d == ka.DEC_CRAB_PILE and action >= 2:
        j, i = (action - 2) & 1, (action - 2) >> 1
        depth = int(s[ks.PILE_LEN + j]) - 1 - i
        return (f"take {_card(card)} from pile {PILE_NAMES[j]}"
                + (f" ({depth} below the top)" if depth else " (its top)"))
    return action_words(d, action, card)


def action_words(d: int, action: int, card: int = -1) -> str:
    """An action of decision kind `d` in words; `card` is the card it names (the pile top taken,
    the card kept, the card taken from a pile or from the lobster's cards)."""
    if d == ka.DEC_DRAW:
        if action == ka.SRC_DECK:
            return "draw two from the deck"
        return f"take pile {PILE_NAMES[action - 1]}'s top" + (f" {_card(card)}" if card >= 0 else "")
    if d == ka.DEC_KEEP:
        return f"keep {_card(card)}, the other onto pile {PILE_NAMES[action >> 1]}"
    if d == ka.DEC_PLAY:
        base = action & ka.BASE_MASK
        trio = base >= ka.TRIO
        base -= ka.TRIO if trio else 0
        if base == ka.A_END:
            return "end the turn"
        if base == ka.A_STOP:
            return "STOP"
        if base == ka.A_LAST_CHANCE:
            return "LAST CHANCE"
        kinds = f"{kc.KINDS[ka.PAIR_KIND1[base]]}+{kc.KINDS[ka.PAIR_KIND2[base]]}"
        copies = [((action >> shift) & 0xFF) - 1
                  for shift in (ka.COPY_SHIFT1, ka.COPY_SHIFT2, ka.COPY_SHIFT3)]
        named = [_card(t) for t in copies[:3 if trio else 2] if t >= 0]
        what = f"play a trio {kinds}+starfish" if trio else f"play {kinds}"
        return what + (f" ({', '.join(named)})" if named else "")
    if d == ka.DEC_CRAB_PILE:
        if action >= 2:
            return f"take {_card(card)} from pile {PILE_NAMES[(action - 2) & 1]}"
        return f"search pile {PILE_NAMES[action]}"
    if d == ka.DEC_CRAB_CARD:
        return f"take {_card(card)}"
    if d == ka.DEC_LOBSTER:
        return f"keep {_card(card)}"
    if d == ka.DEC_VICTIM:
        return f"steal from seat {action}"
    raise ValueError(f"no decision of kind {d}")


def _card(t: int) -> str:
    return card_name(t)
