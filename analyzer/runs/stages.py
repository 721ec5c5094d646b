"""Studies made of several runs one after another (an optimizer's generations, a guide's
studies): each *stage* is one analyzer.runs.backends.Runner run, and a journal keeps every finished
stage's counters so that an interrupted study continues where it stopped.

    staged = Staged(settings, describe, total, backend, progress)
    with staged:
        counters = staged.run("generation 3", batches)     # list of summed counters per batch

The journal is JSON lines, with the Runner checkpoint's guarantees (analyzer.runs.checkpoint): a
header (`seasalt_study`, the fingerprint of the study's settings and engine, the settings
themselves, who runs it), written and locked before the first stage starts, so a study stopped
in its very first stage resumes; then one line per finished stage (its key, the fingerprint of
its batches, their counters, the study's run id and a checksum of all of it). A stage whose key
and batches match a journal line is not run again; the study's next stages follow
deterministically from the earlier ones, so a resumed study gives exactly the uninterrupted
answer. The stage being run when the study stopped keeps its own Runner checkpoint next to the
journal (`JOURNAL.stage`), so even a long stage resumes task by task. On resume the journal is
never read through a symbolic link, only as a regular file, one bounded line at a time; a
damaged line (bad JSON, a wrong type, an edited counter, a vector of the wrong length, a line
over LINE_LIMIT) is refused naming its number, and another study's journal naming what differs.

The study's Backend (analyzer.runs.spec) runs every stage; its `checkpoint` names the journal,
`resume` continues it and `restart` discards it. Without `checkpoint` the journal lives in the
checkpoint directory of analyzer.runs.checkpoint, named by the settings' fingerprint, and is
deleted by `finish()` once the study's output is written (never before: a failure to write the
output loses nothing); with it, the journal is that file and is kept. Progress is reported over
the whole study: `total` units (games or rounds) planned in all, finished stages counting as done.
"""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
import pathlib
import signal
import socket
import stat
import time
from typing import Sequence

import numpy as np

from kernels import ENGINE_HASH

from .. import __version__
from . import checkpoint as ckpt
from .batches import Progress, fingerprint
from .spec import Backend, as_backend
from ..base.errors import RunInterrupted, SeasaltError

FORMAT = 2
LINE_LIMIT = 64 << 20          # bytes: a journal line holds one stage's counters (well under this)
INT64 = 2 ** 63


def settings_fingerprint(settings: dict) -> str:
    """A hash of a study's settings (JSON-able), the seasalt version and the engine."""
    text = json.dumps({"settings": settings, "version": __version__, "engine": ENGINE_HASH},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def line_check(fp: str, key: str, bfp: str, counters: Sequence[Sequence[int]]) -> str:
    """The checksum of one journal line: its study, its stage, its batches and its counters."""
    text = f"{fp}/{key}/{bfp}/" + ";".join(",".join(str(int(x)) for x in c) for c in counters)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plain(settings: dict) -> dict:
    return json.loads(json.dumps(settings, sort_keys=True, default=str))


def _difference(head: dict, settings: dict) -> str:
    """What differs between the study that wrote a journal (its header) and this one."""
    theirs = head.get("settings") if isinstance(head.get("settings"), dict) else {}
    ours = _plain(settings)
    diff = [f"{k} {ckpt.show_value(theirs.get(k))} there, {ckpt.show_value(ours.get(k))} here"
            for k in dict.fromkeys([*ours, *theirs]) if theirs.get(k) != ours.get(k)]
    if diff:
        return "; ".join(diff)
    if head.get("version") != __version__ or head.get("engine") != ENGINE_HASH:
        return (f"written by seasalt {head.get('version')} (engine {head.get('engine', '?')}), "
                f"this is seasalt {__version__} (engine {ENGINE_HASH})")
    return "another study of the same options"


class Staged:
    """Runs the stages of one study through a Runner each, journaled (see the module doc)."""

    def __init__(self, settings: dict, describe: dict, total: int,
                 backend: Backend | None = None, progress: Progress | None = None):
        self.settings = settings
        self.fp = settings_fingerprint(settings)
        self.describe = describe
        self.total = total
        self.backend = backend = as_backend(backend)
        self.progress = progress
        self.explicit = backend.checkpoint is not None
        self.path = pathlib.Path(backend.checkpoint) if self.explicit else \
            ckpt.default_dir() / f"study-{self.fp[:20]}.jsonl"
        self.stage_path = self.path.with_name(self.path.name + ".stage")
        self.done_units = 0
        self.runs = 0                 # stages computed (not taken from the journal)
        self.seconds = 0.0
        self.tasks = self.tasks_resumed = 0
        self.workers = None
        # stage key -> (batches fingerprint, counters, journal line number)
        self._journal: dict[str, tuple[str, list[list[int]], int]] = {}
        self._fd = -1
        backend.runner().check()
        if backend.resume:
            if not (self.path.exists() or self.path.is_symlink()):
                where = f"checkpoint {self.path} does not exist" if self.explicit else \
                    f"no checkpoint of this run (same command, options and --seed) in " \
                    f"{ckpt.default_dir()}"
                raise SeasaltError(f"nothing to resume: {where}")
            self._load()
        else:
            self._start_afresh(backend.restart)

    # -- the journal -----------------------------------------------------------------------
    def _header(self) -> dict:
        return {"seasalt_study": FORMAT, "fingerprint": self.fp, "run": self.describe,
                "settings": _plain(self.settings), "version": __version__,
                "engine": ENGINE_HASH, "pid": os.getpid(), "host": socket.gethostname(),
                "started": time.strftime("%Y-%m-%dT%H:%M:%S")}

    def _refuse_links(self) -> None:
        for p in (self.path, self.stage_path):
            if p.is_symlink():
                raise SeasaltError(f"checkpoint {p} is a symbolic link; seasalt never reads or "
                                   f"writes through one (give the file itself)")

    def _start_afresh(self, restart: bool) -> None:
        """A new study: its journal is claimed (written, locked) before any work, so a study
        stopped in its first stage resumes; an earlier study's journal is refused (like a
        Runner's checkpoint) unless `restart`, which discards it."""
        self._refuse_links()
        for p in (self.path, self.stage_path):
            if p.exists() and not p.is_file():
                raise SeasaltError(f"checkpoint {p} exists and is not a regular file; remove it")
        if self.path.exists() and ckpt.is_locked(self.path):
            raise SeasaltError(f"checkpoint {self.path} is in use by a study under way "
                               f"({self._owner()}); wait for it, or give another --checkpoint "
                               f"FILE")
        if self.path.exists() or self.stage_path.exists():
            if self.path.exists() and ckpt.read_head(self.path, "seasalt_study") is None:
                raise SeasaltError(f"checkpoint {self.path} exists and is not a seasalt study "
                                   f"checkpoint; seasalt never overwrites it (give another "
                                   f"--checkpoint FILE)")
            if not restart:
                if self.explicit:
                    raise SeasaltError(f"checkpoint {self.path} already exists: add --resume to "
                                       f"continue that run, or --restart to discard it and "
                                       f"start afresh")
                raise SeasaltError(f"an earlier run of this command (same options and --seed) "
                                   f"was interrupted; its finished work is kept in {self.path}: "
                                   f"add --resume to continue it, or --restart to discard it "
                                   f"and start afresh")
            self.stage_path.unlink(missing_ok=True)
        ckpt.prepare_dir(self.path, cache=not self.explicit)
        try:
            self._fd = self._claim(self.path.exists())
        except OSError as e:
            raise SeasaltError(f"cannot write checkpoint {self.path}: {e.strerror or e}") \
                from None

    def _claim(self, replace: bool) -> int:
        """The journal written with its header, locked and put in place (over an earlier one
        only when `replace`: --restart): the open descriptor."""
        return ckpt.create_locked(self.path, self._header(), replace)

    def _owner(self) -> str:
        head = ckpt.read_head(self.path, "seasalt_study") or {}
        return (f"pid {head.get('pid', '?')} on {head.get('host', '?')}, started "
                f"{head.get('started', '?')}")

    def _damaged(self, n: int, why: str) -> SeasaltError:
        return SeasaltError(f"checkpoint {self.path} is damaged at line {n} ({why}); --restart "
                            f"discards it")

    def _load(self) -> None:
        """Open the journal to continue it: never through a link, a regular file only, locked,
        every line read bounded and verified; a torn last line is cut off."""
        self._refuse_links()
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
                         | os.O_NONBLOCK)
        except OSError as e:
            raise SeasaltError(f"cannot open checkpoint {self.path}: {e.strerror or e}") \
                from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SeasaltError(f"checkpoint {self.path} is not a regular file")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise SeasaltError(f"checkpoint {self.path} is in use by a study under way "
                                   f"({self._owner()})") from None
            with open(os.dup(fd), "rb") as f:
                valid = self._read(f)
            os.ftruncate(fd, valid)
        except OSError as e:
            os.close(fd)
            raise SeasaltError(f"cannot use checkpoint {self.path}: {e.strerror or e}") from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def _read(self, f) -> int:
        first = f.readline(LINE_LIMIT)
        if not first.endswith(b"\n"):
            raise SeasaltError(f"checkpoint {self.path} is empty or damaged (no header line); "
                               f"--restart discards it")
        try:
            head = json.loads(first)
        except (ValueError, RecursionError):
            head = None
        if not isinstance(head, dict) or "seasalt_study" not in head:
            raise SeasaltError(f"{self.path} is not a seasalt study checkpoint")
        if head["seasalt_study"] != FORMAT:
            raise SeasaltError(f"checkpoint {self.path} was written by another seasalt (study "
                               f"format {ckpt.show_value(head['seasalt_study'])[:20]}, this one reads "
                               f"{FORMAT}): it cannot be resumed; --restart discards it")
        if head.get("fingerprint") != self.fp:
            raise SeasaltError(f"checkpoint {self.path} belongs to a different run: "
                               f"{_difference(head, self.settings)}; only the same command, "
                               f"options, seed and seasalt version can resume it (use another "
                               f"checkpoint file, or --restart to discard it)")
        valid = len(first)
        for n, line in enumerate(iter(lambda: f.readline(LINE_LIMIT), b""), 2):
            if not line.endswith(b"\n"):
                if len(line) >= LINE_LIMIT:
                    raise self._damaged(n, f"a line over {LINE_LIMIT >> 20} MiB")
                break                   # the line being written when the study stopped
            valid += len(line)
            try:
                rec = json.loads(line)
            except (ValueError, RecursionError):
                raise self._damaged(n, "not a journal line") from None
            if not isinstance(rec, dict) or not isinstance(rec.get("run"), str):
                raise self._damaged(n, "not a journal line")
            if rec["run"] != self.fp[:16]:
                raise SeasaltError(f"checkpoint {self.path}, line {n}: a stage of another study "
                                   f"(run {rec['run'][:16]!r}, this one is {self.fp[:16]!r}); "
                                   f"the file mixes two studies (--restart discards it)")
            key, bfp, counters = rec.get("stage"), rec.get("batches"), rec.get("counters")
            if not isinstance(key, str) or not isinstance(bfp, str) or \
                    not isinstance(counters, list) or \
                    not all(isinstance(c, list) and all(type(x) is int and -INT64 <= x < INT64
                                                        for x in c) for c in counters):
                raise self._damaged(n, "a field of the wrong type or out of range")
            if rec.get("check") != line_check(self.fp, key, bfp, counters):
                raise self._damaged(n, "checksum mismatch: edited or corrupted")
            if key in self._journal:
                raise self._damaged(n, f"stage {key!r} twice")
            self._journal[key] = (bfp, counters, n)
        return valid

    def _append(self, key: str, bfp: str, counters: Sequence[np.ndarray]) -> None:
        values = [[int(x) for x in c] for c in counters]
        line = json.dumps({"stage": key, "batches": bfp, "counters": values,
                           "run": self.fp[:16], "check": line_check(self.fp, key, bfp, values)})
        try:
            ckpt.write_all(self._fd, (line + "\n").encode())
        except OSError as e:
            raise SeasaltError(f"cannot write checkpoint {self.path}: {e.strerror or e}") \
                from None

    # -- running ---------------------------------------------------------------------------
    def run(self, key: str, batches: Sequence) -> list[np.ndarray]:
        """The summed counters of every batch of stage `key`: from the journal if it has this
        stage with these batches, else computed (and journaled)."""
        bfp = fingerprint(batches)
        units = sum(b.count for b in batches)
        known = self._journal.get(key)
        if known is not None and known[0] == bfp:
            widths = [b.width for b in batches]
            if [len(c) for c in known[1]] != widths:
                raise self._damaged(known[2], f"stage {key!r} holds {len(known[1])} counter "
                                              f"vectors of lengths that do not fit its "
                                              f"{len(batches)} batches")
            self.done_units += units
            if self.progress is not None:
                self.progress(self.done_units, self.total)
            return [np.asarray(c, dtype=np.int64) for c in known[1]]
        if known is not None:
            raise SeasaltError(f"checkpoint {self.path}: stage {key!r} (line {known[2]}) was "
                               f"run with other batches: not the same study; --restart "
                               f"discards it")
        offset = self.done_units

        def progress(done: int, _total: int) -> None:
            if self.progress is not None:
                self.progress(offset + done, self.total)
        if self.progress is not None and hasattr(self.progress, "status"):
            progress.status = self.progress.status      # type: ignore[attr-defined]
        runner = dataclasses.replace(self.backend, checkpoint=str(self.stage_path),
                                     resume=self.stage_path.exists(),
                                     restart=False).runner(progress)     # the stage's own
        try:
            outcome = runner.run(batches, {**self.describe, "stage": key})
        except RunInterrupted as e:
            self.close()
            how = f"terminated by {signal.Signals(e.signum).name}" if e.signum else "interrupted"
            raise RunInterrupted(
                f"{how} in {key}; the finished work is kept in {self.path}: to continue, "
                f"run the same command with --resume"
                + ("" if self.explicit else f" --seed {self.describe.get('seed')}"),
                str(self.path), e.signum) from None
        self._append(key, bfp, outcome.counters)
        self.stage_path.unlink(missing_ok=True)
        self._journal[key] = (bfp, [[int(x) for x in c] for c in outcome.counters], 0)
        self.done_units += units
        self.runs += 1
        self.seconds += outcome.seconds
        self.tasks += outcome.timing.get("tasks", 0)
        self.tasks_resumed += outcome.timing.get("tasks_resumed", 0)
        self.workers = outcome.timing.get("jobs")
        return outcome.counters

    def timing(self) -> dict:
        """Wall time and backend of the stages computed by this process."""
        return {"seconds": self.seconds, "stages_run": self.runs,
                "stages_resumed": len(self._journal) - self.runs, "tasks": self.tasks,
                "tasks_resumed": self.tasks_resumed,
                "jobs": self.workers, "backend": self.backend.runner().backend_name()}

    def close(self) -> None:
        """Close (and unlock) the journal; it stays where it is."""
        if self._fd >= 0:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = -1

    def finish(self) -> None:
        """The study's output is written: a cache journal is no longer needed (an explicit
        --checkpoint file is kept)."""
        if not self.explicit and self._fd >= 0:
            try:
                if os.path.samestat(os.fstat(self._fd), os.lstat(self.path)):
                    os.unlink(self.path)
            except OSError:
                pass
        self.close()

    def __enter__(self) -> "Staged":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        """Closes the journal, keeping it even when the study completed: the caller calls
        finish() once the study's output is written, so a failure to write it loses nothing."""
        self.close()
