"""The search player (kernels.search) from Python: one seat's view of a round played through
analyzer.play.decisions.Round, its decision, and the value it gave every action it weighed.

    r = Round.deal(2, seed=4, seats=[None, "baseline"])
    seat = SearchSeat(r, 0, "search(samples=200)", seed=1)
    action, weighed = seat.decide()      # weighed: one dict per action, best first
    r.apply(action)

The seat's knowledge is read from the round's trace, so the Round must have been built at the
start of the round (as Round.deal and Round(build_state(...)) are).
"""
from __future__ import annotations

import numpy as np

from kernels import search as ksr
from kernels import state as ks
from kernels.policies import SEARCH

from .decisions import Round, action_words
from ..base.errors import SeasaltError
from ..rules.policies import parse_policy, policy_arrays, rollout_arrays
from ..rules.limits import DEFAULT_TARGETS


class SearchSeat:
    """Seat `seat` of `rnd` played by the search player `spec`, on its own stream `seed`."""

    def __init__(self, rnd: Round, seat: int, spec: str = "search", seed: int = 0,
                 totals: list[int] | None = None, target: int | None = None):
        self.round = rnd
        self.seat = seat
        players = int(rnd.s[ks.NPLAYERS])
        policy = parse_policy(spec)
        if policy.info.kind != SEARCH:
            raise SeasaltError(f"{spec!r} is not a search player")
        pols = [policy if q == seat else parse_policy("baseline") for q in range(players)]
        self.pp = policy_arrays(pols)[1]
        rpk, rpp = rollout_arrays(pols)
        self.rpk, self.rpp = rpk[seat], rpp[seat]
        self.totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
        if totals is not None:
            self.totals[:players] = totals
        self.target = DEFAULT_TARGETS[players] if target is None else target
        self.full = ks.card_census(rnd.s)
        self.know = np.zeros(ksr.K_SIZE, dtype=np.int64)
        self.know[ksr.K_PLEN:ksr.K_PLEN + 2] = rnd.start_piles
        self.know[ksr.K_CURSOR] = 1                    # every event since the round began
        self.d, self.x, self.w, self.f, self.rrng = ksr.workspace(players)
        self.rng = np.zeros(4, dtype=np.uint64)
        tables = np.zeros((ks.MAX_PLAYERS, ks.MAX_PLAYERS, ksr.TABLE_ROUNDS, ksr.T_WIDTH),
                          dtype=np.int32)
        srng = np.zeros((ks.MAX_PLAYERS, 4), dtype=np.uint64)
        pk = np.zeros(players, dtype=np.int64)
        pk[seat] = SEARCH
        deck = np.repeat(np.arange(len(self.full)), self.full).astype(np.int64)
        ksr.seed_search(srng, tables, self.x, players, deck, pk, rpk, rpp, np.uint64(seed), 0,
                        np.zeros((0, 5), dtype=np.int32))
        self.table = tables[seat]
        self.rng[:] = srng[seat]

    def copy(self, rnd: Round) -> "SearchSeat":
        """The same seat, its memory and streams copied, playing on `rnd` (a copied round)."""
        other = object.__new__(SearchSeat)
        other.__dict__.update({k: v.copy() if isinstance(v, np.ndarray) else v
                               for k, v in self.__dict__.items()})
        other.round = rnd
        return other

    def decide(self) -> tuple[int, list[dict]]:
        """The action the search player takes at its current decision, and every action it
        weighed: its words, mean value (chance of winning the game) with standard error, the
        deals, whether it was chosen and whether it is the rollout player's own choice."""
        s = self.round.s
        if self.round.done or int(s[ks.CUR]) != self.seat:
            raise SeasaltError(f"seat {self.seat} has no decision to make now")
        kind = int(s[ks.DEC])
        log = np.zeros((ks.MAX_LEGAL + 1, ksr.LOG_WIDTH), dtype=np.float64)
        action = int(ksr.choose(s, self.seat, self.pp, self.rpk, self.rpp, self.know,
                                self.round.tr, self.full, self.table, self.totals, self.target,
                                self.d, self.x, self.w, self.f, self.rng, self.rrng, log))
        return action, logged_decisions(log, kind)


def logged_decisions(log: np.ndarray, kind: int | None = None) -> list[dict]:
    """The rows of a search decision log (kernels.search.LOG_WIDTH columns) as dicts, best first
    within each decision."""
    rows = []
    for row in log[1:int(log[0, 0]) + 1]:
        k = int(row[1]) if kind is None else kind
        rows.append({"event": int(row[0]), "seat": int(row[9]), "decision": int(row[1]),
                     "action": int(row[2]),
                     "words": action_words(k, int(row[2]), int(row[8])),
                     "value": float(row[3]), "se": float(row[4]), "deals": int(row[5]),
                     "chosen": bool(row[6]), "rollout_choice": bool(row[7])})
        if row.shape[0] > 10 and row[10] >= 0:       # search(read=1): the deals' ESS
            rows[-1]["ess"] = float(row[10])
    return rows
