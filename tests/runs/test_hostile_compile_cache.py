"""The compile cache is trusted only when it is ours (kernels/__init__.py).

* A cache folder that cannot be written (NUMBA_CACHE_DIR a file, a path through a file, a cache
  home that refuses writes) is one `error:` line naming NUMBA_CACHE_DIR, exit status 2; numba's
  fallback to kernels/__pycache__ (keyed by each file alone, so an edit of an imported kernel
  file was answered by the old engine) is never used, whichever locators numba is told to use.
* A damaged entry (a truncated .nbc, an empty .nbi) is recompiled and replaced with one line
  saying so, where it was a pickle traceback or "interrupted" (exit 130) on every later run.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hostile import cli, one_line

ROOT = Path(__file__).resolve().parents[2]
SCORE = ["score", "--hand", "mermaid,shell:black,shell:grey", "--table", "boat:black,boat:yellow",
         "--json"]


def _entries(folder: Path) -> set[str]:
    """Numba cache files below `folder`."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.suffix in (".nbi", ".nbc")}


@pytest.mark.parametrize("setting", ["file", "through_file", "unwritable_home"])
def test_an_unusable_cache_folder_is_one_error_line_and_nothing_in_tree(tmp_path, setting):
    afile = tmp_path / "a-file"
    afile.write_text("not a folder\n")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if setting == "file":
        env["NUMBA_CACHE_DIR"] = str(afile)
    elif setting == "through_file":
        env["NUMBA_CACHE_DIR"] = str(afile / "cache")
    else:                   # /sys refuses new folders, even to root (chmod would not)
        env["XDG_CACHE_HOME"] = "/sys/seasalt-test-cache"
    before = _entries(ROOT / "kernels")
    line = one_line(cli(*SCORE, env=env), "compile cache", "NUMBA_CACHE_DIR", "a folder you can "
                    "write")
    if setting == "unwritable_home":
        assert "/sys/seasalt-test-cache" in line and "XDG_CACHE_HOME" in line
    else:
        assert str(afile) in line
    assert _entries(ROOT / "kernels") == before          # nothing cached beside the sources
    assert afile.read_text() == "not a folder\n"


# In a copied tree: compile (or load) one small kernel and say how many compilations it took.
PROBE = r"""
import json
import numpy as np
from numba.core import event
from kernels import scoring, state

class Count(event.Listener):
    n = 0
    def on_start(self, ev): Count.n += 1
    def on_end(self, ev): pass

with event.install_listener("numba:compile", Count()):
    scoring.colour_bonus(np.zeros(state.STATE_SIZE, np.int32), 0)
print(json.dumps({"compiles": Count.n}))
"""


def _tree(tmp: Path) -> Path:
    for pkg in ("kernels", "analyzer"):
        shutil.copytree(ROOT / pkg, tmp / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp


def _probe(tree: Path, **env) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(tree), **env)
    return subprocess.run([sys.executable, "-c", PROBE], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=600)


def test_an_unwritable_cache_never_falls_back_to_the_source_tree(tmp_path):
    """numba's own fallback, kernels/__pycache__, would cache scoring.py by its own text: an
    edit of a file it imports (state.py) would then load the old kernel."""
    tree = _tree(tmp_path)
    afile = tmp_path / "a-file"
    afile.write_text("")
    r = _probe(tree, NUMBA_CACHE_DIR=str(afile))
    assert r.returncode != 0 and "CacheUnusable" in r.stderr, r.stderr[-2000:]
    assert "NUMBA_CACHE_DIR" in r.stderr.splitlines()[-1]
    assert _entries(tree / "kernels") == set()


def test_an_edit_recompiles_whatever_locators_numba_is_told_to_use(tmp_path):
    """NUMBA_CACHE_LOCATOR_CLASSES naming numba's in-tree locator does not bypass the closure
    hash: an edit of state.py (imported by scoring.py) recompiles scoring's kernel."""
    tree = _tree(tmp_path)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "NUMBA_CACHE_LOCATOR_CLASSES": "InTreeCacheLocator"}
    first = _probe(tree, **env)
    assert first.returncode == 0, first.stderr[-2000:]
    assert json.loads(first.stdout)["compiles"] >= 1
    again = _probe(tree, **env)
    assert json.loads(again.stdout)["compiles"] == 0                 # loaded from the cache
    with open(tree / "kernels" / "state.py", "a") as f:
        f.write("\n# an edit\n")
    edited = _probe(tree, **env)
    assert edited.returncode == 0, edited.stderr[-2000:]
    assert json.loads(edited.stdout)["compiles"] >= 1
    assert _entries(tree / "kernels") == set() and _entries(tmp_path / "cache")


def test_a_damaged_cache_entry_is_recompiled_and_replaced(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    first = cli(*SCORE, env=env)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "damaged" not in first.stderr
    data = sorted((tmp_path / "cache").rglob("*.nbc"))
    index = sorted((tmp_path / "cache").rglob("*.nbi"))
    assert len(data) >= 2
    truncated = data[0]
    truncated.write_bytes(truncated.read_bytes()[:100])
    base = truncated.name.rsplit(".", 2)[0]                # its function's entry
    emptied = next(i for i in index if i.name.removesuffix(".nbi") != base)
    emptied.write_bytes(b"")
    second = cli(*SCORE, env=env)
    assert second.returncode == 0, second.stderr[-3000:]
    assert "Traceback" not in second.stderr
    assert json.loads(second.stdout) == json.loads(first.stdout)
    damaged = [x for x in second.stderr.splitlines() if "damaged" in x]
    assert len(damaged) == 2, second.stderr
    assert all(x.startswith("warning: the compiled kernel ") and "recompiling it" in x
               for x in damaged)
    assert emptied.stat().st_size > 0                    # written anew
    third = cli(*SCORE, env=env)
    assert third.returncode == 0 and "damaged" not in third.stderr, third.stderr[-2000:]
    assert json.loads(third.stdout) == json.loads(first.stdout)
