"""The one rule for every command that writes a folder (`report --out`, `guide --out`).

    folder = outdir.check(out, "seasalt guide")       # before any work: refuses at once
    outdir.write(folder, lambda tmp: draw_into(tmp))  # builds aside, then moves into place

* A new DIR is built in a temporary sibling and renamed into place: it appears complete or not
  at all.
* An existing DIR is used only if it is empty or holds nothing but files this program wrote
  there earlier, proved by its manifest (one per generator, e.g. `.seasalt-guide.json`): every
  path in it relative, normalised and inside DIR. Such a DIR (`.` included) is rebuilt in a
  temporary folder inside it, and only then are the earlier files replaced or removed, the
  manifest last. A manifest that is not valid (a path outside, a link, damaged JSON) proves
  nothing: a DIR that is not empty without a valid one is refused with one `error:` line and
  nothing in it is deleted; no file is ever judged ours by its name.
* Just before anything is replaced, DIR is looked at again: a file that appeared during the run
  stops the install, and the new output stays where it was built (the message says where).
"""
from __future__ import annotations

import json
import os
import posixpath
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import SeasaltError

MANIFEST_LIMIT = 4 << 20                 # bytes: a manifest is a list of a few hundred names
TMP_PREFIX = ".seasalt-tmp-"             # the temporary folders this module makes


@dataclass(frozen=True)
class OutFolder:
    """A checked output folder: where, which generator, and the entries an earlier output of
    that generator wrote there (empty for a new or empty folder)."""
    path: Path
    generator: str
    flag: str
    earlier: frozenset[str]

    @property
    def manifest(self) -> str:
        return manifest_name(self.generator)

    def label(self) -> str:
        return f"{self.flag} {str(self.path)!r}"


def manifest_name(generator: str) -> str:
    """`seasalt report` -> `.seasalt-report.json`."""
    return "." + generator.replace(" ", "-") + ".json"


def entries(d: Path) -> set[str]:
    """Every file and folder below `d` as relative POSIX paths (links listed, never followed),
    leaving out this module's temporary folders at the top."""
    out: set[str] = set()
    for root, dirs, files in os.walk(d):
        rel = Path(root).relative_to(d)
        if str(rel) == ".":
            dirs[:] = [x for x in dirs if not x.startswith(TMP_PREFIX)]
        for x in dirs + files:
            out.add((rel / x).as_posix() if str(rel) != "." else x)
    return out


def safe_path(p: object) -> bool:
    """A manifest path: a non-empty relative POSIX path, normalised, that stays inside."""
    if not isinstance(p, str) or not p or "\x00" in p or "\\" in p:
        return False
    if p.startswith("/") or posixpath.normpath(p) != p or p in (".", ".."):
        return False
    return not p.startswith("../")


def read_manifest(d: Path, generator: str) -> tuple[frozenset[str] | None, str]:
    """The paths of `d`'s manifest for `generator`, or (None, why it proves nothing)."""
    name = manifest_name(generator)
    m = d / name
    if m.is_symlink():
        return None, f"its {name} is a symbolic link"
    if not m.exists():
        return None, f"it has no {name}"
    try:
        with open(m, "rb") as f:
            raw = f.read(MANIFEST_LIMIT + 1)
        if len(raw) > MANIFEST_LIMIT:
            return None, f"its {name} is over {MANIFEST_LIMIT >> 20} MiB"
        data = json.loads(raw.decode("utf-8"))
    except OSError as e:
        return None, f"its {name} cannot be read ({e.strerror or e})"
    except (ValueError, RecursionError):
        return None, f"its {name} is not valid JSON"
    if not isinstance(data, dict) or data.get("generator") != generator \
            or not isinstance(data.get("files"), list):
        return None, f"its {name} is not a {generator} manifest"
    for i, p in enumerate(data["files"]):
        if not safe_path(p):
            return None, f"its {name} lists {str(p)[:60]!r} (entry {i + 1}), not a path inside"
    return frozenset(data["files"]), ""


def check(out: str | os.PathLike, generator: str, flag: str = "--out") -> OutFolder:
    """Validate DIR before any work (SeasaltError, one line, naming what is wrong)."""
    d = Path(out)
    label = f"{flag} {str(out)!r}"
    parent = d.parent if str(d.parent) else Path(".")
    if not parent.is_dir():
        raise SeasaltError(f"{label}: directory {str(parent)!r} does not exist")
    if d.is_symlink():
        raise SeasaltError(f"{label} is a symbolic link; give the directory itself")
    if not d.exists():
        if not os.access(parent, os.W_OK | os.X_OK):
            raise SeasaltError(f"{label}: directory {str(parent)!r} is not writable")
        return OutFolder(d, generator, flag, frozenset())
    if not d.is_dir():
        raise SeasaltError(f"{label} exists and is not a directory")
    if not os.access(d, os.W_OK | os.X_OK):
        raise SeasaltError(f"{label}: the directory is not writable")
    found = entries(d)
    if not found:
        return OutFolder(d, generator, flag, frozenset())
    own, why = read_manifest(d, generator)
    foreign = sorted(found - own - {manifest_name(generator)}) if own is not None else []
    if own is None or foreign:
        shown = _names(foreign if own is not None else sorted(_top(found)))
        reason = why if own is None else f"not written by {generator}"
        raise SeasaltError(f"{label} is not empty and {reason} ({shown}): give a new or empty "
                           f"directory (seasalt deletes only files it wrote)")
    return OutFolder(d, generator, flag, own & found)


def _top(paths) -> set[str]:
    return {p.split("/", 1)[0] for p in paths}


def _names(items: list[str]) -> str:
    shown = ", ".join(x[:60] for x in items[:4])
    return shown + (f" and {len(items) - 4} more" if len(items) > 4 else "")


def write(folder: OutFolder, build: Callable[[Path], None]) -> Path:
    """Build the output with `build(tmp)` into a temporary folder, write its manifest, and put
    it at `folder.path`. A failure while building leaves DIR as it was."""
    d = folder.path
    inside = d.is_dir()
    where = d if inside else (d.parent if str(d.parent) else Path("."))
    try:
        tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=where))
    except OSError as e:
        raise SeasaltError(f"{folder.label()}: cannot write: {e.strerror or e}") from None
    try:
        build(tmp)
        new = entries(tmp)
        _write_manifest(tmp / folder.manifest, folder.generator, new)
        if not inside:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o777 & ~mask)
            os.rename(tmp, d)
            return d
        kept = _install(folder, tmp, new)
    except BaseException as e:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(e, OSError):
            raise SeasaltError(f"{folder.label()}: cannot write: {e.strerror or e}") from None
        raise
    if kept:
        raise SeasaltError(kept)
    shutil.rmtree(tmp, ignore_errors=True)
    return d


def _write_manifest(path: Path, generator: str, files: set[str]) -> None:
    from .. import __version__
    text = json.dumps({"generator": generator, "version": __version__,
                       "files": sorted(files)}, indent=1)
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def _install(folder: OutFolder, tmp: Path, new: set[str]) -> str:
    """Replace the earlier output in DIR by the one built in `tmp` (inside DIR); or, if files
    appeared in DIR during the run, touch nothing and return the message saying so."""
    d, name = folder.path, folder.manifest
    now = entries(d)
    appeared = sorted(now - folder.earlier - {name})
    if appeared:
        return (f"{folder.label()}: {_names(appeared)} appeared there during the run; nothing "
                f"replaced, the new output is kept in {str(tmp)!r}")
    earlier = folder.earlier & now
    # While files move, the manifest lists both outputs, so that a crash leaves a folder
    # the next run still recognises as ours.
    _write_manifest(d / name, folder.generator, set(earlier) | new)
    for top in sorted(_top(new)):
        target = d / top
        if target.is_symlink() or target.exists():
            _remove(d, top, earlier)
        os.rename(tmp / top, target)
    for rel in sorted(earlier - new, key=lambda r: -r.count("/")):   # files before folders
        _remove(d, rel, earlier)
    os.replace(tmp / name, d / name)
    return ""


def _remove(d: Path, rel: str, ours: set[str]) -> None:
    """Delete DIR/rel, which the manifest proves ours; a folder only with what it lists (a
    folder still holding anything else is kept)."""
    p = d / rel
    if p.is_dir() and not p.is_symlink():
        for sub in sorted((e for e in ours if e.startswith(rel + "/")),
                          key=lambda r: -r.count("/")):
            _remove_one(d / sub)
        try:
            p.rmdir()
        except OSError:
            raise SeasaltError(f"{str(p)!r} holds files seasalt did not write; nothing more "
                               f"removed") from None
    else:
        _remove_one(p)


def _remove_one(p: Path) -> None:
    try:
        if p.is_dir() and not p.is_symlink():
            p.rmdir()
        else:
            p.unlink()
    except FileNotFoundError:
        pass
