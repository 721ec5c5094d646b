"""The game, compiled: numba + numpy only.

Numba's on-disk cache (cache=True) only notices edits to a function's own file, so a kernel that
calls into an edited module could be loaded stale. The cache therefore lives in a directory named
by a hash of every kernel source file: any edit here starts a fresh cache. Set NUMBA_CACHE_DIR to
override.
"""
import hashlib
import os
import pathlib

import numba


def _cache_dir() -> str:
    sources = sorted(pathlib.Path(__file__).parent.glob("*.py"))
    digest = hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in sources))
    root = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    return str(root / "seasalt" / f"numba-{numba.__version__}-{digest.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()
