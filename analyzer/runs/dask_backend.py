"""The Dask backend of the Runner: a LocalCluster here (`--scheduler local`) or a running scheduler
and its workers (`--scheduler tcp://HOST:PORT`). A task is one Dask task running the GIL-free
serial kernel (analyzer.runs.batches.run_task); a task lost with its worker is rerun by the
scheduler elsewhere and its result is taken once, so nothing is counted twice. Addresses are
checked (scheduler_address, check_listening) before anything connects."""
from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
import logging
import re
import socket
import sys
import warnings
from typing import Callable, Iterable, Sequence

import numpy as np

from ..base.errors import RunFailed, SeasaltError
from .batches import Batch, Task, max_jobs, run_task, worker_identity

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


def run_dask(batches: Sequence[Batch], todo: Iterable[Task], scheduler: str, jobs: int | None,
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


def _run_dask_quietly(batches: Sequence[Batch], todo: Iterable[Task], scheduler: str,
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
