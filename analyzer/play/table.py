"""Sea Salt & Paper at the table, as kernels.protocol's Position: a Play-view game (analyzer.play.
session.Game) stopped at the table seat's next decision, the other seats played by their bots.

    pos = Table.deal(players=3, opponents="tuned", seed=7)
    d = pos.decision()                    # the seat, the kind, the options, the state
    pos = pos.apply(pos.bot(d))           # or any option i; decision() is None once it is over

A decision's options are the actions the advisor weighs (analyzer.play.position's
decision_actions: a pair by its kinds, a crab search may name a remembered card at once), so
`values` is the advisor's own evaluation (kernels.advisor, from what the seat knows) and any game
of the protocol's tools (analyzer.play.any_game) is asked as `seasalt advise` asks it. The table
seat's bot is baseline, as the advisor's model of the user.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from kernels import actions as ka
from kernels import cards as kc
from kernels import state as ks
from kernels.facts import FACTS
from kernels.policies import bot_choice
from kernels.protocol import Decision, Values

from ..base.errors import SeasaltError
from ..runs.spec import ONE_THREAD
from .advise_batch import Evaluation
from .advisor import tally_deals
from .session import Game, covers


class Table:
    """A Sea Salt & Paper game at the table seat's decision (or over)."""
    facts = FACTS

    def __init__(self, game: Game):
        self.game = game
        self.seed = game.seed

    @classmethod
    def deal(cls, players: int = 2, opponents: Sequence[str] | str = ("baseline",),
             seed: int | None = None, seat: int = 0, expansion: str = "base",
             target: int | None = None) -> "Table":
        """A new game with the table at `seat` (session.Game's arguments)."""
        return cls(Game(players, opponents, expansion, target, seed, seat))

    def decision(self) -> Decision | None:
        if self.game.over:
            return None
        view, _, _, actions = self.game.marked()
        return Decision(self.game.seat, int(view[ks.DEC]),
                        np.array(actions, dtype=np.int64).reshape(-1, 1),
                        self.game.round.s.copy())

    def apply(self, i: int) -> "Table":
        """The game after the seat plays option i (a pair: the first copies of its kinds in the
        Play view's order; a crab search naming a card: the pile, then that card)."""
        d = self.decision()
        if d is None:
            raise SeasaltError("the game is over: no option can be played")
        option = int(d.options[i, 0])
        g = self.game.snapshot()
        if d.kind == ka.DEC_CRAB_PILE and option >= 2:
            pile, index = (option - 2) & 1, (option - 2) >> 1
            card = int(g.round.s[ks.PILE + pile * kc.MAX_DECK + index])
            g.apply(pile)
            s = g.round.s
            if not g.over and int(s[ks.DEC]) == ka.DEC_CRAB_CARD:   # else its only card taken
                g.apply(next(a for a in g.legal()
                             if int(s[ks.PILE + pile * kc.MAX_DECK + a]) == card))
        else:                       # a pair by its kinds: the first copies the seat holds
            g.apply(next(a for a in g.legal() if covers(d.kind, option, a)))
        return Table(g)

    def option_text(self, d: Decision, i: int) -> str:
        return self.game.round.describe(int(d.options[i, 0]))

    def describe(self) -> str:
        g = self.game
        if g.over:
            return f"the game is over after {g.round_no} rounds"
        return (f"round {g.round_no}, seat {g.seat} of {g.players} at its "
                f"{g.round.decision} decision, totals "
                + ", ".join(str(int(v)) for v in g.totals[:g.players]))

    def observation(self, seat: int) -> dict:
        """The table seat's view (session.Game.view); the bots' seats are not observed here."""
        if seat != self.game.seat:
            raise SeasaltError(f"only the table's seat {self.game.seat} is observed here, not "
                               f"seat {seat}", param="seat")
        return self.game.view()

    def result(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Each seat's share of the win (the game's winners, kernels.game.settle_round) and its
        total minus the best other total."""
        g = self.game
        if not g.over:
            raise SeasaltError("the game is not over")
        n = g.players
        totals = [int(v) for v in g.totals[:n]]
        won = [q for q in range(n) if g.winners[q]]
        res = tuple(1.0 / len(won) if q in won else 0.0 for q in range(n))
        return res, tuple(float(totals[q] - max(totals[p] for p in range(n) if p != q))
                          for q in range(n))

    def bot(self, d: Decision) -> int:
        """The option baseline takes at the seat's decision (kernels.policies.bot_choice, on a
        copy of the game's stream: asking changes nothing)."""
        _, pk, pp = self.game.models()
        a = int(bot_choice(d.state.copy(), pk, pp, self.game.rng.copy())[0])
        options = [int(o) for o in d.options[:, 0]]
        if a in options:
            return options.index(a)
        if d.kind == ka.DEC_PLAY:                   # another copy of the same pair
            return next(i for i, o in enumerate(options)
                        if o & ka.BASE_MASK == a & ka.BASE_MASK)
        if d.kind == ka.DEC_CRAB_PILE:              # a named card: its pile's own search
            return options.index((a - 2) & 1 if a >= 2 else a)
        raise RuntimeError(f"baseline's action {a} is none of the options {options}")

    def values(self, d: Decision, samples: int, seed: int,
               progress: Callable[[int, int], None] | None = None) -> Values:
        """The advisor's evaluation (from what the seat knows, the opponents continued by their
        own bots, the seat by baseline): per option its wins and summed margin over `samples`
        deals, and the pairs' squared differences of wins, on the deals of `seed`."""
        g = self.game
        view, pool, unknown, actions = g.marked()
        _, pk, pp = g.models()
        ev = Evaluation(view, pool, unknown, np.zeros((0, 3), np.int64), g.seat, actions, pk,
                        pp, g.deck, g.target, g.totals.copy())
        tally, _ = tally_deals(ev, samples, None, seed, ONE_THREAD, progress=progress)
        m = len(actions)
        sums = np.array([[tally.count(a, "win_game"), tally.count(a, "margin")]
                         for a in range(m)], dtype=np.float64)
        pair_sq = np.zeros((m, m))
        for a in range(m):
            for b in range(m):
                if a != b:
                    pair_sq[a, b] = tally.diff_cell(a, b, "win_game")[1]
        return Values(tally.n, sums, pair_sq)
