"""Runner checkpoints (analyzer.runs.checkpoint), issue 28 item 7: a task line over 16 MiB used to end
the resume's reading silently, so the finished tasks after it were computed again (against the
README's promise); now it is a damaged line, named by its number, and nothing is recomputed."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np

from hostile import SEASALT, cli, listing, make_sentinel, one_line

ARGS = ["simulate", "-p", "2", "--games", "100000", "--seed", "1"]


def test_a_line_over_16_mib_is_named_not_skipped(tmp_path):
    sentinel = make_sentinel(tmp_path / "sentinel")
    before = listing(sentinel)
    ck = tmp_path / "a.ckpt"
    p = cli(*ARGS, "--checkpoint", ck)
    assert p.returncode == 0, p.stderr
    lines = ck.read_bytes().splitlines(keepends=True)
    assert len(lines) > 3
    huge = b'{"batch": 0, "counters": [' + b"0, " * ((16 << 20) // 3) + b"0]}\n"
    ck.write_bytes(b"".join(lines[:2]) + huge + b"".join(lines[2:]))
    size = ck.stat().st_size
    one_line(cli(*ARGS, "--checkpoint", ck, "--resume"), "damaged at line 3", "over 16 MiB")
    assert ck.stat().st_size == size                 # the refused file is left as it was
    assert listing(sentinel) == before


# `seasalt warmup` runs `simulate --players 2 --rounds 1 --seed 0` first (analyzer.faces.warmup)
FIRST_STEP = ["simulate", "--players", "2", "--rounds", "1", "--seed", "0", "--json"]


def _cache_checkpoint_of_first_step() -> Path:
    from analyzer.runs import checkpoint as ckpt
    from analyzer.runs.batches import fingerprint
    from analyzer.studies.simulate import plan_rounds
    return ckpt.default_path(fingerprint([plan_rounds(2, 1, ["baseline"], 0, "base").batch]))


def _hold(path: Path, tasks: int = 0):
    """A claim on the cache checkpoint `path` as a run under way holds it, with `tasks` lines."""
    from analyzer import __version__
    from analyzer.runs import checkpoint as ckpt
    from analyzer.runs.batches import fingerprint
    from analyzer.studies.simulate import plan_rounds
    batch = plan_rounds(2, 1, ["baseline"], 0, "base").batch
    fp = fingerprint([batch])
    head = ckpt.header(fp, {"command": "simulate --rounds", "seed": 0}, 1, __version__, "x")
    claim = ckpt.claim_new(path, head, restart=True, cache=True)
    for _ in range(tasks):
        claim.add((0, 0, 1), np.zeros(batch.width, dtype=np.int64))
    return claim


def test_a_run_killed_before_its_first_task_leaves_nothing_to_resume():
    """A run killed (SIGKILL, the OOM killer) while compiling leaves its cache checkpoint
    with a header only; the same command again runs instead of asking for --resume."""
    path = _cache_checkpoint_of_first_step()
    _hold(path).close()                                  # its process is gone: no lock
    p = cli(*FIRST_STEP)
    assert p.returncode == 0, p.stderr[-2000:]
    assert not path.exists()                             # replaced, then removed when done
    _hold(path, tasks=1).close()                         # a finished task is kept: asked
    one_line(cli(*FIRST_STEP), "--resume", "--restart")
    path.unlink()


def test_two_warmups_at_once_never_meet_in_a_checkpoint():
    """While another run holds the checkpoint of warmup's first step, warmup runs (it keeps
    none; it used to stop, naming --checkpoint, which it does not accept)."""
    claim = _hold(_cache_checkpoint_of_first_step())
    try:
        p = cli("warmup")
    finally:
        claim.remove()
    assert p.returncode == 0, p.stderr[-2000:]
    assert "--checkpoint" not in p.stderr and "error" not in p.stderr


def test_a_killed_warmup_keeps_what_it_compiled_and_blocks_nothing(tmp_path):
    """SIGKILL once warmup's first kernel is compiled and cached: nothing is left in the
    checkpoint folder, the next run of warmup's first step runs (it asked for --resume or
    --restart, which warmup does not accept), and loads that kernel instead of compiling it."""
    from analyzer.runs import checkpoint as ckpt
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    before = set(ckpt.default_dir().glob("*")) if ckpt.default_dir().exists() else set()
    w = subprocess.Popen([SEASALT, "warmup"], stderr=subprocess.DEVNULL, env=env)
    try:
        while w.poll() is None and not list(tmp_path.glob("cache/batch-*/batch.run_fast-*.nbc")):
            time.sleep(0.1)                  # written last, by a rename: a whole entry
        assert w.poll() is None, "warmup ended before it was killed"
    finally:
        w.send_signal(signal.SIGKILL)
        w.wait()
    assert set(ckpt.default_dir().glob("*")) == before
    compiled = {f: (f.stat().st_mtime_ns, f.read_bytes())
                for f in tmp_path.glob("cache/batch-*/batch.run_fast-*.nb?")}
    p = cli(*FIRST_STEP, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout)["rounds"] == 1
    assert {f: (f.stat().st_mtime_ns, f.read_bytes()) for f in compiled} == compiled
