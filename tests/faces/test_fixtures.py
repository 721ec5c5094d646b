"""Outputs recorded before a refactor (scripts/record_fixtures.py) are reproduced exactly.

Counts must be equal; floats (means, intervals) equal to 1e-12 relative, so that a summary
computed in another order of operations still passes while any change of a counter fails. The
`version` entries are ignored: a release changes them and nothing else. Keys (and CSV columns)
that an output gained since it was recorded are allowed: new information is not a change of the
old.
"""
from __future__ import annotations

import csv
import io
import json
import math
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from record_fixtures import OUTPUTS, run  # noqa: E402

FIXTURES = json.loads(OUTPUTS.read_text())


def _same(a, b, path="") -> str | None:
    """None if a and b agree (see the module docstring), else where they first differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) - {"version"}):
            if k not in b:
                return f"{path}.{k}: missing"
            d = _same(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _same(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            if a == b or (math.isfinite(a) and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)):
                return None
        return f"{path}: {a!r} != {b!r}"
    return None if a == b else f"{path}: {a!r} != {b!r}"


def _csv_rows(text: str) -> list[dict]:
    rows = list(csv.DictReader(io.StringIO(text)))
    out = []
    for r in rows:
        r.pop("version", None)
        out.append({k: _number(v) for k, v in r.items()})
    return out


def _number(v: str):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_recorded_output_is_reproduced(name):
    entry = FIXTURES[name]
    got = run(entry["argv"])
    want = entry["output"]
    if isinstance(want, str):
        got, want = _csv_rows(got), _csv_rows(want)
    diff = _same(want, got, name)   # every recorded entry, unchanged
    assert diff is None, f"seasalt {' '.join(entry['argv'])}: {diff}"


def test_the_comparison_sees_a_changed_counter():
    """The comparison itself can fail: a counter off by one, a float off in the 6th digit."""
    out = FIXTURES["rounds-2p"]["output"]
    changed = json.loads(json.dumps(out))
    changed["end"]["stop"] += 1
    assert _same(out, changed) is not None
    changed = json.loads(json.dumps(out))
    changed["turns_mean"] *= 1 + 1e-6
    assert _same(out, changed) is not None
    changed = json.loads(json.dumps(out))
    del changed["end"]["void"]
    assert _same(out, changed) is not None
    assert _same(out, json.loads(json.dumps(out))) is None
