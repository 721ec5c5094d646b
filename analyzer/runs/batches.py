"""The blocks and tasks of a run: what a batch is (TaskGrid, Batch), which compiled driver computes
each kind of batch (batch_kernels), a task's counters (run_task, what a Dask worker runs), and the
fingerprint that names a run in its checkpoint. A batch's blocks (kernels.batch: fixed size, block
b on the random stream (seed, b)) are cut into *tasks* of TASK_BLOCKS consecutive blocks; a task's
result is its integer counters summed over its blocks, so any order of tasks gives the same sums.
Used by the Runner and its Dask backend (analyzer.runs.backends) and every study that plans
batches."""
from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from kernels import ENGINE_HASH, SEASTEAD_HASH

from .. import __version__
from ..base.errors import SeasaltError
from ..rules.limits import whole
from . import checkpoint as ckpt

# (done, total) in rounds or games; if it also has a `status(text)` method (analyzer.base.progress),
# the runner says there what it waits for besides work (a cluster starting, a scheduler).
Progress = Callable[[int, int], None]
Task = ckpt.Task

# Blocks per task: about a quarter second of one core (4096-round and 256-game blocks); a batch
# so large that it would have more than MAX_TASKS tasks gets longer tasks instead.
TASK_BLOCKS = {"rounds": 64, "games": 128, "search-rounds": 1, "search-games": 1,
               "seastead": 16, "seastead-search": 1, "paired": 16, "advise": 4}
MAX_TASKS = 100_000

# Samples per block of an advise batch; a task is TASK_BLOCKS["advise"] blocks (below).
ADVISE_BLOCK = 256


def batch_kernels(kind: str) -> tuple[int, int, Callable]:
    """(block size, counter width, driver) of a batch kind: the driver runs a range of blocks
    on the calling thread without the GIL (kernels.batch). Imported on use, so a Dask worker
    loads only the game its tasks play (Seastead: kernels.seastead)."""
    from kernels import batch as kb
    if kind == "rounds":
        return kb.ROUND_BLOCK, kb.R_SIZE, kb.run_rounds
    if kind == "games":
        return kb.GAME_BLOCK, kb.G_SIZE, kb.run_games
    if kind in ("search-rounds", "search-games"):
        from kernels import search_batch as ksb
        block = ksb.SEARCH_ROUND_BLOCK if kind == "search-rounds" else ksb.SEARCH_GAME_BLOCK
        return block, kb.R_SIZE if kind == "search-rounds" else kb.G_SIZE, ksb.run_search
    if kind == "paired":                    # paired experiments (analyzer.studies.paired)
        from kernels import paired as pk
        return pk.PAIR_BLOCK, pk.P_SIZE, pk.run_pairs
    if kind == "advise":                    # the advisor's samples (analyzer.play.advisor.AdviseBatch)
        return ADVISE_BLOCK, 0, run_advise_blocks   # its width depends on the decision
    if kind == "seastead":
        from kernels.seastead import batch as sb
        return sb.GAME_BLOCK, sb.G_SIZE, sb.run_games
    if kind == "seastead-search":           # Seastead games with a search seat
        from kernels.seastead import batch as sb, search_batch as ssb
        return sb.GAME_BLOCK, sb.G_SIZE, ssb.run_games
    raise ValueError(f"unknown batch kind {kind!r}")


def run_advise_blocks(template, pool, unknown_hand, takes, seat, actions, pk, pp, deck, target,
                      totals, seed, first, count, block_lo, out):
    """Blocks block_lo .. block_lo + out.shape[0] - 1 of an advise batch into the rows of out
    (kernels.advisor.evaluate; a last partial block separately, so that every row is exactly
    its block). GIL-free: the Runner (analyzer.runs.backends) runs several calls at once on its
    threads."""
    from kernels import advisor as ka       # imported on use, as the drivers above
    na, nb = actions.shape[0], out.shape[0]
    lo = block_lo * ADVISE_BLOCK
    hi = min((block_lo + nb) * ADVISE_BLOCK, count)
    full = (hi - lo) // ADVISE_BLOCK
    for b0, b1 in ((0, full), (full, nb)):
        if b1 <= b0:
            continue
        s0 = lo + b0 * ADVISE_BLOCK
        n = min(lo + b1 * ADVISE_BLOCK, hi) - s0
        counts = np.zeros((b1 - b0, na, ka.NCOUNTERS), np.int64)
        cross = np.zeros((b1 - b0, na, na, ka.NCROSS), np.int64)
        raw = np.zeros((b1 - b0, 2), np.int64)
        ka.evaluate(template, pool, unknown_hand, takes, seat, actions, pk, pp, deck, target,
                    totals, seed, first + s0, n, counts, cross, raw)
        out[b0:b1] = np.concatenate([counts.reshape(b1 - b0, -1), cross.reshape(b1 - b0, -1),
                                     raw], axis=1)


def max_jobs() -> int:
    """Threads available to the kernels: numba's pool size (NUMBA_NUM_THREADS, else the cores
    this process may run on), worked out as numba does until numba is loaded, so that checking
    --jobs does not load it."""
    numba = sys.modules.get("numba")
    if numba is not None:
        return int(numba.config.NUMBA_NUM_THREADS)
    if os.environ.get("NUMBA_NUM_THREADS"):
        return int(os.environ["NUMBA_NUM_THREADS"])
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return max(1, len(cores) if cores else os.cpu_count() or 1)


def check_jobs(jobs: int | None) -> int | None:
    """Threads or local worker processes: 1 to the core count (None: all of them)."""
    if jobs is not None:
        jobs = whole(jobs, "jobs")
    if jobs is not None and not 1 <= jobs <= max_jobs():
        raise SeasaltError(f"jobs must be between 1 and {max_jobs()} (cores), got {jobs}",
                           param="jobs")
    return jobs


class TaskGrid:
    """The blocks and tasks of a batch with `count` units computed by the kernels of `engine`
    (batch_kernels): shared by Batch and analyzer.seastead.runs.SeasteadBatch."""
    count: int
    engine: str

    @property
    def block(self) -> int:
        return batch_kernels(self.engine)[0]

    @property
    def width(self) -> int:
        return batch_kernels(self.engine)[1]

    def driver(self) -> Callable:
        """The function that computes a range of blocks: driver(*args(), first block, out)."""
        return batch_kernels(self.engine)[2]

    def task_blocks(self) -> int:
        """Blocks per task (at least; very large batches get longer tasks)."""
        return TASK_BLOCKS[self.engine]

    # The task grid: task k is blocks k * step .. min((k + 1) * step, nblocks) - 1. It is
    # computed, never listed, so planning a run takes the same memory for any number of tasks.
    def nblocks(self) -> int:
        return -(-self.count // self.block)

    def step(self) -> int:
        return max(self.task_blocks(), -(-self.nblocks() // MAX_TASKS))

    def ntasks(self) -> int:
        return -(-self.nblocks() // self.step())

    def task(self, index: int, k: int) -> Task:
        """Task k of this batch (batch number `index`), as (index, first block, end block)."""
        step = self.step()
        return (index, k * step, min((k + 1) * step, self.nblocks()))

    def task_index(self, lo: int, hi: int) -> int | None:
        """k if blocks lo .. hi - 1 are task k of this batch, else None."""
        step, n = self.step(), self.nblocks()
        if lo < 0 or lo % step or lo >= n or hi != min(lo + step, n):
            return None
        return lo // step

    def tasks(self, index: int) -> list[Task]:
        """This batch's tasks, as (index, first block, end block) (a list: for small batches)."""
        return [self.task(index, k) for k in range(self.ntasks())]

    def units(self, lo: int, hi: int) -> int:
        """Rounds or games in blocks lo .. hi - 1."""
        return min(hi * self.block, self.count) - lo * self.block


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
    def engine(self) -> str:
        """Which kernels compute it (batch_kernels): with search seats their own drivers."""
        return f"search-{self.kind}" if self.search else self.kind

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


def run_task(batch: Batch, lo: int, hi: int) -> np.ndarray:
    """Counters of blocks lo .. hi - 1 of a batch, summed, on the calling thread only.
    This is what a Dask worker runs."""
    out = np.zeros((hi - lo, batch.width), dtype=np.int64)
    batch.driver()(*batch.args(), lo, out)
    return out.sum(axis=0)


def worker_identity() -> tuple[str, str]:
    """(seasalt version, engine hash) of this process: workers must match the client."""
    return __version__, ENGINE_HASH


def engine_hash(batches: Sequence[Batch]) -> str:
    """The hash of the engine these batches run: Seastead's or Sea Salt & Paper's own, so that
    an edit of one game's kernels leaves the other game's checkpoints valid."""
    seastead = batches and all(b.engine.startswith("seastead") for b in batches)
    return SEASTEAD_HASH if seastead else ENGINE_HASH


def fingerprint(batches: Sequence[Batch]) -> str:
    text = json.dumps({"version": __version__, "engine": engine_hash(batches),
                       "tasks": [TASK_BLOCKS, MAX_TASKS],
                       "batches": [b.key() for b in batches]}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


