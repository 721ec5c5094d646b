"""High card, a toy game that plugs into seasalt through kernels.protocol alone (docs/
architecture.md, "A third game"): six cards 1-6 shuffled, one to each of two seats, face down;
each seat in turn keeps its card or swaps it for the top of the deck; the higher card wins.
A seat sees its own card and the other seat's choice, not the other card nor the deck."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.play.any_game import rollout_values
from kernels.protocol import Decision, GameFacts

FACTS = GameFacts("High card", seats=(2,), decision_kinds=("keep or swap",), max_options=2,
                  state_size=8, trace_width=0)


@dataclass(frozen=True)
class HighCard:
    seed: int
    cards: tuple[int, ...]              # seat 0's card, seat 1's, then the deck, top first
    moves: tuple[int, ...] = ()         # 0 keep, 1 swap
    facts = FACTS

    @classmethod
    def deal(cls, seed: int) -> "HighCard":
        return cls(seed, tuple(int(c) for c in np.random.default_rng(seed).permutation(6) + 1))

    def hands(self) -> list[int]:
        hands, top = list(self.cards[:2]), 2
        for seat, m in enumerate(self.moves):
            if m:
                hands[seat], top = self.cards[top], top + 1
        return hands

    def decision(self) -> Decision | None:
        if len(self.moves) == 2:
            return None
        return Decision(len(self.moves), 0, np.array([[0], [1]]), np.array(self.cards))

    def apply(self, i: int) -> "HighCard":
        return HighCard(self.seed, self.cards, self.moves + (int(i),))

    def option_text(self, d: Decision, i: int) -> str:
        return ("keep my card", "swap it for the top of the deck")[i]

    def describe(self) -> str:
        return f"after {len(self.moves)} moves of deal {self.seed}"

    def observation(self, seat: int) -> dict:
        return {"card": self.hands()[seat], "moves": list(self.moves)}

    def result(self):
        a, b = self.hands()
        return (float(a > b), float(b > a)), (float(a - b), float(b - a))

    def bot(self, d: Decision) -> int:
        return int(self.hands()[d.seat] <= 3)

    def redeal(self, seat: int, rng: np.random.Generator) -> "HighCard":
        """At `seat`'s decision (it has not moved yet): every card but its own shuffled."""
        rest = [int(c) for c in rng.permutation([c for k, c in enumerate(self.cards) if k != seat])]
        return HighCard(self.seed, tuple(self.cards[k] if k == seat else rest.pop()
                                         for k in range(6)), self.moves)

    def values(self, d, samples, seed, progress=None):
        return rollout_values(self, d, samples, seed, progress)
