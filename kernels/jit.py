"""The one decorator for engine code: compiled, cached, and without reference counting.

Numba's runtime (NRT) increfs and decrefs array arguments at call boundaries; in this engine,
where many small functions pass the state array around, that was about 70% of the run time.
Engine functions never allocate, so they are compiled with `_nrt=False`; only the batch
drivers, which allocate per-block buffers, use plain `njit`.
"""
from numba import njit


def kernel(*args, **options):
    """`@kernel` or `@kernel(inline="always")`: njit(cache=True, _nrt=False, **options)."""
    options.setdefault("cache", True)
    options.setdefault("forceinline", False)
    options["_nrt"] = False
    if args and callable(args[0]):
        return njit(**options)(args[0])
    return njit(**options)
