"""Checkpoint files: the finished tasks of a run, so an interrupted run continues where it stopped,
and no two runs can ever mix their work in one file.

A checkpoint is JSON lines, appended as tasks finish (a crash loses at most the line being
written, which is dropped on resume):

    {"seasalt_checkpoint": 2, "fingerprint": "...", "run": {...}, "tasks": 120, "version": "0.1.0",
     "engine": "...", "pid": 4242, "host": "box", "started": "2026-12-01T10:03:07"}
    {"batch": 0, "lo": 0, "hi": 64, "counters": [...], "run": "<fingerprint[:16]>", "check": "..."}

The fingerprint is a hash of everything the counters depend on (analyzer.runs.batches.fingerprint). A
checkpoint is only ever resumed by a run with the same fingerprint, so the summed counters of a
resumed run are the uninterrupted run's, bit for bit. `run` describes the command for messages.

* **Claimed before the first task** (`claim_new`, `claim_resume`): a new file is written with its
  header under a temporary name, locked (flock) and linked into place only if nothing is there,
  so two runs can never both own one file; the lock is held until the run ends, and a second
  run on the file (the same plan or another) refuses with an error that names the first (pid,
  host, start, command). A crashed run's lock is released by the system; a checkpoint in the
  cache that such a run left without a finished task is replaced (there is nothing to resume).
* **Every line verified on resume**: each task line carries its run's fingerprint and a
  checksum of (fingerprint, task, counters), so another run's lines, a hand-edited counter or a
  damaged line are refused with the line number. Lines are read at most LINE_LIMIT bytes at a
  time: a longer one is a damaged line too (never the silent end of the reading).
* **Never through a symlink** (O_NOFOLLOW), never a directory, never a file that is not a
  checkpoint (--restart refuses to overwrite one).
* Lines are written with one unbuffered `os.write` each, so a write error (a full disk, `ulimit
  -f`) is raised where it happens and closing the file cannot fail again.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pathlib
import socket
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

import numpy as np

from ..base.errors import SeasaltError

FORMAT = 2
Task = tuple[int, int, int]          # (batch index, first block, end block)
INT64 = 2 ** 63
LINE_LIMIT = 1 << 24                 # bytes: a task line is a few hundred


class TaskGrid(Protocol):
    """What a checkpoint needs of a batch (analyzer.runs.batches.TaskGrid: Batch, SeasteadBatch)."""
    width: int

    def ntasks(self) -> int: ...
    def task_index(self, lo: int, hi: int) -> int | None: ...
    def units(self, lo: int, hi: int) -> int: ...


def default_dir() -> pathlib.Path:
    """Where runs without --checkpoint keep their finished tasks: $SEASALT_CHECKPOINT_DIR, else
    the seasalt cache directory (next to the compiled kernels)."""
    if os.environ.get("SEASALT_CHECKPOINT_DIR"):
        return pathlib.Path(os.environ["SEASALT_CHECKPOINT_DIR"])
    root = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    return root / "seasalt" / "checkpoints"


def default_path(fingerprint: str) -> pathlib.Path:
    return default_dir() / f"{fingerprint[:20]}.jsonl"


def show_value(v) -> str:
    return " ".join(map(str, v)) if isinstance(v, list) else "(none)" if v is None else str(v)


def _describe(run: dict) -> str:
    return ", ".join(f"{k} {show_value(v)}" for k, v in run.items())


def _difference(head: dict, run: dict, engine: str) -> str:
    """What differs between the run that wrote a checkpoint (its header) and this one."""
    theirs = head.get("run") if isinstance(head.get("run"), dict) else {}
    diff = [f"{k} {show_value(theirs.get(k))} there, {show_value(run.get(k))} here"
            for k in dict.fromkeys([*run, *theirs]) if theirs.get(k) != run.get(k)]
    if diff:
        return "; ".join(diff)
    from .. import __version__
    if head.get("version") != __version__ or head.get("engine", engine) != engine:
        return (f"written by seasalt {head.get('version')} (engine {head.get('engine', '?')}), "
                f"this is seasalt {__version__} (engine {engine})")
    return f"the same options ({_describe(run)}) but another task plan"


def _owner(head: dict | None) -> str:
    """Who holds a checkpoint, from its header: `pid 4242 on box, started ...: command ...`."""
    if not isinstance(head, dict):
        return "another process"
    run = head.get("run") if isinstance(head.get("run"), dict) else {}
    return (f"pid {head.get('pid', '?')} on {head.get('host', '?')}, started "
            f"{head.get('started', '?')}: {_describe(run) or 'unknown run'}")


def check(fingerprint: str, task: Task, counters: Sequence[int]) -> str:
    """The checksum of one task line: its run, its task and its counters."""
    b, lo, hi = task
    text = f"{fingerprint}/{b}/{lo}/{hi}/" + ",".join(str(int(x)) for x in counters)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def header(fingerprint: str, run: dict, ntasks: int, version: str, engine: str) -> dict:
    """The first line of a checkpoint; `engine`: the hash of the game's kernels it ran."""
    return {"seasalt_checkpoint": FORMAT, "fingerprint": fingerprint, "run": run,
            "tasks": ntasks, "version": version, "engine": engine, "pid": os.getpid(),
            "host": socket.gethostname(), "started": time.strftime("%Y-%m-%dT%H:%M:%S")}


# ---------------------------------------------------------------------------------------------
# the open, locked file of a run

def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def read_head(path: pathlib.Path, key: str = "seasalt_checkpoint") -> dict | None:
    """The header line of a checkpoint (or, with key "seasalt_study", a study journal), read
    bounded and never through a link; None if there is no such header."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            head = json.loads(f.readline(1 << 20))
        except (ValueError, RecursionError):
            return None
    return head if isinstance(head, dict) and key in head else None


def is_locked(path: pathlib.Path) -> bool:
    """Whether a run holds `path` now (its lock; a crashed run's lock is gone)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


@dataclass
class Claim:
    """A checkpoint file this run owns: open for appending and locked until `close`."""
    path: pathlib.Path
    fd: int
    fingerprint: str
    fresh: bool                 # created by this run (not resumed)
    lines: int = 0              # task lines written by this run

    def add(self, task: Task, counters: np.ndarray) -> None:
        values = [int(x) for x in counters]
        b, lo, hi = task
        line = json.dumps({"batch": b, "lo": lo, "hi": hi, "counters": values,
                           "run": self.fingerprint[:16],
                           "check": check(self.fingerprint, task, values)})
        write_all(self.fd, (line + "\n").encode())
        self.lines += 1

    def close(self) -> None:
        if self.fd >= 0:
            try:
                os.close(self.fd)            # unbuffered: nothing left to flush, cannot fail twice
            except OSError:
                pass
            self.fd = -1

    def remove(self) -> None:
        """Delete the file (a completed run's cache checkpoint) and close; never raises."""
        try:
            if self.fd >= 0 and os.path.samestat(os.fstat(self.fd), os.lstat(self.path)):
                os.unlink(self.path)
        except OSError:
            pass
        self.close()


def _existing(path: pathlib.Path, cache: bool, restart: bool) -> bool:
    """Raise unless a new run may take `path`; True if a checkpoint is there to replace."""
    if path.is_symlink():
        raise SeasaltError(f"checkpoint {path} is a symbolic link; seasalt never writes through "
                           f"one (remove it, or give the file itself)")
    if not path.exists():
        return False
    if not path.is_file():
        raise SeasaltError(f"checkpoint {path} exists and is not a regular file; remove it")
    head = read_head(path)
    if is_locked(path):
        if cache:
            raise SeasaltError(f"the same run is under way in another process ({_owner(head)}): "
                               f"wait for it to finish, or give --checkpoint FILE to run it "
                               f"separately")
        raise SeasaltError(f"checkpoint {path} is in use by a run under way ({_owner(head)}); "
                           f"give another --checkpoint FILE")
    if head is None:
        raise SeasaltError(f"checkpoint {path} exists and is not a seasalt checkpoint; seasalt "
                           f"never overwrites it (give another --checkpoint FILE)")
    n = finished_tasks(path)
    if cache and n == 0:
        return True                 # a run killed before its first task: nothing to resume
    tasks = f"{n:,} finished task{'s' if n != 1 else ''}"
    if not restart:
        if cache:
            raise SeasaltError(f"an earlier run of this command (same options and --seed) was "
                               f"interrupted with {tasks} kept in {path}: add --resume to "
                               f"continue it, or --restart to discard them and start afresh")
        raise SeasaltError(f"checkpoint {path} already exists ({tasks}): add --resume to continue "
                           f"that run, or --restart to discard it and start afresh")
    return True


def prepare_dir(path: pathlib.Path, cache: bool) -> None:
    parent = path.parent if str(path.parent) else pathlib.Path(".")
    if cache:
        if parent.exists() and not parent.is_dir():
            where = ("SEASALT_CHECKPOINT_DIR " if os.environ.get("SEASALT_CHECKPOINT_DIR")
                     else "the checkpoint directory ")
            raise SeasaltError(f"{where}{parent} is not a directory")
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise SeasaltError(f"the checkpoint directory {parent} cannot be made: a part of its "
                               f"path is a file") from None
    elif not parent.is_dir():
        raise SeasaltError(f"cannot write checkpoint {path}: directory {parent} does not exist")


def create_locked(path: pathlib.Path, head: dict, replace: bool,
                  taken: Callable[[], object] = lambda: None) -> int:
    """`path` written with its header line under a temporary name, locked, and put in place
    (over an existing file only when `replace`): the open descriptor. If another process put a
    file there first, `taken()` may raise its own message, else it is "taken by another run".
    Shared by the Runner's checkpoints and the study journals (analyzer.runs.stages)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_NOFOLLOW
                 | os.O_CLOEXEC, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        write_all(fd, (json.dumps(head) + "\n").encode())
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)              # fails if anything is there: no overwrite race
            except FileExistsError:
                taken()                         # names whoever came first
                raise SeasaltError(f"checkpoint {path} was taken by another run") from None
            os.unlink(tmp)
    except BaseException:
        os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return fd


def claim_new(path: pathlib.Path, head: dict, restart: bool = False,
              cache: bool = False) -> Claim:
    """Take `path` for a new run: its header written and locked before anything is computed.
    SeasaltError if another run holds it, an earlier run left it (unless `restart`), or it is
    not a file seasalt may write; OSError if it cannot be written (a full disk, no permission)."""
    prepare_dir(path, cache)
    replace = _existing(path, cache, restart)
    fd = create_locked(path, head, replace, taken=lambda: _existing(path, cache, restart))
    return Claim(path, fd, head["fingerprint"], fresh=True)


# ---------------------------------------------------------------------------------------------
# resuming

@dataclass
class Resumed:
    """What a checkpoint holds for this run: counters summed per batch, the finished tasks."""
    counters: list[np.ndarray]
    done: dict[int, np.ndarray] = field(default_factory=dict)    # batch -> finished flags
    tasks: int = 0
    units: int = 0

    def is_done(self, batch: int, k: int) -> bool:
        """Whether task k of a batch is finished."""
        flags = self.done.get(batch)
        return flags is not None and bool(flags[k])


def _damaged(path, n: int, why: str = "") -> SeasaltError:
    return SeasaltError(f"checkpoint {path} is damaged at line {n}" + (f" ({why})" if why else "")
                        + "; --restart discards it")


def _task_line(rec, path, n: int, fingerprint: str, batches: Sequence[TaskGrid]):
    """(task, counters list) of a verified task line, or raise naming line n."""
    if not isinstance(rec, dict) or not isinstance(rec.get("run"), str):
        raise _damaged(path, n)
    if rec["run"] != fingerprint[:16]:
        raise SeasaltError(f"checkpoint {path}, line {n}: a task of another run (run "
                           f"{rec['run'][:16]!r}, this run is {fingerprint[:16]!r}); the "
                           f"file mixes two runs and cannot be resumed (--restart discards it)")
    fields = [rec.get(k) for k in ("batch", "lo", "hi")]
    values = rec.get("counters")
    if not all(type(x) is int for x in fields) or not isinstance(values, list) or \
            not all(type(x) is int and -INT64 <= x < INT64 for x in values):
        raise _damaged(path, n)
    task = tuple(fields)
    if rec.get("check") != check(fingerprint, task, values):
        raise _damaged(path, n, "checksum mismatch: edited or corrupted")
    b, lo, hi = task
    if not 0 <= b < len(batches) or batches[b].task_index(lo, hi) is None or \
            len(values) != batches[b].width:
        raise _damaged(path, n, "a task this run does not have")
    return task, values


def read_tasks(path: pathlib.Path, f, fingerprint: str, run: dict,
               batches: Sequence[TaskGrid], engine: str) -> tuple[Resumed, int]:
    """The verified tasks of an open checkpoint file `f` (binary) and the byte length of its
    complete lines (a torn last line is dropped)."""
    first = f.readline(LINE_LIMIT)
    if not first.endswith(b"\n"):
        raise SeasaltError(f"checkpoint {path} is empty or damaged (no header line)")
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        raise SeasaltError(f"{path} is not a seasalt checkpoint") from None
    if not isinstance(head, dict) or "seasalt_checkpoint" not in head:
        raise SeasaltError(f"{path} is not a seasalt checkpoint (format {FORMAT})")
    if head["seasalt_checkpoint"] != FORMAT:
        raise SeasaltError(f"checkpoint {path} was written by another seasalt (checkpoint format "
                           f"{head['seasalt_checkpoint']!r}, this one reads {FORMAT}): it cannot "
                           f"be resumed; --restart discards it")
    if head.get("fingerprint") != fingerprint:
        raise SeasaltError(f"checkpoint {path} belongs to a different run: "
                           f"{_difference(head, run, engine)}; only the same command, options, seed and "
                           f"seasalt version can resume it (use another checkpoint file, or "
                           f"--restart to discard it)")
    got = Resumed([np.zeros(b.width, dtype=np.int64) for b in batches])
    valid = len(first)
    for n, line in enumerate(iter(lambda: f.readline(LINE_LIMIT), b""), 2):
        if not line.endswith(b"\n"):
            if len(line) >= LINE_LIMIT:     # not torn: a line no run writes; never skip the rest
                raise _damaged(path, n, f"a line over {LINE_LIMIT >> 20} MiB")
            break                       # the line being written when the run died: dropped
        valid += len(line)
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            raise _damaged(path, n) from None
        if isinstance(rec, dict) and "seasalt_checkpoint" in rec:
            if rec.get("fingerprint") == fingerprint:
                continue                # this run's header again (a restarted run): harmless
            raise _damaged(path, n, "the header of another run")
        task, values = _task_line(rec, path, n, fingerprint, batches)
        b, lo, hi = task
        flags = got.done.get(b)
        if flags is None:
            flags = got.done[b] = np.zeros(batches[b].ntasks(), dtype=np.bool_)
        k = batches[b].task_index(lo, hi)
        if flags[k]:
            continue                    # the same task twice: counted once
        flags[k] = True
        got.counters[b] += np.asarray(values, dtype=np.int64)
        got.tasks += 1
        got.units += batches[b].units(lo, hi)
    return got, valid


def claim_resume(path: pathlib.Path, fingerprint: str, run: dict,
                 batches: Sequence[TaskGrid], engine: str) -> tuple[Claim, Resumed]:
    """Take an existing checkpoint to continue it: locked, every line verified, a torn last
    line cut off. SeasaltError if another run holds it or it is not this run's."""
    if path.is_symlink():
        raise SeasaltError(f"checkpoint {path} is a symbolic link; seasalt never writes through "
                           f"one (give the file itself)")
    if path.exists() and not path.is_file():
        raise SeasaltError(f"checkpoint {path} is not a regular file")
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        raise SeasaltError(f"cannot open checkpoint {path}: {e.strerror or e}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SeasaltError(f"checkpoint {path} is in use by a run under way "
                               f"({_owner(read_head(path))})") from None
        with open(os.dup(fd), "rb") as f:
            f.seek(0)
            got, valid = read_tasks(path, f, fingerprint, run, batches, engine)
        os.ftruncate(fd, valid)
    except OSError as e:
        os.close(fd)
        raise SeasaltError(f"cannot use checkpoint {path}: {e.strerror or e}") from None
    except BaseException:
        os.close(fd)
        raise
    return Claim(path, fd, fingerprint, fresh=False), got


def finished_tasks(path: pathlib.Path) -> int:
    """Task lines in a checkpoint file (0 if it cannot be read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            return max(0, sum(1 for line in f if line.endswith(b"\n")) - 1)
    except OSError:
        return 0
