"""Seastead components files under hostile edits (issue 28 items 5, 6, 7 and the components
file): a link to /dev/zero or a huge file is refused without reading it all, a 5000-digit number
or deep nesting is one `error:` line, 10**6 malformed entries print at most MAX_PROBLEMS + 1
lines, and 24 more malformed files: each exit 2, only `error:` lines, no traceback, nothing
outside the run's folder touched."""
from __future__ import annotations

import copy
import json
import os

import pytest

from analyzer.seastead.components import MAX_PROBLEMS, illustrative_text, load
from hostile import cli, guarded

GOOD = load().data


def errors(p, *words, most: int = MAX_PROBLEMS + 1) -> list[str]:
    """Exit 2, nothing on stdout, 1..most stderr lines all `error: `, no traceback."""
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stderr[-2000:])
    assert "Traceback" not in p.stderr and 1 <= len(lines) <= most, p.stderr[-2000:]
    assert all(x.startswith("error: ") for x in lines), p.stderr[-2000:]
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines


@pytest.fixture
def place(tmp_path):
    with guarded(tmp_path) as run:
        yield run


def check(run, path):
    return cli("seastead", "components", "--components", path, cwd=run)


# --- item 5 ----------------------------------------------------------------------------------

def test_a_components_file_linked_to_dev_zero_is_refused(place):
    os.symlink("/dev/zero", place / "c.json")
    errors(check(place, place / "c.json"), "not a regular file", most=1)


def test_a_huge_components_file_is_refused_unread(place):
    path = place / "c.json"
    with open(path, "wb") as f:
        f.truncate(8 << 30)                      # 8 GiB, sparse: reading it all would not end well
    errors(check(place, path), "over 4 MiB", most=1)


# --- item 6 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix, text", [
    (".json", '{"meta": {"name": ' + "9" * 5000 + "}}"),
    (".toml", "[meta]\nname = " + "9" * 5000 + "\n"),
    (".json", "[" * 100_000 + "]" * 100_000),
    (".toml", "a = " + "[" * 100_000 + "]" * 100_000 + "\n"),
])
def test_a_5000_digit_number_or_deep_nesting_is_one_line(place, suffix, text):
    path = place / f"c{suffix}"
    path.write_text(text)
    line, = errors(check(place, path), "not valid", most=1)
    assert len(line) < 300, line


# --- item 7 ----------------------------------------------------------------------------------

def test_a_million_malformed_entries_print_a_few_lines(place):
    data = copy.deepcopy(GOOD)
    data["dock"] = [{}] * 1_000_000             # each missing every field: millions of problems
    path = place / "c.json"
    path.write_text(json.dumps(data, separators=(",", ":")))
    lines = errors(check(place, path))
    assert len(lines) == MAX_PROBLEMS + 1 and "more problems" in lines[-1], lines[-1]


# --- 24 malformed files ----------------------------------------------------------------------

def _data(**change):
    d = copy.deepcopy(GOOD)
    for k, v in change.items():
        d[k] = v
    return json.dumps(d)


def _nested(path: list, value):
    d = copy.deepcopy(GOOD)
    x = d
    for k in path[:-1]:
        x = x[k]
    x[path[-1]] = value
    return json.dumps(d)


TOML = illustrative_text()
MALFORMED = {
    "empty json": (".json", ""),
    "empty toml": (".toml", ""),
    "not json": (".json", "{"),
    "not toml": (".toml", "[meta\nname = 1"),
    "a json list": (".json", "[1, 2]"),
    "a json string": (".json", '"x"'),
    "null": (".json", "null"),
    "invalid utf-8": (".toml", "name = '\udcff'"),
    "nul bytes": (".json", "\x00" * 50),
    "NaN": (".json", _data(meta={"name": float("nan"), "invented": True})),
    "1e999": (".json", _data(setup={"dock_display": 1e999})),
    "huge in range check": (".json", _nested(["setup", "dock_display"], 10 ** 4000)),
    "meta a list": (".json", _data(meta=[1])),
    "dive a dict": (".json", _data(dive={"a": 1})),
    "dive of numbers": (".json", _data(dive=[1] * 20)),
    "flotilla strings": (".json", _data(flotilla=["x"] * 4)),
    "dock nulls": (".json", _data(dock=[None] * 12)),
    "specialist effects a number": (".json", _nested(["specialist", 0, "effects"], 7)),
    "specialist effects of lists": (".json", _nested(["specialist", 0, "effects"], [[1]])),
    "an effect of junk": (".json", _nested(["specialist", 0, "effects"], ["summon kraken"])),
    "a dict as an enum": (".json", _nested(["dock", 0, "resource"], {"a": 1})),
    "a bool as a number": (".json", _nested(["setup", "dock_display"], True)),
    "unknown top key": (".json", _data(kraken=1)),
    "a long string": (".json", _nested(["dock", 0, "resource"], "x" * 100_000)),
    "toml duplicate key": (".toml", TOML + "\n[meta]\nname = 'again'\n"),
    "toml wrong type": (".toml", TOML.replace("[meta]", "meta = 3\n[meta2]", 1)),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_components_are_error_lines(place, case):
    suffix, text = MALFORMED[case]
    path = place / f"c{suffix}"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    lines = errors(check(place, path))
    assert all(len(x) < 400 for x in lines), lines
    assert sorted(os.listdir(place)) == [f"c{suffix}"]
