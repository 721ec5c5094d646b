"""Compiling the engine. Numba compiles each kernel on its first use on a machine and loads it
from the on-disk cache afterwards (kernels/__init__.py). What compiling costs is measured once and
written in COMPILE below: the README, `--help` and the status line all quote it from there.

* `CompileWatch` listens to numba's compile events, so it knows exactly when compiling happens
  (loading from the cache fires none) and for how long: runs subtract that time from their
  rates (analyzer.runs.backends), and the CLI shows a status line while it lasts (`notice`).
* `seasalt warmup` (analyzer.faces.warmup) compiles every kernel a command uses through the
  commands' own functions, so a first real run starts at once.
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, TextIO

from numba.core import event

# What compiling costs, measured on this project's machine kind (2 cores, 24 GiB): the one place
# these figures live. The README quotes the phrases below word for word and `--help` and the
# status line print them (tests/faces/test_first_hour.py checks both); after a compile change, measure
# again with `python scripts/compile_times.py --out docs/compile-times.md` (each command's first
# run with an empty cache) and edit only these numbers.
COMPILE = {
    "warmup_wall_s": 168,          # a cold `seasalt warmup`, wall clock (docs/compile-times.md)
    "warmup_cpu_s": 168,           # ... its CPU time
    "warmup_peak_gb": 1.0,         # ... its peak memory (maximum resident set)
    "simulate_s": 14,              # a first `seasalt simulate` with nothing compiled, CPU-s
    "machine": "a 2-core machine",
}


def _minutes(seconds: float) -> str:
    return f"about {seconds / 60:.0f} minutes" if seconds >= 90 else f"about {seconds:.0f} s"


# "about 6 minutes (369 s wall, 367 CPU-seconds and 4.4 GB of memory at its peak on an idle
# 2-core machine; longer on a busy one)"
WARMUP_COST = (f"{_minutes(COMPILE['warmup_wall_s'])} ({COMPILE['warmup_wall_s']} s wall, "
               f"{COMPILE['warmup_cpu_s']} CPU-seconds and {COMPILE['warmup_peak_gb']} GB of "
               f"memory at its peak on {COMPILE['machine']}; longer on a busy one)")
SIMULATE_COST = f"{_minutes(COMPILE['simulate_s'])}"
WARMUP_SHORT = _minutes(COMPILE["warmup_wall_s"])

def readme_text() -> str:
    """The README's "Compiling" item, from COMPILE (analyzer.studies.guide_pages writes it there)."""
    import textwrap
    text = (f"- **Compiling**: the engine is compiled on its first use on a machine and loaded "
            f"from `~/.cache/seasalt` afterwards (about a second); an edit of a kernel file "
            f"recompiles only the kernels that import it (docs/compile.md). A "
            f"first `seasalt simulate` compiles for {SIMULATE_COST}; `seasalt warmup` compiles "
            f"every command's kernels up front, {WARMUP_COST}, and shows each kernel as it "
            f"compiles. A first run without it says so on its status line, and the speeds "
            f"printed never include compiling. (The figures: analyzer/runs/compiling.py, COMPILE.)")
    return textwrap.fill(text, 100, subsequent_indent="  ", break_on_hyphens=False)


NOTICE = (f"compiling the engine, first run here only (simulate: {SIMULATE_COST}; every command: "
          f"{WARMUP_SHORT})")


def kernel_name(ev) -> str:
    """The compiled function of a numba:compile event, as `module.function` (kernels. dropped)."""
    d = getattr(ev, "data", None) or {}
    f = getattr(d.get("dispatcher"), "py_func", None)
    if f is None:
        return "a kernel"
    module = f.__module__.removeprefix("kernels.")
    return f"{module}.{f.__qualname__}"


class CompileWatch(event.Listener):
    """Seconds spent compiling while installed (nested compiles counted once); `on_start(text)`
    is called when a compilation starts, `on_done()` when no thread compiles any more;
    `on_kernel(name, seconds)`, if given, as each top-level kernel starts (seconds None) and
    ends compiling."""

    def __init__(self, on_start: Callable[[str], None] | None = None,
                 on_done: Callable[[], None] | None = None,
                 on_kernel: Callable[[str, float | None], None] | None = None):
        self._on_kernel = on_kernel
        self._names: dict[int, str] = {}
        self.seconds = 0.0
        self.compiled = 0               # top-level compilations seen
        self._depth: dict[int, int] = {}
        self._start: dict[int, float] = {}
        self._on_start = on_start
        self._on_done = on_done
        self._lock = threading.Lock()

    def on_start(self, ev) -> None:
        tid = threading.get_ident()
        with self._lock:
            depth = self._depth.get(tid, 0)
            self._depth[tid] = depth + 1
            if depth == 0:
                self._start[tid] = time.perf_counter()
                self.compiled += 1
                self._names[tid] = kernel_name(ev)
        if depth == 0 and self._on_start is not None:
            self._on_start(NOTICE)
        if depth == 0 and self._on_kernel is not None:
            self._on_kernel(self._names[tid], None)

    def on_end(self, ev) -> None:
        tid = threading.get_ident()
        with self._lock:
            self._depth[tid] -= 1
            top = self._depth[tid] == 0
            if top:
                took = time.perf_counter() - self._start.pop(tid)
                self.seconds += took
                name = self._names.pop(tid)
                done = not any(self._depth.values())
            else:
                done = False
        if top and self._on_kernel is not None:
            self._on_kernel(name, took)
        if done and self._on_done is not None:
            self._on_done()


@contextmanager
def watching(on_start: Callable[[str], None] | None = None,
             on_done: Callable[[], None] | None = None,
             on_kernel: Callable[[str, float | None], None] | None = None
             ) -> Iterator[CompileWatch]:
    """A CompileWatch installed for the block."""
    watch = CompileWatch(on_start, on_done, on_kernel)
    with event.install_listener("numba:compile", watch):
        yield watch


QUIET = threading.Event()          # set by `seasalt warmup`, which shows every kernel instead


class Notice:
    """The CLI's status line while compiling: on stderr, only if it is a terminal, erased when
    compiling stops (the progress line of a run takes over); silent while QUIET is set."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty())
        self.width = 0

    def show(self, text: str) -> None:
        if self.enabled and not self.width and not QUIET.is_set():
            self.stream.write(f"\r{text} ...")
            self.stream.flush()
            self.width = len(text) + 4

    def erase(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


@contextmanager
def notice(stream: TextIO | None = None) -> Iterator[CompileWatch]:
    """Show NOTICE on a terminal whenever the block compiles the engine."""
    n = Notice(stream)
    try:
        with watching(n.show, n.erase) as watch:
            yield watch
    finally:
        n.erase()
