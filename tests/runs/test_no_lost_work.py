"""No run ever loses, mixes or destroys work (issue 18): one test per numbered defect, each with
real files, real processes, real signals and a real `ulimit -f` where a write error is needed.

1 report --out never deletes what it did not write     9 damaged checkpoint lines
2 two runs cannot share a checkpoint; lines verified  10 hostile report CSVs
3 the cache checkpoint never follows a symlink         11 report --out .
4 twins without --checkpoint never share a file        12 --out in an unwritable place
5 a real write error is one line                       13 malformed or refused --scheduler
6 a misconfigured checkpoint place fails at the start  14 the smaller ones
7 planning memory does not grow with the task count    15 the README on Dask security
8 advise on hostile JSON
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import tracemalloc
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.runs import backends, batches
from analyzer.runs import checkpoint as ckpt
from analyzer.faces.cli import main
from analyzer.base.errors import RunInterrupted
from analyzer.play.position_template import EXAMPLE
from analyzer.studies.report import run_demo_results
from analyzer.studies.simulate import plan_games, simulate_games
from analyzer.runs.spec import Backend
from cli_helpers import SEASALT, assert_user_error, cli, one_line, run, without_timing

ROOT = Path(__file__).resolve().parents[2]
LONG = ["simulate", "-p", "2", "--games", "3000000", "--seed"]      # ~10 s: still running


def start(*args, env=None) -> subprocess.Popen:
    return subprocess.Popen([SEASALT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def wait_for(cond, timeout=120, proc=None):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        assert proc is None or proc.poll() is None, proc.communicate()
        time.sleep(0.01)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("SEASALT_CHECKPOINT_DIR", str(d))
    return d


# --- 1 ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("results")
    return run_demo_results(d, seed=5, scale=0.02, backend=Backend(jobs=1))


def test_report_out_never_deletes_files_it_did_not_write(results, tmp_path):
    rep = tmp_path / "rep"
    sweep = str(results[0])
    assert cli("report", sweep, "--out", str(rep)).returncode == 0
    (rep / "NOTES.md").write_text("my notes\n")
    (rep / "drafts").mkdir()
    (rep / "drafts" / "a.txt").write_text("draft\n")
    one_line(cli("report", sweep, "--out", str(rep)), "NOTES.md")
    assert (rep / "NOTES.md").read_text() == "my notes\n" and (rep / "drafts" / "a.txt").exists()
    # a project folder that holds a copy of a report's index.html
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "main.py").write_text("print(1)\n")
    (proj / "README.md").write_text("# mine\n")
    shutil.copy(rep / "index.html", proj / "index.html")
    one_line(cli("report", sweep, "--out", str(proj)))
    assert (proj / "src" / "main.py").exists() and (proj / "README.md").exists()


def test_a_report_replaces_only_its_own_files(results, tmp_path):
    rep = tmp_path / "rep"
    assert cli("report", *map(str, results), "--out", str(rep)).returncode == 0
    before = set(os.listdir(rep))
    assert ".seasalt-report.json" in before and len(before) > 10
    # fewer inputs: the charts the new report does not draw go, nothing else remains
    assert cli("report", str(results[0]), "--out", str(rep)).returncode == 0
    after = {str(p.relative_to(rep)) for p in rep.rglob("*")}
    manifest = json.loads((rep / ".seasalt-report.json").read_text())
    assert after == set(manifest["files"]) | {".seasalt-report.json"}
    assert "mermaids.png" in before and "mermaids.png" not in after
    assert sorted(os.listdir(tmp_path)) == ["rep"]             # no temporary left beside it


def test_a_report_without_its_manifest_is_refused_not_emptied(results, tmp_path):
    """A report folder whose manifest is gone (an older report, or removed) proves nothing:
    refused, nothing deleted by its names (issue 28; tests/render/test_hostile_outputs.py)."""
    rep = tmp_path / "rep"
    assert cli("report", str(results[0]), "--out", str(rep)).returncode == 0
    (rep / ".seasalt-report.json").unlink()
    before = {str(p.relative_to(rep)) for p in rep.rglob("*")}
    one_line(cli("report", str(results[0]), "--out", str(rep)), "no .seasalt-report.json")
    assert {str(p.relative_to(rep)) for p in rep.rglob("*")} == before


# --- 2 ------------------------------------------------------------------------------------------

def test_a_second_run_on_a_claimed_checkpoint_refuses_naming_the_first(tmp_path):
    ck = tmp_path / "run.ckpt"
    a = start(*LONG, "1", "--json", "--checkpoint", str(ck))
    try:
        wait_for(lambda: ck.exists() and ck.stat().st_size > 0, proc=a)   # claimed at the start
        b = cli(*LONG, "2", "--checkpoint", str(ck))
        line = one_line(b, str(ck), "in use", f"pid {a.pid}")
        assert "seed 1" in line
        r = cli(*LONG, "1", "--checkpoint", str(ck), "--resume")       # not even the same run
        one_line(r, "in use", f"pid {a.pid}")
        wait_for(lambda: ckpt.finished_tasks(ck) >= 1, proc=a)
    finally:
        a.send_signal(signal.SIGINT)
        _, err = a.communicate(timeout=120)
    assert a.returncode == 130 and str(ck) in err
    lines = [json.loads(x) for x in ck.read_text().splitlines()]
    assert lines[0]["pid"] == a.pid and lines[0]["run"]["seed"] == 1      # only A's work
    assert len(lines) > 1 and {x["run"] for x in lines[1:]} == {lines[0]["fingerprint"][:16]}


def _complete_checkpoint(path: Path, seed: int) -> list[str]:
    r = run("simulate", "-p", "2", "--games", "100000", "--seed", str(seed), "--checkpoint",
            str(path))
    assert r.exit_code == 0, r.stderr
    return path.read_text().splitlines()


def test_resume_verifies_every_line(tmp_path):
    mine, theirs = tmp_path / "a.ckpt", tmp_path / "b.ckpt"
    a, b = _complete_checkpoint(mine, 1), _complete_checkpoint(theirs, 2)
    args = ["simulate", "-p", "2", "--games", "100000", "--seed", "1", "--checkpoint", str(mine),
            "--resume"]
    # another run's task line (same plan shape, another seed), appended
    mine.write_text("\n".join(a[:2] + [b[3]]) + "\n")
    assert_user_error(run(*args), "line 3", "another run")
    # a hand-edited counter, negative or off by one
    for delta in (-10 ** 6, 1):
        rec = json.loads(a[2])
        rec["counters"][0] += delta
        mine.write_text("\n".join([a[0], a[1], json.dumps(rec)]) + "\n")
        assert_user_error(run(*args), "damaged at line 3", "checksum")
    # the untouched file resumes to the complete result
    mine.write_text("\n".join(a) + "\n")
    assert run(*args).exit_code == 0


# --- 3 ------------------------------------------------------------------------------------------

def test_the_cache_checkpoint_never_follows_a_symlink(cache):
    batch = plan_games(2, 3000, ["baseline"], 7, "base", None).batch
    path = ckpt.default_path(batches.fingerprint([batch]))
    cache.mkdir(parents=True)
    victim = cache.parent / "victim.txt"
    victim.write_text("precious\n")
    os.symlink(victim, path)
    p = cli("simulate", "-p", "2", "--games", "3000", "--seed", "7")
    one_line(p, "symbolic link", str(path))
    assert victim.read_text() == "precious\n" and path.is_symlink()


# --- 4 ------------------------------------------------------------------------------------------

def test_twins_without_checkpoint_never_share_a_file(cache):
    """Event-based, whatever the machine's speed: the first run is paused (SIGSTOP) as soon as
    it holds its cache checkpoint with a finished task, so it is certainly still under way while
    its twin starts and is refused; then it is continued and interrupted."""
    a = start(*LONG, "3", "--json")
    try:
        wait_for(lambda: cache.is_dir() and any(cache.iterdir())
                 and ckpt.finished_tasks(next(cache.iterdir())) >= 1, proc=a)
        a.send_signal(signal.SIGSTOP)               # a cannot finish while its twin runs
        (path,) = cache.iterdir()
        b = cli(*LONG, "3", "--json")
        one_line(b, "under way", f"pid {a.pid}", "--checkpoint")
        assert a.poll() is None                      # still paused, not finished
    finally:
        a.send_signal(signal.SIGINT)                 # delivered when it continues
        a.send_signal(signal.SIGCONT)
        _, err = a.communicate(timeout=120)
    assert a.returncode == 130
    assert str(path) in err and path.exists() and ckpt.finished_tasks(path) >= 1   # still there
    done = cli("simulate", "-p", "2", "--games", "3000", "--seed", "3")
    assert done.returncode == 0 and sorted(cache.iterdir()) == [path]   # its own file, removed


# --- 5 ------------------------------------------------------------------------------------------

def _ulimit(kb: int, *args, env=None) -> subprocess.CompletedProcess:
    """`seasalt ARGS` under a real `ulimit -f KB` (bash counts in 1024-byte blocks)."""
    cmd = f"ulimit -f {kb}; exec {SEASALT} " + " ".join(f"'{a}'" for a in args)
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, env=env,
                          timeout=300)


def test_a_write_error_on_an_explicit_checkpoint_is_one_line(tmp_path):
    ck = tmp_path / "run.ckpt"
    args = ["simulate", "-p", "2", "--games", "400000", "--seed", "5", "--checkpoint", str(ck)]
    line = one_line(_ulimit(3, *args), "cannot write checkpoint", str(ck), "too large", code=1)
    assert "--resume" in line                           # the tasks written before are kept
    kept = ckpt.finished_tasks(ck)
    assert kept >= 1
    r = cli(*args, "--resume", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["timing"]["tasks_resumed"] == kept


def test_a_write_error_on_the_cache_checkpoint_goes_on_without_it(cache, tmp_path):
    args = ["simulate", "-p", "2", "--games", "400000", "--seed", "5", "--json"]
    full = run(*args, "--checkpoint", str(tmp_path / "whole.ckpt"))
    assert (tmp_path / "whole.ckpt").stat().st_size > 3 * 1024     # the limit will be hit
    p = _ulimit(3, *args)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-3000:]
    assert without_timing(json.loads(p.stdout)) == without_timing(json.loads(full.stdout))
    assert not cache.exists() or list(cache.iterdir()) == []


def test_a_write_error_on_out_is_one_line_and_leaves_nothing(tmp_path):
    out = tmp_path / "rows.json"
    p = _ulimit(1, "replay", "--seed", "1", "-p", "4", "--out", str(out))
    one_line(p, "cannot write", "too large")
    assert list(tmp_path.iterdir()) == []


# --- 6 ------------------------------------------------------------------------------------------

def test_a_directory_at_the_cache_path_fails_at_the_start(cache):
    batch = plan_games(2, 3000, ["baseline"], 7, "base", None).batch
    path = ckpt.default_path(batches.fingerprint([batch]))
    path.mkdir(parents=True)
    one_line(cli("simulate", "-p", "2", "--games", "3000", "--seed", "7"), str(path),
             "not a regular file")


def test_a_checkpoint_dir_that_is_a_file_fails_at_the_start(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    env = dict(os.environ, SEASALT_CHECKPOINT_DIR=str(f))
    one_line(cli("simulate", "-p", "2", "--games", "3000", "--seed", "7", env=env),
             "SEASALT_CHECKPOINT_DIR", "not a directory")


# --- 7 ------------------------------------------------------------------------------------------

def _planning_peak(games: int) -> tuple[float, int]:
    """Peak MB allocated from the start of a 10 x 10 sweep on 2, 3 and 4 players (900 batches)
    until its first task would run, and the task count."""
    from analyzer.studies.sweep import run_sweep
    seen = []

    def stop(done, total):
        seen.append(total)
        raise KeyboardInterrupt
    tracemalloc.start()
    try:
        with pytest.raises(RunInterrupted):
            run_sweep(["stop_at=7..16", "last_chance_at=7..16"], games=games, players="2,3,4",
                      seed=1, progress=stop)
        peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
    finally:
        tracemalloc.stop()
    return peak, seen[0]


def test_planning_memory_does_not_grow_with_the_task_count(cache):
    """Before: the plan listed every task (a 30 x 30 sweep of 10**8 games planned 8.2 million
    tasks in 1.38 GB). Now the task grid is computed: the same memory for 900 tasks or 900,000."""
    small, n_small = _planning_peak(10_000)
    big, n_big = _planning_peak(100_000_000)
    assert n_small == 100 * 3 * 10_000 and n_big == 100 * 3 * 100_000_000   # games, every point
    assert big < small + 3, (small, big)


# --- 8 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("content, words", [
    (b'{"players": 2, "hand": "caf\xe9"}', ["not UTF-8"]),
    (b"[" * 100_000 + b"]" * 100_000, ["nested too deeply"]),
    (json.dumps(EXAMPLE).replace('"players": 2', '"players": ' + "7" * 5001).encode(),
     ["players", "5001 digits"]),
    (json.dumps({**EXAMPLE, "expansion": 5}).encode(), ["expansion"]),
    (json.dumps({**EXAMPLE, "expansion": None}).encode(), ["expansion"]),
    (json.dumps({**EXAMPLE, "expansion": ["base"]}).encode(), ["expansion"]),
])
def test_advise_on_hostile_json_is_one_line(tmp_path, content, words):
    f = tmp_path / "pos.json"
    f.write_bytes(content)
    one_line(cli("advise", str(f), "--samples", "10"), *words)


# --- 9 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("counters", ["[1e999]", f"[{10 ** 30}]", "[" * 50_000 + "]" * 50_000])
def test_a_damaged_checkpoint_line_is_named(tmp_path, counters):
    ck = tmp_path / "a.ckpt"
    lines = _complete_checkpoint(ck, 1)
    ck.write_text(lines[0] + "\n" + '{"batch": 0, "lo": 0, "hi": 128, "counters": '
                  + counters + "}\n")
    one_line(cli("simulate", "-p", "2", "--games", "100000", "--seed", "1", "--checkpoint",
                 str(ck), "--resume"), "damaged at line 2")


# --- 10 -----------------------------------------------------------------------------------------

def _edited(src: Path, dst: Path, **cells) -> Path:
    df = pd.read_csv(src)
    for col, value in cells.items():
        df[col] = df[col].astype(object)
        df.loc[0, col] = value
    df.to_csv(dst, index=False)
    return dst


@pytest.mark.parametrize("which, cells, ok", [
    (0, {"spec": "base$line(stop_at=$7$)"}, True),          # matplotlib math text
    (0, {"swept": "$stop_at$"}, False),
    (0, {"players": "inf"}, False),
    (0, {"games": "1e400"}, False),
    (-1, {"spec": "$x^$"}, True),
    (2, {"four_mermaid_rate": "lots"}, False),               # an optional column
])
def test_hostile_report_csvs_are_refused_in_one_line_or_reported(results, tmp_path, which, cells, ok):
    f = _edited(results[which], tmp_path / Path(results[which]).name, **cells)
    p = cli("report", str(f), "--out", str(tmp_path / "rep"))
    assert "Traceback" not in p.stderr
    if ok:
        assert p.returncode == 0, p.stderr[-3000:]
    else:
        one_line(p, f.name)
        assert not (tmp_path / "rep").exists()


# --- 11 -----------------------------------------------------------------------------------------

def test_report_out_dot_writes_here_and_never_over_a_users_file(results, tmp_path):
    here = tmp_path / "here"
    here.mkdir()
    for _ in range(2):                                       # into an empty dir, then over itself
        p = cli("report", results[0], "--out", ".", cwd=here)
        assert p.returncode == 0, p.stderr
        assert (here / "index.html").is_file() and (here / "results").is_dir()
    assert sorted(os.listdir(tmp_path)) == ["here"]
    (here / "mine.txt").write_text("x")
    p = cli("report", results[0], "--out", ".", cwd=here)
    one_line(p, "mine.txt")


# --- 12 -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("out", ["/proc/x.csv", "/proc/self/x.json"])
def test_out_where_no_file_can_be_made_is_one_line(out):
    one_line(cli("simulate", "-p", "2", "--games", "300", "--seed", "1", "--out", out), out)


# --- 13 -----------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address", ["http://x", "tcp://", "tcp://127.0.0.1:abc", "tcp://:8786",
                                     "tcp://127.0.0.1:99999"])
def test_a_malformed_scheduler_is_refused_before_any_connection(address, monkeypatch):
    """Refused from its text: nothing is ever connected to (no timeout to wait out)."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(backends.socket, "create_connection",
                        lambda *a, **k: pytest.fail("it tried to connect"))
    assert_user_error(run("simulate", "-p", "2", "--rounds", "1000", "--seed", "1",
                          "--scheduler", address), "--scheduler")


def test_a_refused_port_says_nothing_listens():
    pytest.importorskip("distributed")
    port = _free_port()
    one_line(cli("simulate", "-p", "2", "--rounds", "1000", "--seed", "1", "--scheduler",
                 f"tcp://127.0.0.1:{port}"), f"nothing listens at 127.0.0.1:{port}")


def test_a_scheduler_lost_while_the_run_starts_is_one_line(tmp_path, monkeypatch):
    """The scheduler goes away after the client connected, before any worker (under load a
    worker starts slowly): a RunFailed line saying so, not Dask's CommClosedError traceback."""
    comm = pytest.importorskip("distributed.comm.core")

    class LostScheduler:
        def __init__(self, *args, **kw):
            pass

        def nthreads(self):
            return {}

        def wait_for_workers(self, n, timeout):
            raise comm.CommClosedError("in <TCP (closed) ConnectionPool.identity>: "
                                       "ConnectionResetError: [Errno 104] Connection reset by peer")

        def close(self):
            pass

    real = backends.distributed_module()
    fake = type("Distributed", (), {"Client": LostScheduler, "as_completed": real.as_completed})
    monkeypatch.setattr(backends, "distributed_module", lambda: fake)
    monkeypatch.setattr(backends, "check_listening", lambda address: None)
    r = run("simulate", "-p", "2", "--games", "3000", "--seed", "1", "--checkpoint",
            str(tmp_path / "c.ckpt"), "--scheduler", "tcp://127.0.0.1:8786")
    assert r.exit_code == 1 and r.stdout == "", r.stderr
    (line,) = r.stderr.splitlines()
    assert line.startswith("error: the Dask scheduler at tcp://127.0.0.1:8786 dropped the "
                           "connection before the first task") and "nothing was kept" in line


# --- 14 -----------------------------------------------------------------------------------------

def test_an_unwritable_checkpoint_is_found_before_any_work(tmp_path):
    """`ulimit -f 0`: not even the checkpoint's first line can be written. The run stops before
    its first task (it would take a minute)."""
    ck = tmp_path / "run.ckpt"
    p = _ulimit(0, "simulate", "-p", "2", "--games", "20000000", "--seed", "1", "--checkpoint",
                str(ck))
    one_line(p, "cannot write checkpoint", str(ck))
    assert not ck.exists() and p.stdout == ""          # refused before its first task


@pytest.mark.parametrize("piles, words", [
    ({"A": {"size": 1, "top": 5}, "B": {"cards": ["crab:black", "penguin:pink"]}},
     ["pile A top", "got 5"]),
    ({"A": {"size": 4, "top": "octopus:grey"}, "B": {"cards": "crab:black,penguin:pink",
                                                      "top": 5}}, ["pile B top"]),
    ({"A": {"size": 4, "top": "octopus:grey"}, "B": {"cards": "crab:black,penguin:pink",
                                                      "size": "2"}},
     ["pile B size", "whole number"]),
])
def test_position_messages_name_the_place(tmp_path, piles, words):
    f = tmp_path / "p.json"
    f.write_text(json.dumps({**EXAMPLE, "piles": piles}))
    line = one_line(cli("advise", str(f)), *words)
    assert "error: :" not in line


def test_report_messages_show_values_not_reprs(results, tmp_path):
    f = _edited(results[1], tmp_path / "lc.csv", success=float("nan"))
    line = one_line(cli("report", str(f), "--out", str(tmp_path / "rep")), "success")
    assert "np.float64" not in line and "nan" in line


def test_an_empty_tournament_spec_is_refused(results, tmp_path):
    f = _edited(results[-1], tmp_path / "t.csv", spec="")
    one_line(cli("report", str(f), "--out", str(tmp_path / "rep")), "spec")


# --- 15 -----------------------------------------------------------------------------------------

def test_the_docs_say_how_to_run_dask_safely():
    # the Dask reference moved from the README to docs/usage.md (issue 30), which it links
    assert "docs/usage.md" in (ROOT / "README.md").read_text()
    text = (ROOT / "docs" / "usage.md").read_text()
    section = text[text.index("**Security.**"):][:2500]
    for words in ("pickle", "trust", "TLS", "--tls-ca-file", "tls://HOST:8786",
                  "DASK_DISTRIBUTED__COMM__TLS__CA_FILE", "REQUIRE_ENCRYPTION"):
        assert words in section, words
