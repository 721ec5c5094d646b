"""Where the blocks of a run are computed: threads of this process, or a Dask cluster.

A run is a list of *batches* (analyzer.runs.batches.TaskGrid): `count` units of one
configuration, each batch declaring the compiled driver that computes its blocks (fixed size,
block b on the random stream (seed, b)). The blocks are cut into *tasks* of a few consecutive
blocks, and a task's result is its integer counters summed over its blocks. Summing task results in any order gives the same counters, so every backend, thread
count and worker count gives the same answer for a seed, bit for bit.

Backends (`Runner.scheduler`):

* None: the tasks run in this process on `jobs` threads, each calling a batch's GIL-free driver
  on a few tasks at a time. No Dask needed.
* "local": a Dask LocalCluster of `jobs` single-threaded worker processes on this machine.
* "tcp://HOST:PORT" (any Dask address): a running `dask scheduler` and its workers.

On Dask, a task is one Dask task running the GIL-free serial kernel
(kernels.batch.run_rounds and the like). A task lost with its worker is rerun by the scheduler elsewhere;
its result is taken once, so nothing is counted twice.

Every run appends its finished tasks to a checkpoint file (analyzer.runs.checkpoint): the one given
(`checkpoint=`), or one in the seasalt cache that is deleted when the run completes. Ctrl-C
stops the run and keeps them (RunInterrupted says where); `resume=True` continues from there
and computes only the missing tasks.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
import logging
import pathlib
import re
import socket
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from .. import __version__
from . import checkpoint as ckpt
from . import compiling
from ..base.errors import RunFailed, RunInterrupted, SeasaltError, Terminated
from .batches import (TaskGrid, Progress, Task, check_jobs, engine_hash,
                      fingerprint, max_jobs, run_task, worker_identity)

NO_CHECKPOINT = "this command keeps no checkpoint"   # why a run(keep=False) kept nothing

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
    restart: bool = False               # discard an existing checkpoint of this run first
    keep: bool = True                   # False: no run of this Runner keeps a checkpoint

    def __post_init__(self) -> None:
        if self.scheduler is not None:
            self.scheduler = self.scheduler.strip()
            if self.scheduler != "local" and "://" not in self.scheduler and ":" in self.scheduler:
                self.scheduler = "tcp://" + self.scheduler          # Dask's default protocol

    def check(self) -> None:
        """Validate before anything runs."""
        if self.resume and self.restart:
            raise SeasaltError("give --resume (continue the checkpoint) or --restart (discard "
                               "it), not both")
        check_jobs(self.jobs)
        if self.scheduler is not None:
            s = self.scheduler
            if s != "local":
                scheduler_address(s)
            if s != "local" and self.jobs is not None:
                raise SeasaltError("--jobs applies to the local backends only; a cluster's workers "
                                   "decide their own threads (dask worker --nthreads)")

    def backend_name(self) -> str:
        if self.scheduler is None:
            return "threads"
        return "dask local" if self.scheduler == "local" else f"dask {self.scheduler}"

    def run(self, batches: Sequence[TaskGrid], describe: dict, keep: bool = True) -> Outcome:
        """Every task of `batches`, minus those a resumed checkpoint already has; `describe`
        (command, seed, ...) names the run in checkpoints and messages. The checkpoint is
        claimed before the first task (analyzer.runs.checkpoint), so a run that cannot keep its work
        or would touch another run's says so before computing anything. `keep=False`: a short
        run that keeps no checkpoint (the advisor's samples: identical runs may go at once)."""
        self.check()
        keep = keep and self.keep
        if self.scheduler not in (None, "local"):
            distributed_module()
            check_listening(self.scheduler)          # before anything is claimed or compiled
            check_tls(self.scheduler)
        ntasks = sum(b.ntasks() for b in batches)
        fp = fingerprint(batches)
        explicit = self.checkpoint is not None
        path = pathlib.Path(self.checkpoint) if explicit else ckpt.default_path(fp)
        resumed = ckpt.Resumed([np.zeros(b.width, dtype=np.int64) for b in batches])
        claim, failed = None, None
        if not keep:
            failed = NO_CHECKPOINT
        elif self.resume:
            if not (path.exists() or path.is_symlink()):
                where = f"checkpoint {path} does not exist" if explicit else \
                    "no checkpoint of this run (same command, options and --seed) in " \
                    f"{ckpt.default_dir()}"
                raise SeasaltError(f"nothing to resume: {where}")
            claim, resumed = ckpt.claim_resume(path, fp, describe, batches, engine_hash(batches))
        else:
            head = ckpt.header(fp, describe, ntasks, __version__, engine_hash(batches))
            try:
                claim = ckpt.claim_new(path, head, self.restart, cache=not explicit)
            except OSError as e:                     # no space, no permission, read-only
                if explicit:
                    raise SeasaltError(f"cannot write checkpoint {path}: {e.strerror or e}") \
                        from None
                failed = e.strerror or str(e)        # the cache's: the run goes on without one

        rec = _Recorder(batches, resumed, self.progress, path, claim, explicit, failed)
        todo = (b.task(i, k) for i, b in enumerate(batches) for k in range(b.ntasks())
                if not resumed.is_done(i, k))
        t0 = time.perf_counter()
        workers = None
        try:
            with compiling.watching() as compiled:     # a first run's compiling is not speed
                rec.start()
                if rec.tasks < ntasks:
                    if self.scheduler is None:
                        workers = _run_threads(batches, todo, self.jobs or max_jobs(),
                                               rec.finished)
                    else:
                        workers = run_dask(batches, todo, self.scheduler, self.jobs,
                                            rec.finished, getattr(self.progress, "status", None))
        except KeyboardInterrupt as e:
            signum = e.signum if isinstance(e, Terminated) else None
            how = f"terminated by {e}" if signum else "interrupted"
            what = (f"{how} after {rec.tasks:,} of {ntasks:,} tasks ({rec.units:,} of "
                    f"{rec.total:,} {batches[0].unit})")
            rec.stop()
            if not rec.kept():
                raise RunInterrupted(f"{what}; {rec.not_kept()}", None, signum) from None
            raise RunInterrupted(
                f"{what}; the finished tasks are kept in {path}: to continue, run the same "
                f"command with --resume" + ("" if explicit else f" --seed {describe.get('seed')}"),
                str(path), signum) from None
        except _CheckpointFull as e:
            rec.stop()
            raise RunFailed(f"cannot write checkpoint {path}: {e}; the {rec.saved:,} tasks "
                            f"finished before are kept in it: make room, then run the same "
                            f"command with --resume") from None
        except RunFailed as e:
            rec.stop()
            kept = (f"the finished tasks are kept in {path}: run the same command with --resume "
                    f"to continue") if rec.kept() else rec.not_kept()
            raise RunFailed(f"{e}; {kept}") from None
        except BaseException:
            rec.stop()
            raise
        seconds = time.perf_counter() - t0 - compiled.seconds
        rec.done(keep_file=explicit)     # the cache's checkpoint is no longer needed
        return Outcome(rec.counters, seconds, rec.units - resumed.units, {
            "seconds": seconds,
            "jobs": workers if workers is not None else (self.jobs or max_jobs()),
            "backend": self.backend_name(),
            "tasks": ntasks,
            "tasks_resumed": resumed.tasks,
            "compile_seconds": compiled.seconds,
        })


class _CheckpointFull(Exception):
    """A --checkpoint FILE could not be written during the run (the reason is the message)."""


class _Recorder:
    """Takes finished tasks: sums their counters per batch, appends them to the run's claimed
    checkpoint, reports progress. A write error stops an explicit checkpoint's run
    (_CheckpointFull) and drops the cache's checkpoint (the run goes on without it)."""

    def __init__(self, batches: Sequence[TaskGrid], resumed: ckpt.Resumed,
                 progress: Progress | None, path: pathlib.Path, claim: ckpt.Claim | None,
                 explicit: bool, failed: str | None):
        self.batches = batches
        self.counters = [c.copy() for c in resumed.counters]
        self.tasks = resumed.tasks                      # finished, resumed ones included
        self.units = resumed.units
        self.saved = resumed.tasks                      # tasks the checkpoint holds
        self.total = sum(b.count for b in batches)
        self.progress = progress
        self.path = path
        self.claim = claim
        self.explicit = explicit
        self.failed = failed                            # why the checkpoint is incomplete

    def start(self) -> None:
        if self.progress is not None:                   # the starting point: 0, or resumed work
            self.progress(self.units, self.total)

    def finished(self, task: Task, counters: np.ndarray) -> None:
        i, lo, hi = task
        self.counters[i] += counters
        self._save(task, counters)
        self.tasks += 1
        self.units += self.batches[i].units(lo, hi)
        if self.progress is not None:
            self.progress(self.units, self.total)

    def _save(self, task: Task, counters: np.ndarray) -> None:
        if self.claim is None:
            return
        try:
            self.claim.add(task, counters)
            self.saved += 1
        except OSError as e:                            # a full disk, a file size limit
            self.failed = e.strerror or str(e)
            if self.explicit:
                raise _CheckpointFull(self.failed) from None
            self._drop()                                # the cache's: run on without one

    def _drop(self) -> None:
        """Stop keeping the cache's checkpoint: a file this run made is removed."""
        if self.claim is not None:
            if self.claim.fresh:
                self.claim.remove()
                self.saved = 0
            else:
                self.claim.close()
            self.claim = None

    def kept(self) -> bool:
        return self.saved > 0 and self.failed is None

    def not_kept(self) -> str:
        if self.tasks == 0:
            return "nothing was kept"
        if self.saved:
            return (f"only {self.saved:,} of them are kept in {self.path} ({self.failed}): "
                    f"run the same command with --resume to continue from those")
        if self.failed == NO_CHECKPOINT:
            return NO_CHECKPOINT
        return f"they could not be kept ({self.path}: {self.failed})"

    def stop(self) -> None:
        """The run ends unfinished: a new checkpoint that holds no task is removed."""
        if self.claim is not None:
            if self.claim.fresh and self.claim.lines == 0:
                self.claim.remove()
            else:
                self.claim.close()
            self.claim = None

    def done(self, keep_file: bool) -> None:
        """The run completed: an explicit checkpoint is closed, the cache's removed."""
        if self.claim is not None:
            self.claim.close() if keep_file else self.claim.remove()
            self.claim = None


def _groups(batches: Sequence[TaskGrid], todo: Iterable[Task]) -> Iterator[list[Task]]:
    """Consecutive tasks of one batch, enough for about 8 blocks per kernel call."""
    it = iter(todo)
    nxt = next(it, None)
    while nxt is not None:
        group = [nxt]
        nxt = next(it, None)
        per_call = max(1, -(-8 // batches[group[0][0]].task_blocks()))
        while (nxt is not None and len(group) < per_call and nxt[0] == group[0][0]
               and nxt[1] == group[-1][2]):
            group.append(nxt)
            nxt = next(it, None)
        yield group


def _run_group(b: TaskGrid, group: list[Task]) -> np.ndarray:
    lo = group[0][1]
    out = np.zeros((group[-1][2] - lo, b.width), dtype=np.int64)
    b.driver()(*b.args(), lo, out)
    return out


def _run_threads(batches: Sequence[TaskGrid], todo: Iterable[Task], jobs: int,
                 finished: Callable[[Task, np.ndarray], None]) -> int:
    """Tasks on `jobs` threads here, each calling a batch's GIL-free driver on a group of
    consecutive tasks; results are recorded on this thread as they come, at most 2 * jobs
    groups in flight (`todo` is consumed as it goes, never listed). Ctrl-C cancels the groups
    not started and waits for the running ones (a quarter second or so)."""
    def record(fut) -> None:
        group, out = fut.result()
        lo = group[0][1]
        for task in group:
            finished(task, out[task[1] - lo:task[2] - lo].sum(axis=0))

    pending: set = set()
    with concurrent.futures.ThreadPoolExecutor(jobs, thread_name_prefix="seasalt") as pool:
        try:
            for group in _groups(batches, todo):
                while len(pending) >= 2 * jobs:
                    done, pending = concurrent.futures.wait(
                        pending, return_when=concurrent.futures.FIRST_COMPLETED)
                    for fut in done:
                        record(fut)
                b = batches[group[0][0]]
                pending.add(pool.submit(lambda b=b, g=group: (g, _run_group(b, g))))
            while pending:
                done, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in done:
                    record(fut)
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    return jobs


# ---------------------------------------------------------------------------------------------
# the Dask backend: addresses checked before anything connects, then one Dask task per task

# Dask tasks in flight at once (submitted, not yet taken), per worker thread and at least: a
# run of millions of tasks is fed to the scheduler as it goes, not all at once.
DASK_WINDOW_PER_THREAD = 16
DASK_MIN_WINDOW = 256
CONNECT_TIMEOUT = 20     # seconds to reach a scheduler, and to wait for its first worker


_ADDRESS = re.compile(r"^(tcp|tls|ws|wss|ucx)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})/?$")


def scheduler_address(address: str) -> tuple[str, str, int]:
    """(protocol, host, port) of a Dask scheduler address, or a SeasaltError saying what a good
    one looks like (checked before anything connects, so a typo never waits on a timeout)."""
    m = _ADDRESS.match(address)
    if not m or not 1 <= int(m.group(3)) <= 65535:
        raise SeasaltError(f"--scheduler must be 'local' or a Dask scheduler address such as "
                           f"tcp://HOST:8786 (protocol tcp, tls, ws, wss or ucx; a port from 1 to "
                           f"65535), got {address!r}")
    return m.group(1), m.group(2).strip("[]"), int(m.group(3))


def check_listening(address: str, timeout: float = 5.0) -> None:
    """A SeasaltError at once if nothing accepts connections at a TCP-based address."""
    protocol, host, port = scheduler_address(address)
    if protocol == "ucx":
        return
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except ConnectionRefusedError:
        raise SeasaltError(f"cannot reach the Dask scheduler at {address}: nothing listens at "
                           f"{host}:{port} (connection refused); start one there with 'dask "
                           f"scheduler --port {port}', or check the address") from None
    except socket.gaierror as e:
        raise SeasaltError(f"cannot reach the Dask scheduler at {address}: unknown host {host!r} "
                           f"({e.strerror or e})") from None
    except OSError as e:                            # a timeout, an unreachable network
        raise SeasaltError(f"cannot reach the Dask scheduler at {address}: {host}:{port} does not "
                           f"answer ({e.strerror or type(e).__name__})") from None


def _scheduler_lost(e: BaseException) -> bool:
    """Whether a future's error means the scheduler is gone (its futures cancelled, or the
    connection to it closed while a result was awaited: which one depends on timing)."""
    from distributed.comm.core import CommClosedError
    return isinstance(e, (concurrent.futures.CancelledError, CommClosedError, ConnectionError))


def distributed_module():
    """The dask.distributed module, or a SeasaltError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise SeasaltError("--scheduler needs Dask: pip install 'seasalt[dask]' "
                           "(pip install -e '.[dask]' in a checkout)") from None
    return distributed


def _connect(scheduler: str, jobs: int | None, status: Callable[[str], None]):
    """(client, cluster or None) for `scheduler`, after checking the workers' seasalt."""
    dd = distributed_module()
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
        check_tls(scheduler)
        try:
            client = dd.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except Exception as e:      # noqa: BLE001 - any failure to connect is one error line
            _forget_failed_clients()
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
    except OSError as e:            # the scheduler went away while the run was starting
        _close(client, cluster)
        raise RunFailed(f"the Dask scheduler at {scheduler} dropped the connection before the "
                        f"first task: {' '.join(str(e).split()) or type(e).__name__}") from None
    except BaseException:
        _close(client, cluster)
        raise
    return client, cluster


def check_tls(scheduler: str) -> None:
    """A tls:// (or wss://) scheduler needs this client's certificates in Dask's configuration."""
    if not scheduler.startswith(("tls://", "wss://")):
        return
    import dask
    missing = [env for key, env in (
        ("distributed.comm.tls.ca-file", "DASK_DISTRIBUTED__COMM__TLS__CA_FILE"),
        ("distributed.comm.tls.client.cert", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT"))
        if not dask.config.get(key, None)]
    if missing:
        raise SeasaltError(f"--scheduler {scheduler} uses TLS: give this client's certificates "
                           f"in Dask's configuration ({', '.join(missing)}; see docs/usage.md, "
                           f"Security)")


def _forget_failed_clients() -> None:
    """A Client whose constructor failed still closes itself when collected and reports its own
    timeout as "Exception ignored in Client.__del__": that is noise after our error line."""
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if getattr(unraisable.object, "__qualname__", "") != "Client.__del__":
            previous(unraisable)
    sys.unraisablehook = hook


def _ignore_interrupts_plugin():
    """A Dask worker plugin: the worker process ignores SIGINT (its client handles Ctrl-C)."""
    class IgnoreInterrupts(distributed_module().WorkerPlugin):
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


def run_dask(batches: Sequence[TaskGrid], todo: Iterable[Task], scheduler: str, jobs: int | None,
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


def _run_dask_quietly(batches: Sequence[TaskGrid], todo: Iterable[Task], scheduler: str,
                      jobs: int | None, finished: Callable[[Task, np.ndarray], None],
                      status: Callable[[str], None] | None) -> int:
    as_completed = distributed_module().as_completed
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
            except Exception as e:
                if _scheduler_lost(e):       # cancelled, or the connection to it closed
                    raise RunFailed(f"the Dask scheduler at {scheduler} dropped the run: "
                                    f"{' '.join(str(e).split())}") from None
                # the task failed on every worker Dask tried (KilledWorker)
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
