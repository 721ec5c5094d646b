"""Start `seasalt serve` through its console script on a free port, for the serve tests."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

SEASALT = str(Path(sys.executable).with_name("seasalt"))
CHECKOUT = Path(__file__).resolve().parent.parent
EXAMPLE = CHECKOUT / "docs" / "example_position.json"


def env() -> dict:
    """The environment of the console script: the checkout under test first on the path."""
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CHECKOUT), e.get("PYTHONPATH")]))
    return e


@contextmanager
def running_server(timeout: float = 600):
    """The base URL of a `seasalt serve --port 0` process, stopped (by its pid) on exit. Waits
    for the engine to be warm so that timings measure answers, not compiling."""
    proc = subprocess.Popen([SEASALT, "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env())
    try:
        line = proc.stdout.readline()
        assert line.startswith("seasalt serve: http://127.0.0.1:"), (line, proc.stderr.read())
        url = line.split()[2].rstrip("/")
        deadline = time.monotonic() + timeout
        while True:                               # the warm-up holds the advice lock
            err = proc.stderr.readline()
            if "engine ready" in err or time.monotonic() > deadline or not err:
                break
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def request(url: str, path: str, body: bytes | str | None = None, method: str | None = None,
            headers: dict | None = None) -> tuple[int, str, dict]:
    """(status, body text, headers) of one request; errors are answers too."""
    if isinstance(body, str):
        body = body.encode()
    h = {"Content-Type": "application/json"} if body is not None else {}
    h.update(headers or {})
    req = urllib.request.Request(url + path, data=body, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read().decode(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


def cli_advice(path: Path | str, *args: str) -> str:
    """What `seasalt advise PATH ... --json` prints."""
    r = cli(["advise", str(path), *args, "--json"])
    assert r.returncode == 0, r.stderr
    return r.stdout


def cli(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([SEASALT, *args], capture_output=True, text=True, timeout=600, env=env())


def masked(text: str) -> str:
    """An advice's JSON text with its two wall-clock numbers blanked (nothing else varies)."""
    return re.sub(r'("(?:seconds|samples_per_second)": )[-+.eE0-9]+', r"\1#", text)


