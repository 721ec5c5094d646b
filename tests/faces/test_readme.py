"""Every command block of the README and of the docs/ pages it sends a newcomer to (DOCS, in
that order, as one terminal session), run as a new user would.

Each block runs in a fresh directory (holding a copy of docs/, which the README's commands read)
with a fresh HOME: no ~/.cache/seasalt, no checkpoints, no matplotlib cache, and a PATH without
any virtual environment, so `seasalt` is found only because the README's own
`. .venv/bin/activate` put it there (`.venv` is the environment this suite runs in). Shell state
that the README sets up (activation, `export`, `cd`) carries over to later blocks, as in one
terminal session.

* `bash` blocks: every command must exit 0; `--out PATH` must exist afterwards and `> FILE` must
  not be empty. Servers (`dask scheduler`, `dask worker`) are started in the background, with
  the README's HOST and port 8786 replaced by 127.0.0.1 and a free port, and stopped at the end.
* `console` blocks: each `$ command` must print what the README shows below it (timing figures
  and, in lines that name an interrupted run, counts and paths are masked; a last line `...`
  means the output goes on beyond what is shown). A `^C` line means: start
  the command, press Ctrl-C (SIGINT) once its checkpoint holds a finished task, and expect the
  interrupt message and exit status 130. An expected `error:` line means exit status 2.
* `python` blocks run with the environment's Python; the `json` block is
  docs/example_position.json; the untagged synopsis names only options `--help` lists.

Two kinds of command are not run: the install (`pip install`, `python3 -m venv`: the suite runs
inside the installed environment, which CI builds from the same files with .ci/run) and the
test command itself (checked to be the one .ci/run calls).

Size. By default (CI) the compiled kernels are shared with the suite (NUMBA_CACHE_DIR), and
`--games` and `--rounds` are capped: at 2,000 and 200,000 in bash blocks, at 5,000 and 1,000,000
in console blocks (whose outputs are compared), at 10,000 games in a block where a run is
interrupted (so that it is still running when Ctrl-C comes). A command that was capped is checked
for its exit status and output shape, not its numbers. `SEASALT_README_FULL=1 python -m
pytest -m slow tests/faces/test_readme.py` runs everything at full size with a fresh compile cache too,
and compares every console output (the figures quoted from the strategy guide are checked
against its files by tests/faces/test_docs.py).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["README.md", "docs/usage.md", "docs/strategy.md", "docs/advisor.md", "docs/seastead.md",
        "docs/internals.md"]
TEXTS = {name: (ROOT / name).read_text(encoding="utf-8") for name in DOCS}
README = TEXTS["README.md"]


FULL = os.environ.get("SEASALT_README_FULL") == "1"
CAPS = {"games": 2_000, "rounds": 200_000}             # commands whose output is not shown
SHOWN_CAPS = {"games": 5_000, "rounds": 1_000_000}     # console commands, outputs compared
INTERRUPT_CAP = {"games": 10_000, "rounds": 20_000_000}
SERVERS = ("dask scheduler", "dask worker")
INSTALL = re.compile(r"^(python3? -m venv|(\S*/)?pip install)")
SESSION = re.compile(r"^(\.|source|export|cd)\s")
TIMEOUT = 900


@dataclass
class Block:
    lang: str
    body: str
    line: int


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a markdown text (indented fences included)."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if m:
            indent, lang, start = m.group(1), m.group(2), i + 1
            i += 1
            body = []
            while not re.match(rf"^{indent}```\s*$", lines[i]):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            out.append(Block(lang, "\n".join(body), start))
        i += 1
    return out


def logical(lines: list[str]) -> list[str]:
    """Lines with backslash continuations joined."""
    out, cur = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1].strip() + " "
        else:
            out.append((cur + line.strip()).strip())
            cur = ""
    return out


def cap(cmd: str, caps: dict[str, int]) -> tuple[str, bool]:
    """The command with --games/--rounds (and games=/rounds= in Python) capped; whether it
    changed."""
    if FULL:
        return cmd, False
    changed = False

    def sub(m):
        nonlocal changed
        key, sep, value = m.group(1), m.group(2), int(m.group(3).replace("_", ""))
        if value > caps[key]:
            changed = True
            return f"{key}{sep}{caps[key]}"
        return m.group(0)
    return re.sub(r"\b(games|rounds)(\s+|=)([\d_]+)", sub, cmd), changed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mask(text: str, home: str) -> list[str]:
    """Lines to compare: timing masked, the fresh HOME written as the README's /home/me, and in
    lines about an interrupted run every count and the checkpoint's name masked."""
    out = []
    for line in text.rstrip("\n").splitlines():
        line = line.replace(home, "/home/me").rstrip()
        if line.startswith("time "):
            line = re.sub(r"[\d,.]+", "N", line)
        line = re.sub(r"^(seed \d+, seasalt \S+), [\d.]+ s$", r"\1, T s", line)
        if line.startswith(("interrupted after", "error: an earlier run")):
            line = re.sub(r"checkpoints/[0-9a-f]+\.jsonl", "checkpoints/X.jsonl", line)
            line = re.sub(r"\d[\d,]*", "N", line)
            line = re.sub(r"\btasks?\b", "tasks", line)
        out.append(line)
    return out


@dataclass
class Session:
    """One user's terminal: a fresh HOME and working directory, shell state, servers."""
    tmp: Path
    env: dict = field(default_factory=dict)
    state: list[str] = field(default_factory=list)      # activation, exports, cd
    servers: list[subprocess.Popen] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    host_port: int = 0
    seconds: list[tuple[float, str]] = field(default_factory=list)

    def __post_init__(self):
        self.home = self.tmp / "home"
        self.work = self.tmp / "work"
        self.home.mkdir()
        self.work.mkdir()
        shutil.copytree(ROOT / "docs", self.work / "docs")
        # the installed environment, where the README's install would have put it
        os.symlink(sys.prefix, self.work / ".venv")
        venvs = {str(Path(sys.prefix) / "bin"), os.environ.get("VIRTUAL_ENV", "") + "/bin"}
        path = [p for p in os.environ.get("PATH", os.defpath).split(os.pathsep)
                if p and p not in venvs]
        env = {k: v for k, v in os.environ.items()
               if k not in ("VIRTUAL_ENV", "XDG_CACHE_HOME", "SEASALT_CHECKPOINT_DIR",
                            "MPLCONFIGDIR", "PYTHONPATH", "NUMBA_CACHE_DIR")}
        env.update(HOME=str(self.home), PATH=os.pathsep.join(path), PYTHONHASHSEED="0")
        if not FULL:
            import numba
            import kernels  # noqa: F401  (sets numba's cache directory)
            env["NUMBA_CACHE_DIR"] = numba.config.CACHE_DIR
        self.env = env
        self.host_port = free_port()

    def script(self, cmd: str) -> str:
        cmd = cmd.replace("HOST:8786", f"127.0.0.1:{self.host_port}")
        return "set -o pipefail\n" + "\n".join(self.state) + f"\n{cmd}\n"

    def popen(self, cmd: str, **kw) -> subprocess.Popen:
        return subprocess.Popen(["bash", "-c", self.script(cmd)], cwd=self.work, env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)

    def run(self, cmd: str) -> subprocess.CompletedProcess:
        self.ran.append(cmd)
        t0 = time.monotonic()
        p = self.popen(cmd)
        out, err = p.communicate(timeout=TIMEOUT)
        self.seconds.append((time.monotonic() - t0, cmd))
        return subprocess.CompletedProcess(cmd, p.returncode, out, err)

    def start_server(self, cmd: str) -> None:
        cmd = cmd.split("#")[0].strip()
        if cmd.startswith("dask scheduler"):              # each scheduler on a port of its own
            self.host_port = free_port()
            cmd += f" --port {self.host_port} --dashboard-address 127.0.0.1:0"
        self.ran.append(cmd)
        p = subprocess.Popen(["bash", "-c", self.script(f"exec {cmd}")], cwd=self.work,
                             env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        self.servers.append(p)
        if cmd.startswith("dask scheduler"):
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", self.host_port)) == 0:
                        return
                assert p.poll() is None, f"{cmd} exited with {p.returncode}"
                time.sleep(0.2)
            raise AssertionError(f"{cmd}: nothing listens on port {self.host_port}")

    def stop_servers(self) -> None:
        for p in reversed(self.servers):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.servers:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.servers.clear()

    def checkpoint_tasks(self) -> int:
        d = self.home / ".cache" / "seasalt" / "checkpoints"
        files = list(d.glob("*.jsonl")) if d.is_dir() else []
        return max((len(f.read_bytes().splitlines()) - 1 for f in files), default=0)


def _check_outputs(s: Session, cmd: str, r: subprocess.CompletedProcess) -> None:
    assert r.returncode == 0, f"{cmd}\nexit {r.returncode}\n{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr, r.stderr
    for target in re.findall(r"(?:--out|\s-out)\s+(\S+)", cmd):
        assert (s.work / target).exists(), f"{cmd}: {target} was not written"
    redirect = re.search(r">\s*(\S+)\s*$", cmd.split("#")[0])
    if redirect:
        assert (s.work / redirect.group(1)).stat().st_size > 0, cmd
    elif cmd.startswith("seasalt ") and "--out" not in cmd:
        assert r.stdout.strip(), f"{cmd}: printed nothing"


def run_bash(s: Session, block: Block, report: list) -> None:
    for line in logical(block.body.splitlines()):
        cmd = line.split("#")[0].strip() if line.lstrip().startswith("#") else line.strip()
        if not cmd:
            continue
        if INSTALL.match(cmd):
            parts = [c.strip() for c in cmd.split("&&")]
            rest = [c for c in parts if not INSTALL.match(c)]
            report.append(("install, not run: the suite's environment", cmd))
            if not rest:
                continue
            cmd = " && ".join(rest)
        if "-m pytest" in cmd:
            ci = (ROOT / ".ci" / "run").read_text()
            assert cmd.split("#")[0].strip() in ci, "the README's test command is not .ci/run's"
            report.append(("the test command: this suite", cmd))
            continue
        if SESSION.match(cmd):
            s.state.append(cmd)
            report.append(("shell state", cmd))
            continue
        if cmd.startswith(SERVERS):
            s.start_server(cmd)
            report.append(("server", cmd))
            continue
        cmd, capped = cap(cmd, CAPS)
        r = s.run(cmd)
        _check_outputs(s, cmd, r)
        report.append(("ran" + (" (sizes capped)" if capped else ""), cmd))


def run_console(s: Session, block: Block, report: list) -> None:
    items: list[tuple[str, list[str]]] = []
    pending: list[str] = []
    for line in block.body.splitlines():
        if line.startswith("$ ") or (pending and pending[-1].rstrip().endswith("\\")):
            pending.append(line[2:] if line.startswith("$ ") else line)
            if not line.rstrip().endswith("\\"):
                items.append((logical(pending)[0], []))
                pending = []
        else:
            assert items, f"README line {block.line}: output before any command"
            items[-1][1].append(line)
    assert items, f"README line {block.line}: a console block without a command"
    # a block that interrupts a run caps all its commands alike, so that they are the same run
    caps = INTERRUPT_CAP if any(e and e[0].strip() == "^C" for _, e in items) else SHOWN_CAPS
    for cmd, expected in items:
        interrupt = bool(expected) and expected[0].strip() == "^C"
        if interrupt:
            expected = expected[1:]
        cmd, capped = cap(cmd, caps)
        want = mask("\n".join(expected), str(s.home))
        if interrupt:
            s.ran.append(cmd)
            p = s.popen(cmd, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            deadline = time.monotonic() + TIMEOUT
            while s.checkpoint_tasks() < 1 and p.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            assert p.poll() is None, f"{cmd} ended before it could be interrupted"
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=TIMEOUT)
            assert p.returncode == 130, (cmd, p.returncode, err)
            # click ends the ^C line with a newline (a terminal shows "^C" there), then the message
            assert out == "" and mask(err.lstrip("\n"), str(s.home)) == want, (cmd, err)
            report.append(("ran, interrupted with SIGINT", cmd))
            continue
        r = s.run(cmd)
        if want and want[0].startswith("error:"):
            assert r.returncode == 2 and r.stdout == "", (cmd, r.returncode, r.stderr)
            assert mask(r.stderr, str(s.home)) == want, (cmd, r.stderr)
            report.append(("ran, refused as shown", cmd))
            continue
        _check_outputs(s, cmd, r)
        got = mask(r.stdout, str(s.home))
        if want and want[-1] == "...":              # the README shows the beginning only
            want = want[:-1]
            assert len(got) > len(want), (cmd, r.stdout)
            got = got[:len(want)]
        if expected and not capped:
            assert got == want, f"{cmd}\n--- README\n" + "\n".join(want) + "\n--- got\n" + \
                "\n".join(got)
        elif expected:
            assert len(got) > 3, (cmd, r.stdout)
        report.append((("ran, output as shown" if expected and not capped else
                        "ran (sizes capped)" if capped else "ran"), cmd))


def run_python(s: Session, block: Block, report: list) -> None:
    code, capped = cap(block.body, CAPS | {"games": 2_000})
    f = s.work / f"readme_{block.line}.py"
    f.write_text(code)
    r = s.run(f"python {f.name}")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip(), "the Python block printed nothing"
    report.append(("ran with python" + (" (sizes capped)" if capped else ""), f.name))


def check_synopsis(s: Session, block: Block, report: list) -> None:
    text = block.body
    command = text.split()[1]
    r = s.run(f"seasalt {command} --help")
    assert r.returncode == 0
    for opt in set(re.findall(r"--[a-z][a-z-]*", text)):
        assert opt in r.stdout, f"synopsis of {command}: {opt} is not an option"
    report.append(("synopsis checked against --help", f"seasalt {command}"))


def run_readme(tmp: Path) -> list[tuple[str, str]]:
    s = Session(tmp)
    report: list[tuple[str, str]] = []
    try:
        for name, b in ((n, b) for n, text in TEXTS.items() for b in blocks(text)):
            if b.lang == "bash":
                run_bash(s, b, report)
            elif b.lang == "console":
                run_console(s, b, report)
            elif b.lang == "python":
                run_python(s, b, report)
            elif b.lang == "json":
                assert json.loads(b.body) == json.loads((ROOT / "docs" /
                                                         "example_position.json").read_text())
                report.append(("equals docs/example_position.json", "json"))
            elif b.lang == "" and b.body.startswith("seasalt "):
                check_synopsis(s, b, report)
            else:
                raise AssertionError(f"{name} line {b.line}: a {b.lang or 'plain'} block the "
                                     f"test does not know how to check")
    finally:
        s.stop_servers()
        for t, cmd in sorted(s.seconds, reverse=True)[:8]:      # shown by pytest -rA or -s
            print(f"{t:6.1f} s  {cmd}")
    return report


def _assert_not_vacuous(report: list[tuple[str, str]]) -> None:
    kinds = [k for k, _ in report]
    ran = [c for k, c in report if k.startswith("ran")]
    assert len(ran) >= 20, report
    assert sum(k == "ran, output as shown" for k in kinds) >= 3, report
    assert "ran, interrupted with SIGINT" in kinds and "ran, refused as shown" in kinds
    assert any("--resume" in c for c in ran)
    assert "server" in kinds and any("--scheduler tcp://" in c for c in ran)
    assert any("--scheduler tls://" in c for c in ran)             # the TLS recipe works
    assert any(c.startswith(". .venv/bin/activate") for k, c in report if k == "shell state")


def _need_environment():
    if not (Path(sys.prefix) / "bin" / "activate").is_file() or \
            not (Path(sys.prefix) / "bin" / "seasalt").is_file():
        pytest.skip("the suite does not run in a virtual environment with seasalt installed")
    try:
        import distributed  # noqa: F401
    except ImportError:
        pytest.skip("the README's cluster block needs the dask extra (CI installs it)")


@pytest.mark.skipif(FULL, reason="SEASALT_README_FULL=1 runs the full-size version")
def test_every_readme_block_works_for_a_new_user(tmp_path):
    _need_environment()
    report = run_readme(tmp_path)
    _assert_not_vacuous(report)


@pytest.mark.slow
@pytest.mark.skipif(not FULL, reason="set SEASALT_README_FULL=1 (and -m slow) to run at full size")
def test_every_readme_block_at_full_size(tmp_path):
    _need_environment()
    report = run_readme(tmp_path)
    _assert_not_vacuous(report)
    assert not any("capped" in k for k, _ in report)


# --- the harness itself can fail ----------------------------------------------------------------

def test_the_harness_reads_blocks_and_masks_only_what_varies():
    text = "x\n```bash\na \\\n  b\n```\n  ```console\n  $ seasalt x\n  out\n  ```\n"
    bs = blocks(text)
    assert [(b.lang, b.body) for b in bs] == [("bash", "a \\\n  b"),
                                              ("console", "$ seasalt x\nout")]
    assert logical(bs[0].body.splitlines()) == ["a b"]
    assert mask("seed 1, seasalt 0.1.0, 0.33 s", "/h") == ["seed 1, seasalt 0.1.0, T s"]
    assert mask("7.63 [7.62, 7.63]", "/h") == ["7.63 [7.62, 7.63]"]   # estimates stay exact
    if not FULL:
        assert cap("seasalt sweep --games 2000000", CAPS) == ("seasalt sweep --games 2000", True)
        assert cap("sweep(games=20_000)", {"games": 2000}) == ("sweep(games=2000)", True)
        assert cap("--rounds 1000", CAPS) == ("--rounds 1000", False)
