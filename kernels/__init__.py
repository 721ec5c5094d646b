"""The game, compiled: numba + numpy only.

Numba's on-disk cache (cache=True) only notices edits to a function's own file, so a kernel that
calls into an edited module could be loaded stale. Each kernel file is therefore cached in a
folder named by the hash of the kernel files it imports, directly or not (its closure,
`closure_hash`): an edit recompiles exactly the kernels that can see it. Seastead's files never
import Sea Salt & Paper's engine, so an edit of one game never recompiles the other, and the
plain rounds and games drivers (kernels/batch.py) import neither the search player nor the
advisor. The folders live under ~/.cache/seasalt/numba-VERSION (or NUMBA_CACHE_DIR).

The same hashes tell whether two processes (a Dask worker and its client, a checkpoint and the
run resuming it) run the same engine: ENGINE_HASH for Sea Salt & Paper (every kernel file outside
kernels/seastead/), SEASTEAD_HASH for Seastead (its files and the shared ones they import).
"""
import ast
import functools
import hashlib
import os
import pathlib

import numba
from numba.core import caching

HERE = pathlib.Path(__file__).resolve().parent


def _module_file(root: pathlib.Path, parts: list[str]) -> pathlib.Path | None:
    """The kernel file of a dotted module path below `root`, if there is one."""
    p = root.joinpath(*parts)
    for f in (p.with_suffix(".py"), p / "__init__.py"):
        if f.is_file():
            return f
    return None


@functools.lru_cache(maxsize=None)
def imports(path: pathlib.Path, root: pathlib.Path = HERE) -> frozenset[pathlib.Path]:
    """The kernel files `path` imports (relative and `kernels.` imports, read from its source
    once per process: every closure reads the same files)."""
    pkg = path.parent.relative_to(root).parts
    found: set[pathlib.Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ImportFrom):
            names = node.module.split(".") if node.module else []
            if node.level:                       # from . / .. / .x import ...
                mod = list(pkg[:len(pkg) - node.level + 1]) + names
            elif names[:1] == ["kernels"]:       # from kernels.x import ...
                mod = names[1:]
            else:
                continue
            targets = [_module_file(root, mod)] + [_module_file(root, mod + [a.name])
                                                   for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [_module_file(root, a.name.split(".")[1:]) for a in node.names
                       if a.name.split(".")[0] == "kernels" and "." in a.name]
        else:
            continue
        found.update(t for t in targets if t is not None and t.name != "__init__.py")
    found.discard(path)
    return frozenset(found)


def closure(path: pathlib.Path, root: pathlib.Path = HERE) -> list[pathlib.Path]:
    """`path` and every kernel file it imports, directly or not, sorted."""
    seen: set[pathlib.Path] = set()
    todo = [path]
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(imports(f, root) - seen)
    return sorted(seen)


def files_hash(files, root: pathlib.Path = HERE) -> str:
    digest = hashlib.sha256(b"".join(p.relative_to(root).as_posix().encode() + b"\0"
                                     + p.read_bytes() for p in sorted(files)))
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def closure_hash(path: pathlib.Path, root: pathlib.Path = HERE) -> str:
    """The hash of a kernel file's closure: what its compiled code can depend on."""
    return files_hash(closure(path, root), root)


def game_files(game: str, root: pathlib.Path = HERE) -> list[pathlib.Path]:
    """The kernel files of one game: 'seasalt' (outside seastead/, with the expert's weights
    file: new weights are a new engine) or 'seastead' (its files and everything they import)."""
    if game == "seastead":
        out: set[pathlib.Path] = set()
        for f in (root / "seastead").glob("*.py"):
            if f.name != "__init__.py":
                out.update(closure(f, root))
        return sorted(out)
    return sorted([f for f in root.glob("*.py") if f.name != "__init__.py"]
                  + list(root.glob("*.json")))


# Every kernel file's closure hash, taken once at import: a module imported later in the
# process (kernels.search on first use) is cached under the sources this process started with.
for _f in sorted(HERE.glob("*.py")) + sorted(HERE.glob("seastead/*.py")):
    closure_hash(_f.resolve())
ENGINE_HASH = files_hash(game_files("seasalt"))
SEASTEAD_HASH = files_hash(game_files("seastead"))


def cache_root() -> str:
    """Where compiled kernels are kept: NUMBA_CACHE_DIR, or the user's cache folder."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    root = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    return str(root / "seasalt" / f"numba-{numba.__version__}")


class ClosureLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for kernel files: one folder per file and closure hash."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        path = pathlib.Path(py_file).resolve()
        name = ".".join(path.relative_to(HERE).with_suffix("").parts)
        self._cache_path = os.path.join(cache_root(), f"{name}-{closure_hash(path)}")

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            pathlib.Path(py_file).resolve().relative_to(HERE)
        except (ValueError, OSError):
            return None                     # not a kernel file: numba's own locators
        return super().from_function(py_func, py_file)


def _install_locator() -> None:
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if ClosureLocator not in impl._locator_classes:
        impl._locator_classes.insert(0, ClosureLocator)
    numba.config.CACHE_DIR = cache_root()


_install_locator()
