"""Seeded mutations of a position file (`seasalt advise`) and of a sweep CSV (`seasalt report`):
whatever a hostile or careless hand does to them, the answer is a result or one `error:` line
with exit status 2, never a traceback (issue 18). 300 position and 200 CSV mutations."""
from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.play.position_template import EXAMPLE

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = [EXAMPLE] + [json.loads(p.read_text()) for p in
                         sorted((ROOT / "tests" / "fixtures" / "positions").glob("*.json"))]
VALUES = [None, True, False, 0, 1, -1, 7, 2 ** 70, 1.5, float("inf"), "", " ", "x", "crab:black",
          "mermaid", "mermaid," * 30, "shell:mauve", "Shoal of Fish", "extra-salt", "base", [],
          {}, [1, 2], ["crab:black", 5], {"size": 3}, {"cards": "crab:black"}, "A", 10 ** 6,
          "dark_blue", [[[[[]]]]]]


def _paths(obj, path=()):
    """Every place in a JSON tree, as a key path."""
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


def _mutate_tree(obj, rng: random.Random):
    obj = copy.deepcopy(obj)
    paths = [p for p in _paths(obj) if p]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        parent = obj
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        op = rng.random()
        if op < 0.2 and isinstance(parent, dict):
            del parent[key]
            paths = [p for p in _paths(obj) if p]
        elif op < 0.3 and isinstance(parent, dict):
            parent[rng.choice(["extra", "Seat", "cardz", key + "_"])] = rng.choice(VALUES)
        elif op < 0.4 and isinstance(parent, list):
            parent.append(copy.deepcopy(rng.choice(parent)) if parent else rng.choice(VALUES))
        else:
            parent[key] = copy.deepcopy(rng.choice(VALUES))
        paths = [p for p in _paths(obj) if p]
    return obj


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    op = rng.random()
    i = rng.randrange(len(data))
    if op < 0.3:
        return data[:i]                                            # truncated
    if op < 0.55:
        return data[:i] + bytes([rng.choice([0xff, 0xe9, 0x00, 0x7b, 0x5b, 0x22])]) + data[i:]
    if op < 0.75:
        return data[:i] + data[i + rng.randint(1, 20):]             # a piece cut out
    if op < 0.9:
        return b"[" * rng.choice([10, 3000, 100_000]) + data
    return data.replace(b"2", b"9" * rng.choice([3, 50, 5000]), 1)  # long numbers


def _check(r, what: str) -> None:
    assert r.exception is None or isinstance(r.exception, SystemExit), \
        f"{what}: {type(r.exception).__name__}: {r.exception}"
    assert r.exit_code in (0, 2), (what, r.exit_code, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, (what, r.stderr[-2000:])
    if r.exit_code == 2:
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (what, r.stderr)
        assert len(lines[0]) < 2000, what


@pytest.mark.parametrize("chunk", range(3))
def test_mutated_positions_never_crash(tmp_path, chunk):
    runner = CliRunner()
    f = tmp_path / "pos.json"
    results = set()
    for i in range(100 * chunk, 100 * chunk + 100):
        rng = random.Random(i)
        base = POSITIONS[i % len(POSITIONS)]
        if rng.random() < 0.7:
            f.write_text(json.dumps(_mutate_tree(base, rng)))
        else:
            f.write_bytes(_mutate_bytes(json.dumps(base, indent=1).encode(), rng))
        r = runner.invoke(main, ["advise", str(f), "--samples", "20", "--seed", "1",
                                 "--no-play-on"])
        _check(r, f"mutation {i}: {f.read_bytes()[:300]!r}")
        results.add(r.exit_code)
    assert results == {0, 2} or chunk > 0       # the mutations reach both outcomes


NUMBER_CELLS = ["", "nan", "inf", "-inf", "1e400", "-1", "0", "2.5", "1e12", "abc", "$x$", " "]
TEXT_CELLS = ["", " ", "nan", "1e400", "$x^$", "$stop_at$", "\\", "'", '"', "abc", "baseline",
              "stop_at", "sweep", "tournament", "x" * 300]


@pytest.fixture(scope="module")
def sweep_csv(tmp_path_factory) -> pd.DataFrame:
    d = tmp_path_factory.mktemp("sweep")
    r = CliRunner().invoke(main, ["sweep", "--sweep", "stop_at=7..9", "--players", "2,3",
                                  "--games", "300", "--seed", "1", "--out", str(d / "s.csv")])
    assert r.exit_code == 0, r.stderr
    return pd.read_csv(d / "s.csv")


# the columns `report` reads (most mutations go there; the others are only carried along), the
# counts among them first
COUNTS = ["players", "games", "stop_at", "seed"]
READ = COUNTS + ["command", "version", "swept", "win_rate", "win_rate_lo", "win_rate_hi",
                 "fair_share", "void_rate", "void_rate_lo", "void_rate_hi", "spec", "policy",
                 "field", "expansion", "target"]


def _mutate_frame(df: pd.DataFrame, rng: random.Random) -> bytes:
    df = df.copy().astype(object)
    op = rng.random()
    if op < 0.6:                        # mostly one cell, so that one bad value is all there is
        for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3)):
            r = rng.random()
            col = rng.choice(COUNTS if r < 0.3 else READ if r < 0.85 else list(df.columns))
            numeric = pd.api.types.is_numeric_dtype(pd.to_numeric(df[col], errors="coerce"))
            cells = NUMBER_CELLS if numeric and df[col].notna().any() else TEXT_CELLS
            df.loc[df.index[rng.randrange(len(df))], col] = rng.choice(cells)
    elif op < 0.7:
        df = df.drop(columns=rng.choice(READ))
    elif op < 0.75:
        df = df.iloc[:0]
    elif op < 0.85:
        df = df.rename(columns={rng.choice(READ): rng.choice(TEXT_CELLS) or "x"})
    else:
        buf = io.StringIO()
        df.to_csv(buf, index=False)
        return _mutate_bytes(buf.getvalue().encode(), rng)
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    return buf.getvalue().encode()


RENDERED = 8        # per chunk: reports drawn in full; later ones build every chart but skip the
                    # pixels (a second each on a busy machine), so the test stays under a minute


@pytest.mark.parametrize("chunk", range(2))
def test_mutated_sweep_csvs_never_crash(tmp_path, sweep_csv, chunk, monkeypatch):
    runner = CliRunner()
    f = tmp_path / "sweep.csv"
    seen: set[bytes] = set()
    codes = set()
    drawn = 0
    for i in range(100 * chunk, 100 * chunk + 100):
        data = _mutate_frame(sweep_csv, random.Random(1000 + i))
        if data in seen:
            continue
        seen.add(data)
        f.write_bytes(data)
        r = runner.invoke(main, ["report", str(f), "--out", str(tmp_path / f"rep{i}")])
        _check(r, f"mutation {i}: {data[:400]!r}")
        codes.add(r.exit_code)
        drawn += r.exit_code == 0
        if drawn == RENDERED:
            from matplotlib.figure import Figure
            monkeypatch.setattr(Figure, "savefig", lambda self, fname, **kw: open(fname, "wb").close())
    assert len(seen) > 80 and codes == {0, 2} and drawn >= RENDERED
