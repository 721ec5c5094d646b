"""Where the blocks of a run are computed: numba's thread pool here, or a Dask cluster.

A run is a list of *batches*: `count` rounds or games of one configuration (a `simulate`, one
seating of a tournament, one grid point and seating of a sweep; or Seastead games,
analyzer.seastead.runs.SeasteadBatch, kind "seastead"). A batch's blocks
(kernels.batch: fixed size, block b on the random stream (seed, b)) are cut into *tasks* of
TASK_BLOCKS consecutive blocks, and a task's result is its integer counters summed over its
blocks. Summing task results in any order gives the same counters, so every backend, thread
count and worker count gives the same answer for a seed, bit for bit.

Backends (`Runner.scheduler`):

* None: the tasks run in this process on numba's thread pool (`jobs` threads), a few per kernel
  call. No Dask needed.
* "local": a Dask LocalCluster of `jobs` single-threaded worker processes on this machine.
* "tcp://HOST:PORT" (any Dask address): a running `dask scheduler` and its workers.

On Dask, a task is one Dask task running the GIL-free serial kernel
(kernels.batch.run_*_serial). A task lost with its worker is rerun by the scheduler elsewhere;
its result is taken once, so nothing is counted twice.

Every run appends its finished tasks to a checkpoint file (analyzer.checkpoint): the one given
(`checkpoint=`), or one in the seasalt cache that is deleted when the run completes. Ctrl-C
stops the run and keeps them (RunInterrupted says where); `resume=True` continues from there
and computes only the missing tasks.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import itertools
import json
import logging
import pathlib
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numba
import numpy as np

from kernels import ENGINE_HASH
from kernels import batch as kb

from . import __version__
from . import checkpoint as ckpt
from .errors import RunFailed, RunInterrupted, SeasaltError

# (done, total) in rounds or games; if it also has a `status(text)` method (analyzer.progress),
# the runner says there what it waits for besides work (a cluster starting, a scheduler).
Progress = Callable[[int, int], None]
Task = ckpt.Task

# Blocks per task: about a quarter second of one core (4096-round and 256-game blocks); a batch
# so large that it would have more than MAX_TASKS tasks gets longer tasks instead.
TASK_BLOCKS = {"rounds": 64, "games": 128, "search-rounds": 1, "search-games": 1,
               "seastead": 16, "paired": 16}
MAX_TASKS = 100_000
# Dask tasks in flight at once (submitted, not yet taken), per worker thread and at least: a
# run of millions of tasks is fed to the scheduler as it goes, not all at once.
DASK_WINDOW_PER_THREAD = 16
DASK_MIN_WINDOW = 256
CONNECT_TIMEOUT = 20     # seconds to reach a scheduler, and to wait for its first worker


def batch_kernels(kind: str) -> tuple[int, int, Callable, Callable]:
    """(block size, counter width, parallel driver, serial driver) of a batch kind. Imported on
    use, so a Dask worker loads only the game its tasks play (Seastead: kernels.seastead)."""
    if kind == "rounds":
        return kb.ROUND_BLOCK, kb.R_SIZE, kb.run_rounds, kb.run_rounds_serial
    if kind == "games":
        return kb.GAME_BLOCK, kb.G_SIZE, kb.run_games, kb.run_games_serial
    if kind in ("search-rounds", "search-games"):
        block = kb.SEARCH_ROUND_BLOCK if kind == "search-rounds" else kb.SEARCH_GAME_BLOCK
        return block, kb.R_SIZE if kind == "search-rounds" else kb.G_SIZE, kb.run_search, \
            kb.run_search_serial
    if kind == "paired":                    # paired experiments (analyzer.paired)
        from . import paired_kernels as pk
        return pk.PAIR_BLOCK, pk.P_SIZE, pk.run_pairs, pk.run_pairs_serial
    if kind == "seastead":
        from kernels.seastead import batch as sb
        return sb.GAME_BLOCK, sb.G_SIZE, sb.run_games, sb.run_games_serial
    raise ValueError(f"unknown batch kind {kind!r}")


def max_jobs() -> int:
    """Threads available to the kernels (numba's pool size, normally the core count)."""
    return int(numba.config.NUMBA_NUM_THREADS)


@dataclass(frozen=True, eq=False)
class Batch:
    """`count` rounds or games (`kind`) of one configuration, on the streams of `seed`."""
    kind: str               # "rounds" or "games"
    players: int
    deck: np.ndarray        # card types of the deck (kernels.cards.deck_types)
    count: int
    pk: np.ndarray          # policy kinds and parameters per seat (analyzer.policies.policy_arrays)
    pp: np.ndarray
    seed: int
    target: int = 0         # games; with search seats also rounds (they value the game)
    rpk: np.ndarray | None = None   # with search seats: the rollout players each of them uses
    rpp: np.ndarray | None = None   # (analyzer.policies.rollout_arrays)

    @property
    def search(self) -> bool:
        return self.rpk is not None

    @property
    def engine(self) -> str:
        """Which kernels compute it (batch_kernels): with search seats their own drivers."""
        return f"search-{self.kind}" if self.search else self.kind

    @property
    def block(self) -> int:
        return batch_kernels(self.engine)[0]

    @property
    def width(self) -> int:
        return batch_kernels(self.engine)[1]

    def tasks(self, index: int) -> list[Task]:
        """This batch's tasks, as (index, first block, end block)."""
        nblocks = -(-self.count // self.block)
        step = max(TASK_BLOCKS[self.engine], -(-nblocks // MAX_TASKS))
        return [(index, lo, min(lo + step, nblocks)) for lo in range(0, nblocks, step)]

    def units(self, lo: int, hi: int) -> int:
        """Rounds or games in blocks lo .. hi - 1."""
        return min(hi * self.block, self.count) - lo * self.block

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
    _, width, _, serial = batch_kernels(batch.engine)
    out = np.zeros((hi - lo, width), dtype=np.int64)
    serial(*batch.args(), lo, out)
    return out.sum(axis=0)


def worker_identity() -> tuple[str, str]:
    """(seasalt version, engine hash) of this process: workers must match the client."""
    return __version__, ENGINE_HASH


def fingerprint(batches: Sequence[Batch]) -> str:
    text = json.dumps({"version": __version__, "engine": ENGINE_HASH,
                       "tasks": [TASK_BLOCKS, MAX_TASKS],
                       "batches": [b.key() for b in batches]}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Outcome:
    """Summed counters per batch, and how this run got them."""
    counters: list[np.ndarray]
    seconds: float          # wall time of this run (not of the resumed part)
    units: int              # rounds or games computed by this run
    timing: dict = field(default_factory=dict)


@dataclass
class Runner:
    """How to run a list of batches: backend, parallelism, checkpoint, progress."""
    jobs: int | None = None             # threads (local) or worker processes (scheduler "local")
    scheduler: str | None = None        # None: threads here; "local" or a Dask scheduler address
    checkpoint: str | None = None       # checkpoint file; None: one in the cache, deleted at the end
    resume: bool = False                # continue from the checkpoint
    progress: Progress | None = None

    def __post_init__(self) -> None:
        if self.scheduler is not None:
            self.scheduler = self.scheduler.strip()

    def check(self) -> None:
        """Validate before anything runs."""
        if self.jobs is not None and not (1 <= self.jobs <= max_jobs()):
            raise SeasaltError(f"--jobs must be between 1 and {max_jobs()} (cores), got {self.jobs}")
        if self.scheduler is not None:
            s = self.scheduler
            if s != "local" and ":" not in s:
                raise SeasaltError(f"--scheduler must be 'local' or a Dask scheduler address such "
                                   f"as tcp://HOST:8786, got {self.scheduler!r}")
            if s != "local" and self.jobs is not None:
                raise SeasaltError("--jobs applies to the local backends only; a cluster's workers "
                                   "decide their own threads (dask worker --nthreads)")

    def backend_name(self) -> str:
        if self.scheduler is None:
            return "threads"
        return "dask local" if self.scheduler == "local" else f"dask {self.scheduler}"

    def run(self, batches: Sequence[Batch], describe: dict) -> Outcome:
        """Every task of `batches`, minus those a resumed checkpoint already has; `describe`
        (command, seed, ...) names the run in checkpoints and messages."""
        self.check()
        plan = [t for i, b in enumerate(batches) for t in b.tasks(i)]
        fp = fingerprint(batches)
        explicit = self.checkpoint is not None
        path = pathlib.Path(self.checkpoint) if explicit else ckpt.default_path(fp)
        done: dict[Task, np.ndarray] = {}
        keep = None
        if self.resume:
            if not path.exists():
                where = f"checkpoint {path} does not exist" if explicit else \
                    "no checkpoint of this run (same command, options and --seed) in " \
                    f"{ckpt.default_dir()}"
                raise SeasaltError(f"nothing to resume: {where}")
            done, keep = ckpt.load(path, fp, describe, set(plan), [b.width for b in batches])
        elif explicit:
            ckpt.check_new(path)

        def open_writer() -> ckpt.Writer:
            if not explicit:
                path.parent.mkdir(parents=True, exist_ok=True)
            return ckpt.Writer(path, fp, describe, len(plan), __version__, keep)

        rec = _Recorder(batches, done, self.progress, path, open_writer, explicit)
        todo = [t for t in plan if t not in done]
        t0 = time.perf_counter()
        workers = None
        try:
            if todo:
                if self.scheduler is None:
                    workers = _run_threads(batches, todo, self.jobs or max_jobs(), rec.finished)
                else:
                    workers = _run_dask(batches, todo, self.scheduler, self.jobs,
                                        rec.finished, getattr(self.progress, "status", None))
        except KeyboardInterrupt:
            what = (f"interrupted after {rec.tasks:,} of {len(plan):,} tasks ({rec.units:,} of "
                    f"{rec.total:,} {getattr(batches[0], 'unit', batches[0].kind)})")
            if not rec.kept():
                raise RunInterrupted(f"{what}; {rec.not_kept()}", None) from None
            raise RunInterrupted(
                f"{what}; the finished tasks are kept in {path}: to continue, run the same "
                f"command with --resume" + ("" if explicit else f" --seed {describe.get('seed')}"),
                str(path)) from None
        except RunFailed as e:
            kept = (f"the finished tasks are kept in {path}: run the same command with --resume "
                    f"to continue") if rec.kept() else rec.not_kept()
            raise RunFailed(f"{e}; {kept}") from None
        finally:
            rec.close()
        seconds = time.perf_counter() - t0
        if not explicit:
            path.unlink(missing_ok=True)     # done: the cache's checkpoint is no longer needed
        return Outcome(rec.counters, seconds, rec.units - rec.resumed, {
            "seconds": seconds,
            "jobs": workers if workers is not None else (self.jobs or max_jobs()),
            "backend": self.backend_name(),
            "tasks": len(plan),
            "tasks_resumed": len(done),
        })


class _Recorder:
    """Takes finished tasks: sums their counters per batch, appends them to the checkpoint
    (opened at the first one, so a run that finishes nothing writes nothing), reports progress."""

    def __init__(self, batches: Sequence[Batch], done: dict[Task, np.ndarray],
                 progress: Progress | None, path: pathlib.Path,
                 open_writer: Callable[[], ckpt.Writer], explicit: bool):
        self.batches = batches
        self.counters = [np.zeros(b.width, dtype=np.int64) for b in batches]
        for (i, _, _), c in done.items():
            self.counters[i] += c
        self.tasks = len(done)                          # finished, resumed ones included
        self.resumed = sum(batches[i].units(lo, hi) for i, lo, hi in done)
        self.units = self.resumed
        self.total = sum(b.count for b in batches)
        self.progress = progress
        self.path = path
        self.open_writer = open_writer
        self.explicit = explicit
        self.writer: ckpt.Writer | None = None
        self.failed: str | None = None                  # why the checkpoint is incomplete
        if progress is not None:                        # the starting point: 0, or resumed work
            progress(self.units, self.total)

    def finished(self, task: Task, counters: np.ndarray) -> None:
        i, lo, hi = task
        self.counters[i] += counters
        self._save(task, counters)
        self.tasks += 1
        self.units += self.batches[i].units(lo, hi)
        if self.progress is not None:
            self.progress(self.units, self.total)

    def _save(self, task: Task, counters: np.ndarray) -> None:
        if self.failed is not None:
            return
        try:
            if self.writer is None:
                self.writer = self.open_writer()
            self.writer.add(task, counters)
        except OSError as e:                            # not writable, a full disk
            self.close()
            self.failed = e.strerror or str(e)
            if self.explicit:
                raise SeasaltError(f"cannot write checkpoint {self.path}: {self.failed}") from None
            # the cache's checkpoint: run on without one

    def kept(self) -> bool:
        return self.tasks > 0 and self.failed is None

    def not_kept(self) -> str:
        if self.tasks == 0:
            return "nothing was kept"
        return f"they could not be kept ({self.path}: {self.failed})"

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


def _run_threads(batches: Sequence[Batch], todo: list[Task], jobs: int,
                 finished: Callable[[Task, np.ndarray], None]) -> int:
    """Tasks on numba's thread pool; consecutive tasks of a batch share a kernel call, so every
    call has at least a few blocks per thread."""
    previous = numba.get_num_threads()
    numba.set_num_threads(jobs)
    try:
        k = 0
        while k < len(todo):
            b = batches[todo[k][0]]
            per_call = max(1, -(-jobs * 8 // TASK_BLOCKS[b.engine]))
            group = [todo[k]]
            while (len(group) < per_call and k + len(group) < len(todo)
                   and todo[k + len(group)][0] == group[0][0]
                   and todo[k + len(group)][1] == group[-1][2]):
                group.append(todo[k + len(group)])
            k += len(group)
            b = batches[group[0][0]]
            lo = group[0][1]
            out = np.zeros((group[-1][2] - lo, b.width), dtype=np.int64)
            batch_kernels(b.engine)[2](*b.args(), lo, out)
            for task in group:
                finished(task, out[task[1] - lo:task[2] - lo].sum(axis=0))
    finally:
        numba.set_num_threads(previous)
    return jobs


def _distributed():
    """The dask.distributed module, or a SeasaltError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise SeasaltError("--scheduler needs Dask: pip install 'seasalt[dask]' "
                           "(pip install -e '.[dask]' in a checkout)") from None
    return distributed


def _connect(scheduler: str, jobs: int | None, status: Callable[[str], None]):
    """(client, cluster or None) for `scheduler`, after checking the workers' seasalt."""
    dd = _distributed()
    cluster = None
    if scheduler == "local":
        status(f"starting a Dask LocalCluster of {jobs or max_jobs()} worker processes")
        with warnings.catch_warnings():   # its HTTP server takes another port if 8787 is busy
            warnings.filterwarnings("ignore", message="Port .* is already in use")
            cluster = dd.LocalCluster(n_workers=jobs or max_jobs(), threads_per_worker=1,
                                      processes=True, dashboard_address=None,
                                      silence_logs=logging.ERROR)
        client = dd.Client(cluster, set_as_default=False)
        # Ctrl-C in a terminal reaches the whole process group: the workers must leave it to
        # this process, which cancels their tasks and closes the cluster (no worker tracebacks).
        client.register_plugin(_ignore_interrupts_plugin(), name="seasalt-ignore-sigint")
    else:
        status(f"connecting to the Dask scheduler at {scheduler}")
        try:
            client = dd.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            raise SeasaltError(f"cannot reach the Dask scheduler at {scheduler}: "
                               f"{' '.join(str(e).split()) or type(e).__name__}") from None
    try:
        if not client.nthreads():
            status(f"waiting for a Dask worker to join {scheduler}")
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        mine = worker_identity()
        for address, theirs in client.run(worker_identity).items():
            if tuple(theirs) != mine:
                raise SeasaltError(
                    f"Dask worker {address} runs seasalt {theirs[0]} (engine {theirs[1]}), this is "
                    f"seasalt {mine[0]} (engine {mine[1]}): install the same seasalt on every "
                    f"worker")
    except TimeoutError:
        _close(client, cluster)
        raise SeasaltError(f"no Dask worker joined the scheduler at {scheduler} within "
                           f"{CONNECT_TIMEOUT} s: start some with 'dask worker {scheduler}'") from None
    except BaseException:
        _close(client, cluster)
        raise
    return client, cluster


def _ignore_interrupts_plugin():
    """A Dask worker plugin: the worker process ignores SIGINT (its client handles Ctrl-C)."""
    class IgnoreInterrupts(_distributed().WorkerPlugin):
        def setup(self, worker) -> None:
            import signal
            import threading
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    return IgnoreInterrupts()


def _close(client, cluster) -> None:
    client.close()
    if cluster is not None:
        cluster.close()


def _run_dask(batches: Sequence[Batch], todo: list[Task], scheduler: str, jobs: int | None,
              finished: Callable[[Task, np.ndarray], None],
              status: Callable[[str], None] | None = None) -> int:
    """Tasks as Dask tasks; results are taken as they complete, each exactly once. Dask's own
    log (tracebacks when a connection drops) is silenced: failures end in one RunFailed line."""
    with _quiet_dask():
        return _run_dask_quietly(batches, todo, scheduler, jobs, finished, status)


def quiet_dask_logs() -> list[tuple[logging.Logger, int]]:
    """Silence Dask's loggers (several have their own handlers); return their old levels. The
    CLI calls this for good: a dropped connection is logged by Dask's event loop thread, which
    can happen just after a run has ended."""
    loggers = [logging.getLogger(n) for n in list(logging.root.manager.loggerDict)
               if n == "distributed" or n.startswith("distributed.")]
    levels = [(lg, lg.level) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    return levels


@contextlib.contextmanager
def _quiet_dask():
    levels = quiet_dask_logs()
    try:
        yield
    finally:
        for lg, level in levels:
            lg.setLevel(level)


def _run_dask_quietly(batches: Sequence[Batch], todo: list[Task], scheduler: str,
                      jobs: int | None, finished: Callable[[Task, np.ndarray], None],
                      status: Callable[[str], None] | None) -> int:
    as_completed = _distributed().as_completed
    for engine in {b.engine for b in batches}:     # compile (or load) the serial kernel here, so
        b = next(x for x in batches if x.engine == engine)   # local workers find it in the cache
        run_task(b, 0, 0)
    client, cluster = _connect(scheduler, jobs, status or (lambda text: None))
    futures = {}
    pending = iter(todo)

    def submit(n: int) -> list:
        new = []
        for task in itertools.islice(pending, n):
            b = batches[task[0]]
            fut = client.submit(run_task, b, task[1], task[2], pure=False)
            futures[fut] = task
            new.append(fut)
        return new

    try:
        workers = sum(client.nthreads().values())
        window = max(DASK_MIN_WINDOW, DASK_WINDOW_PER_THREAD * workers)
        # as_completed must wait on this client's event loop (its default is the process's
        # default client): a future whose result was lost with its worker is then simply
        # awaited again while Dask recomputes it.
        running = as_completed(submit(window), loop=client.loop)
        for fut in running:
            task = futures.pop(fut)
            try:
                counters = fut.result()
            except concurrent.futures.CancelledError as e:   # the scheduler is gone, say
                raise RunFailed(f"the Dask scheduler at {scheduler} dropped the run: "
                                f"{' '.join(str(e).split())}") from None
            except Exception as e:   # the task failed on every worker Dask tried (KilledWorker)
                raise RunFailed(f"a task failed on the Dask cluster: {type(e).__name__}: "
                                f"{' '.join(str(e).split())}") from None
            finished(task, np.asarray(counters, dtype=np.int64))
            fut.release()
            running.update(submit(1))
        return workers
    finally:
        if futures:
            client.cancel(list(futures))
        _close(client, cluster)
