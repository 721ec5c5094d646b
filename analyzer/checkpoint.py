"""Checkpoint files: the finished tasks of a run, so an interrupted run continues where it stopped.

A checkpoint is JSON lines, appended as tasks finish (a crash loses at most the line being
written, which is ignored and overwritten on resume):

    {"seasalt_checkpoint": 1, "fingerprint": "...", "run": {...}, "tasks": 120, "version": "0.1.0"}
    {"batch": 0, "lo": 0, "hi": 64, "counters": [...]}
    ...

The fingerprint is a hash of everything the counters depend on: the engine's source hash, the
seasalt version, the task size and every batch (players, deck, count, target, policy arrays,
seed). A checkpoint is only ever resumed by a run with the same fingerprint, so the summed
counters of a resumed run are the uninterrupted run's, bit for bit. `run` is a readable
description (command, seed, ...) for messages only.
"""
from __future__ import annotations

import json
import os
import pathlib
import numpy as np

from .errors import SeasaltError

FORMAT = 1
Task = tuple[int, int, int]          # (batch index, first block, end block)


def default_dir() -> pathlib.Path:
    """Where runs without --checkpoint keep their finished tasks: $SEASALT_CHECKPOINT_DIR, else
    the seasalt cache directory (next to the compiled kernels)."""
    if os.environ.get("SEASALT_CHECKPOINT_DIR"):
        return pathlib.Path(os.environ["SEASALT_CHECKPOINT_DIR"])
    root = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    return root / "seasalt" / "checkpoints"


def default_path(fingerprint: str) -> pathlib.Path:
    return default_dir() / f"{fingerprint[:20]}.jsonl"


def _show(v) -> str:
    return " ".join(map(str, v)) if isinstance(v, list) else "(none)" if v is None else str(v)


def _describe(run: dict) -> str:
    return ", ".join(f"{k} {_show(v)}" for k, v in run.items())


def _difference(head: dict, run: dict) -> str:
    """What differs between the run that wrote a checkpoint (its header) and this one."""
    theirs = head.get("run") if isinstance(head.get("run"), dict) else {}
    diff = [f"{k} {_show(theirs.get(k))} there, {_show(run.get(k))} here"
            for k in dict.fromkeys([*run, *theirs]) if theirs.get(k) != run.get(k)]
    if diff:
        return "; ".join(diff)
    from . import __version__
    from kernels import ENGINE_HASH
    if head.get("version") != __version__ or head.get("engine", ENGINE_HASH) != ENGINE_HASH:
        return (f"written by seasalt {head.get('version')} (engine {head.get('engine', '?')}), "
                f"this is seasalt {__version__} (engine {ENGINE_HASH})")
    return f"the same options ({_describe(run)}) but another task plan"


def load(path: pathlib.Path, fingerprint: str, run: dict,
         tasks: set[Task], width_of: list[int]) -> tuple[dict[Task, np.ndarray], int]:
    """The finished tasks recorded in `path` and the byte length of its valid part.

    Raises SeasaltError if the file is unreadable, was written by a different run, or records a
    task that is not in this run's plan (a damaged file)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SeasaltError(f"cannot read checkpoint {path}: {e.strerror or e}") from None
    done: dict[Task, np.ndarray] = {}
    lines = data.split(b"\n")
    # Everything up to the last newline is complete; a trailing partial line was being written
    # when the run died and is dropped.
    complete, valid = lines[:-1], len(data) - len(lines[-1])
    if not complete:
        raise SeasaltError(f"checkpoint {path} is empty or damaged (no header line)")
    try:
        head = json.loads(complete[0])
    except ValueError:
        raise SeasaltError(f"{path} is not a seasalt checkpoint") from None
    if not isinstance(head, dict) or head.get("seasalt_checkpoint") != FORMAT:
        raise SeasaltError(f"{path} is not a seasalt checkpoint (format {FORMAT})")
    if head.get("fingerprint") != fingerprint:
        raise SeasaltError(f"checkpoint {path} belongs to a different run: "
                           f"{_difference(head, run)}; only the same command, options, seed and "
                           f"seasalt version can resume it (use another checkpoint file, or "
                           f"--restart to discard it)")
    for n, line in enumerate(complete[1:], 2):
        try:
            rec = json.loads(line)
            if "seasalt_checkpoint" in rec and rec.get("fingerprint") == fingerprint:
                continue     # a second run of the same plan started this file again: harmless
            task = (int(rec["batch"]), int(rec["lo"]), int(rec["hi"]))
            counters = np.asarray(rec["counters"], dtype=np.int64)
        except (ValueError, KeyError, TypeError):
            raise SeasaltError(f"checkpoint {path} is damaged at line {n}") from None
        if task not in tasks or counters.shape != (width_of[task[0]],):
            raise SeasaltError(f"checkpoint {path} is damaged at line {n} (a task this run "
                               f"does not have)")
        done[task] = counters
    return done, valid


def finished_tasks(path: pathlib.Path) -> int:
    """Task lines in a checkpoint file (0 if it cannot be read)."""
    try:
        with open(path, "rb") as f:
            return max(0, sum(1 for line in f if line.endswith(b"\n")) - 1)
    except OSError:
        return 0


def is_checkpoint(path: pathlib.Path) -> bool:
    """Whether `path` starts with a seasalt checkpoint header."""
    try:
        with open(path, "rb") as f:
            head = json.loads(f.readline(1 << 16))
    except (OSError, ValueError):
        return False
    return isinstance(head, dict) and head.get("seasalt_checkpoint") == FORMAT


def check_unused(path: pathlib.Path, restart: bool = False) -> None:
    """The cache's checkpoint of a new run: an interrupted earlier run of the same command left
    its finished tasks there, and a new run must not silently throw them away."""
    if not (path.exists() or path.is_symlink()):
        return
    if restart:
        path.unlink()
        return
    n = finished_tasks(path)
    raise SeasaltError(f"an earlier run of this command (same options and --seed) was "
                       f"interrupted with {n:,} finished task{'s' if n != 1 else ''} kept in "
                       f"{path}: add --resume to continue it, or --restart to discard them and "
                       f"start afresh")


def check_new(path: pathlib.Path, restart: bool = False) -> None:
    """A --checkpoint FILE for a new run: not there yet (or, with `restart`, a seasalt checkpoint
    to replace), in a writable directory."""
    if path.is_symlink():
        raise SeasaltError(f"checkpoint {path} is a symbolic link; give the file itself")
    if path.exists():
        if not restart:
            n = finished_tasks(path)
            raise SeasaltError(f"checkpoint {path} already exists ({n:,} finished task"
                               f"{'s' if n != 1 else ''}): add --resume to continue that run, "
                               f"or --restart to discard it and start afresh")
        if not path.is_file() or not is_checkpoint(path):
            raise SeasaltError(f"--restart: {path} is not a seasalt checkpoint; refusing to "
                               f"overwrite it")
    parent = path.parent if str(path.parent) else pathlib.Path(".")
    if not parent.is_dir():
        raise SeasaltError(f"cannot write checkpoint {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SeasaltError(f"cannot write checkpoint {path}: directory {parent} is not writable")


class Writer:
    """Appends finished tasks to a checkpoint file, one flushed line each. The file is opened
    for appending, so two runs of the same plan on one file (the same command started twice)
    interleave whole lines, which `load` accepts, instead of overwriting each other."""

    def __init__(self, path: pathlib.Path, fingerprint: str, run: dict, ntasks: int,
                 version: str, keep_bytes: int | None = None):
        self.path = path
        with open(path, "r+" if keep_bytes is not None else "w", encoding="utf-8") as f:
            f.truncate(keep_bytes or 0)         # resuming: drop a torn last line
        self.file = open(path, "a", encoding="utf-8")
        if keep_bytes is None:
            from kernels import ENGINE_HASH
            self._write(json.dumps({"seasalt_checkpoint": FORMAT, "fingerprint": fingerprint,
                                    "run": run, "tasks": ntasks, "version": version,
                                    "engine": ENGINE_HASH}))

    def _write(self, line: str) -> None:
        self.file.write(line + "\n")
        self.file.flush()

    def add(self, task: Task, counters: np.ndarray) -> None:
        b, lo, hi = task
        self._write(json.dumps({"batch": b, "lo": lo, "hi": hi,
                                "counters": [int(x) for x in counters]}))

    def close(self) -> None:
        self.file.close()
