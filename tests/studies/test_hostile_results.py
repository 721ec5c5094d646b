"""`seasalt report` on hostile results files, CSV and parquet (issue 28 item 7 and the results
file): an inverted interval, or an estimate outside its interval, is refused naming the columns
and the row; then more malformed files, 26 in all: exit 2, one `error:` line, no traceback, no
report folder made, nothing outside the run's folder touched."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from analyzer.studies.report import run_demo_results
from analyzer.runs.spec import Backend
from hostile import cli, guarded, one_line


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("results")
    return {p.name: p for p in run_demo_results(d, seed=5, scale=0.02, backend=Backend(jobs=1))}


@pytest.fixture
def place(tmp_path):
    with guarded(tmp_path) as run:
        yield run
        assert not (run / "rep").exists()


def report(run: Path, path: Path):
    return cli("report", path, "--out", run / "rep", cwd=run)


def _cells(results, name: str, run: Path, **cells) -> Path:
    df = pd.read_csv(results[name])
    for col, value in cells.items():
        df[col] = df[col].astype(object)
        df.loc[1, col] = value
    out = run / name
    df.to_csv(out, index=False)
    return out


# --- item 7: intervals -----------------------------------------------------------------------

def test_an_inverted_interval_is_refused(place, results):
    df = pd.read_csv(results["sweep-stop_at.csv"])
    lo, hi = df.loc[1, "win_rate_lo"], df.loc[1, "win_rate_hi"]
    path = _cells(results, "sweep-stop_at.csv", place, win_rate_lo=hi, win_rate_hi=lo)
    line = one_line(report(place, path), "win_rate_lo/win_rate_hi", "row 3", "inverted")
    assert path.name in line


def test_an_estimate_outside_its_interval_is_refused(place, results):
    path = _cells(results, "tournament.csv", place, win_rate=0.99, win_rate_hi=0.5,
                  win_rate_lo=0.1)
    one_line(report(place, path), "win_rate_lo/win_rate_hi", "row 3", "does not hold win_rate")


IMPOSSIBLE = {
    # the file: an estimate its interval holds, all three impossible for a rate
    "win rate 5 in [-3, 1e300]": ("sweep-stop_at.csv",
                                  {"win_rate": 5, "win_rate_lo": -3, "win_rate_hi": 1e300},
                                  "win_rate", "not a rate between 0 and 1"),
    "interval end -3": ("tournament.csv", {"win_rate_lo": -3}, "win_rate_lo", "interval end"),
    "interval end 1e300": ("sweep-stop_at.csv", {"void_rate_hi": 1e300}, "void_rate_hi",
                           "interval end"),
    "success 1.5": ("last-chance-2p.csv", {"success": 1.5, "success_hi": 1.6}, "success",
                    "not a rate"),
    "fair share 2": ("tournament.csv", {"fair_share": 2}, "fair_share", "not a rate"),
}


@pytest.mark.parametrize("case", list(IMPOSSIBLE))
def test_a_value_no_run_can_write_is_refused_naming_its_column(place, results, case):
    """Rates and shares lie in 0..1, and so does a rate's Wilson interval: such a file was drawn
    (a win rate of 500% in [-300%, 1e302%]) with matplotlib's layout warnings on stderr."""
    name, cells, column, words = IMPOSSIBLE[case]
    path = _cells(results, name, place, **cells)
    p = report(place, path)
    line = one_line(p, name, f"malformed column {column}: row 3", words)
    assert "Warning" not in p.stderr, line


def test_untouched_results_still_draw(tmp_path, results):
    p = cli("report", results["tournament.csv"], results["last-chance-2p.csv"], "--out",
            tmp_path / "rep")
    assert p.returncode == 0, p.stderr


# --- malformed files -------------------------------------------------------------------------

CSV_CELLS = {
    "interval swapped in last-chance": ("last-chance-2p.csv",
                                        {"success_rate_lo": 0.99, "success_rate_hi": 0.01}),
    "players five": ("sweep-stop_at.csv", {"players": "five"}),
    "players 7": ("sweep-stop_at.csv", {"players": 7}),
    "games negative": ("sweep-stop_at.csv", {"games": -3}),
    "games 1e400": ("sweep-stop_at.csv", {"games": "1e400"}),
    "games 5000 digits": ("sweep-stop_at.csv", {"games": "9" * 5000}),
    "win_rate text": ("tournament.csv", {"win_rate": "lots"}),
    "win_rate inf": ("tournament.csv", {"win_rate": "inf"}),
    "two commands": ("tournament.csv", {"command": "sweep"}),
    "spec empty": ("tournament.csv", {"spec": " "}),
    "swept value text": ("sweep-stop_at.csv", {"stop_at": "=cmd|' /C calc'!A0"}),
}


@pytest.mark.parametrize("case", list(CSV_CELLS))
def test_malformed_cells(place, results, case):
    name, cells = CSV_CELLS[case]
    if case == "interval swapped in last-chance" and "success_rate_lo" not in \
            pd.read_csv(results[name]).columns:
        cols = [c for c in pd.read_csv(results[name]).columns if c.endswith("_lo")]
        cells = {cols[0]: 0.99, cols[0][:-3] + "_hi": 0.01}
    path = _cells(results, name, place, **cells)
    one_line(report(place, path), name)


RAW = {
    "empty.csv": b"",
    "header-only.csv": b"command,seed,version\n",
    "binary.csv": bytes(range(256)) * 4,
    "latin1.csv": "command,seed\nsweep,\xe9\n".encode("latin-1"),
    "json.csv": b'{"command": "sweep"}',
    "no-command.csv": b"seed,version\n1,0.1.0\n",
    "unknown-command.csv": b"command,seed,version\nkraken,1,0.1.0\n",
    "seastead.csv": b"command,seed,version\nseastead-simulate,1,0.1.0\n",
    "replay.csv": b"command,seed,version\nreplay,1,0.1.0\n",
    "ragged.csv": b"command,seed,version\nsweep,1\n,,,,,,\n",
    "nul.csv": b"\x00" * 1000,
    "garbage.parquet": b"PAR1 not really",
    "empty.parquet": b"",
    "notes.xlsx": b"PK\x03\x04",
}


@pytest.mark.parametrize("name", list(RAW))
def test_malformed_files(place, name):
    path = place / name
    path.write_bytes(RAW[name])
    one_line(report(place, path), name)


def test_a_directory_or_a_link_to_dev_zero(place):
    """Each named for what it is (a link to /dev/zero was "no such file"), never read."""
    (place / "dir.csv").mkdir()
    one_line(report(place, place / "dir.csv"), "dir.csv", "not a regular file")
    os.symlink("/dev/zero", place / "zero.csv")
    one_line(report(place, place / "zero.csv"), "zero.csv", "not a regular file")
    one_line(report(place, place / "gone.csv"), "gone.csv", "no such file")
    (place / "dir.csv").rmdir()
    (place / "zero.csv").unlink()


def test_a_results_file_over_the_limit_is_refused_unread(place):
    """A file larger than any results file (a sparse one here: no disk used) is refused by its
    size before pandas reads a byte of it."""
    huge = place / "huge.csv"
    with open(huge, "wb") as f:
        f.truncate(257 << 20)
    one_line(report(place, huge), "huge.csv", "over 256 MiB")
    huge.unlink()
