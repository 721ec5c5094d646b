"""The game, compiled: numba + numpy only.

Numba's on-disk cache (cache=True) only notices edits to a function's own file, so a kernel that
calls into an edited module could be loaded stale. The cache therefore lives in a directory named
by a hash of every kernel source file, kernels/seastead/ included (ENGINE_HASH): any edit here
starts a fresh cache. Set NUMBA_CACHE_DIR to override. The same hash tells whether two processes (a Dask worker and its
client, a checkpoint and the run resuming it) run the same engine.
"""
import hashlib
import os
import pathlib

import numba


def _engine_hash() -> str:
    here = pathlib.Path(__file__).parent
    sources = sorted(here.glob("*.py")) + sorted(here.glob("seastead/*.py"))   # and Seastead's
    digest = hashlib.sha256(b"".join(p.relative_to(here).as_posix().encode() + p.read_bytes()
                                     for p in sources))
    return digest.hexdigest()[:16]


ENGINE_HASH = _engine_hash()


def _cache_dir() -> str:
    root = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    return str(root / "seasalt" / f"numba-{numba.__version__}-{ENGINE_HASH}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()
