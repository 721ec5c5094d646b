"""Numba's on-disk cache, made the kernels' own (kernels/__init__.py says why): each kernel file
cached in a folder named by its closure hash, a folder that cannot be written refused with the fix
named, a damaged entry recompiled. Imported by kernels.jit, through which every compiled kernel
file gets numba, so the cache is set up before the first kernel is defined; importing the package
alone (its hashes, the policy slots) does not import numba."""
import functools
import glob
import os
import pathlib
import sys

import numba
from numba.core import caching

from . import HERE, ON_LOAD, cache_root, closure_hash, compiling


class CacheUnusable(Exception):
    """The compile cache folder cannot be used (a file, not writable, on a read-only disk):
    raised when a kernel is first run, with a message naming the fix. The command line prints
    it as one `error:` line."""


def unusable(root: str, error: OSError) -> str:
    """Why the cache folder `root` cannot be used, and what to do about it."""
    why = error.strerror or str(error)
    if os.environ.get("NUMBA_CACHE_DIR"):
        return (f"the compile cache NUMBA_CACHE_DIR={root} cannot be used ({why}): set "
                f"NUMBA_CACHE_DIR to a folder you can write, or unset it")
    under = " (under XDG_CACHE_HOME)" if os.environ.get("XDG_CACHE_HOME") else ""
    return (f"the compile cache {root}{under} cannot be written ({why}): set NUMBA_CACHE_DIR to "
            f"a folder you can write")


@functools.cache
def _folder(py_file: str) -> str | None:
    """A kernel file's cache folder under the root (its module and closure hash), None for a
    file outside kernels/; worked out once per file, not once for each of its kernels."""
    try:
        path = pathlib.Path(py_file).resolve()
        name = ".".join(path.relative_to(HERE).with_suffix("").parts)
    except (ValueError, OSError):
        return None
    return f"{name}-{closure_hash(path)}"


class ClosureLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for kernel files: one folder per file and closure hash."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(cache_root(), _folder(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if _folder(py_file) is None:
            return None                     # not a kernel file: numba's own locators
        return cls(py_func, py_file)        # never numba's next one (kernels/__pycache__)

    def usable(self) -> None:
        """Raise CacheUnusable unless the folder can be written (checked once, on first use:
        importing the kernels never fails, only running them)."""
        if not getattr(self, "_usable", False):
            try:
                self.ensure_cache_path()
            except OSError as e:
                raise CacheUnusable(unusable(cache_root(), e)) from None
            self._usable = True


def _discard(cache, error: Exception) -> None:
    """Remove a kernel's damaged cache entry (its index and data files) and say so on stderr:
    numba then compiles it and writes the entry anew."""
    index = cache._cache_file._index_path
    data = glob.glob(glob.escape(os.path.join(cache.cache_path, cache._impl.filename_base))
                     + ".*.nbc")
    for f in [index, *data]:
        try:
            os.unlink(f)
        except OSError:
            pass
    func = cache._py_func
    name = f"{func.__module__.removeprefix('kernels.')}.{func.__qualname__}"
    sys.stderr.write(f"warning: the compiled kernel {name} in {cache.cache_path} was damaged "
                     f"({type(error).__name__}); recompiling it and replacing the entry\n")
    sys.stderr.flush()


def _ours(cache) -> bool:
    """Whether `cache` is a kernel's (ClosureLocator's); if so, its folder checked usable."""
    locator = getattr(cache._impl, "locator", None)
    if not isinstance(locator, ClosureLocator):
        return False
    locator.usable()
    return True


NEEDS = "seasalt-needs-1"   # the format of an entry: (NEEDS, its `once` needs, numba's data)


def _load_compiled(cache, sig, target_context):
    """A kernel's compiled entry read without numba's refresh of every typing and lowering
    registry (0.2-0.3 s of imports a process): code loaded from the cache is not typed or
    lowered again, it needs only the runtime's symbols (NRT), numba's hash secrets and the
    `once` kernels it calls (kernels.compiling), loaded first; the first real compile refreshes
    the registries itself (numba.core.compiler). None: compile it."""
    from numba.core.runtime import rtsys
    from numba.cpython import hashing  # noqa: F401  (its symbols, added on import)
    if not cache._enabled:
        return None
    rtsys.initialize(target_context)
    with cache._guard_against_spurious_io_errors():
        entry = cache._cache_file.load(cache._index_key(sig, target_context.codegen()))
    if not (isinstance(entry, tuple) and len(entry) == 3 and entry[0] == NEEDS):
        return None                         # absent, or written by another version
    _, found, data = entry
    if not compiling.load_needs(found, target_context):
        return None
    cres = cache._impl.rebuild(target_context, data)
    cres.library.seasalt_needs = {need[3]: need for need in found}
    return cres


def _save_compiled(cache, sig, cres) -> None:
    """numba's Cache._save_overload, the entry carrying the `once` kernels it calls."""
    if not cache._enabled or not cache._impl.check_cachable(cres):
        return
    cache._impl.locator.ensure_cache_path()
    key = cache._index_key(sig, cres.codegen)
    found = tuple(compiling.needs(cres.library).values())
    with cache._guard_against_spurious_io_errors():
        cache._cache_file.save(key, (NEEDS, found, cache._impl.reduce(cres)))


def _guard_entries(cls) -> None:
    """A kernel's cache entry that cannot be read (a truncated .nbc, an empty .nbi: a pickle
    error, EOFError) is discarded and recompiled instead of failing every later run."""
    load, save = cls.load_overload, cls.save_overload
    if getattr(load, "seasalt_guard", False):
        return

    def load_overload(self, sig, target_context):
        if not _ours(self):
            return load(self, sig, target_context)
        try:
            return _load_compiled(self, sig, target_context)
        except Exception as e:
            _discard(self, e)
            return None

    def save_overload(self, sig, data):
        if not _ours(self):
            if compiling.needs(data.library):
                return None                 # (numba's entry would not load its `once` callees)
            return save(self, sig, data)
        try:
            return _save_compiled(self, sig, data)
        except OSError:
            raise                           # a full disk is not a damaged entry
        except Exception as e:              # the index went bad since it was loaded
            _discard(self, e)
            return _save_compiled(self, sig, data)

    load_overload.seasalt_guard = True
    cls.load_overload, cls.save_overload = load_overload, save_overload


def _install_locator() -> None:
    """Kernel files cached by ClosureLocator, also when NUMBA_CACHE_LOCATOR_CLASSES names
    numba's own locators; their entries guarded (_guard_entries)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if ClosureLocator not in impl._locator_classes:
        impl._locator_classes.insert(0, ClosureLocator)
    chosen = getattr(numba.config, "CACHE_LOCATOR_CLASSES", "")
    if chosen and "kernels.cache.ClosureLocator" not in chosen:
        numba.config.CACHE_LOCATOR_CLASSES = "kernels.cache.ClosureLocator," + chosen
    _guard_entries(caching.Cache)
    compiling.install()
    numba.config.CACHE_DIR = cache_root()


_install_locator()
for _hook in list(ON_LOAD):
    _hook()
