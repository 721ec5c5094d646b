"""The pandas layer: run results as tidy DataFrames whose every row carries the run's metadata,
and writing them to a file whose format follows the extension.

Metadata columns (every frame): `command`, `seed`, `players`, `expansion`, `target` (games only),
`games` or `rounds`, the specs (`policies` for simulate, `lineup` for tournaments, `policy` and
`field` for sweeps; several specs are joined with "; "), and `version` (seasalt's). Estimates
come as `x`, `x_lo`, `x_hi` (95% interval). Wall-clock timing is never in a frame, so a frame is a
pure function of the run's inputs (the same for any --jobs).

    write_frame(df, "out.csv")      # .csv, .json (records), .parquet (needs pyarrow/fastparquet)

Writing goes to a temporary file in the target's directory, renamed into place when complete, so
a failed write leaves no half-written file. `check_out` validates a path before a long run.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import pandas as pd

from .. import __version__
from ..base.errors import SeasaltError
from ..numbers.catalogue import GAME_LAYOUTS, ROUND_LAYOUTS, ROUND_TABLES, seat_rows, table_rows
from ..numbers.estimates import wilson

FORMATS = {".csv": "csv", ".json": "json", ".parquet": "parquet"}
SPEC_SEP = "; "


def join_specs(specs: Sequence[str]) -> str:
    """Several specs in one cell (specs contain commas, never semicolons)."""
    return SPEC_SEP.join(specs)


def split_specs(cell: str) -> list[str]:
    return [s for s in str(cell).split(SPEC_SEP) if s]


def frame(rows: Iterable[Mapping], meta: Mapping) -> pd.DataFrame:
    """A DataFrame of `rows` with the metadata columns `meta` appended to every row."""
    rows = [dict(r) for r in rows]
    df = pd.DataFrame(rows)
    for key, value in meta.items():
        if key in df.columns:
            raise ValueError(f"metadata column {key!r} clashes with a data column")
        df[key] = [value] * len(df)
    if "version" not in df.columns:
        df["version"] = __version__
    return df


# ---------------------------------------------------------------------------------------------
# simulate results

def _sim_meta(r: Mapping, command: str) -> dict:
    meta = {"command": command, "seed": r["seed"], "players": r["players"],
            "expansion": r["expansion"], "policies": join_specs(r["policies"])}
    if "games" in r:
        meta.update(target=r["target"], games=r["games"])
    else:
        meta.update(rounds=r["rounds"])
    meta["version"] = r["version"]
    return meta


def games_frame(r: Mapping) -> pd.DataFrame:
    """analyzer.studies.simulate.simulate_games output: one row per seat, every game statistic of the
    catalogue that has a column (kernels.statistics)."""
    return frame(seat_rows(r, GAME_LAYOUTS, r["games"]), _sim_meta(r, "simulate-games"))


def rounds_frame(r: Mapping) -> pd.DataFrame:
    """analyzer.studies.simulate.simulate_rounds output: one row per seat (round points), with the
    round-level rates (how rounds end, turns per round) repeated on each seat's row."""
    return frame(seat_rows(r, ROUND_LAYOUTS, r["rounds"]), _sim_meta(r, "simulate-rounds"))


def _table_frame(t) -> Callable[[Mapping], pd.DataFrame]:
    def build(r: Mapping) -> pd.DataFrame:
        return frame(table_rows(r, t), _sim_meta(r, "simulate-rounds"))
    build.__doc__ = f"simulate_rounds output: {t.meaning}, one row per {t.bin_column}."
    return build


def merge_sparse(df: pd.DataFrame, min_calls: int) -> pd.DataFrame:
    """LAST CHANCE calls by caller points, per player count: consecutive point totals are
    merged (from the top down) until each bin has at least `min_calls` calls; each bin gets its
    label (`17+` for an open top bin, `12-13` for a merged one), the calls' mean points, n
    and Wilson interval; `sparse` marks a bin still short of `min_calls` (too few calls in all).
    The input has `caller_points`, `calls` and `won` (a simulate --table last-chance file)."""
    out = []
    groups = df.groupby("players", sort=True) if "players" in df.columns else [(None, df)]
    for p, g in groups:
        g = g.sort_values("caller_points")
        bins: list[list] = []
        cur: list = []
        for rec in g.itertuples():
            cur.append(rec)
            if sum(x.calls for x in cur) >= min_calls:
                bins.append(cur)
                cur = []
        if cur:
            if bins:
                bins[-1] += cur
            else:
                bins.append(cur)
        top = int(g["caller_points"].max())
        for b in bins:
            lo_pt, hi_pt = b[0].caller_points, b[-1].caller_points
            calls = sum(x.calls for x in b)
            won = sum(x.won for x in b)
            wl, wh = wilson(won, calls)
            label = (f"{lo_pt}+" if hi_pt == top and len(b) > 1 else
                     f"{lo_pt}" if lo_pt == hi_pt else f"{lo_pt}-{hi_pt}")
            mean_pt = sum(x.caller_points * x.calls for x in b) / calls
            out.append({"players": p, "points": label, "points_from": lo_pt,
                        "points_to": hi_pt, "points_mean": mean_pt, "calls": calls, "won": won,
                        "success": won / calls, "success_lo": wl, "success_hi": wh,
                        "sparse": calls < min_calls})
    return pd.DataFrame(out)


# `simulate --rounds --table NAME`: the seats, then every table of the catalogue
ROUNDS_TABLES: dict[str, Callable[[Mapping], pd.DataFrame]] = {
    "seats": rounds_frame, **{t.name: _table_frame(t) for t in ROUND_TABLES}}


# ---------------------------------------------------------------------------------------------
# files

def out_format(path: str | os.PathLike) -> str:
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise SeasaltError(f"--out {str(path)!r}: unknown file type {ext or '(none)'!r}; "
                           f"valid: {', '.join(FORMATS)}")
    return FORMATS[ext]


def _parquet_engine() -> str:
    for engine in ("pyarrow", "fastparquet"):
        try:
            __import__(engine)
            return engine
        except ImportError:
            continue
    raise SeasaltError("writing .parquet needs pyarrow or fastparquet, neither is installed "
                       "(pip install pyarrow); use .csv or .json instead")


def check_out(path: str | os.PathLike) -> Path:
    """Validate an --out path before a run: known extension, writable directory, not a directory,
    and for parquet an installed engine. Raises SeasaltError (exit 2)."""
    p = Path(path)
    fmt = out_format(p)
    if fmt == "parquet":
        _parquet_engine()
    if p.is_dir():
        raise SeasaltError(f"--out {str(path)!r} is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise SeasaltError(f"--out {str(path)!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SeasaltError(f"--out {str(path)!r}: directory {str(parent)!r} is not writable")
    if p.exists() and not os.access(p, os.W_OK):
        raise SeasaltError(f"--out {str(path)!r} exists and is not writable")
    return p


def _jsonable(v):
    if hasattr(v, "item"):          # numpy scalars
        v = v.item()
    if isinstance(v, float) and v != v:
        return None
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return None
    return v


def records(df: pd.DataFrame) -> list[dict]:
    """Rows as plain Python dicts (NaN as None), for JSON."""
    return [{k: _jsonable(v) for k, v in row.items()} for row in df.to_dict("records")]


def write_frame(df: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write `df` to `path` (.csv, .json as a list of records, .parquet), atomically."""
    p = check_out(path)
    fmt = out_format(p)
    parent = p.parent if str(p.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
    except OSError as e:               # a directory where no file can be made (/proc, a full disk)
        raise SeasaltError(f"--out {str(path)!r}: cannot write: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w" if fmt != "parquet" else "wb",
                       **({"encoding": "utf-8", "newline": ""} if fmt != "parquet" else {})) as f:
            if fmt == "csv":
                df.to_csv(f, index=False)
            elif fmt == "json":
                json.dump(records(df), f, indent=1, allow_nan=False)
                f.write("\n")
            else:
                df.to_parquet(f, index=False, engine=_parquet_engine())
        os.chmod(tmp, _file_mode(p))
        os.replace(tmp, p)
    except OSError as e:
        _unlink(tmp)
        raise SeasaltError(f"--out {str(path)!r}: cannot write: {e.strerror or e}") from None
    except BaseException:
        _unlink(tmp)
        raise
    return p


def _file_mode(p: Path) -> int:
    """The mode the file would get from a plain open(): kept if it exists, else 0o666 - umask."""
    try:
        return p.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def read_frame(path: str | os.PathLike) -> pd.DataFrame:
    """Read back a file written by write_frame."""
    fmt = out_format(path)
    if fmt == "csv":
        return pd.read_csv(path)
    if fmt == "json":
        with open(path, encoding="utf-8") as f:
            return pd.DataFrame(json.load(f))
    return pd.read_parquet(path)
