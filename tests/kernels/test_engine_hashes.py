"""One game's edit compiles one game (issue 29, item 3): each kernel file is cached by the hash
of its import closure, and each game's checkpoints carry that game's own engine hash. Checked on
a copy of the source tree: edit a Seastead file, and Sea Salt & Paper's compiled kernels load
from the cache and its checkpoint fingerprints stay; the reverse; and an edit of the search
player or the advisor leaves the plain rounds and games drivers (kernels/batch.py) alone."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kernels
from kernels import closure_hash, files_hash, game_files

ROOT = Path(__file__).resolve().parents[2]

# In the copied tree: compile one small kernel of each game, count numba's compilations of each,
# and print the checkpoint fingerprints of one batch of each game.
PROBE = r"""
import json, threading
from numba.core import event
import numpy as np
import kernels
from kernels import scoring, state
from kernels.seastead import layout, players
from analyzer.runs import batches
from analyzer.studies.simulate import plan_games
from analyzer.seastead.components import Setup, load
from analyzer.seastead.runs import plan

class Count(event.Listener):
    def __init__(self): self.n = 0
    def on_start(self, ev): self.n += 1
    def on_end(self, ev): pass

out = {}
for name, call in (("seasalt", lambda: scoring.colour_bonus(np.zeros(state.STATE_SIZE, np.int32), 0)),
                   ("seastead", lambda: players.empty_at(np.full(layout.STATE_SIZE, -1, np.int32), 0))):
    c = Count()
    with event.install_listener("numba:compile", c):
        call()
    out[name + "_compiles"] = c.n
out["seasalt_fp"] = batches.fingerprint([plan_games(2, 300, ["baseline"], 1, "base", None).batch])
out["seastead_fp"] = batches.fingerprint([plan(load(None), Setup(), ["heuristic"], 300, 1).batch])
out["hashes"] = [kernels.ENGINE_HASH, kernels.SEASTEAD_HASH]
print(json.dumps(out))
"""


def _tree(tmp: Path) -> Path:
    for pkg in ("kernels", "analyzer", "reports"):
        shutil.copytree(ROOT / pkg, tmp / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp


def _edit(tree: Path, rel: str) -> None:
    with open(tree / "kernels" / rel, "a") as f:
        f.write("\n# an edit\n")


def _probe(tree: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(tree / "cache"))
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def test_closures_follow_imports():
    here = kernels.HERE
    names = lambda f: {p.relative_to(here).as_posix() for p in kernels.closure(here / f)}  # noqa
    assert names("seastead/batch.py") == {"seastead/batch.py", "seastead/engine.py",
                                          "seastead/board.py", "seastead/effects.py",
                                          "seastead/invariants.py", "seastead/layout.py",
                                          "seastead/players.py", "seastead/statistics.py",
                                          "seastead/hidden.py", "jit.py", "cache.py", "compiling.py", "rng.py", "layouts.py"}
    assert names("seastead/search_batch.py") == names("seastead/batch.py") | {
        "seastead/search_batch.py", "seastead/search.py"}
    assert names("seastead/table.py") == names("seastead/batch.py") - {
        "seastead/batch.py", "seastead/statistics.py", "layouts.py"} | {
        "seastead/table.py", "seastead/search.py"}
    batch = names("batch.py")
    assert "engine.py" in batch and "scoring.py" in batch and "cards.py" in batch
    assert not {"search.py", "advisor.py", "deals.py", "search_batch.py"} & batch
    assert not any(n.startswith("seastead/") for n in batch)
    assert {"search.py", "batch.py"} <= names("search_batch.py")


@pytest.mark.parametrize("edited,same,changed", [
    ("seastead/engine.py", ["batch.py", "engine.py", "advisor.py", "search.py"],
     ["seastead/batch.py", "seastead/engine.py"]),
    ("engine.py", ["seastead/batch.py", "seastead/players.py"],
     ["batch.py", "search.py", "advisor.py"]),
    ("search.py", ["batch.py", "game.py", "advisor.py", "seastead/batch.py"],
     ["search.py", "search_batch.py"]),
    ("advisor.py", ["batch.py", "search.py", "search_batch.py"], ["advisor.py"]),
    ("seastead/search.py", ["seastead/batch.py", "seastead/engine.py", "batch.py"],
     ["seastead/search.py", "seastead/search_batch.py"]),
])
def test_an_edit_changes_only_the_hashes_that_can_see_it(tmp_path, edited, same, changed):
    tree = _tree(tmp_path) / "kernels"
    before = {f: closure_hash(tree / f, tree) for f in same + changed}
    games = {g: files_hash(game_files(g, tree), tree) for g in ("seasalt", "seastead")}
    _edit(tmp_path, edited)
    closure_hash.cache_clear()
    for f in same:
        assert closure_hash(tree / f, tree) == before[f], f
    for f in changed:
        assert closure_hash(tree / f, tree) != before[f], f
    game = "seastead" if edited.startswith("seastead/") else "seasalt"
    other = "seasalt" if game == "seastead" else "seastead"
    assert files_hash(game_files(game, tree), tree) != games[game]
    assert files_hash(game_files(other, tree), tree) == games[other]


def test_one_games_edit_recompiles_and_invalidates_only_that_game(tmp_path):
    """Real compiles in a copied tree with its own cache: each edit recompiles its own game's
    kernel only, and only that game's checkpoint fingerprint moves."""
    tree = _tree(tmp_path)
    first = _probe(tree)
    assert first["seasalt_compiles"] >= 1 and first["seastead_compiles"] >= 1
    again = _probe(tree)
    assert again["seasalt_compiles"] == again["seastead_compiles"] == 0      # from the cache
    _edit(tree, "seastead/players.py")
    st = _probe(tree)
    assert st["seasalt_compiles"] == 0 and st["seastead_compiles"] >= 1
    assert st["seasalt_fp"] == first["seasalt_fp"] and st["seastead_fp"] != first["seastead_fp"]
    assert st["hashes"][0] == first["hashes"][0] and st["hashes"][1] != first["hashes"][1]
    _edit(tree, "scoring.py")
    ss = _probe(tree)
    assert ss["seasalt_compiles"] >= 1 and ss["seastead_compiles"] == 0
    assert ss["seastead_fp"] == st["seastead_fp"] and ss["seasalt_fp"] != st["seasalt_fp"]


HASHES = ("import json, kernels; print(json.dumps([kernels.ENGINE_HASH, kernels.SEASTEAD_HASH, "
          "kernels.closure_hash((kernels.HERE / 'search.py').resolve())]))")


def _hashes_of(tree: Path) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(tree / "cache"))
    r = subprocess.run([sys.executable, "-c", HASHES], cwd=tree, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def _sources(k: Path) -> list[str]:
    closure_hash.cache_clear()
    return [files_hash(game_files("seasalt", k), k), files_hash(game_files("seastead", k), k),
            closure_hash(k / "search.py", k)]


def test_the_hashes_kept_between_commands_are_the_sources_hashes(tmp_path):
    """A command takes the engine hashes from a manifest in the cache folder instead of parsing
    every kernel file. The manifest is keyed by each file's size and time: an edit (even one
    made to look old) gives the edited sources' hashes, and a damaged manifest is recomputed."""
    tree = _tree(tmp_path)
    k = tree / "kernels"
    truth = _sources(k)
    assert _hashes_of(tree) == truth
    manifests = lambda: sorted((tree / "cache" / "hashes").glob("*.json"))  # noqa: E731
    assert len(manifests()) == 1
    assert _hashes_of(tree) == truth                        # read from the manifest
    _edit(tree, "search.py")
    old = time.time() - 60
    os.utime(k / "search.py", (old, old))
    edited = _sources(k)
    assert edited[0] != truth[0] and edited[1] == truth[1] and edited[2] != truth[2]
    assert _hashes_of(tree) == edited
    assert len(manifests()) == 2
    for m in manifests():
        m.write_text("{", encoding="utf-8")
    assert _hashes_of(tree) == edited
