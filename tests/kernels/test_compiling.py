"""How the kernels are compiled (kernels/compiling.py): a `once` kernel's code exists once and its
callers call it by symbol, also when they are read from the compile cache; numba's inliner,
patched to copy less, still renames each inlined copy's variables apart."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import njit
from numba.core import inline_closurecall

from kernels import compiling
from kernels.jit import once

ROOT = Path(__file__).resolve().parents[2]


def _declared_only(library, symbol: str) -> bool:
    """Whether `library`'s module declares `symbol` without its body (a linked callee is defined
    there, or inlined and gone)."""
    fns = [f for f in library._final_module.functions if f.name == symbol]
    return bool(fns) and fns[0].is_declaration


def test_a_caller_calls_a_once_kernel_by_symbol_and_links_the_others():
    @once
    @njit
    def shared(x):
        return x + 1

    @njit
    def linked(x):
        return x * 3

    @njit
    def caller(x):
        return shared(x) * 2 + linked(x)

    assert caller(3) == 17
    library = caller.overloads[caller.signatures[0]].library
    symbol = shared.overloads[shared.signatures[0]].fndesc.mangled_name
    assert _declared_only(library, symbol)               # resolved by the JIT to its one copy
    assert list(compiling.needs(library)) == [symbol]
    assert compiling.needs(library)[symbol][:2] == (shared.py_func.__module__,
                                                    shared.py_func.__qualname__)
    linked_symbol = linked.overloads[linked.signatures[0]].fndesc.mangled_name
    assert not _declared_only(library, linked_symbol)    # numba's linking, as before


def test_an_inlined_function_called_twice_keeps_each_copys_variables_apart():
    @njit(inline="always")
    def total(a, k):
        t = 0
        for i in range(k):
            t += a[i]
        return t

    @njit
    def both(a):
        return total(a, 2) * 100 + total(a, 3)

    assert both(np.array([1, 2, 3])) == 306
    worker = inline_closurecall.InlineWorker        # the patches are in force on this numba
    assert getattr(worker.inline_ir, "seasalt_patch", False)
    assert getattr(worker.run_untyped_passes, "seasalt_patch", False)


TOY = '''
from .jit import kernel, njit, once


@once
@kernel
def inc(x):
    return x + 1


@njit(cache=True)
def twice(x):
    return inc(x) * 2
'''

FOREIGN = '''
from numba import njit
from kernels import toy_once


@njit(cache=True)
def thrice(x):
    return toy_once.inc(x) * 3
'''

PROBE = r"""
import json
from numba.core import event
from kernels import toy_once
import foreign

class Names(event.Listener):
    def __init__(self): self.names = set()
    def on_start(self, ev): self.names.add(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev): pass

seen = Names()
with event.install_listener("numba:compile", seen):
    value = toy_once.twice(3)
    assert foreign.thrice(3) == 12
print(json.dumps({"value": int(value), "compiled": sorted(seen.names - {"thrice"})}))
"""


def test_a_cached_caller_loads_its_once_callee_first_or_is_compiled_again(tmp_path):
    """The cached caller's machine code calls the callee's symbol: loaded from the cache, the
    callee comes first (else LLVM stops the process: the symbol cannot be resolved); compiled
    anew (its cache entry gone), the callee's symbol is another, so the caller is compiled again
    rather than loaded. A cached function outside the kernels that calls it (numba's own cache,
    which knows nothing of needs) is not cached: it would stop the next process the same way."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "kernels", tree / "kernels",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "kernels" / "toy_once.py").write_text(TOY)
    (tree / "foreign.py").write_text(FOREIGN)
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))

    def probe() -> dict:
        r = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr[-3000:]
        return json.loads(r.stdout)

    assert probe() == {"value": 8, "compiled": ["inc", "twice"]}
    assert probe() == {"value": 8, "compiled": []}
    entries = list(cache.rglob("toy_once.inc-*"))
    assert entries
    for f in entries:
        f.unlink()
    assert probe() == {"value": 8, "compiled": ["inc", "twice"]}
    assert probe() == {"value": 8, "compiled": []}
