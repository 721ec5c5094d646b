"""The game, compiled: numba + numpy only.

Numba's on-disk cache (cache=True) only notices edits to a function's own file, so a kernel that
calls into an edited module could be loaded stale. Each kernel file is therefore cached in a
folder named by the hash of the kernel files it imports, directly or not (its closure,
`closure_hash`): an edit recompiles exactly the kernels that can see it. Seastead's files never
import Sea Salt & Paper's engine, so an edit of one game never recompiles the other, and the
plain rounds and games drivers (kernels/batch.py) import neither the search player nor the
advisor. The folders live under ~/.cache/seasalt/numba-VERSION (or NUMBA_CACHE_DIR).

The cache is trusted only when it is this one (kernels/cache.py). A folder that cannot be written
is refused (CacheUnusable, a message naming the fix) instead of numba's fallback to
kernels/__pycache__, which is keyed by each file alone and would answer an edit with the old
engine. A damaged entry (a truncated or empty file) is discarded, recompiled and written anew, with
a line saying so. This package imports no numba itself: kernels.jit sets the cache up.

The same hashes tell whether two processes (a Dask worker and its client, a checkpoint and the
run resuming it) run the same engine: ENGINE_HASH for Sea Salt & Paper (every kernel file outside
kernels/seastead/), SEASTEAD_HASH for Seastead (its files and the shared ones they import).
"""
import ast
import functools
import hashlib
import importlib.metadata
import json
import os
import pathlib
import time

HERE = pathlib.Path(__file__).resolve().parent
# Called once numba is loaded for the engine (kernels.cache runs them): a watch on compiling
# (analyzer.runs.compiling) waits here rather than import numba before it is needed.
ON_LOAD: list = []


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


_KNOWN: dict[pathlib.Path, str] = {}      # this process's kernel hashes, taken at import


@functools.lru_cache(maxsize=None)
def closure_hash(path: pathlib.Path, root: pathlib.Path = HERE) -> str:
    """The hash of a kernel file's closure: what its compiled code can depend on."""
    if root == HERE and path in _KNOWN:
        return _KNOWN[path]
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


def _kernel_files(root: pathlib.Path = HERE) -> list[pathlib.Path]:
    return sorted(root.glob("*.py")) + sorted(root.glob("seastead/*.py"))


def _hashes() -> dict:
    """Every kernel file's closure hash and the two engine hashes, computed from the sources."""
    files = {f.relative_to(HERE).as_posix(): closure_hash(f.resolve()) for f in _kernel_files()}
    return {"files": files, "engine": files_hash(game_files("seasalt")),
            "seastead": files_hash(game_files("seastead"))}


def _manifest_hashes() -> dict:
    """_hashes(), kept in the cache folder under a key of every kernel file's name, size and
    modification time, so that a command starts without reading and parsing the sources (git's
    racily-clean rule: a manifest is written only when every file is more than 2 s old, so an
    edit within the same clock tick is never missed). Any trouble: computed from the sources."""
    try:
        stats = [(f.relative_to(HERE).as_posix(), f.stat())
                 for f in _kernel_files() + sorted(HERE.glob("*.json"))]
        key = hashlib.sha256(repr([str(HERE)] + [(n, st.st_size, st.st_mtime_ns)
                                                 for n, st in stats]).encode()).hexdigest()[:20]
        path = pathlib.Path(cache_root()) / "hashes" / f"{key}.json"
        if path.is_file():
            out = json.loads(path.read_text(encoding="utf-8"))
            if (isinstance(out, dict) and isinstance(out.get("files"), dict)
                    and {"engine", "seastead"} <= out.keys()):
                return out
    except (OSError, ValueError):
        return _hashes()
    out = _hashes()
    if all(st.st_mtime_ns < time.time_ns() - 2_000_000_000 for _, st in stats):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(out), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass                            # an unusable cache is reported when a kernel runs
    return out


def cache_root() -> str:
    """Where compiled kernels are kept: NUMBA_CACHE_DIR, or the user's cache folder."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    root = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    return str(root / "seasalt" / f"numba-{_numba_version()}")


@functools.cache
def _numba_version() -> str:
    """numba's version, read from its installed metadata (importing numba takes a quarter of a
    second that listing the players or rejecting an option should not pay)."""
    return importlib.metadata.version("numba")


# Every kernel file's closure hash, taken once at import: a module imported later in the
# process (kernels.search on first use) is cached under the sources this process started with.
_HASHES = _manifest_hashes()
for _name, _h in _HASHES["files"].items():
    _KNOWN[(HERE / _name).resolve()] = _h
ENGINE_HASH = _HASHES["engine"]
SEASTEAD_HASH = _HASHES["seastead"]
