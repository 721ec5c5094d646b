"""Compiling the engine. Numba compiles each kernel on its first use on a machine and loads it
from the on-disk cache afterwards (kernels/__init__.py). What compiling costs is measured once and
written in analyzer.render.compile_costs.COMPILE: the README, `--help` and the status line all
quote it from there.

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

from kernels import ON_LOAD

from ..render.compile_costs import NOTICE, command_notice, first_run_key


def kernel_name(ev) -> str:
    """The compiled function of a numba:compile event, as `module.function` (kernels. dropped)."""
    d = getattr(ev, "data", None) or {}
    f = getattr(d.get("dispatcher"), "py_func", None)
    if f is None:
        return "a kernel"
    module = f.__module__.removeprefix("kernels.")
    return f"{module}.{f.__qualname__}"


class CompileWatch:
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

    def notify(self, ev) -> None:
        """numba's Listener protocol (the class is registered as one when installed)."""
        if ev.is_start:
            self.on_start(ev)
        elif ev.is_end:
            self.on_end(ev)

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
    """A CompileWatch installed for the block: at once if the engine is loaded, else when it
    loads (kernels.ON_LOAD), so that a command which stops before the engine (an option's
    error, a listing) never imports numba."""
    watch = CompileWatch(on_start, on_done, on_kernel)
    installed = []

    def install() -> None:
        from numba.core import event
        event.Listener.register(CompileWatch)
        event.register("numba:compile", watch)
        installed.append(event)

    if "kernels.cache" in sys.modules:
        install()
    else:
        ON_LOAD.append(install)
    try:
        yield watch
    finally:
        if install in ON_LOAD:
            ON_LOAD.remove(install)
        for event in installed:
            event.unregister("numba:compile", watch)


QUIET = threading.Event()          # set by `seasalt warmup`, which shows every kernel instead


class Notice:
    """The CLI's status line while compiling: on stderr, only if it is a terminal, erased when
    compiling stops (the progress line of a run takes over); silent while QUIET is set. With a
    `command`, the line names it, its own estimate and the kernel compiling now, and `summary`
    is the line that stays: what was compiled and how long it took."""

    def __init__(self, stream: TextIO | None = None, command: str | None = None,
                 key: str | None = None):
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty and isatty())
        self.width = 0
        self.command, self.key = command, key
        self.kernels: list[tuple[str, float]] = []

    def show(self, text: str) -> None:
        if self.command is not None:
            return                       # kernel() shows the command's own line
        if self.enabled and not self.width and not QUIET.is_set():
            self.stream.write(f"\r{text} ...")
            self.stream.flush()
            self.width = len(text) + 4

    def kernel(self, name: str, seconds: float | None) -> None:
        """A kernel starts (seconds None) or ends compiling."""
        if self.command is None or QUIET.is_set():
            return
        if seconds is not None:
            self.kernels.append((name, seconds))
            return
        if self.enabled:
            from ..render.text_tables import WIDTH
            text = command_notice(self.command, self.key, name)
            text = text if len(text) + 4 <= WIDTH else text[:WIDTH - 7] + "..."
            self.stream.write("\r" + f"{text} ...".ljust(self.width))
            self.stream.flush()
            self.width = len(text) + 4

    def summary(self) -> list[str]:
        """What was compiled and in how long, the slowest kernels named (as warmup shows them)."""
        if not self.kernels:
            return []
        from ..render.text_tables import wrap
        total = sum(t for _, t in self.kernels)
        slow = sorted(self.kernels, key=lambda k: -k[1])
        named = ", ".join(f"{n} {_secs(t)}" for n, t in slow[:4])
        more = f" and {len(slow) - 4} more" if len(slow) > 4 else ""
        n = len(self.kernels)
        return wrap(f"compiled {n} kernel{'s' * (n != 1)} for {self.command} in {_secs(total)} "
                    f"({named}{more}); first run here only: later runs load them, and "
                    f"'seasalt warmup' compiles every command's")

    def erase(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _secs(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"


@contextmanager
def notice(stream: TextIO | None = None, args: list[str] | None = None) -> Iterator[CompileWatch]:
    """Show a status line on a terminal whenever the block compiles the engine. With the
    command line `args`: the command's own estimate and each kernel as it compiles, and at the
    end the lines that stay, saying what was compiled and how long it took."""
    command = next((a for a in args if not a.startswith("-")), None) if args else None
    n = Notice(stream, command, first_run_key(args) if command else None)
    try:
        with watching(n.show, n.erase, n.kernel) as watch:
            yield watch
    finally:
        n.erase()
        if n.enabled:                   # a terminal: a pipe's reader gets the run's own timing
            for line in n.summary():
                n.stream.write(line + "\n")
            n.stream.flush()
