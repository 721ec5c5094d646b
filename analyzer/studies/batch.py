"""The Runner batch of Sea Salt & Paper rounds and games (simulate, sweeps, tournaments, the
optimizer, the guide): `count` rounds or games of one configuration on the streams of `seed`,
computed by kernels.batch's drivers, or kernels.search_batch's when a seat is a search player."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..runs.batches import TaskGrid

# Blocks per task: about a quarter second of one core (4096-round and 256-game blocks; a search
# seat's blocks are a few rounds or one game, a task each).
TASK_BLOCKS = {"rounds": 64, "games": 128, "search-rounds": 1, "search-games": 1}


@dataclass(frozen=True, eq=False)
class Batch(TaskGrid):
    """`count` rounds or games (`kind`) of one configuration, on the streams of `seed`."""
    kind: str               # "rounds" or "games"
    players: int
    deck: np.ndarray        # card types of the deck (kernels.cards.deck_types)
    count: int
    pk: np.ndarray          # policy kinds and parameters per seat (analyzer.rules.policies.policy_arrays)
    pp: np.ndarray
    seed: int
    target: int = 0         # games; with search seats also rounds (they value the game)
    rpk: np.ndarray | None = None   # with search seats: the rollout players each of them uses
    rpp: np.ndarray | None = None   # (analyzer.rules.policies.rollout_arrays)

    @property
    def search(self) -> bool:
        return self.rpk is not None

    @property
    def unit(self) -> str:
        return self.kind

    @property
    def engine(self) -> str:
        """Which drivers compute it: with search seats their own."""
        return f"search-{self.kind}" if self.search else self.kind

    def _kernels(self) -> tuple[int, int, Callable]:
        """(block size, counter width, driver), imported on use: a Dask worker loads only the
        kernels its tasks run."""
        from kernels import batch as kb
        width = kb.G_SIZE if self.kind == "games" else kb.R_SIZE
        if self.search:
            from kernels import search_batch as ksb
            block = ksb.SEARCH_GAME_BLOCK if self.kind == "games" else ksb.SEARCH_ROUND_BLOCK
            return block, width, ksb.run_search
        if self.kind == "games":
            return kb.GAME_BLOCK, width, kb.run_games
        return kb.ROUND_BLOCK, width, kb.run_rounds

    @property
    def block(self) -> int:
        return self._kernels()[0]

    @property
    def width(self) -> int:
        return self._kernels()[1]

    def driver(self) -> Callable:
        return self._kernels()[2]

    def task_blocks(self) -> int:
        return TASK_BLOCKS[self.engine]

    def args(self) -> tuple:
        """The leading arguments of the kernels.batch drivers."""
        if self.search:
            return (self.kind == "games", self.players, self.deck, self.count, self.target,
                    self.pk, self.pp, self.rpk, self.rpp, np.uint64(self.seed))
        if self.kind == "rounds":
            return (self.players, self.deck, self.count, self.pk, self.pp, np.uint64(self.seed))
        return (self.players, self.deck, self.count, self.target, self.pk, self.pp,
                np.uint64(self.seed))

    def key(self) -> dict:
        """Everything the counters depend on, for the checkpoint fingerprint."""
        return {"kind": self.kind, "players": self.players, "deck": self.deck.tolist(),
                "count": self.count, "target": self.target, "pk": self.pk.tolist(),
                "pp": self.pp.tolist(), "seed": self.seed,
                **({"rpk": self.rpk.tolist(), "rpp": self.rpp.tolist()} if self.search else {})}
