"""A quiet progress line on stderr for long runs: `progress(done, total)` callbacks of analyzer.studies.simulate.

The first call gives the starting point (work resumed from a checkpoint), so the time left is
estimated from the work done by this run only, measured from its first finished piece of work
(so a first run's compiling, which comes before it, does not distort the estimate). A runner may also call `.status(text)` (see
analyzer.runs.backends) while it waits for something other than work.

Nothing is drawn unless the stream is a terminal and the run has taken longer than `delay`
seconds, so short runs, pipes, files and tests see no output at all. The line is rewritten in
place (carriage return) and erased when the run ends; stdout is never touched.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class ProgressLine:
    """Callable `(done, total)`; use as a context manager so the line is erased at the end."""

    def __init__(self, what: str, stream: TextIO | None = None, delay: float = 1.0,
                 interval: float = 0.2, enabled: bool | None = None):
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.interval = interval
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.start = time.monotonic()
        self.last_draw = 0.0
        self.width = 0
        self.base: int | None = None    # `done` at the first call: work resumed, not done now
        self.ref: tuple[float, int] | None = None   # (time, done) of the first work finished

    def __enter__(self) -> "ProgressLine":
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.base is None:
            self.base = done
        now = time.monotonic()
        if self.ref is None and done > self.base:
            self.ref = (now, done)
        elapsed = now - self.start
        if elapsed < self.delay or (now - self.last_draw < self.interval and done < total):
            return
        self.last_draw = now
        frac = done / total if total else 1.0
        text = f"{self.what}: {done:,}/{total:,} ({100 * frac:.0f}%), {_duration(elapsed)}"
        if self.ref is not None and done > self.ref[1] and frac < 1:   # this run's own rate
            t_ref, done_ref = self.ref
            text += f", about {_duration((now - t_ref) * (total - done) / (done - done_ref))} left"
        self._write(text)

    def status(self, text: str) -> None:
        """Say what the run is waiting for (a cluster starting, a scheduler connecting) at once;
        the next progress report replaces it."""
        if self.enabled:
            self._write(f"{self.what}: {text}")

    def _write(self, text: str) -> None:
        pad = max(0, self.width - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        """Erase the line if anything was drawn."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
