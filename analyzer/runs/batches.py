"""The blocks and tasks of a run: what a batch is (TaskGrid), a task's counters (run_task, what a
Dask worker runs), and the fingerprint that names a run in its checkpoint. A batch's blocks (fixed
size, block b on the random stream (seed, b)) are cut into *tasks* of task_blocks() consecutive
blocks; a task's result is its integer counters summed over its blocks, so any order of tasks
gives the same sums. Each kind of batch declares its own compiled driver, block size, counter
width and task size (a subclass of TaskGrid, beside the study that plans it): this layer runs
any of them and names none. Used by the Runner and its Dask backend (analyzer.runs.backends)."""
from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
import json
import os
import sys
from typing import Callable, Sequence

import numpy as np

from kernels import ENGINE_HASH

from .. import __version__
from ..base.errors import SeasaltError
from ..rules.limits import whole
from . import checkpoint as ckpt

# (done, total) in rounds or games; if it also has a `status(text)` method (analyzer.base.progress),
# the runner says there what it waits for besides work (a cluster starting, a scheduler).
Progress = Callable[[int, int], None]
Task = ckpt.Task

# A batch so large that it would have more than MAX_TASKS tasks gets longer tasks instead.
MAX_TASKS = 100_000


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


class TaskGrid(ABC):
    """The blocks and tasks of a batch of `count` units (rounds, games, samples...). A subclass
    declares what computes it: `block` (units per block), `width` (counters per block),
    `driver()` (the compiled function that computes a range of blocks: driver(*args(), first
    block, out), GIL-free), `task_blocks()` (blocks per task: about a quarter second of one core),
    `args()`, `key()` (everything the counters depend on), `unit` (what it counts, in words) and
    `engine` (a name shared by the batches one driver computes). `code_hash` is the hash of the
    kernels the driver runs (checkpoints name it). A batch missing one of the four methods
    cannot be made (TypeError)."""
    count: int
    engine: str
    unit: str
    block: int
    width: int

    @abstractmethod
    def driver(self) -> Callable:
        ...

    @abstractmethod
    def task_blocks(self) -> int:
        ...

    @abstractmethod
    def args(self) -> tuple:
        ...

    @abstractmethod
    def key(self) -> dict:
        ...

    def code_hash(self) -> str:
        """The hash of the kernels that compute this batch (kernels/__init__.py)."""
        return ENGINE_HASH

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


def run_task(batch: TaskGrid, lo: int, hi: int) -> np.ndarray:
    """Counters of blocks lo .. hi - 1 of a batch, summed, on the calling thread only.
    This is what a Dask worker runs."""
    out = np.zeros((hi - lo, batch.width), dtype=np.int64)
    batch.driver()(*batch.args(), lo, out)
    return out.sum(axis=0)


def worker_identity() -> tuple[str, str]:
    """(seasalt version, engine hash) of this process: workers must match the client."""
    return __version__, ENGINE_HASH


def engine_hash(batches: Sequence[TaskGrid]) -> str:
    """The hash of the kernels these batches run (each game's own, so that an edit of one game's
    kernels leaves the other game's checkpoints valid)."""
    return "+".join(sorted({b.code_hash() for b in batches})) or ENGINE_HASH


def fingerprint(batches: Sequence[TaskGrid]) -> str:
    text = json.dumps({"version": __version__, "engine": engine_hash(batches),
                       "tasks": [sorted({(b.engine, b.task_blocks()) for b in batches}), MAX_TASKS],
                       "batches": [b.key() for b in batches]}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


