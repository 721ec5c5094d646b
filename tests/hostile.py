"""Shared helpers of the hostile-input tests (tests/test_hostile_*.py): run the console script,
check that its answer is one `error:` line with exit status 2, and prove that nothing outside
the run's own folder was touched by listing a sentinel tree before and after."""
from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from cli_helpers import SEASALT, cli, one_line  # noqa: F401 (the hostile tests' helpers)


def make_sentinel(root: Path) -> Path:
    """A small tree of a user's files (a file, a nested one, a link, an empty folder)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "notes.txt").write_text("mine\n")
    (root / "sub").mkdir(exist_ok=True)
    (root / "sub" / "results.csv").write_text("a,b\n1,2\n")
    (root / "empty").mkdir(exist_ok=True)
    if not (root / "link").is_symlink():
        os.symlink("notes.txt", root / "link")
    return root


def listing(root: Path) -> dict[str, tuple]:
    """Every entry below `root`: its kind, size and content hash (links not followed)."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = ("dir",)
            else:
                out[rel] = ("file", p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest())
    return out


@contextmanager
def guarded(tmp_path: Path) -> Iterator[Path]:
    """A new run folder beside a sentinel tree that must be unchanged when the block ends."""
    run = tmp_path / "run"
    run.mkdir()
    sentinel = make_sentinel(tmp_path / "sentinel")
    before = listing(sentinel)
    yield run
    assert listing(sentinel) == before


# A position possible but for its crab take: pile A's bottom card (the only candidate) is a
# mermaid, and seat 1 would then hold four (tests of positions and of the server both use it).
IMPOSSIBLE_BY_CRAB = {
    "players": 2, "seat": 0, "decision": "draw",
    "hand": "shell:black,shell:yellow,crab:dark_blue,octopus:yellow",
    "table": "boat:black,boat:yellow",
    "opponents": [{"seat": 1, "hand_size": 5, "known": "mermaid,mermaid,mermaid",
                   "table": "fish:black,fish:green"}],
    "piles": {"A": {"cards": "mermaid,penguin:pink,octopus:grey",
                    "crab_taken": [{"seat": 1, "among": 1}]},
              "B": {"cards": "crab:black"}},
    "deck": 42}
