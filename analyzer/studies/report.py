"""`seasalt report`: charts and an index.html from saved result files, and a built-in demo study.

    build_report(["sweep.csv", "lc3.json"], "out/")       # PNG + SVG per chart, out/index.html
    demo("out/")                                           # runs a small study, then the above

Which table a file holds is told by its `command` column and its columns: `sweep` rows,
`tournament` rows, `simulate-rounds` tables (seats, last-chance, mermaids, and the two
histograms, turns and declarer-points, which have the same columns and are told apart by the file
name: it must contain "turn" or "declarer"), `simulate-games` rows (wins by seat). A `replay`
file (one game's events) has no chart, and a Seastead file belongs to `seasalt seastead report`:
both are refused with a message saying so.

Every problem with an input file is a SeasaltError `FILE: ...` naming the file and the column.
The report never touches a file it did not write: DIR follows analyzer.base.outdir's rule (built
aside, moved into place; an existing DIR only if it holds nothing but an earlier report's own
files as its manifest, .seasalt-report.json, proves). The input files are copied into
DIR/results/ so that the report stands on its own.
"""
from __future__ import annotations

import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ..base import outdir
from ..base.errors import SeasaltError
from ..numbers.catalogue import ROUND_TABLES
from ..render.tidy_frames import FORMATS, read_frame, write_frame
from ..runs.spec import Backend

_META = ["command", "seed", "version"]
MAX_RESULTS_BYTES = 256 << 20   # a results file is a table of counts: a few MiB at the most
# counts (whole numbers, not negative), and columns read as numbers when present; which
# columns each table needs comes from the charts that draw it (reports.registry)
WHOLE = {"players", "games", "rounds", "seat", "mermaids", "caller_points", "calls", "value",
         "count", "entrant", "player_rounds", "wins"}
OPTIONAL_NUMERIC = ["four_mermaid_rate", "win_share", "win_share_lo", "win_share_hi",
         "mermaid_points_mean"]


# ---------------------------------------------------------------------------------------------
# reading

def load(path: str | os.PathLike) -> tuple[str, pd.DataFrame]:
    """(table, frame) of a saved result file; SeasaltError `FILE: ...` if it cannot be used."""
    name = str(path)
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise SeasaltError(f"{name}: unknown file type {p.suffix or '(none)'!r}; "
                           f"valid: {', '.join(FORMATS)}")
    if not p.exists():
        raise SeasaltError(f"{name}: no such file")
    if not p.is_file():
        raise SeasaltError(f"{name}: not a regular file (a directory, a device or a pipe)")
    if p.stat().st_size > MAX_RESULTS_BYTES:
        raise SeasaltError(f"{name}: over {MAX_RESULTS_BYTES >> 20} MiB, larger than any results "
                           f"file seasalt writes")
    try:
        df = read_frame(p)
    except SeasaltError as e:
        raise SeasaltError(f"{name}: {e}") from None
    except Exception as e:  # noqa: BLE001 - any parse failure is the file's fault
        reason = " ".join(str(e).split()) or type(e).__name__
        raise SeasaltError(f"{name}: cannot read: {reason}") from None
    if not isinstance(df, pd.DataFrame) or df.empty:
        raise SeasaltError(f"{name}: no rows")
    table = detect(df, name)
    check_columns(df, table, name)
    return table, df


def detect(df: pd.DataFrame, name: str) -> str:
    if "command" not in df.columns:
        raise SeasaltError(f"{name}: missing column command")
    commands = set(df["command"].dropna().astype(str))
    if len(commands) != 1:
        raise SeasaltError(f"{name}: malformed column command: expected one command, "
                           f"found {sorted(commands) or 'none'}")
    command = commands.pop()
    cols = set(df.columns)
    if command in ("sweep", "tournament"):
        return command
    if command == "simulate-games":
        return "games"
    if command == "simulate-rounds":
        tables = [t.name for t in ROUND_TABLES if t.bin_column in cols]
        if len(tables) == 1:
            return tables[0]
        if tables:                  # histograms share their columns: the file name tells
            stem = Path(name).name.lower()
            for table in tables:
                if table.split("-")[0].rstrip("s") in stem:
                    return table
            raise SeasaltError(f"{name}: a histogram table whose name says neither 'turns' nor "
                               f"'declarer' (rename it, e.g. turns-3p.csv or declarer-points-3p.csv)")
        if "seat" in cols:
            return "seats"
        raise SeasaltError(f"{name}: missing column caller_points (no simulate-rounds table "
                           f"has these columns)")
    if command == "replay":
        raise SeasaltError(f"{name}: a replay (one game's events) has no chart; report takes the "
                           f"--out files of sweep, tournament and simulate")
    if str(command).startswith("seastead"):
        raise SeasaltError(f"{name}: a Seastead result ({command}); this report draws Sea Salt & "
                           f"Paper results, and 'seasalt seastead report' is Seastead's report")
    raise SeasaltError(f"{name}: malformed column command: unknown command {command!r}")


def check_columns(df: pd.DataFrame, table: str, name: str) -> None:
    from reports.registry import table_columns, text_columns
    need, numeric, optional = table_columns(table)
    for c in _META + need:
        if c not in df.columns:
            raise SeasaltError(f"{name}: missing column {c}")
    if table == "sweep":
        param = str(df["swept"].dropna().iloc[0]).split(",")[0] if df["swept"].notna().any() else ""
        if not param:
            raise SeasaltError(f"{name}: malformed column swept: empty")
        if param not in df.columns:
            raise SeasaltError(f"{name}: missing column {param}")
        numeric = numeric + [param]
    for c in numeric + [c for c in OPTIONAL_NUMERIC + optional if c in df.columns]:
        values = pd.to_numeric(df[c], errors="coerce")
        if values.isna().any():
            bad = df[c][values.isna()].iloc[0]
            raise SeasaltError(f"{name}: malformed column {c}: {_cell(bad)} is not a number")
        if not np.isfinite(values.astype(float)).all():
            bad = df[c][~np.isfinite(values.astype(float))].iloc[0]
            raise SeasaltError(f"{name}: malformed column {c}: {_cell(bad)} is not a finite "
                               f"number")
        if c in WHOLE and ((values < 0) | (values != values.round()) | (values > 1e12)).any():
            bad = df[c][(values < 0) | (values != values.round()) | (values > 1e12)].iloc[0]
            raise SeasaltError(f"{name}: malformed column {c}: {_cell(bad)} is not a count")
        df[c] = values
    _check_ranges(df, name)
    _check_intervals(df, name)
    if "players" in need and not df["players"].isin([2, 3, 4]).all():
        bad = df["players"][~df["players"].isin([2, 3, 4])].iloc[0]
        raise SeasaltError(f"{name}: malformed column players: {_cell(bad)} is not 2, 3 or 4")
    for c in text_columns(table):
        cells = df[c].astype(object)
        empty = cells.isna() | (cells.astype(str).str.strip() == "")
        if empty.any():
            raise SeasaltError(f"{name}: malformed column {c}: an empty cell (row "
                               f"{int(empty.to_numpy().argmax()) + 2})")


def _is_rate(column: str) -> bool:
    """A share of games, rounds or calls (win_rate, end_stop_rate, success, fair_share, ...)."""
    return column.endswith(("_rate", "_share")) or column in ("success", "fair_share")


def _check_ranges(df: pd.DataFrame, name: str) -> None:
    """What no run can write: a rate or share outside 0..1, a Wilson interval of a rate
    (X_lo, X_hi beside X_rate or X) outside 0..1, points or totals below 0. Such a file is
    damaged; drawn, it made charts of nothing (and matplotlib warnings)."""
    bounds: dict[str, tuple[float, float, str]] = {}
    for c in df.columns:
        if not isinstance(c, str) or not pd.api.types.is_numeric_dtype(df[c]):
            continue
        if _is_rate(c):
            bounds[c] = (0.0, 1.0, "a rate between 0 and 1")
            stem = c.removesuffix("_rate")
            if c.endswith("_rate") or c == "success":       # Wilson intervals stay in 0..1
                for side in ("_lo", "_hi"):
                    for iv in (c + side, stem + side):
                        if iv in df.columns:
                            bounds[iv] = (0.0, 1.0, "a rate's interval end between 0 and 1")
        elif c.endswith("_mean") and ("points" in c or "total" in c):
            bounds[c] = (0.0, math.inf, "a number of points (0 or more)")
    for c, (lo, hi, what) in bounds.items():
        values = pd.to_numeric(df[c], errors="coerce").astype(float)
        wrong = values.notna() & ((values < lo) | (values > hi))
        if wrong.any():
            i = int(wrong.to_numpy().argmax())
            raise SeasaltError(f"{name}: malformed column {c}: row {i + 2}: "
                               f"{_cell(df[c].iloc[i])} is not {what}")


def _check_intervals(df: pd.DataFrame, name: str) -> None:
    """Every 95% interval (columns X_lo, X_hi) runs upwards, and the estimate X, where there is
    one, lies inside it: an inverted or misplaced interval is a damaged file, never drawn."""
    for lo_col in [c for c in df.columns if isinstance(c, str) and c.endswith("_lo")]:
        base = lo_col[:-3]
        hi_col = base + "_hi"
        if hi_col not in df.columns:
            continue
        cols = [lo_col, hi_col] + ([base] if base in df.columns else [])
        values = {c: pd.to_numeric(df[c], errors="coerce").astype(float) for c in cols}
        lo, hi = values[lo_col], values[hi_col]
        known = np.isfinite(lo) & np.isfinite(hi)       # an empty interval (no calls) is fine
        wrong = known & (lo > hi)
        what = "is above"
        if base in values and not wrong.any():
            est = values[base]
            tol = 1e-9 * np.maximum(1.0, est.abs())
            wrong = known & np.isfinite(est) & ((est < lo - tol) | (est > hi + tol))
            what = "does not hold"
        if wrong.any():
            i = int(wrong.to_numpy().argmax())
            if what == "is above":
                raise SeasaltError(f"{name}: malformed columns {lo_col}/{hi_col}: row {i + 2} "
                                   f"has an inverted interval ({_cell(df[lo_col].iloc[i])} is "
                                   f"above {_cell(df[hi_col].iloc[i])})")
            raise SeasaltError(f"{name}: malformed columns {lo_col}/{hi_col}: row {i + 2}: the "
                               f"interval [{_cell(df[lo_col].iloc[i])}, "
                               f"{_cell(df[hi_col].iloc[i])}] does not hold {base} "
                               f"{_cell(df[base].iloc[i])}")


def _cell(v) -> str:
    """A cell for a message: strings quoted, numbers as written (never `np.float64(nan)`)."""
    if isinstance(v, str):
        return repr(v if len(v) <= 40 else v[:37] + "...")
    try:
        return format(v)
    except (TypeError, ValueError):
        return repr(v)


# ---------------------------------------------------------------------------------------------
# metadata

def run_metadata(table: str, df: pd.DataFrame, file: str) -> dict:
    row = df.iloc[0]

    def get(c):
        return row[c] if c in df.columns and pd.notna(row[c]) else ""

    size_col = "rounds" if "rounds" in df.columns and table not in ("sweep", "tournament",
                                                                      "games") else "games"
    players = sorted({int(p) for p in df["players"].dropna()}) if "players" in df.columns else []
    config = get("policy") or get("lineup") or get("policies")
    if table == "sweep":
        config = f"{config} swept over {get('swept')} vs {get('field')}"
    return {
        "file": file, "table": table, "command": get("command"), "seed": get("seed"),
        "players": ",".join(map(str, players)),
        "sample": f"{int(get(size_col)):,} {size_col}" + (" per point" if table == "sweep" else "")
        if get(size_col) != "" else "",
        "expansion": get("expansion"), "configuration": config, "version": get("version"),
    }


# ---------------------------------------------------------------------------------------------
# building

GENERATOR = "seasalt report"
MANIFEST = outdir.manifest_name(GENERATOR)


def check_dest(out: str | os.PathLike) -> outdir.OutFolder:
    """Validate DIR before any work (analyzer.base.outdir: new, empty, or an earlier report's own
    files as its manifest proves)."""
    return outdir.check(out, GENERATOR)


def build_report(paths: Sequence[str | os.PathLike], out: str | os.PathLike,
                 title: str = "seasalt report", notes: Sequence[str] = (),
                 log: Callable[[str], None] | None = None) -> Path:
    """Read `paths`, write the report into `out` (analyzer.base.outdir's rule), return its
    index.html path."""
    if not paths:
        raise SeasaltError("give at least one results file (or --demo)")
    folder = check_dest(out)
    loaded = [(str(p), *load(p)) for p in paths]
    return outdir.write(folder, lambda tmp: _write(tmp, loaded, title, notes, log)) / "index.html"


def _result_names(loaded) -> list[str]:
    names, seen = [], set()
    for path, _, _ in loaded:
        base = Path(path).name
        stem, ext = os.path.splitext(base)
        n, i = base, 1
        while n in seen:
            i += 1
            n = f"{stem}-{i}{ext}"
        seen.add(n)
        names.append(n)
    return names


def _jobs(loaded, names):
    """(chart spec, file stem, frame, source names) of every chart the files make: a chart per
    file for per-file charts, else one over all files of its table."""
    from reports.registry import CHARTS
    for spec in CHARTS:
        items = [(df, n) for (_, t, df), n in zip(loaded, names) if t == spec.table]
        if not items:
            continue
        if spec.optional and not all(set(spec.needs) <= set(df.columns) for df, _ in items):
            continue
        if spec.per_file:
            for k, (df, n) in enumerate(items):
                yield spec, spec.name + (f"-{k + 1}" if len(items) > 1 else ""), df, [n]
        else:
            yield spec, spec.name, pd.concat([d for d, _ in items], ignore_index=True), \
                [n for _, n in items]


def _write(tmp: Path, loaded, title: str, notes, log) -> list[str]:
    import matplotlib
    matplotlib.use("Agg", force=False)
    from reports import charts as ch
    from reports.html import Chart, page
    from reports.registry import write_files

    (tmp / "results").mkdir()
    names = _result_names(loaded)
    runs = []
    for (path, table, df), n in zip(loaded, names):
        if Path(path).resolve() != (tmp / "results" / n).resolve():
            shutil.copyfile(path, tmp / "results" / n)
        runs.append(run_metadata(table, df, f"results/{n}"))

    out = []
    # "$" in a spec or a column name is text, not matplotlib's math notation
    with matplotlib.rc_context({"text.parse_math": False}):
        for spec, name, df, sources in _jobs(loaded, names):
            title_ = spec.title.replace("threshold", ch.sweep_param(df)) if spec.title_param \
                else spec.title
            try:
                if spec.prepare:
                    df = spec.prepare(df)
                fig = spec.draw(df)
                finding = spec.finding(df)
                table = spec.numbers(df) if spec.numbers else None
                png, svg = write_files(fig, tmp, name, dpi=150)
            except ch.ChartError as e:
                raise SeasaltError(f"{sources[0]}: {e}") from None
            except (ValueError, TypeError, KeyError, IndexError, OverflowError,
                    ZeroDivisionError) as e:         # values no seasalt run writes
                reason = " ".join(str(e).split())[:200] or type(e).__name__
                raise SeasaltError(f"{sources[0]}: cannot draw the {spec.name} chart from these "
                                   f"values ({reason})") from None
            if log:
                log(f"chart {name}: {finding}")
            out.append(Chart(name, title_, png, svg, finding,
                             [f"results/{s}" for s in sources], table))
    (tmp / "index.html").write_text(page(out, runs, title, notes), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# the demo study

DEMO = {
    "seed": 20240601,
    "sweep": {"sweeps": ["stop_at=7..12"], "players": [2, 3, 4], "games": 3000},
    "rounds": {"players": [2, 3, 4], "rounds": 300_000,
               "last_chance_callers": "threshold(stop_at=7,last_chance_at=7)"},
    "tournament": {"policies": ["baseline", "gambler", "denier", "mermaid_hunter"],
                   "players": 4, "games": 3000},
}


def run_demo_results(where: Path, seed: int = DEMO["seed"], scale: float = 1.0,
                     backend: Backend | None = None, log: Callable[[str], None] | None = None
                     ) -> list[Path]:
    """Run the demo study on `backend` (analyzer.runs.spec.Backend; None: Backend()) and write
    its result files into `where`; return their paths. `scale` shrinks the sample sizes (tests
    use a small one)."""
    from .simulate import simulate_rounds
    from .sweep import sweep
    from ..render.tidy_frames import ROUNDS_TABLES
    from .tournament import tournament

    def n(x):
        return max(50, int(x * scale))

    files = []
    say = log or (lambda s: None)
    s = DEMO["sweep"]
    say(f"sweep {s['sweeps'][0]} for {s['players']} players, {n(s['games']):,} games per point")
    df = sweep(s["sweeps"], players=s["players"], games=n(s["games"]), seed=seed,
               backend=backend)
    files.append(write_frame(df, where / "sweep-stop_at.csv"))
    r = DEMO["rounds"]
    for p in r["players"]:
        say(f"{n(r['rounds']):,} rounds with {p} players")
        # LAST CHANCE from 7 points (the baseline never calls below 10), then baseline rounds
        lc = simulate_rounds(p, n(r["rounds"]), [r["last_chance_callers"]], seed=seed + p,
                             backend=backend)
        files.append(write_frame(ROUNDS_TABLES["last-chance"](lc),
                                 where / f"last-chance-{p}p.csv"))
        res = simulate_rounds(p, n(r["rounds"]), ["baseline"], seed=seed + p, backend=backend)
        for table in ("mermaids", "turns", "declarer-points"):
            files.append(write_frame(ROUNDS_TABLES[table](res), where / f"{table}-{p}p.csv"))
    t = DEMO["tournament"]
    say(f"tournament of {', '.join(t['policies'])}, {n(t['games']):,} games")
    df = tournament(t["policies"], players=t["players"], games=n(t["games"]), seed=seed,
                    backend=backend)
    files.append(write_frame(df, where / "tournament.csv"))
    return files


def demo(out: str | os.PathLike, seed: int = DEMO["seed"], scale: float = 1.0,
         backend: Backend | None = None, log: Callable[[str], None] | None = None) -> Path:
    """Run the demo study (on `backend`; None: Backend()), save its results inside
    `out`/results and build the report there."""
    check_dest(out)
    work = Path(tempfile.mkdtemp(prefix="seasalt-demo-"))     # its files are copied into DIR
    try:
        files = run_demo_results(work, seed, scale, backend, log)
        notes = [f"Demo study (seed {seed}): a baseline seat sweeping stop_at 7..12 against "
                 f"baseline opponents; baseline rounds for 2, 3 and 4 players (LAST CHANCE: "
                 f"rounds in which every seat calls it from 7 points, "
                 f"{DEMO['rounds']['last_chance_callers']}); a 4-player tournament. "
                 f"Regenerate with: seasalt report --demo --out DIR"]
        return build_report(files, out, title="seasalt demo report", notes=notes, log=log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
