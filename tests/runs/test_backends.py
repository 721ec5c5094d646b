"""Backends and long-run safety (analyzer.runs.backends, analyzer.runs.checkpoint): a Dask cluster of worker
processes gives exactly the local thread backend's results for a seed, also when a worker is
killed mid-run; an interrupted run resumes from its checkpoint to exactly the uninterrupted
result, without redoing finished tasks; bad backend options and checkpoints are one-line errors.
"""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer.runs import backends, batches
from analyzer.runs import checkpoint as ckpt
from analyzer.runs.backends import Runner
from analyzer.base.errors import RunInterrupted, SeasaltError
from analyzer.studies.simulate import plan_games, plan_rounds, simulate_games, simulate_rounds
from analyzer.studies.sweep import run_sweep, sweep
from analyzer.studies.tournament import tournament
from analyzer.runs.spec import Backend
from cli_helpers import SEASALT, assert_user_error, run, stop_after, without_timing

SWEEP = dict(sweeps=["stop_at=7,10"], players="2,3", games=4000, seed=21)


def checkpoint_tasks(path: Path) -> int:
    return len(path.read_text().splitlines()) - 1     # minus the header line


# --- the seed plan: tasks, fingerprints ----------------------------------------------------------

def test_tasks_cover_every_block_once():
    p = plan_games(2, 100_000, ["baseline"], 1, "base", None).batch
    tasks = p.tasks(3)
    blocks = [b for _, lo, hi in tasks for b in range(lo, hi)]
    assert blocks == list(range(-(-100_000 // p.block)))
    assert all(i == 3 for i, _, _ in tasks)
    assert sum(p.units(lo, hi) for _, lo, hi in tasks) == 100_000


def test_huge_batches_get_longer_tasks_not_more(monkeypatch):
    monkeypatch.setattr(batches, "MAX_TASKS", 7)
    p = plan_rounds(2, 10 ** 7, ["baseline"], 1, "base").batch        # 2,442 blocks
    tasks = p.tasks(0)
    assert len(tasks) <= 7
    assert [b for _, lo, hi in tasks for b in range(lo, hi)] == list(range(-(-10 ** 7 // p.block)))


def test_serial_task_kernel_matches_the_thread_pool_kernel():
    """What a Dask worker runs (run_task, the GIL-free serial driver) sums to the same counters
    as the parallel driver over the same blocks."""
    for planned in (plan_rounds(3, 30_000, ["baseline"], 5, "extra-salt"),
                    plan_games(4, 900, ["baseline"], 5, "base", None)):
        b = planned.batch
        nblocks = -(-b.count // b.block)
        parallel = Runner(jobs=None).run([b], {"seed": 5}).counters[0]
        serial = sum(batches.run_task(b, lo, hi)
                     for lo, hi in [(0, 1), (1, nblocks)])
        np.testing.assert_array_equal(parallel, serial)
        assert parallel.sum() > 0


def test_fingerprint_names_the_work_not_the_backend():
    a = plan_games(2, 1000, ["baseline"], 1, "base", None).batch
    same = plan_games(2, 1000, ["baseline(stop_at=7)"], 1, "base", None).batch   # same policy
    other_seed = plan_games(2, 1000, ["baseline"], 2, "base", None).batch
    other_count = plan_games(2, 1001, ["baseline"], 1, "base", None).batch
    fp = batches.fingerprint
    assert fp([a]) == fp([same])
    assert len({fp([a]), fp([other_seed]), fp([other_count]), fp([a, a])}) == 4


# --- interrupt and resume (threads) -------------------------------------------------------------

def test_interrupted_sweep_resumes_to_the_uninterrupted_result(tmp_path):
    full = sweep(**SWEEP)
    ck = tmp_path / "sweep.ckpt"
    with pytest.raises(RunInterrupted) as e:      # one thread: the first three tasks finish first
        sweep(**SWEEP, backend=Backend(jobs=1, checkpoint=str(ck)), progress=stop_after(3))
    assert e.value.checkpoint == str(ck) and "--resume" in e.value.message
    kept = checkpoint_tasks(ck)
    assert kept == 3
    seen = []
    df, header = run_sweep(**SWEEP, backend=Backend(checkpoint=str(ck), resume=True),
                           progress=lambda d, t: seen.append(d))
    pd.testing.assert_frame_equal(df, full)
    assert header["timing"]["tasks_resumed"] == 3
    # only the missing tasks ran: a first report of the resumed part, then one per task
    assert seen[0] == 3 * 2000           # three 2-player seatings of 2,000 games: one task each
    assert len(seen) == 1 + header["timing"]["tasks"] - 3
    assert checkpoint_tasks(ck) == header["timing"]["tasks"]   # an explicit file is kept, complete


def test_resume_twice_and_a_torn_last_line(tmp_path):
    """Interrupted twice, the second time while a line was half written (as a crash leaves it):
    the torn line is dropped and the result is still exact."""
    kw = dict(players=2, games=100_000, policies=["baseline(stop_at=9)"], seed=8)  # 4 tasks
    full = simulate_games(**kw)
    ck = tmp_path / "g.ckpt"
    with pytest.raises(RunInterrupted):
        simulate_games(**kw, backend=Backend(checkpoint=str(ck)), progress=stop_after(1))
    with pytest.raises(RunInterrupted):
        simulate_games(**kw, backend=Backend(checkpoint=str(ck), resume=True),
                       progress=stop_after(1))
    with open(ck, "a") as f:
        f.write('{"batch": 0, "lo": 9')
    again = simulate_games(**kw, backend=Backend(checkpoint=str(ck), resume=True))
    assert without_timing(again) == without_timing(full)
    assert again["timing"]["tasks_resumed"] == 2
    assert all(json.loads(line) for line in ck.read_text().splitlines())


def test_two_runs_of_one_plan_on_one_file(tmp_path):
    """The same command started twice on one checkpoint appends whole lines of both (a second
    header, the same task twice): resuming still counts every task once."""
    kw = dict(players=2, games=100_000, seed=13)
    full = simulate_games(**kw)
    ck = tmp_path / "twice.ckpt"
    with pytest.raises(RunInterrupted):
        simulate_games(**kw, backend=Backend(checkpoint=str(ck)), progress=stop_after(2))
    lines = ck.read_text().splitlines()
    ck.write_text("\n".join(lines + [lines[0], lines[1]]) + "\n")
    again = simulate_games(**kw, backend=Backend(checkpoint=str(ck), resume=True))
    assert again["timing"]["tasks_resumed"] == 2
    assert without_timing(again) == without_timing(full)


def test_default_checkpoint_lives_in_the_cache_until_the_run_completes():
    kw = dict(players=3, rounds=300_000, seed=77)
    full = simulate_rounds(**kw)
    directory = Path(os.environ["SEASALT_CHECKPOINT_DIR"])
    before = set(directory.glob("*.jsonl"))
    with pytest.raises(RunInterrupted) as e:
        simulate_rounds(**kw, progress=stop_after(1))
    path = Path(e.value.checkpoint)
    assert path.parent == directory and path not in before and checkpoint_tasks(path) == 1
    assert "--resume --seed 77" in e.value.message
    resumed = simulate_rounds(**kw, backend=Backend(resume=True))
    assert without_timing(resumed) == without_timing(full)
    assert not path.exists()


def test_a_checkpoint_that_cannot_be_written(tmp_path, monkeypatch):
    """A full disk: the cache's checkpoint is dropped and the run goes on (Ctrl-C then says
    nothing could be kept); a --checkpoint FILE that cannot be written stops the run."""
    kw = dict(players=2, rounds=300_000, seed=3)
    reference = simulate_rounds(**kw)

    def disk_full(self, task, counters):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(ckpt.Claim, "add", disk_full)
    assert without_timing(simulate_rounds(**kw)) == without_timing(reference)
    with pytest.raises(RunInterrupted) as e:
        simulate_rounds(**kw, progress=stop_after(1))
    assert e.value.checkpoint is None and "could not be kept" in e.value.message
    assert "No space left on device" in e.value.message
    ck = tmp_path / "full.ckpt"
    r = run("simulate", "--players", "2", "--rounds", "300000", "--seed", "3",
            "--checkpoint", str(ck))
    assert r.exit_code == 1 and r.stdout == ""          # a failed run, not bad input
    (line,) = r.stderr.splitlines()
    assert line.startswith(f"error: cannot write checkpoint {ck}: No space left on device")


def test_interrupt_before_any_task_keeps_nothing(tmp_path, monkeypatch):
    """Ctrl-C inside the first kernel call: no task has finished, no file is written."""
    def interrupted(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(backends, "_run_threads", interrupted)
    ck = tmp_path / "never.ckpt"
    with pytest.raises(RunInterrupted) as e:
        simulate_rounds(2, 100_000, seed=1, backend=Backend(checkpoint=str(ck)))
    assert e.value.checkpoint is None and "nothing was kept" in e.value.message
    assert not ck.exists()


def test_cli_ctrl_c_then_resume(tmp_path):
    """A real SIGINT to a running `seasalt sweep`: exit 130 with one line saying where the
    finished tasks are, nothing on stdout; the same command with --resume prints exactly the
    uninterrupted result."""
    ck = tmp_path / "run.ckpt"
    args = [SEASALT, "sweep", "--sweep", "stop_at=7,9", "--players", "2", "--games", "400000",
            "--seed", "5", "--json", "--checkpoint", str(ck)]
    # SIG_DFL in the child: a test runner started in the background may pass SIGINT ignored
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while (not ck.exists() or checkpoint_tasks(ck) < 2) and time.monotonic() < deadline \
            and p.poll() is None:
        time.sleep(0.01)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, (out, err)
    assert out == ""
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted after ") and str(ck) in lines[0]
    assert "--resume" in lines[0] and "Traceback" not in err
    kept = checkpoint_tasks(ck)
    assert kept >= 2
    resumed = subprocess.run(args + ["--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    r = json.loads(resumed.stdout)
    assert r["timing"]["tasks_resumed"] == kept
    full = run(*args[1:-2])
    assert full.exit_code == 0
    assert without_timing(r) == without_timing(json.loads(full.stdout))


# --- checkpoint and backend errors --------------------------------------------------------------

def test_checkpoint_errors(tmp_path):
    ck = tmp_path / "a.ckpt"
    base = ["simulate", "--players", "2", "--rounds", "50000", "--seed", "3", "--checkpoint", str(ck)]
    assert run(*base).exit_code == 0 and ck.exists()
    assert_user_error(run(*base), "already exists", "--resume")
    other = ["simulate", "--players", "2", "--rounds", "50000", "--seed", "4", "--checkpoint",
             str(ck), "--resume"]
    assert_user_error(run(*other), "different run", "seed 3")
    assert_user_error(run(*base[:-2], "--checkpoint", str(tmp_path / "none"), "--resume"),
                      "nothing to resume", "does not exist")
    assert_user_error(run("simulate", "--players", "2", "--rounds", "50000", "--resume"),
                      "--resume needs the --seed")
    assert_user_error(run("simulate", "--players", "2", "--rounds", "50000", "--seed", "123456",
                          "--resume"), "nothing to resume", "no checkpoint of this run")
    bad = tmp_path / "bad.ckpt"
    bad.write_text("not json\n")
    assert_user_error(run(*base[:-1], str(bad), "--resume"), "not a seasalt checkpoint")
    assert_user_error(run(*base[:-1], str(tmp_path / "no" / "dir" / "x"), "--resume"),
                      "nothing to resume")
    assert_user_error(run(*base[:-1], str(tmp_path / "no" / "dir" / "x")), "does not exist")
    assert not (tmp_path / "no").exists()
    damaged = tmp_path / "damaged.ckpt"
    lines = ck.read_text().splitlines()
    damaged.write_text(lines[0] + "\n" + '{"batch": 5, "lo": 0, "hi": 1, "counters": []}\n')
    assert_user_error(run(*base[:-1], str(damaged), "--resume"), "damaged at line 2")


@pytest.mark.parametrize("extra, words", [
    (["--scheduler", "nowhere"], ["--scheduler", "local", "tcp://"]),
    (["--scheduler", "tcp://127.0.0.1:9", "--jobs", "2"], ["--jobs", "dask worker --nthreads"]),
    (["--scheduler", "local", "--jobs", "0"], ["--jobs"]),
])
def test_backend_option_errors(extra, words):
    assert_user_error(run("simulate", "--players", "2", "--rounds", "1000", "--seed", "1", *extra),
                      *words)


def test_scheduler_without_dask_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)       # `import distributed` fails
    assert_user_error(run("simulate", "--players", "2", "--rounds", "1000", "--seed", "1",
                          "--scheduler", "local"), "needs Dask", "seasalt[dask]")


def test_unreachable_scheduler_is_a_one_line_error():
    pytest.importorskip("distributed")
    backends.CONNECT_TIMEOUT, saved = 2, backends.CONNECT_TIMEOUT
    try:
        assert_user_error(run("simulate", "--players", "2", "--rounds", "1000", "--seed", "1",
                              "--scheduler", "tcp://127.0.0.1:9"),
                          "cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    finally:
        backends.CONNECT_TIMEOUT = saved


# --- Dask: a real cluster of worker processes --------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of two single-threaded worker processes (with nannies, which restart a
    killed worker), and a client of the test's own to inspect and kill them."""
    distributed = pytest.importorskip("distributed")
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as c, \
            distributed.Client(c) as client:
        yield c.scheduler_address, client


def test_dask_simulate_equals_local(cluster):
    address, _ = cluster
    for fn, kw in ((simulate_rounds, dict(players=3, rounds=600_000, seed=4)),
                   (simulate_games, dict(players=4, games=3_000, seed=4, expansion="extra-salt",
                                         policies=["baseline", "gambler", "baseline", "denier"]))):
        local = fn(**kw)
        remote = fn(**kw, backend=Backend(scheduler=address))
        assert remote["timing"]["backend"] == f"dask {address}"
        assert remote["timing"]["jobs"] == 2
        assert without_timing(remote) == without_timing(local)


def test_dask_sweep_and_tournament_equal_local(cluster, monkeypatch):
    """Also with one task in flight per worker: the run is fed to the scheduler as tasks return."""
    monkeypatch.setattr(backends, "DASK_WINDOW_PER_THREAD", 1)
    monkeypatch.setattr(backends, "DASK_MIN_WINDOW", 1)
    address, _ = cluster
    pd.testing.assert_frame_equal(sweep(**SWEEP, backend=Backend(scheduler=address)),
                                  sweep(**SWEEP))
    kw = dict(policies=["baseline", "baseline(stop_at=10)", "denier"], players=3, games=1500,
              seed=9)
    pd.testing.assert_frame_equal(tournament(**kw, backend=Backend(scheduler=address)),
                                  tournament(**kw))


def test_dask_killed_worker_is_retried_and_counted_once(cluster):
    """SIGKILL a worker that is running a task, after the first task has come back: its tasks
    are rerun elsewhere and every block is counted exactly once."""
    address, client = cluster
    kw = dict(players=2, games=400_000, seed=31)       # 13 tasks of about 0.2 s each
    local = simulate_games(**kw)
    pids = client.run(os.getpid)
    killed = []

    def kill_a_busy_worker(done: int, total: int) -> None:
        if killed or done == 0:          # done == 0: the starting report, nothing submitted yet
            return
        busy = [w for w, keys in client.processing().items() if keys and w in pids]
        victim = (busy or list(pids))[0]
        os.kill(pids[victim], signal.SIGKILL)
        killed.append((victim, bool(busy)))

    remote = simulate_games(**kw, backend=Backend(scheduler=address), progress=kill_a_busy_worker)
    assert killed and killed[0][1], "no worker was busy when the first task came back"
    assert without_timing(remote) == without_timing(local)
    client.wait_for_workers(2, timeout=60)                  # the nanny restarted it
    assert pids[killed[0][0]] not in client.run(os.getpid).values()


def test_dask_interrupted_sweep_resumes_exactly(cluster, tmp_path):
    address, _ = cluster
    ck = tmp_path / "dask.ckpt"
    with pytest.raises(RunInterrupted):
        sweep(**SWEEP, backend=Backend(scheduler=address, checkpoint=str(ck)),
              progress=stop_after(2))
    assert checkpoint_tasks(ck) == 2
    # resumed on the other backend: the checkpoint does not depend on where tasks ran
    df, header = run_sweep(**SWEEP, backend=Backend(checkpoint=str(ck), resume=True))
    assert header["timing"]["tasks_resumed"] == 2
    pd.testing.assert_frame_equal(df, sweep(**SWEEP))


def test_cli_scheduler_local_equals_threads():
    """`--scheduler local` starts its own LocalCluster of worker processes (--jobs of them)."""
    pytest.importorskip("distributed")
    args = ["simulate", "--players", "2", "--games", "2000", "--seed", "12", "--json"]
    r = subprocess.run([SEASALT, *args, "--scheduler", "local", "--jobs", "2"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    d = json.loads(r.stdout)
    assert d["timing"]["backend"] == "dask local" and d["timing"]["jobs"] == 2
    assert without_timing(d) == without_timing(json.loads(run(*args).stdout))


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_listening(address: str, proc: subprocess.Popen, seconds: float = 300) -> None:
    """Wait until something accepts connections at tcp://host:port (the scheduler `proc`)."""
    import socket
    host, port = address[len("tcp://"):].rsplit(":", 1)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"the scheduler never listened at {address}")


def test_cli_lost_scheduler_is_one_error_line_and_the_run_resumes(tmp_path):
    """`dask scheduler` and `dask worker` as a user starts them; the scheduler is killed
    mid-run: exit 1, one `error:` line (no Dask log or traceback), the finished tasks kept; the
    run then resumes on this machine's threads to the uninterrupted result."""
    pytest.importorskip("distributed")
    dask = str(Path(sys.executable).with_name("dask"))
    address = f"tcp://127.0.0.1:{_free_port()}"
    scheduler = subprocess.Popen([dask, "scheduler", "--port", address.rsplit(":", 1)[1],
                                  "--no-dashboard"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([dask, "worker", address, "--nthreads", "2", "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ck = tmp_path / "lost.ckpt"
    args = [SEASALT, "simulate", "--players", "2", "--games", "1000000", "--seed", "6", "--json",
            "--checkpoint", str(ck)]
    try:
        _wait_listening(address, scheduler)   # seasalt refuses at once where nothing listens yet
        p = subprocess.Popen(args + ["--scheduler", address], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 600          # a busy machine starts a worker slowly
        while (not ck.exists() or checkpoint_tasks(ck) < 2) and time.monotonic() < deadline \
                and p.poll() is None:
            time.sleep(0.01)
        scheduler.kill()
        out, err = p.communicate(timeout=120)
    finally:
        for proc in (scheduler, worker):
            proc.kill()
            proc.wait(timeout=60)
    assert p.returncode == 1, (out, err)
    assert out == "" and len(err.splitlines()) == 1, err
    assert err.startswith(f"error: the Dask scheduler at {address} dropped the run")
    assert f"kept in {ck}" in err
    resumed = subprocess.run(args + ["--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    full = simulate_games(2, 1_000_000, seed=6)
    assert without_timing(json.loads(resumed.stdout)) == without_timing(full)


def test_worker_with_another_engine_is_refused(cluster, monkeypatch):
    address, _ = cluster
    monkeypatch.setattr(batches, "ENGINE_HASH", "0" * 16)    # this client pretends to differ
    with pytest.raises(SeasaltError, match="install the same seasalt on every worker"):
        simulate_rounds(2, 1000, seed=1, backend=Backend(scheduler=address))
