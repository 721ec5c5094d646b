"""The command-line helpers tests in every folder share: the console script's path, run it as a
user would (`cli`, a subprocess) or in-process (`run`), read its JSON strictly, check a user error
(one `error:` line, exit status 2), and press Ctrl-C after a number of finished tasks."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from analyzer.faces.cli import main

SEASALT = str(Path(sys.executable).with_name("seasalt"))     # the installed console script


def cli(*args, cwd=None, env=None, timeout: float = 600, stdin: str | None = None
        ) -> subprocess.CompletedProcess:
    """`seasalt ARGS` through the installed console script, its output captured: the one
    subprocess helper of the tests."""
    return subprocess.run([SEASALT, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout, input=stdin)


def one_line(p: subprocess.CompletedProcess, *words: str, code: int = 2) -> str:
    """A console script's refusal: exit `code`, nothing on stdout, no traceback, one stderr line
    `error: ...` naming `words`."""
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert p.returncode == code, (p.returncode, p.stderr[-3000:])
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    assert p.stdout == "" and len(lines) == 1 and lines[0].startswith("error: "), p.stderr[-3000:]
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_json(*args: str) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout, parse_constant=_no_nan)


def _no_nan(name: str):
    raise AssertionError(f"output is not strict JSON: {name}")


def assert_user_error(r, *words: str) -> str:
    """Exit status 2, nothing on stdout, exactly one stderr line starting with `error:`."""
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.stderr and "Usage:" not in r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def without_timing(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "timing"}


def stop_after(tasks: int):
    """A progress callback that presses Ctrl-C once `tasks` tasks have finished (the Runner
    reports its starting point first, then every finished task)."""
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == tasks + 1:
            raise KeyboardInterrupt
    return progress


def started(args: list[str], env: dict, tasks: int = 1) -> subprocess.Popen:
    """`seasalt ARGS`, running, once its checkpoint in SEASALT_CHECKPOINT_DIR holds more than
    `tasks` finished lines (tasks, or a study's games); SIGINT as the default in the child (a
    test runner started in the background may pass it ignored)."""
    d = Path(env["SEASALT_CHECKPOINT_DIR"])
    p = subprocess.Popen([SEASALT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and p.poll() is None:
        files = list(d.glob("*.jsonl")) if d.is_dir() else []
        if files and len(files[0].read_bytes().splitlines()) > tasks:
            break
        time.sleep(0.01)
    assert p.poll() is None, "the run ended before it could be interrupted"
    return p


def refused_then_resumed(args: list[str], env: dict, kept: Path) -> subprocess.CompletedProcess:
    """After an interrupted run whose work is in `kept`: the same command again is refused
    (exit 2, naming --resume and --restart) and leaves `kept` as it was; with --resume it
    completes. Returns the resumed run."""
    before = kept.read_bytes()
    again = subprocess.run([SEASALT, *args], capture_output=True, text=True, env=env)
    assert again.returncode == 2 and again.stdout == "" and kept.read_bytes() == before
    assert "--resume" in again.stderr and "--restart" in again.stderr
    resumed = subprocess.run([SEASALT, *args, "--resume"], capture_output=True, text=True,
                             env=env)
    assert resumed.returncode == 0, resumed.stderr
    return resumed
