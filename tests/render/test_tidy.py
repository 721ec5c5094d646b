"""The pandas layer: metadata on every row, --out by extension with round trips through CSV and
JSON, atomic writes (nothing half-written), and the `error:` line for bad paths."""
from __future__ import annotations

import json
import os

import pandas as pd
import pytest

from analyzer import __version__
from analyzer.base.errors import SeasaltError
from analyzer.studies.simulate import simulate_games, simulate_rounds
from analyzer.render.tidy_frames import (check_out, frame, games_frame, read_frame, rounds_frame, split_specs,
                           write_frame)

BASELINE = "baseline(stop_at=7,last_chance_at=10)"
S9 = "baseline(stop_at=9,last_chance_at=10)"


# The CLI helpers of test_cli.py: invoke `seasalt`, and check a one-line `error:` with exit 2.
from cli_helpers import assert_user_error, run  # noqa: E402


@pytest.fixture(scope="module")
def games():
    return simulate_games(3, 300, ["baseline", "baseline(stop_at=9)", "baseline"], seed=2 ** 64 - 1,
                          expansion="extra-salt", target=30)


def test_games_frame_rows_and_metadata(games):
    df = games_frame(games)
    assert list(df["seat"]) == [0, 1, 2] and list(df["spec"]) == [BASELINE, S9, BASELINE]
    assert list(df["wins"]) == games["wins"]
    assert (df["seed"] == 2 ** 64 - 1).all() and (df["players"] == 3).all()
    assert (df["expansion"] == "extra-salt").all() and (df["target"] == 30).all()
    assert (df["games"] == 300).all() and (df["version"] == __version__).all()
    assert split_specs(df["policies"].iloc[0]) == [BASELINE, S9, BASELINE]
    assert (df["win_rate_lo"] <= df["win_rate"]).all() and (df["win_rate"] <= df["win_rate_hi"]).all()
    assert "timing" not in df.columns and "seconds" not in df.columns


def test_rounds_frame_rows_and_metadata():
    r = simulate_rounds(2, 5000, ["baseline"], seed=4)
    df = rounds_frame(r)
    assert len(df) == 2 and (df["rounds"] == 5000).all() and (df["seed"] == 4).all()
    rates = [c for c in df.columns if c.startswith("end_") and c.endswith("_rate")]
    assert sum(df[c].iloc[0] for c in rates) == pytest.approx(1.0)


def test_frame_rejects_metadata_clashing_with_data():
    with pytest.raises(ValueError):
        frame([{"seed": 1}], {"seed": 2})


@pytest.mark.parametrize("ext", [".csv", ".json"])
def test_round_trip(tmp_path, games, ext):
    df = games_frame(games)
    path = tmp_path / f"games{ext}"
    write_frame(df, path)
    back = read_frame(path)
    assert list(back.columns) == list(df.columns)
    pd.testing.assert_frame_equal(back, df, check_dtype=False)
    assert int(back["seed"].iloc[0]) == 2 ** 64 - 1          # the full 64-bit seed survives
    assert [p.name for p in tmp_path.iterdir()] == [path.name]   # no temporary left behind


def test_json_is_a_list_of_strict_records(tmp_path, games):
    path = tmp_path / "g.json"
    write_frame(games_frame(games), path)
    rows = json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"not strict: {c}"))
    assert isinstance(rows, list) and len(rows) == 3 and rows[1]["spec"] == S9


def test_parquet_needs_an_engine(tmp_path, games):
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        with pytest.raises(SeasaltError, match="pyarrow"):
            write_frame(games_frame(games), tmp_path / "g.parquet")
        assert list(tmp_path.iterdir()) == []
    else:
        write_frame(games_frame(games), tmp_path / "g.parquet")
        pd.testing.assert_frame_equal(read_frame(tmp_path / "g.parquet"), games_frame(games),
                                      check_dtype=False)


@pytest.mark.parametrize("name, words", [
    ("g.xlsx", ["unknown file type", ".xlsx", ".csv"]),
    ("noext", ["unknown file type"]),
    ("missing/g.csv", ["does not exist"]),
])
def test_check_out_errors(tmp_path, name, words):
    with pytest.raises(SeasaltError) as e:
        check_out(tmp_path / name)
    for w in words:
        assert w in str(e.value)


def test_a_directory_is_not_a_file(tmp_path):
    (tmp_path / "d.csv").mkdir()
    with pytest.raises(SeasaltError, match="directory"):
        check_out(tmp_path / "d.csv")


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_unwritable_directory(tmp_path):
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(SeasaltError, match="not writable"):
            check_out(locked / "g.csv")
    finally:
        locked.chmod(0o700)


def test_a_failed_write_leaves_nothing_half_written(tmp_path, games, monkeypatch):
    path = tmp_path / "g.csv"
    path.write_text("previous contents\n")

    def broken(self, f, **kw):
        f.write("seat,spec\n0,half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", broken)
    with pytest.raises(SeasaltError, match="No space left"):
        write_frame(games_frame(games), path)
    assert path.read_text() == "previous contents\n"          # the old file is untouched
    assert [p.name for p in tmp_path.iterdir()] == ["g.csv"]   # and no temporary is left


def test_written_file_gets_normal_permissions(tmp_path, games):
    path = tmp_path / "g.csv"
    write_frame(games_frame(games), path)
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


# --- CLI --out ----------------------------------------------------------------------------------

def test_cli_simulate_out_round_trips(tmp_path):
    path = tmp_path / "sim.csv"
    r = run("simulate", "-p", "2", "--games", "200", "--seed", "6", "--out", str(path))
    assert r.exit_code == 0 and "wrote 2 rows" in r.stderr
    df = read_frame(path)
    assert list(df["seat"]) == [0, 1] and (df["seed"] == 6).all() and (df["games"] == 200).all()
    assert (df["version"] == __version__).all() and (df["command"] == "simulate-games").all()
    d = json.loads(run("simulate", "-p", "2", "--games", "200", "--seed", "6", "--json").stdout)
    assert list(df["wins"]) == d["wins"]


@pytest.mark.parametrize("ext", [".csv", ".json"])
def test_cli_tournament_and_sweep_out(tmp_path, ext):
    t = tmp_path / f"t{ext}"
    s = tmp_path / f"s{ext}"
    rt = run("tournament", "--policy", "baseline", "--policy", "baseline(stop_at=9)", "--games",
             "200", "--seed", "1", "--out", str(t), "--json")
    rs = run("sweep", "--sweep", "stop_at=7,9", "--players", "2,3", "--games", "120", "--seed", "1",
             "--out", str(s), "--json")
    assert rt.exit_code == rs.exit_code == 0
    for path, result, n in ((t, rt, 2), (s, rs, 4)):
        df = read_frame(path)
        rows = json.loads(result.stdout)["rows"]
        assert len(df) == len(rows) == n
        for key in ("seed", "version", "expansion", "command", "wins", "win_rate"):
            assert list(df[key]) == [row[key] for row in rows], key
        assert (df["seed"] == 1).all()


def test_cli_replay_out(tmp_path):
    path = tmp_path / "events.json"
    r = run("replay", "--seed", "3", "--players", "2", "--out", str(path))
    assert r.exit_code == 0
    df = read_frame(path)
    assert (df["seed"] == 3).all() and (df["command"] == "replay").all()
    assert (df["event"] == "round_end").sum() == df["round"].max()


@pytest.mark.parametrize("command", [
    ["simulate", "-p", "2", "--games", "50"],
    ["tournament", "--policy", "baseline", "--policy", "baseline", "--games", "50"],
    ["sweep", "--sweep", "stop_at=7", "--games", "50", "--players", "2"],
    ["replay", "--seed", "1", "--players", "2"],
])
@pytest.mark.parametrize("out, words", [
    ("x.txt", ["unknown file type"]),
    ("nowhere/x.csv", ["does not exist"]),
])
def test_cli_bad_out_exits_2_and_writes_nothing(tmp_path, command, out, words):
    r = run(*command, "--out", str(tmp_path / out))
    assert_user_error(r, *words)
    assert list(tmp_path.iterdir()) == []
