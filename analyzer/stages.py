"""Studies made of several runs one after another (an optimizer's generations, a guide's
studies): each *stage* is one analyzer.backends.Runner run, and a journal keeps every finished
stage's counters so that an interrupted study continues where it stopped.

    staged = Staged(settings, describe, total, jobs, scheduler, checkpoint, resume, progress)
    with staged:
        counters = staged.run("generation 3", batches)     # list of summed counters per batch

The journal is JSON lines: a header (`seasalt_study`, the fingerprint of the study's settings
and engine, a readable description), then one line per finished stage (its key, the fingerprint
of its batches, their counters). A stage whose key and batches match a journal line is not run
again; the study's next stages follow deterministically from the earlier ones, so a resumed
study gives exactly the uninterrupted answer. The stage being run when the study stopped keeps
its own Runner checkpoint next to the journal (`JOURNAL.stage`), so even a long stage resumes
task by task.

Without `checkpoint` the journal lives in the checkpoint directory of analyzer.checkpoint,
named by the settings' fingerprint, and is deleted when the study completes; with it, the
journal is that file and is kept. Progress is reported over the whole study: `total` units
(games or rounds) planned in all, finished stages counting as done.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
from typing import Sequence

import numpy as np

from kernels import ENGINE_HASH

from . import __version__
from . import checkpoint as ckpt
from .backends import Progress, Runner, fingerprint
from .errors import RunInterrupted, SeasaltError

FORMAT = 1


def settings_fingerprint(settings: dict) -> str:
    """A hash of a study's settings (JSON-able), the seasalt version and the engine."""
    text = json.dumps({"settings": settings, "version": __version__, "engine": ENGINE_HASH},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Staged:
    """Runs the stages of one study through a Runner each, journaled (see the module doc)."""

    def __init__(self, settings: dict, describe: dict, total: int, jobs: int | None = None,
                 scheduler: str | None = None, checkpoint: str | None = None,
                 resume: bool = False, progress: Progress | None = None, restart: bool = False):
        self.fp = settings_fingerprint(settings)
        self.describe = describe
        self.total = total
        self.jobs, self.scheduler, self.progress = jobs, scheduler, progress
        self.explicit = checkpoint is not None
        self.path = pathlib.Path(checkpoint) if self.explicit else \
            ckpt.default_dir() / f"study-{self.fp[:20]}.jsonl"
        self.stage_path = self.path.with_name(self.path.name + ".stage")
        self.done_units = 0
        self.runs = 0                 # stages computed (not taken from the journal)
        self.seconds = 0.0
        self.tasks = self.tasks_resumed = 0
        self.workers = None
        self._journal: dict[str, tuple[str, list[np.ndarray]]] = {}
        self._file = None
        self._keep: int | None = None   # resuming: bytes of the journal's complete lines
        Runner(jobs, scheduler, resume=resume, restart=restart).check()
        if resume:
            if not self.path.exists():
                where = f"checkpoint {self.path} does not exist" if self.explicit else \
                    f"no checkpoint of this run (same command, options and --seed) in " \
                    f"{ckpt.default_dir()}"
                raise SeasaltError(f"nothing to resume: {where}")
            self._load()
        else:
            self._start_afresh(restart)

    # -- the journal -----------------------------------------------------------------------
    def _start_afresh(self, restart: bool) -> None:
        """A new study: an earlier one's journal is refused (like a Runner's checkpoint) unless
        `restart`, which discards it; an explicit journal's directory must be writable."""
        if self.path.is_symlink() or self.stage_path.is_symlink():
            raise SeasaltError(f"checkpoint {self.path} is a symbolic link; seasalt never writes "
                               f"through one")
        if self.path.exists() or self.stage_path.exists():
            if not restart:
                if self.explicit:
                    raise SeasaltError(f"checkpoint {self.path} already exists: add --resume to "
                                       f"continue that run, or --restart to discard it and "
                                       f"start afresh")
                raise SeasaltError(f"an earlier run of this command (same options and --seed) "
                                   f"was interrupted; its finished work is kept in {self.path}: "
                                   f"add --resume to continue it, or --restart to discard it "
                                   f"and start afresh")
            self.path.unlink(missing_ok=True)
            self.stage_path.unlink(missing_ok=True)
        parent = self.path.parent if str(self.path.parent) else pathlib.Path(".")
        if self.explicit and not parent.is_dir():
            raise SeasaltError(f"cannot write checkpoint {self.path}: directory {parent} does "
                               f"not exist")
        if self.explicit and not os.access(parent, os.W_OK | os.X_OK):
            raise SeasaltError(f"cannot write checkpoint {self.path}: directory {parent} is not "
                               f"writable")

    def _load(self) -> None:
        try:
            lines = self.path.read_bytes().split(b"\n")
        except OSError as e:
            raise SeasaltError(f"cannot read checkpoint {self.path}: {e.strerror or e}") from None
        complete = lines[:-1]          # a torn last line was being written: dropped
        try:
            head = json.loads(complete[0]) if complete else None
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("seasalt_study") != FORMAT:
            raise SeasaltError(f"{self.path} is not a seasalt study checkpoint")
        if head.get("fingerprint") != self.fp:
            theirs = head.get("run") if isinstance(head.get("run"), dict) else {}
            raise SeasaltError(
                f"checkpoint {self.path} belongs to a different run "
                f"({', '.join(f'{k} {v}' for k, v in theirs.items()) or 'unknown'}; seasalt "
                f"{head.get('version')}), not this one: the same command, options, seed and "
                f"seasalt version are needed to resume")
        for n, line in enumerate(complete[1:], 2):
            try:
                rec = json.loads(line)
                key, bfp = str(rec["stage"]), str(rec["batches"])
                counters = [np.asarray(c, dtype=np.int64) for c in rec["counters"]]
            except (ValueError, KeyError, TypeError):
                raise SeasaltError(f"checkpoint {self.path} is damaged at line {n}") from None
            self._journal[key] = (bfp, counters)
        self._keep = sum(len(x) + 1 for x in complete)

    def _append(self, key: str, bfp: str, counters: Sequence[np.ndarray]) -> None:
        if self._file is None:
            if not self.explicit:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            if self._keep is not None:
                with open(self.path, "r+", encoding="utf-8") as f:
                    f.truncate(self._keep)
                self._file = open(self.path, "a", encoding="utf-8")
            else:
                self._file = open(self.path, "w", encoding="utf-8")
                self._line({"seasalt_study": FORMAT, "fingerprint": self.fp,
                            "run": self.describe, "version": __version__})
        self._line({"stage": key, "batches": bfp,
                    "counters": [[int(x) for x in c] for c in counters]})

    def _line(self, rec: dict) -> None:
        self._file.write(json.dumps(rec) + "\n")
        self._file.flush()

    # -- running ---------------------------------------------------------------------------
    def run(self, key: str, batches: Sequence) -> list[np.ndarray]:
        """The summed counters of every batch of stage `key`: from the journal if it has this
        stage with these batches, else computed (and journaled)."""
        bfp = fingerprint(batches)
        units = sum(b.count for b in batches)
        known = self._journal.get(key)
        if known is not None and known[0] == bfp:
            self.done_units += units
            if self.progress is not None:
                self.progress(self.done_units, self.total)
            return known[1]
        if known is not None:
            raise SeasaltError(f"checkpoint {self.path}: stage {key!r} was run with other "
                               f"batches: not the same study")
        offset = self.done_units

        def progress(done: int, _total: int) -> None:
            if self.progress is not None:
                self.progress(offset + done, self.total)
        if self.progress is not None and hasattr(self.progress, "status"):
            progress.status = self.progress.status      # type: ignore[attr-defined]
        runner = Runner(self.jobs, self.scheduler, str(self.stage_path),
                        self.stage_path.exists(), progress)
        try:
            outcome = runner.run(batches, {**self.describe, "stage": key})
        except RunInterrupted:
            self.close()
            raise RunInterrupted(
                f"interrupted in {key}; the finished work is kept in {self.path}: to continue, "
                f"run the same command with --resume"
                + ("" if self.explicit else f" --seed {self.describe.get('seed')}"),
                str(self.path)) from None
        self._append(key, bfp, outcome.counters)
        self.stage_path.unlink(missing_ok=True)
        self._journal[key] = (bfp, outcome.counters)
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
                "jobs": self.workers, "backend": Runner(self.jobs, self.scheduler).backend_name()}

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def finish(self) -> None:
        """The study completed: close the journal; a cache journal is no longer needed."""
        self.close()
        if not self.explicit:
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> "Staged":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.finish()
        else:
            self.close()

